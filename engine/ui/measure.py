"""The window's view of the geometry service: the rules' own measures as plain tuples.

Why an adapter: ``engine.geometry`` is the only place that measures sight, cover,
zones, arcs and templates, and the window must show exactly what the rules measure. So
every measure here *is* the service's answer (no approximation of its own): a failure
raises, and the battle screen reports it instead of drawing something else. What stays
local is drawing and picking arithmetic on one base (its outline, whether a click lands
on it), which measures nothing the rules decide. Results are plain lists and tuples of
floats, never library objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine import geometry
from engine.battlefield import Footprint, base_is_round, base_size_in
from engine.polygons import point_in_polygon
from engine.ruleset import Context

Point = tuple[float, float]
Polygon = list[Point]

__all__ = [
    "Sight",
    "SightView",
    "arc_wedge",
    "contains",
    "distance",
    "outline",
    "path_length",
    "point_in_polygon",
    "radius",
    "rim_points",
    "template",
    "turn_arcs",
    "zones",
]


# --- one base: drawing and picking ----------------------------------------------------------


def outline(fp: Footprint, segments: int = 24) -> Polygon:
    """The base's outline in inches (a circle as ``segments`` points, a rectangle as 4)."""
    x, y, facing, base = fp
    w, d = base_size_in(base)
    if base_is_round(base):
        r = w / 2
        return [
            (
                x + r * math.cos(2 * math.pi * k / segments),
                y + r * math.sin(2 * math.pi * k / segments),
            )
            for k in range(segments)
        ]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    pts = []
    for fx, fy in ((d / 2, w / 2), (-d / 2, w / 2), (-d / 2, -w / 2), (d / 2, -w / 2)):
        pts.append((x + fx * c - fy * s, y + fx * s + fy * c))
    return pts


def contains(fp: Footprint, px: float, py: float, pad: float = 0.0) -> bool:
    """Whether the point (inches) lies on the base (grown by ``pad`` inches): picking."""
    x, y, facing, base = fp
    w, d = base_size_in(base)
    if base_is_round(base):
        return math.hypot(px - x, py - y) <= w / 2 + pad
    c, s = math.cos(math.radians(-facing)), math.sin(math.radians(-facing))
    lx = (px - x) * c - (py - y) * s
    ly = (px - x) * s + (py - y) * c
    return abs(lx) <= d / 2 + pad and abs(ly) <= w / 2 + pad


def radius(base: float | tuple[float, float]) -> float:
    """Half the base's smaller side: how far from the centre the edge surely is."""
    w, d = base_size_in(base)
    return min(w, d) / 2


# --- the service's measures -------------------------------------------------------------------


def distance(a: Footprint, b: Footprint) -> float:
    """Edge-to-edge distance in inches (``engine.geometry.distance``)."""
    return float(geometry.distance(a, b))


def path_length(points: Sequence[Point]) -> float:
    return float(geometry.path_length(list(points)))


def arc_wedge(fp: Footprint, arc_deg: float, reach: float) -> Polygon:
    """The fire-arc wedge centred on the facing, ``reach`` inches long."""
    return [(float(x), float(y)) for x, y in geometry.arc_wedge(fp, arc_deg, reach)]


def zones(fp: Footprint, extent: float = 8.0) -> dict[str, list[Polygon]]:
    """Front, flank and rear zones of a base (each a list of polygons); both flanks are
    drawn alike, so 'left'/'right' or 'flank_*' fold into 'flank'."""
    out: dict[str, list[Polygon]] = {}
    for k, polys in geometry.zone_polygons(fp, extent).items():
        key = str(k)
        key = "flank" if key.startswith("flank") or key in ("left", "right") else key
        out.setdefault(key, []).extend([[(float(x), float(y)) for x, y in p] for p in polys])
    return out


def template(centre: Point, r: float) -> Polygon:
    return [(float(x), float(y)) for x, y in geometry.template_outline(centre, r)]


def turn_arcs(fp: Footprint, turn_radius: float, sweep_deg: float = 90.0) -> list[list[Point]]:
    """The two arcs (left and right) a vehicle can follow at ``turn_radius`` inches."""
    return [
        [
            (float(p[0]), float(p[1]))
            for p in geometry.turn_poses(fp.x, fp.y, fp.facing, turn_radius, sign * sweep_deg)
        ]
        for sign in (1, -1)
    ]


# --- sight ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SightView:
    """What the window needs of a line of sight (see ``Geometry.sight``)."""

    fraction: float
    soft: bool
    hard: bool
    distance: float
    blockers: tuple[str, ...] = ()
    shadow: tuple[Polygon, ...] = ()


class Sight:
    """Sight on one battlefield through the game's own ``Geometry`` (the one the rules
    memoise sight in), with the hidden part of the target for drawing.

    Why a cache here too: the shadow outline is the window's alone and costs shapely
    work; the key holds both footprints, so a model that moved is measured afresh."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._cache: dict[tuple[tuple[object, ...], tuple[object, ...]], SightView] = {}

    def sight(self, a: Footprint, b: Footprint) -> SightView:
        key = (tuple(a), tuple(b))
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 4096:
                self._cache.clear()
            hit = self._cache[key] = self._measure(a, b)
        return hit

    def _measure(self, a: Footprint, b: Footprint) -> SightView:
        geo = self.ctx.geo
        s = geo.sight(a, b)
        shadow = tuple([(float(x), float(y)) for x, y in p] for p in geo.shadow_outline(a, b))
        return SightView(
            float(s.visible),
            bool(s.soft_cover),
            bool(s.hard_cover),
            float(s.distance),
            tuple(str(x) for x in s.blockers),
            shadow,
        )


def rim_points(observer: Point, fp: Footprint, n: int = 5) -> list[Point]:
    """``n`` points across the target base as seen from ``observer`` (tangent to tangent),
    where the window draws its fan of sight lines."""
    dx, dy = fp.x - observer[0], fp.y - observer[1]
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d, dx / d
    w, dd = base_size_in(fp.base)
    half = (w if base_is_round(fp.base) else max(w, dd)) / 2 * 0.92
    pts = []
    for k in range(n):
        t = -1 + 2 * k / (n - 1) if n > 1 else 0.0
        pts.append((fp.x + px * half * t, fp.y + py * half * t))
    if not base_is_round(fp.base):
        poly = outline(fp)
        pts = [p if point_in_polygon(p[0], p[1], poly) else (fp.x, fp.y) for p in pts]
    return pts
