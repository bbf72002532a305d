"""Headless games per second, 10 against 10, for each ruleset present.

Prints, per ruleset, the median seconds per full game between random agents (one core),
wall-clock and CPU (this process's own time, which is what "per core" means and what
other load on this shared machine inflates least), games per second per core (CPU),
the ratio against the target of five games per second per core (issue 24), the same
for games between greedy agents (every decision scores each candidate), and the ratio
against a baseline measured in the same run: the random games played with full
recording (history, checksums, undo snapshots), which is what the window and saves pay
for and what AI clones skip.

    python bench/games.py [--games N] [--greedy-games N] [--rulesets umr,swomp]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterator
from typing import Any

from _common import bench_scenario

from engine.agents import make
from engine.batch import progress
from engine.ruleset import available
from engine.scenario import load_scenario, new_game

#: games per second per core the issue asks for, in every ruleset
TARGET = 5.0


def one_game(path, seed: int, record: bool, agent: str = "random") -> tuple[float, int, float]:
    scn = load_scenario(path)
    scn.seed = seed
    scn.turn_limit = scn.turn_limit or 10
    t0 = time.perf_counter()
    c0 = time.process_time()
    game = new_game(scn)
    game.record = record
    agents = {s: make(agent, seed=seed + i) for i, s in enumerate(game.state.sides)}
    n = 0
    while (side := game.to_act()) is not None and n < 5000:
        view = game.clone(dice_seed=n)
        game.apply(agents[side].choose(view, side))
        n += 1
    return time.perf_counter() - t0, n, time.process_time() - c0


def bar_steps(bar: Any, n: int) -> Iterator[int]:
    """0 .. n-1, advancing ``bar`` after each (the progress bar counts finished games)."""
    for i in range(n):
        yield i
        bar.update()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--greedy-games", type=int, default=4, help="greedy-vs-greedy games")
    ap.add_argument("--rulesets", default=",".join(available()))
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args()
    print(
        f"{'ruleset':10} {'s/game':>7} {'cpu s/game':>10} {'games/s/core':>12} "
        f"{'vs 5/s':>7} {'greedy cpu s':>12} {'greedy g/s/core':>15} {'vs 5/s':>7} "
        f"{'actions':>7} {'recorded s/game':>15} {'speed-up':>8}"
    )
    for key in args.rulesets.split(","):
        path = bench_scenario(key)
        total = 2 * args.games + args.greedy_games
        with progress(total, f"{key} game", args.quiet) as bar:
            fast = [one_game(path, s, record=False) for s in bar_steps(bar, args.games)]
            slow = [one_game(path, s, record=True) for s in bar_steps(bar, args.games)]
            greedy = [
                one_game(path, s, record=False, agent="greedy")
                for s in bar_steps(bar, args.greedy_games)
            ]
        t_fast = statistics.median(t for t, _, _ in fast)
        cpu = statistics.median(c for _, _, c in fast)
        t_slow = statistics.median(t for t, _, _ in slow)
        acts = statistics.median(n for _, n, _ in fast)
        g_cpu = statistics.median(c for _, _, c in greedy) if greedy else float("nan")
        print(
            f"{key:10} {t_fast:7.3f} {cpu:10.3f} {1 / cpu:12.2f} {1 / cpu / TARGET:6.2f}x "
            f"{g_cpu:12.3f} {1 / g_cpu:15.2f} {1 / g_cpu / TARGET:6.2f}x {acts:7.0f} "
            f"{t_slow:15.3f} {t_slow / t_fast:7.2f}x   ({path.relative_to(path.parents[3])})"
        )


if __name__ == "__main__":
    main()
