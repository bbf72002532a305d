"""Shared helpers for the benchmark scripts: repo path, medians, scenario discovery."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def median_time(fn: Callable[[], object], repeats: int = 5) -> float:
    """Median wall time of ``fn`` over ``repeats`` runs (the machine is noisy)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench_scenario(key: str, names: tuple[str, ...] = ("skirmish10.toml", "default.toml")) -> Path:
    """The ruleset's first scenario of ``names`` that exists: by default its 10-against-10
    bench scenario, else its default one."""
    folder = ROOT / "rulesets" / key / "scenarios"
    for name in names:
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"no scenario for {key}")
