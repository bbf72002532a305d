"""How UMR reads the table's terrain, and the pure-Python measures the movement rules
need: which terrain a point lies in, how far a model gets along a path when water costs
double, whether a path meets rough ground or runs into a tall feature.

Why a view and no maths of its own: the engine's table service (``ctx.table``) measures
points, paths and their costs over terrain kinds; this module only says which kinds UMR
reads as rough, water and tall.

Readings (units.toml ``[terrain]``, UMR-MOVEMENT and UMR-I-TERRAIN): rough ground, rubble
and heavy woods are rough (-1 to a movement roll); water, river and stream are swum at
half speed; wall, building and rocks cannot be walked through but can be climbed; all
other kinds (woods, brush, wheat field, hedge, fence, low wall, hill, road) are clear.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.battlefield import TerrainFeature
from engine.table import Table, Walk

Point = tuple[float, float]

DEFAULTS: dict[str, Any] = {
    "rough": ["rough", "rubble", "heavy_woods"],
    "water": ["water", "river", "stream"],
    "tall": ["wall", "building", "rocks"],
    "floor": 3.0,
    "height": {"building": 6.0, "wall": 3.0, "rocks": 3.0},
}


@dataclass(frozen=True)
class Readings:
    """Which terrain kinds count as rough, water or tall, and how high tall pieces are."""

    rough: frozenset[str]
    water: frozenset[str]
    tall: frozenset[str]
    floor: float
    height: Mapping[str, float]

    @classmethod
    def from_catalog(cls, catalog: Mapping[str, Any]) -> Readings:
        t = {**DEFAULTS, **catalog.get("terrain", {})}
        return cls(
            frozenset(t["rough"]),
            frozenset(t["water"]),
            frozenset(t["tall"]),
            float(t["floor"]),
            dict(t["height"]),
        )

    def height_of(self, f: TerrainFeature) -> float:
        """A tall feature's height in inches: its own ``height`` or the kind's default."""
        return float(f.height) if f.height > 0 else float(self.height.get(f.kind, self.floor))


class TerrainIndex:
    """The table's terrain in UMR's readings, measured by the engine's table service
    (``ctx.table``): which feature a point is in, what a path touches, what it costs."""

    def __init__(self, table: Table, readings: Readings) -> None:
        self.table = table
        self.readings = readings
        #: water costs two inches of allowance per inch (UMR-SWIMMING)
        self.costs = dict.fromkeys(readings.water, 2.0)

    @property
    def tall(self) -> list[TerrainFeature]:
        return [f for _, f in self.table.pieces(self.readings.tall)]

    @property
    def water(self) -> list[TerrainFeature]:
        return [f for _, f in self.table.pieces(self.readings.water)]

    def in_water(self, p: Point) -> TerrainFeature | None:
        return self.table.feature_at(p, self.readings.water)

    def in_rough(self, p: Point) -> TerrainFeature | None:
        return self.table.feature_at(p, self.readings.rough)

    def tall_at(self, p: Point) -> TerrainFeature | None:
        return self.table.feature_at(p, self.readings.tall)

    def tall_feature(self, fid: str) -> TerrainFeature | None:
        return next((f for f in self.tall if f.id == fid), None)

    def rough_on(self, path: Sequence[Point]) -> TerrainFeature | None:
        """Rough ground the path starts in or crosses (UMR-ROUGH: -1 to the roll)."""
        return self.table.first_touched(path, self.readings.rough)

    def tall_on(self, path: Sequence[Point], skip: str = "") -> TerrainFeature | None:
        """A tall feature (wall, building, rocks; not ``skip``) the path's centre line
        runs into."""
        return self.table.first_touched(path, self.readings.tall, skip)

    def walk(self, path: Sequence[Point], allowance: float) -> Walk:
        """Go along ``path`` spending ``allowance`` inches; water costs two per inch
        (UMR-SWIMMING): ``extra`` is the length swum. Where the allowance runs out."""
        return self.table.walk(path, allowance, self.costs)

    def cost(self, path: Sequence[Point]) -> float:
        """The movement allowance needed to reach the end of ``path``."""
        return self.table.walk(path, math.inf, self.costs).spent

    def length_inside(self, f: TerrainFeature, a: Point, b: Point) -> float:
        """Length of the straight line a->b that lies inside feature ``f``."""
        return self.table.length_inside(f, a, b)


@cache
def readings() -> Readings:
    """UMR's terrain readings from units.toml (read once: a plain value of the file)."""
    import tomllib
    from pathlib import Path

    with (Path(__file__).parent.parent / "units.toml").open("rb") as fh:
        return Readings.from_catalog(tomllib.load(fh))


def table(ctx: Any) -> TerrainIndex:
    """The terrain of the context's battlefield in UMR's readings."""
    t = ctx.table
    return t.memo("umr.terrain", 4).get_or("index", lambda: TerrainIndex(t, readings()))
