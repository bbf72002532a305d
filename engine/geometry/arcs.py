"""Fire arcs: bearings and whether a base is (partly or wholly) inside a wedge."""

from __future__ import annotations

import math

import shapely

from engine.battlefield import (
    Footprint,
    base_is_round,
    base_radius_in,
)
from engine.geometry._common import Point, _cos_sin, _cross, _norm_deg
from engine.geometry.bases import _fp_geom


def bearing(a: Point, b: Point) -> float:
    """Direction from a to b in degrees counter-clockwise from east, in [0, 360)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        return 0.0
    return _norm_deg(math.degrees(math.atan2(dy, dx)))


def _disc_wedge_dist(p: tuple[float, float], u: tuple[float, float], half: float) -> float:
    """Distance from a point (relative to the apex) to a convex wedge (half-angle <= 90)."""
    px, py = p
    n = math.hypot(px, py)
    if n == 0.0:
        return 0.0
    ch = math.cos(math.radians(half))
    if px * u[0] + py * u[1] >= n * ch - 1e-15 * n:
        return 0.0
    best = n
    for sgn in (-1.0, 1.0):
        c, s = math.cos(math.radians(sgn * half)), math.sin(math.radians(sgn * half))
        dx, dy = u[0] * c - u[1] * s, u[0] * s + u[1] * c
        t = px * dx + py * dy
        if t > 0:
            best = min(best, abs(_cross(dx, dy, px, py)))
    return best


def _disc_inside_wedge(
    p: tuple[float, float], u: tuple[float, float], half: float, r: float, tol: float
) -> bool:
    """Whether a disc (centre relative to apex) lies in a convex wedge (half <= 90)."""
    if half <= 0.0:
        return r <= tol and _disc_wedge_dist(p, u, 0.0) <= tol
    c, s = math.cos(math.radians(half)), math.sin(math.radians(half))
    d1 = (u[0] * c + u[1] * s, -u[0] * s + u[1] * c)  # right boundary ray
    d2 = (u[0] * c - u[1] * s, u[0] * s + u[1] * c)  # left boundary ray
    inside1 = _cross(d1[0], d1[1], p[0], p[1]) >= r - tol
    inside2 = _cross(p[0], p[1], d2[0], d2[1]) >= r - tol
    return inside1 and inside2


def arc_wedge(
    shooter: Footprint, arc_deg: float, radius: float, offset_deg: float = 0.0
) -> list[Point]:
    """Polygon of a fire arc for drawing: apex at the base centre, arc sampled every <= 5
    degrees; an arc of 360 degrees or more is the full circle (no apex)."""
    cx, cy = shooter.x, shooter.y
    mid = shooter.facing + offset_deg
    if arc_deg >= 360.0:
        n = 72
        pts = []
        for k in range(n):
            c, s = _cos_sin(mid + 360.0 * k / n)
            pts.append((cx + radius * c, cy + radius * s))
        return pts
    arc = max(arc_deg, 0.0)
    steps = max(1, math.ceil(arc / 5.0))
    pts = [(cx, cy)]
    for k in range(steps + 1):
        c, s = _cos_sin(mid - arc / 2 + arc * k / steps)
        pts.append((cx + radius * c, cy + radius * s))
    return pts


def in_arc(
    shooter: Footprint,
    target: Footprint,
    arc_deg: float,
    offset_deg: float = 0.0,
    whole: bool = False,
) -> bool:
    """Whether a target is in a fire arc.

    The arc is a wedge of total angle ``arc_deg`` centred on ``shooter.facing +
    offset_deg`` with its apex at the shooter's centre. True when any part of the target's
    base is in the (closed) wedge, or with ``whole`` when all of it is. Round targets are
    exact discs; rectangles are tested as polygons. ``arc_deg >= 360`` is always True.

    A gun facing east with a 90-degree arc; a base whose centre is just outside the
    arc's 45-degree edge is partly in it, not wholly; one behind the gun is not in it:

    >>> from engine.battlefield import Footprint
    >>> gun, edge = Footprint(0, 0, 0, 25.4), Footprint(10, 10.5, 0, 25.4)
    >>> in_arc(gun, edge, 90), in_arc(gun, edge, 90, whole=True)
    (True, False)
    >>> in_arc(gun, Footprint(-10, 0, 0, 25.4), 90)
    False
    """
    if arc_deg >= 360.0:
        return True
    tol = 1e-9
    mid = shooter.facing + offset_deg
    if not base_is_round(target.base):
        far = math.hypot(target.x - shooter.x, target.y - shooter.y)
        far = 2.0 * (far + base_radius_in(target.base)) + 10.0
        wedge = shapely.Polygon(arc_wedge(shooter, arc_deg, far, offset_deg))
        if arc_deg <= 0.0:
            c, s = _cos_sin(mid)
            ray = shapely.LineString(
                [(shooter.x, shooter.y), (shooter.x + far * c, shooter.y + far * s)]
            )
            return (not whole) and bool(shapely.intersects(ray, _fp_geom(target)))
        rect = _fp_geom(target)
        if whole:
            return bool(shapely.covers(wedge, rect)) or shapely.difference(rect, wedge).area < tol
        return bool(shapely.intersects(wedge, rect))
    r = base_radius_in(target.base)
    p = (target.x - shooter.x, target.y - shooter.y)
    if arc_deg <= 180.0:
        u = _cos_sin(mid)
        half = max(arc_deg, 0.0) / 2
        if whole:
            return _disc_inside_wedge(p, u, half, r, tol)
        return _disc_wedge_dist(p, u, half) <= r + tol
    # A reflex wedge is the complement of a convex one: test against that instead.
    u = _cos_sin(mid + 180.0)
    half = (360.0 - arc_deg) / 2
    if whole:
        return _disc_wedge_dist(p, u, half) >= r - tol
    return not _disc_inside_wedge(p, u, half, r, -tol)
