"""Headless batch battles: many games between agents, on all cores, reproducible.

Why a module: ``main.py simulate``, ``bench/ai_strength`` and GEM's point study all run
many games and need the same things — mirror games with sides swapped, one seed per
game derived from a base seed (so any game can be rerun alone), a progress bar with the
time left, Ctrl-C that keeps what finished, JSON lines per game, a summary with 95%
intervals, and a chart.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engine.agents import make
from engine.game import Game
from engine.scenario import load_scenario, new_game


@dataclass
class GameResult:
    game: int
    seed: int
    agents: dict[str, str]  # side -> agent name
    winner: str | None  # side
    winner_agent: str | None
    reason: str
    turns: int
    actions: int
    casualties: dict[str, int]  # side -> models removed
    seconds: float
    error: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


@dataclass
class Job:
    scenario: str
    game: int
    seed: int
    agents: tuple[str, str]
    swap: bool
    turn_limit: int = 0
    max_actions: int = 5000
    options: dict[str, Any] = field(default_factory=dict)


def play_one(job: Job) -> GameResult:
    """Play one game to the end (or the action cap) and report it."""
    t0 = time.perf_counter()
    scn = load_scenario(job.scenario)
    scn.seed = job.seed
    if job.turn_limit:
        scn.turn_limit = job.turn_limit
    game: Game = new_game(scn)
    sides = game.state.sides[:2]
    names = list(job.agents)
    if job.swap:
        names.reverse()
    agents = {
        s: make(n, seed=job.seed * 7 + i, **job.options.get(n, {}))
        for i, (s, n) in enumerate(zip(sides, names))
    }
    n = 0
    err = ""
    try:
        while (side := game.to_act()) is not None and n < job.max_actions:
            game.apply(agents[side].choose(game.clone(dice_seed=n, viewer=side), side))
            n += 1
    except Exception as e:  # a crash is a result to report, not a reason to lose the batch
        err = f"{type(e).__name__}: {e}"
    out = game.outcome()
    winner = out.winner if out else None
    removed = {
        s: sum(1 for m in game.state.models.values() if m.side == s and m.removed)
        for s in game.state.sides
    }
    return GameResult(
        game=job.game,
        seed=job.seed,
        agents={s: agents[s].name for s in sides},
        winner=winner,
        winner_agent=agents[winner].name if winner in agents else None,
        reason=out.reason if out else ("error" if err else "action cap"),
        turns=game.state.turn,
        actions=n,
        casualties=removed,
        seconds=round(time.perf_counter() - t0, 3),
        error=err,
    )


def jobs_for(
    scenario: str,
    games: int,
    agents: tuple[str, str],
    seed: int = 1,
    turn_limit: int = 0,
    options: dict[str, Any] | None = None,
) -> list[Job]:
    """Mirror games: every pair of consecutive games shares a seed with sides swapped."""
    return [
        Job(
            scenario,
            g,
            seed * 100_003 + g // 2,
            agents,
            swap=bool(g % 2),
            turn_limit=turn_limit,
            options=options or {},
        )
        for g in range(games)
    ]


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Progress:
    """A one-line progress bar with games per second and the time left (stderr)."""

    def __init__(
        self, total: int, stream: TextIO | None = None, width: int = 30, unit: str = "games"
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.t0 = time.perf_counter()
        self.done = 0

    def line(self) -> str:
        el = time.perf_counter() - self.t0
        rate = self.done / el if el > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        k = int(self.width * self.done / max(1, self.total))
        eta = "--:--" if math.isnan(left) else f"{int(left // 60)}:{int(left % 60):02d}"
        return (
            f"[{'#' * k}{'.' * (self.width - k)}] {self.done}/{self.total} {self.unit}, "
            f"{rate:.2f}/s, {eta} left"
        )

    def step(self, n: int = 1) -> None:
        self.done += n
        self.stream.write("\r" + self.line())
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def run_batch(
    jobs: Sequence[Job],
    processes: int = 2,
    on_result: Callable[[GameResult], None] | None = None,
    progress: Progress | None = None,
) -> tuple[list[GameResult], bool]:
    """Play the jobs on ``processes`` cores; returns (results, interrupted).

    Ctrl-C stops cleanly: workers ignore SIGINT, the pool is terminated, and every game
    that finished is kept.
    """
    results: list[GameResult] = []
    interrupted = False

    def take(r: GameResult) -> None:
        results.append(r)
        if on_result:
            on_result(r)
        if progress:
            progress.step()

    try:
        if processes <= 1:
            for j in jobs:
                take(play_one(j))
        else:
            ctx = mp.get_context("fork")
            with ctx.Pool(processes, initializer=_ignore_sigint) as pool:
                try:
                    for r in pool.imap_unordered(play_one, jobs, chunksize=1):
                        take(r)
                except KeyboardInterrupt:
                    pool.terminate()
                    raise
    except KeyboardInterrupt:
        interrupted = True
    if progress:
        progress.close()
    results.sort(key=lambda r: r.game)
    return results, interrupted


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(xs: Iterable[float], z: float = 1.96) -> tuple[float, float]:
    v = list(xs)
    if not v:
        return (0.0, 0.0)
    m = sum(v) / len(v)
    if len(v) < 2:
        return (m, 0.0)
    sd = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1))
    return (m, z * sd / math.sqrt(len(v)))


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Wins per agent (with 95% intervals), draws, mean turns and casualties."""
    n = len(results)
    names = sorted({a for r in results for a in r.agents.values()})
    out: dict[str, Any] = {"games": n, "agents": {}, "errors": sum(1 for r in results if r.error)}
    draws = sum(1 for r in results if r.winner_agent is None)
    for a in names:
        played = [r for r in results if a in r.agents.values()]
        wins = sum(1 for r in played if r.winner_agent == a)
        # models lost per side this agent commanded (a mirror match counts both sides)
        lost = [
            sum(c for s, c in r.casualties.items() if r.agents.get(s) == a)
            / sum(1 for s in r.agents if r.agents[s] == a)
            for r in played
        ]
        lo, hi = wilson(wins, len(played))
        out["agents"][a] = {
            "games": len(played),
            "wins": wins,
            "win_rate": wins / len(played) if played else 0.0,
            "ci95": [lo, hi],
            "mean_casualties": mean_ci(lost)[0],
        }
    out["draws"] = draws
    m, h = mean_ci(r.turns for r in results)
    out["mean_turns"] = m
    out["turns_ci95"] = h
    return out


def summary_table(s: dict[str, Any]) -> str:
    lines = [
        f"{'agent':10} {'games':>6} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'lost/game':>9}"
    ]
    for a, v in s["agents"].items():
        lo, hi = v["ci95"]
        lines.append(
            f"{a:10} {v['games']:6d} {v['wins']:6d} {v['win_rate']:9.1%} "
            f"{f'{lo:.1%} - {hi:.1%}':>17} {v['mean_casualties']:9.2f}"
        )
    lines.append(
        f"draws {s['draws']}; mean turns {s['mean_turns']:.2f} "
        f"(+/- {s['turns_ci95']:.2f}); errors {s['errors']}"
    )
    return "\n".join(lines)


def write_chart(path: str | Path, s: dict[str, Any], title: str) -> None:
    from engine.chart import bar_chart

    names = list(s["agents"])
    rates = [100 * s["agents"][a]["win_rate"] for a in names]
    errs = [(100 * s["agents"][a]["ci95"][0], 100 * s["agents"][a]["ci95"][1]) for a in names]
    if s["games"]:
        names.append("draws")
        rates.append(100 * s["draws"] / s["games"])
        errs.append((rates[-1], rates[-1]))
    bar_chart(path, title, names, rates, errs)


def simulate(
    scenario: str,
    games: int,
    jobs: int,
    agents: tuple[str, str],
    seed: int,
    out_dir: str | Path,
    turn_limit: int = 0,
    stream: TextIO | None = None,
) -> tuple[dict[str, Any], bool]:
    """The ``main.py simulate`` command's work; returns (summary, interrupted)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    jsonl = out / "games.jsonl"
    progress = Progress(games, stream)
    with jsonl.open("w", encoding="utf-8") as fh:

        def write(r: GameResult) -> None:
            fh.write(r.to_json() + "\n")
            fh.flush()

        results, interrupted = run_batch(
            jobs_for(scenario, games, agents, seed, turn_limit), jobs, write, progress
        )
    s = summarize(results)
    (out / "summary.json").write_text(json.dumps(s, indent=1), encoding="utf-8")
    if results:
        write_chart(out / "wins.png", s, f"{Path(scenario).stem}: {agents[0]} vs {agents[1]}")
    return s, interrupted
