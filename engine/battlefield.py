"""The table and its terrain as plain data.

Why a module of its own: geometry, physics, the window and every ruleset read the same
terrain, so its vocabulary (kinds and the classes they fall into, DESIGN.md "The table
and its terrain") lives in one place that imports nothing but the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

Point = tuple[float, float]
MM_PER_INCH = 25.4

#: Terrain kind -> terrain class (DESIGN.md table). Rulesets map classes/kinds to effects.
TERRAIN_CLASSES: dict[str, str] = {
    "wall": "tall",
    "building": "tall",
    "rocks": "tall",
    "woods": "area",
    "heavy_woods": "area",
    "brush": "area",
    "wheat_field": "area",
    "hedge": "line",
    "fence": "line",
    "low_wall": "line",
    "rough": "ground",
    "rubble": "ground",
    "water": "water",
    "river": "water",
    "stream": "water",
    "hill": "elevation",
    "road": "road",
}
TERRAIN_KINDS = tuple(TERRAIN_CLASSES)

#: How far (inches) sight may enter area terrain before it is blocked (DESIGN.md).
AREA_SIGHT_DEPTH = 2.0
#: How close (inches) behind area/line terrain a model must be to claim its cover.
COVER_PROXIMITY = 2.0


class Footprint(NamedTuple):
    """A base on the table: centre (in), facing (deg CCW from east), base size (mm).

    ``base`` is a diameter for a round base or ``(width, depth)`` for a rectangle whose
    width runs across the model's front.
    """

    x: float
    y: float
    facing: float
    base: float | tuple[float, float]


def base_is_round(base: float | tuple[float, float]) -> bool:
    return not isinstance(base, (tuple, list))


_SIZE: dict[float | tuple[float, float], tuple[float, float]] = {}
_RADIUS: dict[float | tuple[float, float], float] = {}


def base_size_in(base: float | tuple[float, float]) -> tuple[float, float]:
    """(width, depth) of a base in inches; a round base gives (diameter, diameter).
    Memoised: a game has a handful of base sizes and measuring asks millions of times."""
    key = tuple(base) if isinstance(base, list) else base
    got = _SIZE.get(key)
    if got is None:
        if base_is_round(base):
            d = float(base) / MM_PER_INCH  # type: ignore[arg-type]
            got = (d, d)
        else:
            w, d = base  # type: ignore[misc]
            got = (float(w) / MM_PER_INCH, float(d) / MM_PER_INCH)
        _SIZE[key] = got
    return got


def base_radius_in(base: float | tuple[float, float]) -> float:
    """Radius of the base's bounding circle in inches (half the diagonal for rectangles)."""
    key = tuple(base) if isinstance(base, list) else base
    got = _RADIUS.get(key)
    if got is None:
        w, d = base_size_in(base)
        got = w / 2 if base_is_round(base) else ((w / 2) ** 2 + (d / 2) ** 2) ** 0.5
        _RADIUS[key] = got
    return got


#: terrain coordinates nearer zero than this (inches) are zero (``TerrainFeature``)
_FLUSH = 1e-12


@dataclass(frozen=True)
class TerrainFeature:
    """One piece of terrain: a polygon (inches) of one kind; hills carry a height."""

    id: str
    kind: str
    polygon: tuple[Point, ...]
    height: float = 0.0

    def __post_init__(self) -> None:
        # A coordinate within _FLUSH of zero is zero. Why: a subnormal vertex (5e-324,
        # found by hypothesis) made GEOS's overlay raise and the batched and exact sight
        # measures disagree, though no table can tell it from 0.
        if any(0.0 < abs(v) < _FLUSH for p in self.polygon for v in p):
            flushed = tuple(
                (0.0 if abs(x) < _FLUSH else x, 0.0 if abs(y) < _FLUSH else y)
                for x, y in self.polygon
            )
            object.__setattr__(self, "polygon", flushed)

    @property
    def cls(self) -> str:
        return TERRAIN_CLASSES[self.kind]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "polygon": [list(p) for p in self.polygon],
        }
        if self.height:
            d["height"] = self.height
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TerrainFeature:
        return cls(
            id=str(d["id"]),
            kind=str(d["kind"]),
            polygon=tuple((float(x), float(y)) for x, y in d["polygon"]),
            height=float(d.get("height", 0.0)),
        )


@dataclass(frozen=True)
class Battlefield:
    """The table: its size in inches and the terrain on it. Static for a whole game."""

    width: float = 72.0
    depth: float = 48.0
    terrain: tuple[TerrainFeature, ...] = field(default_factory=tuple)
    name: str = ""

    def feature(self, fid: str) -> TerrainFeature:
        for f in self.terrain:
            if f.id == fid:
                return f
        raise KeyError(fid)

    def on_table(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.width and 0.0 <= y <= self.depth

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "depth": self.depth,
            "name": self.name,
            "terrain": [f.to_dict() for f in self.terrain],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Battlefield:
        return cls(
            width=float(d["width"]),
            depth=float(d["depth"]),
            name=str(d.get("name", "")),
            terrain=tuple(TerrainFeature.from_dict(t) for t in d.get("terrain", [])),
        )
