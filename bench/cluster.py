"""Games per second per worker on a local Dask cluster, and the scaling from 1 to 2
workers, against a 1-worker baseline measured in the same run.

For each cluster size it starts a LocalCluster (processes, one thread each), warms every
worker up (imports, first scenario load), then plays the same ``--games`` seeded games
(``engine.sim.play_one``, as ``simulate`` does) ``--repeats`` times and prints the
median wall time, games per second, games per second per worker, the ratio of the
rate to the 1-worker rate (the speed-up; 2.0 would be perfect scaling on 2 workers), and
games per CPU second of the workers (what a core free of other work would give).
Cluster start-up is not timed: a long run pays it once.

    python bench/cluster.py [--games 24] [--repeats 3] [--workers 1,2]
                            [--ruleset umr] [--agents random,random] [--turn-limit 3]

On a machine whose cores other work also uses, the 2-worker ratio says how much of the
second core this run could get, not what the code can do: read it with ``uptime``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from _common import bench_scenario

from engine.batch import cluster, progress, stream
from engine.sim import Job, jobs_for, play_one


def _cpu(client: Any) -> float:
    """CPU seconds the cluster's worker processes have used so far, all added up."""
    return sum(client.run(time.process_time).values())


def timed_batch(client: Any, jobs: list[Job], quiet: bool) -> tuple[float, float]:
    """(wall seconds, worker CPU seconds) to play every job on the cluster, results
    streamed as they finish."""
    c0 = _cpu(client)
    t0 = time.perf_counter()
    with progress(len(jobs), "game", quiet) as bar:
        for _ in stream(client, play_one, jobs):
            bar.update()
    return time.perf_counter() - t0, _cpu(client) - c0


def measure(workers: int, jobs: list[Job], repeats: int, quiet: bool) -> list[tuple[float, float]]:
    """(wall, CPU) of ``repeats`` batches on a fresh ``workers``-process local cluster."""
    with cluster(None, workers) as client:
        warm = jobs[: 2 * workers]
        list(stream(client, play_one, warm))
        return [timed_batch(client, jobs, quiet) for _ in range(repeats)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", default="1,2", help="cluster sizes; the first is the baseline")
    ap.add_argument("--ruleset", default="umr")
    ap.add_argument("--agents", default="random,random")
    ap.add_argument("--turn-limit", type=int, default=3)
    ap.add_argument("--quiet", action="store_true", help="no progress bars")
    args = ap.parse_args()
    path = str(bench_scenario(args.ruleset))
    a, b = args.agents.split(",")
    jobs = jobs_for(path, args.games, (a, b), seed=7, turn_limit=args.turn_limit)
    sizes = [int(w) for w in args.workers.split(",")]
    print(
        f"{args.games} games of {path} ({a} vs {b}, {args.turn_limit} turns), medians of {args.repeats}"
    )
    print(
        f"{'workers':>7} {'median s':>9} {'games/s':>8} {'games/s/worker':>15} "
        f"{'vs ' + str(sizes[0]) + ' worker':>11} {'games/cpu-s':>12} {'runs (s)':>20}"
    )
    base = 0.0
    for w in sizes:
        runs = measure(w, jobs, args.repeats, args.quiet)
        med = statistics.median(t for t, _ in runs)
        per_cpu = args.games / statistics.median(c for _, c in runs)
        rate = args.games / med
        base = base or rate
        walls = " ".join(f"{t:.1f}" for t, _ in runs)
        print(
            f"{w:7d} {med:9.2f} {rate:8.2f} {rate / w:15.2f} {rate / base:10.2f}x "
            f"{per_cpu:12.2f} {walls:>20}",
            flush=True,
        )


if __name__ == "__main__":
    main()
