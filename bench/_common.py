"""Shared helpers for the benchmark scripts: the repo path and scenario discovery."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def bench_scenario(key: str, names: tuple[str, ...] = ("skirmish10.toml", "default.toml")) -> Path:
    """The ruleset's first scenario of ``names`` that exists: by default its 10-against-10
    bench scenario, else its default one."""
    folder = ROOT / "rulesets" / key / "scenarios"
    for name in names:
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"no scenario for {key}")
