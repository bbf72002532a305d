"""Base outlines in their own frame, convex hulls, and the exact contact distance.

Why apart: charge packing needs, for every direction round a target, how far a charger's
centre must stand to touch it; that is a ray leaving a Minkowski sum, plain maths with
no pymunk in it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.battlefield import Footprint, base_is_round, base_radius_in, base_size_in
from engine.physics._common import Point


def _local_corners(base: float | tuple[float, float], grow: float = 0.0) -> list[Point]:
    """Corners of a rectangular base in its own frame, front edge on local +x, CCW."""
    w, d = base_size_in(base)
    hd, hw = d / 2 + grow, w / 2 + grow
    return [(hd, -hw), (hd, hw), (-hd, hw), (-hd, -hw)]


def _world_corners(fp: Footprint) -> list[Point]:
    c, s = math.cos(math.radians(fp.facing)), math.sin(math.radians(fp.facing))
    return [(fp.x + c * u - s * v, fp.y + s * u + c * v) for u, v in _local_corners(fp.base)]


def _convex_hull(points: Iterable[Point]) -> list[Point]:
    """Counter-clockwise convex hull (monotone chain); collinear points dropped."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def half(seq: list[Point]) -> list[Point]:
        out: list[Point] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    return lower[:-1] + upper[:-1]


def _inscribed_radius(base: float | tuple[float, float]) -> float:
    """Radius of the largest circle round the centre that fits inside the base."""
    return min(base_size_in(base)) / 2.0


def _outline(base: float | tuple[float, float], facing: float) -> tuple[list[Point], float]:
    """A base centred on the origin as (convex polygon, rounding radius): a round base is
    the point (0, 0) grown by its radius, a rectangle its corners grown by nothing."""
    if base_is_round(base):
        return [(0.0, 0.0)], base_radius_in(base)
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return [(c * u - s * v, s * u + c * v) for u, v in _local_corners(base)], 0.0


def _ray_exit(hull: list[Point], radius: float, ux: float, uy: float) -> float:
    """How far a ray from the origin along (ux, uy) runs inside hull grown by radius.

    The grown hull is convex and holds the origin, so the ray leaves it once, at the
    farthest exit over its parts: the hull itself, each edge pushed out by radius, and a
    disc of that radius round each vertex.
    """
    n = len(hull)
    best = 0.0
    if n >= 3:
        exit_hull = math.inf
        for i in range(n):
            (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
            ex, ey = bx - ax, by - ay
            length = math.hypot(ex, ey)
            nx, ny = ey / length, -ex / length  # outward normal of a CCW edge
            c = nx * ax + ny * ay
            dn = nx * ux + ny * uy
            if dn > 1e-15:
                exit_hull = min(exit_hull, c / dn)
                if radius > 0.0:
                    d = (c + radius) / dn
                    s = ((d * ux - ax) * ex + (d * uy - ay) * ey) / (length * length)
                    if 0.0 <= s <= 1.0:
                        best = max(best, d)
        if math.isfinite(exit_hull):
            best = max(best, exit_hull)
    if radius > 0.0:
        for vx, vy in hull:
            b = vx * ux + vy * uy
            disc = b * b - (vx * vx + vy * vy - radius * radius)
            if disc >= 0.0:
                best = max(best, b + math.sqrt(disc))
    return best


def _contact_distance(target: Footprint, base: float | tuple[float, float], theta: float) -> float:
    """How far from the target's centre, along direction theta, a base facing the target
    stops overlapping it: where the ray leaves the Minkowski sum of the target and the
    mirrored base (convex, so exact and unique)."""
    ta, ra = _outline(target.base, target.facing)
    tb, rb = _outline(base, math.degrees(theta) + 180.0)
    hull = _convex_hull((ax - bx, ay - by) for ax, ay in ta for bx, by in tb)
    return _ray_exit(hull, ra + rb, math.cos(theta), math.sin(theta))
