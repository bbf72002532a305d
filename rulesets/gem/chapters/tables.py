"""GEM's tables, read from tables.toml: Table 1 (OFF vs DEF), Tables 2 and 3 (modifiers),
the morale table, the vehicle tables and the points factors.

Why data and not if-chains: the numbers are the rulebook's and may be reproduced; keeping
them in one TOML file means a designer can retune them without touching the code, and
the exact-odds functions below read the very same cells the dice are judged against.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent  # the data files sit at the ruleset's top level


@lru_cache(maxsize=1)
def data() -> dict[str, Any]:
    with (HERE / "tables.toml").open("rb") as fh:
        return tomllib.load(fh)


def clamp10(v: int) -> int:
    """OFF, DEF and MAG live on a 1..10 scale (GEM-1.1); spells and effects stay on it."""
    return max(1, min(10, int(v)))


@dataclass(frozen=True)
class Cell:
    """One Table 1 cell: the score needed and its special mark.

    ``only_natural_20``: the '*' cells, where nothing but a natural 20 hits;
    ``only_natural_1_misses``: the '!' cells, where nothing but a natural 1 misses.
    """

    need: int
    only_natural_20: bool = False
    only_natural_1_misses: bool = False

    def text(self) -> str:
        if self.only_natural_20:
            return "a natural 20 only"
        if self.only_natural_1_misses:
            return "anything but a natural 1"
        return f"{self.need}+"

    def hits(self, face: int, modifier: int) -> bool:
        """Does a d20 ``face`` with ``modifier`` hit? Naturals decide first (GEM-2.2.3)."""
        if face == 20:
            return True
        if face == 1:
            return False
        if self.only_natural_20:
            return False
        if self.only_natural_1_misses:
            return True
        return face + modifier >= self.need

    def chance(self, modifier: int) -> Fraction:
        """Exact chance that one d20 hits with ``modifier``."""
        return Fraction(sum(1 for f in range(1, 21) if self.hits(f, modifier)), 20)


def table1(off: int, dfn: int) -> Cell:
    """The Table 1 cell for OFF ``off`` against DEF ``dfn`` (both clamped to 1..10)."""
    raw = data()["table1"]["rows"][clamp10(off) - 1][clamp10(dfn) - 1]
    return Cell(int(raw.rstrip("*!")), raw.endswith("*"), raw.endswith("!"))


def table2() -> dict[str, Any]:
    return data()["table2"]


def table3() -> dict[str, Any]:
    return data()["table3"]


def morale() -> dict[str, Any]:
    return data()["morale"]


def morale_band(lost_percent: float) -> int:
    """Index of the morale table row for ``lost_percent`` losses (the highest row reached)."""
    rows = morale()["losses"]
    idx = 0
    for i, lo in enumerate(rows):
        if lost_percent + 1e-9 >= lo:
            idx = i
    return idx


def fear_need(lost_percent: float) -> int:
    return int(morale()["fear"][morale_band(lost_percent)])


def rout_need(lost_percent: float) -> int:
    """Score needed on a rout check, 0 when the losses call for none."""
    return int(morale()["rout"][morale_band(lost_percent)])


def d20_at_least(need: int, modifier: int) -> Fraction:
    """Chance that d20 + modifier >= need (no natural rules: morale checks)."""
    return Fraction(sum(1 for f in range(1, 21) if f + modifier >= need), 20)


def vehicle() -> dict[str, Any]:
    return data()["vehicle"]


def area() -> dict[str, Any]:
    return data()["area"]


def points() -> dict[str, Any]:
    return data()["points"]


def setup() -> dict[str, Any]:
    """The side-choice die and the deployment zone's sizes (GEM-2.0.3, GEM-2.0.4)."""
    return data()["setup"]


@lru_cache(maxsize=1)
def units() -> dict[str, Any]:
    """units.toml: profiles, GEM's reading of each terrain kind, and the fixed ranges."""
    with (HERE / "units.toml").open("rb") as fh:
        return tomllib.load(fh)


def terrain(kind: str) -> list[str]:
    """Terrain kinds of one GEM class: difficult, road, obstacle, impassable, soft_cover,
    hard_cover (units.toml [terrain])."""
    return list(units()["terrain"][kind])


def rng(name: str) -> float:
    return float(units()["ranges"][name])
