"""The ``simulate`` command's work: a run folder, games streamed into it, a summary.

Why apart from :mod:`engine.sim`: ``sim`` plays and counts games for any caller (the
benchmarks too); this module owns what one command run leaves on disk — ``run.json``
(what was asked), ``games.jsonl`` (a line per game as it finishes), ``summary.json``
(with the ruleset, the scenario, the cluster's size and the rate), ``wins.png`` and
``luck.png`` — and how ``--resume`` finishes an interrupted run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import batch_files, charts
from engine.sim import GameResult, jobs_for, run_batch, summarize


@dataclass
class Request:
    """What ``simulate`` was asked to do (``run.json`` keeps it)."""

    scenario: str
    ruleset: str
    title: str
    games: int
    agents: tuple[str, str]
    seed: int = 1
    turn_limit: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "scenario": self.scenario,
            "ruleset": self.ruleset,
            "title": self.title,
            "games": self.games,
            "agents": list(self.agents),
            "seed": self.seed,
            "turn_limit": self.turn_limit,
        }


def simulate(
    req: Request,
    out: Path,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    force: bool = False,
    resume: bool = False,
    quiet: bool = False,
) -> tuple[dict[str, Any], bool]:
    """Play the request's games into ``out``; returns (summary, interrupted).

    Raises :class:`engine.batch_files.OutputError` when ``out`` holds another run (and
    neither ``force`` nor ``resume`` was given) or cannot be written safely, and
    :class:`engine.batch.ClusterError` when the cluster cannot be reached.
    """
    kept = batch_files.prepare(out, req.to_json(), force=force, resume=resume)
    done = {row["game"] for row in kept}
    jobs = [
        j
        for j in jobs_for(req.scenario, req.games, req.agents, req.seed, req.turn_limit)
        if j.game not in done
    ]
    t0 = time.perf_counter()
    with batch_files.append_games(out) as fh:

        def write(r: GameResult) -> None:
            fh.write(r.to_json() + "\n")
            fh.flush()

        played, interrupted = run_batch(
            jobs, workers, write, scheduler=scheduler, quiet=quiet, unit="game"
        )
    seconds = time.perf_counter() - t0
    results = sorted([GameResult.from_dict(row) for row in kept] + played, key=lambda r: r.game)
    s = summarize(results)
    s.update(
        {
            "ruleset": req.ruleset,
            "scenario": req.scenario,
            "title": req.title,
            "seed": req.seed,
            "turn_limit": req.turn_limit,
            "games_requested": req.games,
            "resumed_with": len(kept),
            "interrupted": interrupted,
            "cluster": scheduler or ("this process" if workers == 0 else "local"),
            "seconds": round(seconds, 3),
            "games_per_second": round(len(played) / seconds, 3) if seconds > 0 else 0.0,
        }
    )
    batch_files.write_json(out / "summary.json", s)
    if results:
        title = f"{req.title} ({req.ruleset}): {req.agents[0]} vs {req.agents[1]}"
        charts.win_rates(out / "wins.png", title, s)
        charts.luck(out / "luck.png", f"Luck per game: {title}", luck_points(results))
    return s, interrupted


def luck_points(results: list[GameResult]) -> dict[str, list[tuple[float, int]]]:
    """Per agent, one (expected hits, actual hits) point per side it played in a game."""
    out: dict[str, list[tuple[float, int]]] = {}
    for r in results:
        for side, agent in r.agents.items():
            if side in r.expected_hits:
                out.setdefault(agent, []).append((r.expected_hits[side], r.hits.get(side, 0)))
    return out
