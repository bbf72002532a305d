"""How many rollouts the search's time budget buys per decision, per ruleset, before
and after issue 24's prefilter, on the same positions.

Why: the hard level is limited by the clock (``SearchAgent.budget``, 0.4 s), but
``bench/ai_strength.py`` caps the rollouts instead (``--max-iterations``), because a run
limited by the clock depends on the machine's load and cannot be repeated. This bench
shows what the shipped budget really buys on this machine: it plays the search against
greedy on each ruleset's mirror battle, with the clock only, on a local Dask cluster of
``--jobs`` workers (both cores busy, as in the strength bench). At every decision of the
search both versions think about the same position — the old one (``prefilter=0``: every
candidate sampled at least 12 times first) and the new one, in turn, each with the full
budget — and the new one's choice is played. It prints, per version, the median, lower
quartile and lowest tenth of the rollouts per decision and the median decision time,
then the ratio of the medians (new over old) and the median of the per-position ratios
(positions where the old one got none count as its 1, so the ratio is a lower bound).

    python bench/search_rollouts.py [--budget 0.4] [--decisions 60] [--games 2]
                                    [--jobs 2] [--caps umr=24,swomp=12,gem=12]
                                    [--old NAME=VALUE ...]

``--old`` sets the options of the version called "old" (default ``prefilter=0``), so
any change of the search is measured the same way, interleaved on the same positions.

Each ruleset plays ``--games`` games (the search changes sides each game), so with two
games per ruleset both cores stay busy to the end.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from _common import bench_scenario

from engine.actions import Action
from engine.agents import make
from engine.batch import cluster, progress, stream
from engine.ruleset import available
from engine.scenario import load_scenario, new_game


@dataclass
class Row:
    """One game's search decisions: rollouts and seconds of each version."""

    key: str
    new: list[int] = field(default_factory=list)
    new_s: list[float] = field(default_factory=list)
    old: list[int] = field(default_factory=list)
    old_s: list[float] = field(default_factory=list)


def rollouts(task: tuple[str, str, int, float, int, dict[str, Any]]) -> Row:
    """(ruleset, new rollouts per decision, new seconds, old rollouts, old seconds) over
    the search's decisions among the first ``decisions`` of one search-vs-greedy game;
    decisions with a single candidate are left out, since the search plays those
    without thinking. Which version thinks first alternates, so neither always meets
    a warmer memo."""
    key, path, seed, budget, decisions, versus = task
    scn = load_scenario(path)
    scn.seed = seed
    game = new_game(scn)
    sides = game.state.sides
    new = make("search", seed=seed, budget=budget)
    old = make("search", seed=seed, budget=budget, **versus)
    agents = {sides[seed % 2]: new, sides[1 - seed % 2]: make("greedy", seed=seed + 1)}
    out = Row(key)
    for i in range(decisions):
        side = game.to_act()
        if side is None:
            break
        agent = agents[side]
        if agent is not new:
            game.apply(agent.choose(game.clone(dice_seed=i), side))
            continue
        got: dict[object, tuple[Action, int, float]] = {}
        for version in (new, old) if i % 2 else (old, new):
            t0 = time.perf_counter()
            action = version.choose(game.clone(dice_seed=i), side)
            got[version] = (action, version.iterations, time.perf_counter() - t0)
        if len(new.last) > 1:
            out.new.append(got[new][1])
            out.new_s.append(got[new][2])
            out.old.append(got[old][1])
            out.old_s.append(got[old][2])
        game.apply(got[new][0])
    return out


def spread(its: list[int]) -> tuple[float, float, float]:
    """Median, lower quartile and lowest tenth (the stdlib's inclusive quantiles)."""
    if len(its) < 2:
        return its[0], its[0], its[0]
    return (
        statistics.median(its),
        statistics.quantiles(its, n=4, method="inclusive")[0],
        statistics.quantiles(its, n=10, method="inclusive")[0],
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=0.4, help="search seconds per decision")
    ap.add_argument("--decisions", type=int, default=60, help="decisions per game")
    ap.add_argument("--games", type=int, default=2, help="games per ruleset")
    ap.add_argument(
        "--jobs", type=int, default=2, help="local Dask cluster size (0: in this process)"
    )
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--rulesets", default=",".join(available()))
    ap.add_argument(
        "--caps",
        default="umr=24,swomp=12,gem=12",
        help="the strength bench's --max-iterations per ruleset, to compare",
    )
    ap.add_argument(
        "--old",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the 'old' search's options (repeatable; default prefilter=0, the search "
        "before issue 24), e.g. greedy_prior=0 to weigh another change on the same positions",
    )
    args = ap.parse_args()
    versus: dict[str, Any] = {}
    for opt in args.old or ["prefilter=0"]:
        name, _, value = opt.partition("=")
        versus[name] = float(value) if "." in value else int(value)
    caps = {k: int(v) for k, v in (c.split("=") for c in args.caps.split(",") if c)}
    keys = args.rulesets.split(",")
    tasks = [
        (
            k,
            str(bench_scenario(k, ("mirror.toml", "default.toml"))),
            seed,
            args.budget,
            args.decisions,
            versus,
        )
        for k in keys
        for seed in range(1, args.games + 1)
    ]
    done = []
    with cluster(None, args.jobs) as client, progress(len(tasks), "game", args.quiet) as bar:
        for result in stream(client, rollouts, tasks):
            done.append(result)
            bar.update()
    print(
        f"{'ruleset':10} {'version':7} {'decisions':>9} {'median':>7} {'p25':>5} {'p10':>5} "
        f"{'median s':>9} {'cap':>5} {'median/cap':>10}"
    )
    for k in keys:
        rows = [r for r in done if r.key == k]
        for name in ("old", "new"):
            its = [n for r in rows for n in getattr(r, name)]
            secs = [t for r in rows for t in getattr(r, name + "_s")]
            if not its:
                print(f"{k:10} no decisions with a choice")
                break
            med, p25, p10 = spread(its)
            cap = caps.get(k)
            ratio = f"{med / cap:.1f}x" if cap else "-"
            print(
                f"{k:10} {name:7} {len(its):9d} {med:7.0f} {p25:5.0f} {p10:5.0f} "
                f"{statistics.median(secs):9.3f} {cap or '-':>5} {ratio:>10}"
            )
        else:
            new_its = [n for r in rows for n in r.new]
            old_its = [n for r in rows for n in r.old]
            med_old = statistics.median(old_its)
            pairs = statistics.median(n / max(1, o) for n, o in zip(new_its, old_its))
            print(
                f"{k:10} new/old: medians {statistics.median(new_its) / max(1, med_old):.1f}x, "
                f"per position {pairs:.1f}x (median)"
            )


if __name__ == "__main__":
    main()
