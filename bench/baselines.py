"""The computer against the baselines a user understands (issue 20): greedy (normal)
and search (hard) against ``passive`` (never acts) and ``rush`` (advances on the
nearest enemy and attacks with the best odds), on each ruleset's default scenario,
sides swapped every other game — the baseline rows of ``bench/ai_strength.py``'s one
table (win rate with its 95% interval, target, share of the baseline's models removed,
declined attacks), with a small default run and the search's rollouts capped.

    python bench/baselines.py [--games 4] [--rulesets umr,swomp,gem,inter_arma]
                              [--agents greedy,search] [--opponents passive,rush]
                              [--budget 2.0] [--max-iterations 40] [--jobs 0]

Targets from issue 20: normal and hard beat passive in >= 98% of games and remove >= 60%
of its models; hard beats rush >= 75%, normal >= 60%. ``--max-iterations`` caps the
search's rollouts per decision so a run repeats whatever the machine's load (give a
budget the cap, not the clock, ends).
"""

from __future__ import annotations

import argparse

from _common import bench_scenario
from ai_strength import HEADER, TARGETS, row

from engine.ruleset import available

__all__ = ["TARGETS", "main"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4, help="games per row (even: sides swap)")
    ap.add_argument("--rulesets", default=",".join(k for k in available() if k != "example_d6"))
    ap.add_argument("--agents", default="greedy,search")
    ap.add_argument("--opponents", default="passive,rush")
    ap.add_argument("--budget", type=float, default=2.0, help="search seconds per decision")
    ap.add_argument(
        "--max-iterations", type=int, default=40, help="search rollouts per decision (0: clock)"
    )
    ap.add_argument("--jobs", type=int, default=0, help="local Dask workers (0: this process)")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    args = ap.parse_args()
    search = {"budget": args.budget}
    if args.max_iterations:
        search["max_iterations"] = args.max_iterations
    args.options = {"search": search}
    args.turn_limit = 0
    args.first_game = 0
    print(HEADER, flush=True)
    for key in args.rulesets.split(","):
        path = str(bench_scenario(key, ("default.toml",)))
        for agent in args.agents.split(","):
            for opponent in args.opponents.split(","):
                print(row(key, "default", path, agent, opponent, args), flush=True)


if __name__ == "__main__":
    main()
