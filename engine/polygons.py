"""Small pure-Python segment and polygon maths for hot paths that cannot afford a shapely
call.

Why not engine.geometry: the physics service must not import shapely (DESIGN.md rule 2),
and a ruleset asking "is this point in water?" on every AI candidate is faster with a
few edge tests than with a round trip through GEOS. Exact figures (cover, sight, areas)
still come from ``engine.geometry``. Every ruleset used to carry its own copy of these
few functions; ``engine.table`` offers them to the rules, and this is the one copy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def point_in_polygon(x: float, y: float, poly: Sequence[Point]) -> bool:
    """Even-odd rule over the polygon's edges (simple polygons, as maps are made of)."""
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                inside = not inside
    return inside


def box_of(poly: Sequence[Point]) -> Box:
    """(x min, y min, x max, y max) of a polygon."""
    xs = [float(p[0]) for p in poly]
    ys = [float(p[1]) for p in poly]
    return min(xs), min(ys), max(xs), max(ys)


def boxes_meet(a: Box, b: Box, slack: float = 0.0) -> bool:
    """Do two boxes overlap or touch (within ``slack``)?"""
    return not (
        a[0] > b[2] + slack or a[2] < b[0] - slack or a[1] > b[3] + slack or a[3] < b[1] - slack
    )


def closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    """The point of the segment a-b nearest to p."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
    return (ax + t * dx, ay + t * dy)


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from a point to the segment a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    px, py = p[0] - a[0], p[1] - a[1]
    ll = dx * dx + dy * dy
    if ll > 0.0:
        t = min(1.0, max(0.0, (px * dx + py * dy) / ll))
        px, py = px - t * dx, py - t * dy
    return math.hypot(px, py)


def closest_point(p: Point, poly: Sequence[Point]) -> Point:
    """The point of the polygon's outline nearest to p (a move into cover needs the
    direction to it, not only the distance)."""
    best, out = math.inf, (float(poly[0][0]), float(poly[0][1]))
    n = len(poly)
    for i in range(n):
        q = closest_on_segment(p, poly[i], poly[(i + 1) % n])
        d = math.dist(p, q)
        if d < best:
            best, out = d, q
    return out


def polygon_distance(p: Point, poly: Sequence[Point]) -> float:
    """Distance from a point to a polygon: 0 inside, else to its outline."""
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


def crossing(a: Point, b: Point, c: Point, d: Point, clamp_end: bool = True) -> float | None:
    """Where along a->b (0 at a, 1 at b) it crosses the segment c->d, or None (parallel
    segments never cross here; see ``cuts`` for the shared stretch).

    ``clamp_end=False`` leaves a crossing within the 1e-12 tolerance past b unclamped
    (just over 1), as UMR's rough-ground measure has always counted it; the default
    clamps it to 1."""
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-12:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t = (qx * sy - qy * sx) / den
    u = (qx * ry - qy * rx) / den
    if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= u <= 1 + 1e-12:
        return min(1.0, max(0.0, t)) if clamp_end else max(0.0, t)
    return None


def cuts(p: Point, q: Point, a: Point, b: Point) -> list[float]:
    """Where along the line p->q (0 at p, 1 at q; not clipped) the segment a-b meets it:
    its crossing, or the ends of a shared stretch when the two lie on one line."""
    rx, ry = q[0] - p[0], q[1] - p[1]
    sx, sy = b[0] - a[0], b[1] - a[1]
    den = rx * sy - ry * sx
    wx, wy = a[0] - p[0], a[1] - p[1]
    rr = rx * rx + ry * ry
    if rr < 1e-18:
        return []
    if abs(den) < 1e-12 * max(1.0, rr):
        if abs(wx * ry - wy * rx) > 1e-9 * math.sqrt(rr):
            return []  # parallel, apart
        return [(wx * rx + wy * ry) / rr, ((b[0] - p[0]) * rx + (b[1] - p[1]) * ry) / rr]
    t = (wx * sy - wy * sx) / den
    u = (wx * ry - wy * rx) / den
    return [t] if -1e-12 <= u <= 1 + 1e-12 else []


def angle_diff(a: float, b: float) -> float:
    """Smallest absolute difference of two directions in degrees, 0..180."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def lerp(a: Point, b: Point, k: float) -> Point:
    """The point a fraction ``k`` of the way from a to b."""
    return (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)


def path_prefix(pts: Sequence[Point], length: float, slack: float = 1e-9) -> list[Point]:
    """The start of the path ``pts`` that is ``length`` inches long (straight measure).

    A corner within ``slack`` of the cut ends the prefix there; ``slack=0`` cuts exactly
    (UMR's rough-ground measure, which keeps the corner and a sliver past it)."""
    out: list[Point] = [(pts[0][0], pts[0][1])]
    left = length
    for a, b in zip(pts, pts[1:]):
        seg = math.dist(a, b)
        if seg >= left - slack:
            out.append(lerp(a, b, left / seg) if seg > 0 else (b[0], b[1]))
            return out
        out.append((b[0], b[1]))
        left -= seg
    return out
