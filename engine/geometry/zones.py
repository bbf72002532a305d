"""Front, flank and rear zones of a base (GEM's charge and attack zones)."""

from __future__ import annotations

import shapely

from engine.battlefield import (
    Footprint,
    base_is_round,
    base_radius_in,
    base_size_in,
)
from engine.geometry._common import ZONE_TOL, Point, _cos_sin
from engine.geometry.bases import _fp_vertices


def _zone_frame(target: Footprint) -> tuple[float, float, float]:
    """(ux, uy, h): facing unit vector and the distance from the centre to the front/rear
    lines (half the depth of a rectangle, the radius of a round base)."""
    c, s = _cos_sin(target.facing)
    if base_is_round(target.base):
        h = base_radius_in(target.base)
    else:
        h = base_size_in(target.base)[1] / 2
    return c, s, h


def zone_point(target: Footprint, p: Point) -> str:
    """The zone of the target a point lies in: "front", "flank" or "rear".

    Front is strictly beyond the line of the front edge, rear strictly beyond the rear
    edge's line, flank the closed strip between them, so the three partition the plane.
    """
    ux, uy, h = _zone_frame(target)
    s = (p[0] - target.x) * ux + (p[1] - target.y) * uy
    if s > h:
        return "front"
    if s < -h:
        return "rear"
    return "flank"


def zone_of(target: Footprint, attacker: Footprint) -> str:
    """The target's zone the attacker's WHOLE base is in, else "none" (straddling).

    The lines count as inside within ``ZONE_TOL`` so that an attacker in base contact with
    the target's front edge is in its front zone (DESIGN: GEM draws the zones so).

    A target facing north; attackers in base contact at its front, beside it, behind it,
    and one straddling the line of its front edge:

    >>> from engine.battlefield import Footprint
    >>> target = Footprint(10, 10, 90, 25.4)
    >>> spots = [(10, 11), (11.2, 10), (10, 8.9), (10, 10.9)]
    >>> [zone_of(target, Footprint(x, y, 0, 25.4)) for x, y in spots]
    ['front', 'flank', 'rear', 'none']
    """
    ux, uy, h = _zone_frame(target)
    if base_is_round(attacker.base):
        sc = (attacker.x - target.x) * ux + (attacker.y - target.y) * uy
        ra = base_radius_in(attacker.base)
        lo, hi = sc - ra, sc + ra
    else:
        v = _fp_vertices([attacker], 4)[0]
        s = (v[:, 0] - target.x) * ux + (v[:, 1] - target.y) * uy
        lo, hi = float(s.min()), float(s.max())
    if lo >= h - ZONE_TOL:
        return "front"
    if hi <= -h + ZONE_TOL:
        return "rear"
    if lo >= -h - ZONE_TOL and hi <= h + ZONE_TOL:
        return "flank"
    return "none"


def _rings(geom: shapely.Geometry) -> list[list[Point]]:
    """Exterior rings of the polygons in a geometry, without the closing vertex."""
    out: list[list[Point]] = []
    for part in shapely.get_parts(geom):
        if isinstance(part, shapely.Polygon) and not part.is_empty and part.area > 0:
            ring = list(part.exterior.coords)[:-1]
            out.append([(float(x), float(y)) for x, y in ring])
        elif isinstance(part, (shapely.MultiPolygon, shapely.GeometryCollection)):
            out.extend(_rings(part))
    return out


def zone_polygons(target: Footprint, extent: float) -> dict[str, list[list[Point]]]:
    """The target's front/flank/rear zones for drawing, clipped to the square of half-size
    ``extent`` around its centre. Each zone is a list of polygons (usually one)."""
    ux, uy, h = _zone_frame(target)
    vx, vy = -uy, ux
    cx, cy = target.x, target.y
    big = 4.0 * extent + 4.0 * h + 1.0
    square = shapely.box(cx - extent, cy - extent, cx + extent, cy + extent)

    def band(s0: float, s1: float) -> shapely.Polygon:
        pts = [
            (cx + s * ux + t * vx, cy + s * uy + t * vy)
            for s, t in ((s0, -big), (s1, -big), (s1, big), (s0, big))
        ]
        return shapely.Polygon(pts)

    return {
        "front": _rings(shapely.intersection(square, band(h, big))),
        "flank": _rings(shapely.intersection(square, band(-h, h))),
        "rear": _rings(shapely.intersection(square, band(-big, -h))),
    }
