"""How many rollouts the search's time budget buys per decision, per ruleset.

Why: the hard level is limited by the clock (``SearchAgent.budget``, 0.4 s), but
``bench/ai_strength.py`` caps the rollouts instead (``--max-iterations``), because a run
limited by the clock depends on the machine's load and cannot be repeated. This bench
shows how a cap compares with what the shipped budget really buys on this machine: it
plays the search against greedy on each ruleset's mirror battle, with the clock only,
on a local Dask cluster of ``--jobs`` workers (both cores busy, as in the strength bench), and prints
the median, lower quartile and lowest tenth of the rollouts per decision, the median
decision time, and the ratio of the median to the cap given for that ruleset.

    python bench/search_rollouts.py [--budget 0.4] [--decisions 120] [--games 2]
                                    [--jobs 2] [--caps umr=24,swomp=12,gem=12]

Each ruleset plays ``--games`` games (the search changes sides each game), so with two
games per ruleset both cores stay busy to the end.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import bench_scenario

from engine.agents import make
from engine.batch import cluster, progress, stream
from engine.ruleset import available
from engine.scenario import load_scenario, new_game


def rollouts(task: tuple[str, str, int, float, int]) -> tuple[str, list[int], list[float]]:
    """(ruleset, rollouts per search decision, seconds per search decision) over the first
    ``decisions`` decisions of one search-vs-greedy game; decisions with a single
    candidate are left out, since the search plays those without thinking."""
    key, path, seed, budget, decisions = task
    scn = load_scenario(path)
    scn.seed = seed
    game = new_game(scn)
    sides = game.state.sides
    agents = {
        sides[seed % 2]: make("search", seed=seed, budget=budget),
        sides[1 - seed % 2]: make("greedy", seed=seed + 1),
    }
    its: list[int] = []
    secs: list[float] = []
    for i in range(decisions):
        side = game.to_act()
        if side is None:
            break
        agent = agents[side]
        t0 = time.perf_counter()
        action = agent.choose(game.clone(dice_seed=i), side)
        if agent.name == "search" and len(agent.last) > 1:
            its.append(agent.iterations)
            secs.append(time.perf_counter() - t0)
        game.apply(action)
    return key, its, secs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=0.4, help="search seconds per decision")
    ap.add_argument("--decisions", type=int, default=120, help="decisions per game")
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
    args = ap.parse_args()
    caps = {k: int(v) for k, v in (c.split("=") for c in args.caps.split(",") if c)}
    keys = args.rulesets.split(",")
    tasks = [
        (
            k,
            str(bench_scenario(k, ("mirror.toml", "default.toml"))),
            seed,
            args.budget,
            args.decisions,
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
        f"{'ruleset':8} {'decisions':>9} {'median':>7} {'p25':>5} {'p10':>5} "
        f"{'median s':>9} {'cap':>5} {'median/cap':>10}"
    )
    for k in keys:
        its = [n for key, ns, _ in done if key == k for n in ns]
        secs = [t for key, _, ts in done if key == k for t in ts]
        if not its:
            print(f"{k:8} no decisions with a choice")
            continue
        med = statistics.median(its)
        # the stdlib's inclusive quantiles: the lowest quarter's and tenth's upper edges
        p25 = statistics.quantiles(its, n=4, method="inclusive")[0] if len(its) > 1 else its[0]
        p10 = statistics.quantiles(its, n=10, method="inclusive")[0] if len(its) > 1 else its[0]
        cap = caps.get(k)
        ratio = f"{med / cap:.1f}x" if cap else "-"
        print(
            f"{k:8} {len(its):9d} {med:7.0f} {p25:5.0f} "
            f"{p10:5.0f} {statistics.median(secs):9.3f} "
            f"{cap or '-':>5} {ratio:>10}"
        )


if __name__ == "__main__":
    main()
