"""How UMR reads the table's terrain, and the pure-Python measures the movement rules
need: which terrain a point lies in, how far a model gets along a path when water costs
double, whether a path meets rough ground or runs into a tall feature.

Why pure Python here: these questions are asked on every move check and every AI
candidate; a few polygon edge tests per path are cheaper than a round trip through
shapely, and the answers (where along the path the water starts) are ours, not the
geometry service's. Sight and base overlap still come from ``engine.geometry``.

Readings (units.toml ``[terrain]``, UMR-MOVEMENT and UMR-I-TERRAIN): rough ground, rubble
and heavy woods are rough (-1 to a movement roll); water, river and stream are swum at
half speed; wall, building and rocks cannot be walked through but can be climbed; all
other kinds (woods, brush, wheat field, hedge, fence, low wall, hill, road) are clear.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.battlefield import Battlefield, TerrainFeature
from engine.polygons import point_in_polygon

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


def _cross_t(a: Point, b: Point, c: Point, d: Point) -> float | None:
    """Parameter t on a->b where it crosses segment c->d, or None."""
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-12:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t = (qx * sy - qy * sx) / den
    u = (qx * ry - qy * rx) / den
    if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= u <= 1 + 1e-12:
        return min(1.0, max(0.0, t))
    return None


def dist_to_polygon(p: Point, poly: Sequence[Point]) -> float:
    """Distance from a point to a polygon's boundary (0 inside counts as 0)."""
    if point_in_polygon(p[0], p[1], poly):
        return 0.0
    best = math.inf
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        best = min(best, math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy))
    return best


@dataclass
class _Piece:
    feature: TerrainFeature
    box: tuple[float, float, float, float]


@dataclass
class Leg:
    """One stretch of a walked path: from, to, its length and whether it was swum."""

    a: Point
    b: Point
    length: float
    water: bool


@dataclass
class Walk:
    """How far a model gets along a path with a movement allowance."""

    end: Point
    travelled: float
    swum: float
    complete: bool
    legs: list[Leg] = field(default_factory=list)


class TerrainIndex:
    """The battlefield's terrain sorted into UMR's readings, with bounding boxes."""

    def __init__(self, battlefield: Battlefield, readings: Readings) -> None:
        self.bf = battlefield
        self.readings = readings
        self.rough: list[_Piece] = []
        self.water: list[_Piece] = []
        self.tall: list[_Piece] = []
        for f in battlefield.terrain:
            xs = [p[0] for p in f.polygon]
            ys = [p[1] for p in f.polygon]
            piece = _Piece(f, (min(xs), min(ys), max(xs), max(ys)))
            if f.kind in readings.rough:
                self.rough.append(piece)
            if f.kind in readings.water:
                self.water.append(piece)
            if f.kind in readings.tall:
                self.tall.append(piece)

    @staticmethod
    def _at(pieces: list[_Piece], x: float, y: float) -> TerrainFeature | None:
        for pc in pieces:
            x0, y0, x1, y1 = pc.box
            if x0 <= x <= x1 and y0 <= y <= y1 and point_in_polygon(x, y, pc.feature.polygon):
                return pc.feature
        return None

    def in_water(self, p: Point) -> TerrainFeature | None:
        return self._at(self.water, p[0], p[1])

    def in_rough(self, p: Point) -> TerrainFeature | None:
        return self._at(self.rough, p[0], p[1])

    def tall_at(self, p: Point) -> TerrainFeature | None:
        return self._at(self.tall, p[0], p[1])

    def tall_feature(self, fid: str) -> TerrainFeature | None:
        for pc in self.tall:
            if pc.feature.id == fid:
                return pc.feature
        return None

    @staticmethod
    def _near(pc: _Piece, a: Point, b: Point) -> bool:
        x0, y0, x1, y1 = pc.box
        return not (
            max(a[0], b[0]) < x0
            or min(a[0], b[0]) > x1
            or max(a[1], b[1]) < y0
            or min(a[1], b[1]) > y1
        )

    def _cuts(self, pieces: list[_Piece], a: Point, b: Point) -> list[float]:
        ts = []
        for pc in pieces:
            if not self._near(pc, a, b):
                continue
            poly = pc.feature.polygon
            for i in range(len(poly)):
                t = _cross_t(a, b, poly[i], poly[(i + 1) % len(poly)])
                if t is not None:
                    ts.append(t)
        return ts

    def first_touched(self, pieces: list[_Piece], path: Sequence[Point]) -> TerrainFeature | None:
        """The first feature among ``pieces`` the path's centre line enters or starts in."""
        if not path:
            return None
        f = self._at(pieces, *path[0])
        if f is not None:
            return f
        for a, b in zip(path, path[1:]):
            best: tuple[float, TerrainFeature] | None = None
            for pc in pieces:
                if not self._near(pc, a, b):
                    continue
                poly = pc.feature.polygon
                for i in range(len(poly)):
                    t = _cross_t(a, b, poly[i], poly[(i + 1) % len(poly)])
                    if t is not None and (best is None or t < best[0]):
                        best = (t, pc.feature)
            if best is not None:
                return best[1]
        return None

    def rough_on(self, path: Sequence[Point]) -> TerrainFeature | None:
        """Rough ground the path starts in or crosses (UMR-ROUGH: -1 to the roll)."""
        return self.first_touched(self.rough, path)

    def tall_on(self, path: Sequence[Point]) -> TerrainFeature | None:
        """A tall feature (wall, building, rocks) the path's centre line runs into."""
        return self.first_touched(self.tall, path)

    def walk(self, path: Sequence[Point], allowance: float) -> Walk:
        """Go along ``path`` spending ``allowance`` inches; water costs two per inch
        (UMR-SWIMMING). Returns where the allowance runs out (or the path ends)."""
        left = max(0.0, allowance)
        travelled = swum = 0.0
        legs: list[Leg] = []
        here = path[0]
        for a, b in zip(path, path[1:]):
            seg = math.dist(a, b)
            if seg < 1e-12:
                continue
            ts = sorted({0.0, 1.0, *self._cuts(self.water, a, b)})
            for t0, t1 in zip(ts, ts[1:]):
                if t1 - t0 < 1e-12:
                    continue
                mid = (a[0] + (b[0] - a[0]) * (t0 + t1) / 2, a[1] + (b[1] - a[1]) * (t0 + t1) / 2)
                wet = self.in_water(mid) is not None
                cost = 2.0 if wet else 1.0
                length = seg * (t1 - t0)
                p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
                if length * cost <= left + 1e-9:
                    left -= length * cost
                    travelled += length
                    swum += length if wet else 0.0
                    here = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
                    legs.append(Leg(p0, here, length, wet))
                    continue
                part = left / cost
                frac = t0 + (t1 - t0) * part / length
                here = (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)
                travelled += part
                swum += part if wet else 0.0
                if part > 1e-9:
                    legs.append(Leg(p0, here, part, wet))
                return Walk(here, travelled, swum, False, legs)
        return Walk(here, travelled, swum, True, legs)

    def cost(self, path: Sequence[Point]) -> float:
        """The movement allowance needed to reach the end of ``path``."""
        w = self.walk(path, math.inf)
        return w.travelled + w.swum

    def length_inside(self, f: TerrainFeature, a: Point, b: Point) -> float:
        """Length of the straight line a->b that lies inside feature ``f``."""
        seg = math.dist(a, b)
        if seg < 1e-12:
            return 0.0
        poly = f.polygon
        ts = [0.0, 1.0]
        for i in range(len(poly)):
            t = _cross_t(a, b, poly[i], poly[(i + 1) % len(poly)])
            if t is not None:
                ts.append(t)
        ts = sorted(set(ts))
        inside = 0.0
        for t0, t1 in zip(ts, ts[1:]):
            m = (t0 + t1) / 2
            if point_in_polygon(a[0] + (b[0] - a[0]) * m, a[1] + (b[1] - a[1]) * m, poly):
                inside += seg * (t1 - t0)
        return inside


_INDEXES: dict[int, tuple[Battlefield, Readings, TerrainIndex]] = {}
_READINGS: list[Readings] = []


def readings() -> Readings:
    """UMR's terrain readings from units.toml (loaded once)."""
    if not _READINGS:
        import tomllib
        from pathlib import Path

        with (Path(__file__).parent / "units.toml").open("rb") as fh:
            _READINGS.append(Readings.from_catalog(tomllib.load(fh)))
    return _READINGS[0]


def table(ctx: Any) -> TerrainIndex:
    """The terrain index of the context's battlefield."""
    return index_for(ctx.battlefield, readings())


def index_for(battlefield: Battlefield, readings: Readings) -> TerrainIndex:
    """One index per battlefield (the terrain never changes during a game)."""
    hit = _INDEXES.get(id(battlefield))
    if hit is not None and hit[0] is battlefield and hit[1] is readings:
        return hit[2]
    idx = TerrainIndex(battlefield, readings)
    if len(_INDEXES) > 64:
        _INDEXES.clear()
    _INDEXES[id(battlefield)] = (battlefield, readings, idx)
    return idx
