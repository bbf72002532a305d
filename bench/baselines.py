"""The computer against the baselines a user understands (issue 20): greedy (normal)
and search (hard) against ``passive`` (never acts) and ``rush`` (advances on the
nearest enemy and attacks with the best odds), on each ruleset's default scenario,
sides swapped every other game. Prints, per row, the wins with a 95% Wilson interval
and the share of the baseline side's models removed by the end (mean and 95% interval).

    python bench/baselines.py [--games 4] [--rulesets umr,swomp,gem,inter_arma,gemini]
                              [--agents greedy,search] [--opponents passive,rush]
                              [--budget 0.4] [--max-iterations 40] [--jobs 0]

Targets from issue 20: normal and hard beat passive in >= 98% of games and remove >= 60%
of its models; hard beats rush >= 75%, normal >= 60%. ``--max-iterations`` caps the
search's rollouts per decision so a run repeats whatever the machine's load.
"""

from __future__ import annotations

import argparse

from _common import bench_scenario

from engine.scenario import load_scenario
from engine.sim import GameResult, jobs_for, mean_ci, run_batch, wilson

TARGETS: dict[str, float | dict[str, float]] = {
    "passive": 0.98,
    "rush": {"greedy": 0.60, "search": 0.75},
}


def side_sizes(path: str) -> dict[str, int]:
    """Models per side at the start of the scenario."""
    sizes: dict[str, int] = {}
    for m in load_scenario(path).models:
        sizes[m.side] = sizes.get(m.side, 0) + 1
    return sizes


def removed_share(results: list[GameResult], opponent: str, sizes: dict[str, int]) -> list[float]:
    """Per game, the share of the opponent side's models removed."""
    out = []
    for r in results:
        for side, name in r.agents.items():
            if name == opponent and sizes.get(side):
                out.append(r.casualties.get(side, 0) / sizes[side])
    return out


def target(agent: str, opponent: str) -> float:
    t = TARGETS[opponent]
    return t if isinstance(t, float) else t.get(agent, 0.0)


def row(key: str, path: str, agent: str, opponent: str, args: argparse.Namespace) -> str:
    search = {"budget": args.budget}
    if args.max_iterations:
        search["max_iterations"] = args.max_iterations
    jobs = jobs_for(path, args.games, (agent, opponent), seed=23, options={"search": search})
    results, _ = run_batch(jobs, args.jobs, quiet=args.quiet, unit=f"{key} game")
    n = len(results)
    wins = sum(1 for r in results if r.winner_agent == agent)
    lost = sum(1 for r in results if r.winner_agent == opponent)
    errors = sum(1 for r in results if r.error)
    lo, hi = wilson(wins, n)
    share, half = mean_ci(removed_share(results, opponent, side_sizes(path)))
    return (
        f"{key:8} {agent + ' vs ' + opponent:18} {n:5d} {wins:5d} {n - wins - lost:6d} "
        f"{wins / n if n else 0:7.0%} {f'{lo:.0%}-{hi:.0%}':>11} {target(agent, opponent):7.0%} "
        f"{share:8.0%} {f'±{half:.0%}':>6} {errors:6d}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4, help="games per row (even: sides swap)")
    ap.add_argument("--rulesets", default="umr,swomp,gem,inter_arma,gemini")
    ap.add_argument("--agents", default="greedy,search")
    ap.add_argument("--opponents", default="passive,rush")
    ap.add_argument("--budget", type=float, default=0.4, help="search seconds per decision")
    ap.add_argument(
        "--max-iterations", type=int, default=40, help="search rollouts per decision (0: clock)"
    )
    ap.add_argument("--jobs", type=int, default=0, help="local Dask workers (0: this process)")
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    args = ap.parse_args()
    print(
        f"{'ruleset':8} {'pairing':18} {'games':>5} {'wins':>5} {'draws':>6} {'rate':>7} "
        f"{'95% int.':>11} {'target':>7} {'removed':>8} {'95%':>6} {'errors':>6}"
    )
    for key in args.rulesets.split(","):
        path = str(bench_scenario(key, ("default.toml",)))
        for agent in args.agents.split(","):
            for opponent in args.opponents.split(","):
                print(row(key, path, agent, opponent, args), flush=True)


if __name__ == "__main__":
    main()
