"""Headless batch battles: many games between agents, on a Dask cluster, reproducible.

Why a module: ``main.py simulate``, ``bench/ai_strength`` and the benchmarks all run
many games and need the same things — mirror games with sides swapped, one seed per
game derived from the base seed and the game's index (so one core, a local cluster and
a remote one play the very same games, and any game can be rerun alone), results
written as they arrive, Ctrl+C that keeps what finished, a summary with 95% intervals,
and charts. The cluster and the progress bar are :mod:`engine.batch`'s, the output
folder :mod:`engine.batch_files`'s, the charts :mod:`engine.charts`'.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from engine.agents import make
from engine.agents.greedy import declined
from engine.batch import cluster, progress, stream
from engine.game import Game, Stepper
from engine.scenario import load_scenario, new_game

#: the project folder: scenario paths inside it travel as relative paths, so a worker
#: with the project installed elsewhere still finds them
ROOT = Path(__file__).resolve().parent.parent
#: attack outcomes that count in the luck tally: the event's chance is that of "hit"
ATTACK_OUTCOMES = ("hit", "miss")
#: an attack's third outcome (UMR: the attack beat the defence but a save stopped it),
#: counted only for a rule that also logged a hit or a miss in the game (``luck``)
SAVED = "saved"


@dataclass
class GameResult:
    """One game's line in games.jsonl: only what the seed decides (no timings), so the
    same run on any number of workers writes the same lines."""

    game: int
    seed: int
    agents: dict[str, str]  # side -> agent name
    winner: str | None  # side
    winner_agent: str | None
    reason: str
    turns: int
    actions: int
    casualties: dict[str, int]  # side -> models removed
    hits: dict[str, int] = field(default_factory=dict)  # side -> attacks that hit
    expected_hits: dict[str, float] = field(default_factory=dict)  # side -> sum of chances
    error: str = ""
    # side -> decisions taken, and attacks declined (greedy.declined; issue 20)
    decisions: dict[str, int] = field(default_factory=dict)
    declined: dict[str, int] = field(default_factory=dict)
    # side -> share of its strength lost as its ruleset's victory counts it
    # (``Ruleset.losses``: IA's wounded are lost though on the table)
    losses: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameResult:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


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


def portable(path: str | Path) -> str:
    """A scenario path a worker can open: relative to the project when inside it."""
    p = Path(path).resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        return str(p)


def luck(game: Game) -> tuple[dict[str, int], dict[str, float]]:
    """Per side, the attacks that hit and the hits expected from each attack's exact
    chance as the log recorded it before the dice fell (every ruleset logs an attack as
    a resolution whose outcome is hit or miss, with the chance of a hit).

    "saved" is an attack's outcome in UMR (the attack die beat the defence, a six on
    defence saved it; the chance logged is still the hit's), but the outcome of a
    *save roll* in Inter Arma ("saved", "wounded" or "dead", whose chance is the
    save's, after the hit was logged on its own). A "saved" counts as an attack only
    for a rule that logged a hit or a miss in the same game: UMR's attack rules do, the
    save rules never do. (A UMR rule whose every attack in a game was saved is missed:
    a small undercount, not a count of saves as misses.)"""
    side_of = {m.unit: m.side for m in game.state.models.values()}
    side_of.update({m.id: m.side for m in game.state.models.values()})
    hits = {s: 0 for s in game.state.sides}
    expected = {s: 0.0 for s in game.state.sides}
    rolls = [e for e in game.log.events if e.kind == "resolution" and e.chance is not None]
    attack_rules = {e.rule for e in rolls if e.outcome in ATTACK_OUTCOMES}
    for e in rolls:
        side = side_of.get(e.actor)
        if side not in hits or e.chance is None:
            continue
        if e.outcome in ATTACK_OUTCOMES or (e.outcome == SAVED and e.rule in attack_rules):
            hits[side] += e.outcome == "hit"
            expected[side] += e.chance
    return hits, {s: round(v, 6) for s, v in expected.items()}


def play_one(job: Job) -> GameResult:
    """Play one game to the end (or the action cap) and report it."""
    path = Path(job.scenario)
    scn = load_scenario(path if path.is_absolute() else ROOT / path, display=job.scenario)
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
    loop = Stepper(game, job.max_actions)
    err = ""
    decisions = dict.fromkeys(sides, 0)
    passed = dict.fromkeys(sides, 0)
    try:
        while (side := loop.side()) is not None:
            view = loop.view(side)
            action = agents[side].choose(view, side)
            decisions[side] = decisions.get(side, 0) + 1
            if declined(view, side, action, list(getattr(agents[side], "last", None) or [])):
                passed[side] = passed.get(side, 0) + 1
            loop.commit(action)
    except Exception as e:  # a crash is a result to report, not a reason to lose the batch
        err = f"{type(e).__name__}: {e}"
    out = game.outcome()
    winner = out.winner if out else None
    removed = {
        s: sum(1 for m in game.state.models.values() if m.side == s and m.removed)
        for s in game.state.sides
    }
    hits, expected = luck(game)
    return GameResult(
        game=job.game,
        seed=job.seed,
        agents={s: agents[s].name for s in sides},
        winner=winner,
        winner_agent=agents[winner].name if winner in agents else None,
        reason=out.reason if out else ("error" if err else "action cap"),
        turns=game.state.turn,
        actions=loop.n,
        casualties=removed,
        hits=hits,
        expected_hits=expected,
        error=err,
        decisions=decisions,
        declined=passed,
        losses={s: round(game.ruleset.losses(game.state, s), 6) for s in game.state.sides},
    )


def jobs_for(
    scenario: str,
    games: int,
    agents: tuple[str, str],
    seed: int = 1,
    turn_limit: int = 0,
    options: dict[str, Any] | None = None,
) -> list[Job]:
    """Mirror games: every pair of consecutive games shares a seed with sides swapped.
    A game's seed is a function of the base seed and its index alone."""
    where = portable(scenario)
    return [
        Job(
            where,
            g,
            seed * 100_003 + g // 2,
            agents,
            swap=bool(g % 2),
            turn_limit=turn_limit,
            options=options or {},
        )
        for g in range(games)
    ]


def run_batch(
    jobs: Sequence[Job],
    workers: int | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    *,
    scheduler: str | None = None,
    quiet: bool = True,
    unit: str = "game",
) -> tuple[list[GameResult], bool]:
    """Play the jobs on a cluster (see :func:`engine.batch.cluster`: ``workers=0`` plays
    in this process); returns (results in game order, interrupted).

    Ctrl+C stops cleanly: the tasks in flight are cancelled, the cluster is closed, and
    every game that finished is kept (and was already handed to ``on_result``).
    """
    results: list[GameResult] = []
    interrupted = False
    with progress(len(jobs), unit, quiet) as bar:
        try:
            with cluster(scheduler, workers) as client:
                for r in stream(client, play_one, jobs):
                    results.append(r)
                    if on_result:
                        on_result(r)
                    bar.update()
        except KeyboardInterrupt:
            interrupted = True
    results.sort(key=lambda r: r.game)
    return results, interrupted


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
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


def _agent_stats(results: Sequence[GameResult], a: str) -> dict[str, Any]:
    played = [r for r in results if a in r.agents.values()]
    wins = sum(1 for r in played if r.winner_agent == a)
    # models lost per side this agent commanded (a mirror match counts both sides)
    lost = [
        sum(c for s, c in r.casualties.items() if r.agents.get(s) == a)
        / sum(1 for s in r.agents if r.agents[s] == a)
        for r in played
    ]
    mine = [(r, s) for r in played for s in r.agents if r.agents[s] == a]
    hits = sum(r.hits.get(s, 0) for r, s in mine)
    expected = sum(r.expected_hits.get(s, 0.0) for r, s in mine)
    lo, hi = wilson(wins, len(played))
    return {
        "games": len(played),
        "wins": wins,
        "win_rate": wins / len(played) if played else 0.0,
        "ci95": [lo, hi],
        "mean_casualties": mean_ci(lost)[0],
        "hits": hits,
        "expected_hits": round(expected, 3),
    }


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Wins per agent (with 95% intervals), draws, mean turns, casualties and hits."""
    n = len(results)
    names = sorted({a for r in results for a in r.agents.values()})
    draws = sum(1 for r in results if r.winner_agent is None)
    m, h = mean_ci(r.turns for r in results)
    return {
        "games": n,
        "agents": {a: _agent_stats(results, a) for a in names},
        "errors": sum(1 for r in results if r.error),
        "draws": draws,
        "draws_ci95": list(wilson(draws, n)),
        "mean_turns": m,
        "turns_ci95": h,
    }


def summary_table(s: dict[str, Any]) -> str:
    lines = [
        f"{'agent':10} {'games':>6} {'wins':>6} {'win rate':>9} {'95% interval':>17} "
        f"{'lost/game':>9} {'hits/expected':>14}"
    ]
    for a, v in s["agents"].items():
        lo, hi = v["ci95"]
        luck = f"{v['hits']}/{v['expected_hits']:.1f}"
        lines.append(
            f"{a:10} {v['games']:6d} {v['wins']:6d} {v['win_rate']:9.1%} "
            f"{f'{lo:.1%} - {hi:.1%}':>17} {v['mean_casualties']:9.2f} {luck:>14}"
        )
    lines.append(
        f"draws {s['draws']}; mean turns {s['mean_turns']:.2f} "
        f"(+/- {s['turns_ci95']:.2f}); errors {s['errors']}"
    )
    return "\n".join(lines)
