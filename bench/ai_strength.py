"""AI strength: greedy vs random and search vs greedy on mirror scenarios, sides
swapped every other game, on a local Dask cluster of ``--jobs`` workers. Prints the win-rate table with 95% intervals
and the median decision time of each agent (the baseline is the random agent's).

    python bench/ai_strength.py [--games 200] [--rulesets umr,swomp,gem] [--budget 0.4]
                                [--max-iterations N] [--turn-limit 0] [--jobs 2]
                                [--first-game 0]

Each ruleset plays its ``mirror.toml``: a map that is the same after a half turn about
the table's centre, and two identical armies set out the same way on opposite edges,
so neither side starts better off, played to the scenario's own turn limit (UMR 6
rounds, SWOMP 10, GEM 8 turns; why those: docs/decisions/0004-mirror-battles.md). Each seed is played twice with the agents' sides
swapped; the "pairs" columns count the seeds whose
two games the first agent won both of, those the second won both of, those one *side*
won both of, and the rest (split or drawn). Read the side count against "side if
independent", 2p(1 - p) x seeds for a first-agent rate p: what it would be if the side
made no difference and every game were a fresh coin of bias p. A 60% edge alone gives
48 of 100 seeds to one side twice; only a count well above that says the shared start
of a seed's dice (its initiative, its first volleys) is deciding games.

``--max-iterations`` caps the search's rollouts per decision, which makes a run
reproducible whatever else the machine is doing (the time budget alone depends on load).
Give it a budget that rarely ends the search first. ``bench/search_rollouts.py`` shows
how a cap compares with the rollouts the hard level's clock really buys on this machine.
``--first-game N`` plays games N to N + games - 1 of the same sequence (N even, so seeds
stay paired): a run can be extended or split in parts whose counts add up to the run's.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import bench_scenario

from engine.agents import make
from engine.ruleset import available
from engine.scenario import load_scenario, new_game
from engine.sim import jobs_for, run_batch, summarize


def decision_times(path, agent: str, n: int = 15, **opts) -> float:
    """Median seconds per decision of ``agent`` over the first n decisions of a game."""
    scn = load_scenario(path)
    game = new_game(scn)
    a = make(agent, seed=1, **opts)
    times = []
    for i in range(n):
        side = game.to_act()
        if side is None:
            break
        t0 = time.perf_counter()
        act = a.choose(game.clone(dice_seed=i), side)
        times.append(time.perf_counter() - t0)
        game.apply(act)
    return statistics.median(times) if times else 0.0


def pairs(results, first: str) -> tuple[int, int, int, int]:
    """(seeds ``first`` won both games of, seeds the other agent won both of, seeds one
    side won both of, the rest). The agent column is split so a reader sees at once how
    often each agent took a whole seed, whatever side it played."""
    by: dict[int, list] = {}
    for r in results:
        by.setdefault(r.game // 2, []).append(r)
    mine = theirs = side = split = 0
    for two in by.values():
        if len(two) != 2:
            continue
        if two[0].winner_agent and two[0].winner_agent == two[1].winner_agent:
            if two[0].winner_agent == first:
                mine += 1
            else:
                theirs += 1
        elif two[0].winner and two[0].winner == two[1].winner:
            side += 1
        else:
            split += 1
    return mine, theirs, side, split


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument(
        "--jobs", type=int, default=2, help="local Dask cluster size (0: in this process)"
    )
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    ap.add_argument("--rulesets", default=",".join(available()))
    ap.add_argument("--budget", type=float, default=0.4, help="search seconds per decision")
    ap.add_argument(
        "--max-iterations",
        type=int,
        default=0,
        help="cap on the search's rollouts per decision (0: the clock only)",
    )
    ap.add_argument("--pairings", default="greedy-random,search-greedy")
    ap.add_argument(
        "--turn-limit", type=int, default=0, help="rounds per game (0: the scenario's own limit)"
    )
    ap.add_argument(
        "--first-game",
        type=int,
        default=0,
        help="start at this game of the sequence (even: pairs stay whole)",
    )
    args = ap.parse_args()
    if args.first_game % 2:
        ap.error("--first-game must be even, so both games of a seed are played")
    search = {"budget": args.budget}
    if args.max_iterations:
        search["max_iterations"] = args.max_iterations
    opts = {"search": search}
    pairings = [tuple(p.split("-")) for p in args.pairings.split(",")]
    print(
        f"{'ruleset':8} {'pairing':18} {'games':>5} {'first wins':>10} {'rate':>7} "
        f"{'95% interval':>15} {'draws':>5} {'pairs: first/second/side/split':>31} {'side if independent':>20}"
    )
    for key in args.rulesets.split(","):
        path = str(bench_scenario(key, ("mirror.toml", "skirmish10.toml", "default.toml")))
        for a, b in pairings:
            jobs = jobs_for(
                path,
                args.first_game + args.games,
                (a, b),
                seed=11,
                turn_limit=args.turn_limit,
                options=opts,
            )[args.first_game :]
            results, _ = run_batch(jobs, args.jobs, quiet=args.quiet, unit=f"{key} game")
            s = summarize(results)["agents"][a]
            lo, hi = s["ci95"]
            draws = sum(1 for r in results if r.winner_agent is None)
            mine, theirs, side, split = pairs(results, a)
            rate = s["win_rate"]
            independent = 2 * rate * (1 - rate) * (mine + theirs + side + split)
            print(
                f"{key:8} {a + ' vs ' + b:18} {s['games']:5d} {s['wins']:10d} "
                f"{rate:7.1%} {f'{lo:.0%}-{hi:.0%}':>15} {draws:5d} "
                f"{f'{mine}/{theirs}/{side}/{split}':>31} {independent:20.1f}",
                flush=True,
            )
        base = decision_times(path, "random")
        for agent in ("greedy", "search"):
            t = decision_times(path, agent, **(search if agent == "search" else {}))
            print(
                f"{key:8} median decision {agent:7} {t * 1000:8.1f} ms "
                f"({t / base if base else 0:.0f}x random)"
            )


if __name__ == "__main__":
    main()
