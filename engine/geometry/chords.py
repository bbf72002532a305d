"""Lines of sight through a convex polygon: the kernel of an outline, and a lower bound
on how far every line from an eye to a round base runs inside a convex polygon.

Why apart: the proof that woods hide a target (``engine.geometry.proofs``) needs these
plane figures alone, and they read better on their own than among the proofs.
"""

from __future__ import annotations

import math
from typing import Any

from engine.polygons import point_segment_distance


def rel_angle(dx: float, dy: float, theta: float) -> float:
    """The angle of (dx, dy) less ``theta``, in (-pi, pi]."""
    a = math.atan2(dy, dx) - theta
    if a > math.pi:
        a -= 2 * math.pi
    elif a <= -math.pi:
        a += 2 * math.pi
    return a


def kernel(poly: Any) -> tuple[tuple[float, float], ...]:
    """The kernel of an outline: the points on the inner side of every edge's line (the
    outline taken counter-clockwise), a convex polygon inside the outline (empty when
    the outline is not star-shaped). A line of sight runs at least as far inside the
    outline as inside its kernel."""
    pts = [(float(x), float(y)) for x, y in poly]
    n = len(pts)
    area2 = sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))
    if area2 < 0:
        pts.reverse()
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    out = [(min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys))]
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        ux, uy = b[0] - a[0], b[1] - a[1]
        if ux == 0 and uy == 0:
            continue

        clipped: list[tuple[float, float]] = []
        for j in range(len(out)):
            p, q = out[j], out[(j + 1) % len(out)]
            sp = ux * (p[1] - a[1]) - uy * (p[0] - a[0])
            sq = ux * (q[1] - a[1]) - uy * (q[0] - a[0])
            if sp >= 0:
                clipped.append(p)
            if (sp >= 0) != (sq >= 0):
                k = sp / (sp - sq)
                clipped.append((p[0] + (q[0] - p[0]) * k, p[1] + (q[1] - p[1]) * k))
        out = clipped
        if len(out) < 3:
            return ()
    return tuple(out)


def least_chord(
    k: tuple[tuple[float, float], ...],
    ex: float,
    ey: float,
    theta: float,
    beta: float,
    reach: float,
    target: tuple[float, float],
    radius: float,
) -> float:
    """A lower bound on the length inside the convex polygon ``k`` (counter-clockwise)
    of every line of sight from the eye to a point of the base (``target``, ``radius``)
    at angles within ``beta`` of ``theta``; 0 when ``k`` does not span all those angles
    or a line may reach the base (nearer than ``reach``) before entering ``k``. Why a
    bound: such a line enters through an edge facing the eye, within those angles, and
    runs inside to an edge facing away or to its end in the base; so it is at least as
    long as the least distance from the first chain of edges (cut to the angles) to the
    second or to the base."""
    n = len(k)
    if n < 3:
        return 0.0
    rel = [rel_angle(x - ex, y - ey, theta) for x, y in k]
    if min(rel) >= -beta or max(rel) <= beta or max(rel) - min(rel) >= math.pi:
        return 0.0  # not every line crosses it (or the eye is in or behind it)
    front: list[tuple[tuple[float, float], tuple[float, float]]] = []
    back: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for i in range(n):
        j = (i + 1) % n
        a, b = k[i], k[j]
        facing = (b[0] - a[0]) * (ey - a[1]) - (b[1] - a[1]) * (ex - a[0])
        if facing == 0:
            continue  # seen edge-on: its ends belong to its neighbours too
        cut = _cut(a, b, rel[i], rel[j], ex, ey, theta, beta)
        if cut is not None:
            (front if facing < 0 else back).append(cut)
    if not front or not back:
        return 0.0
    r2 = reach * reach
    for p, q in front:
        if (p[0] - ex) ** 2 + (p[1] - ey) ** 2 >= r2 or (q[0] - ex) ** 2 + (q[1] - ey) ** 2 >= r2:
            return 0.0  # a line may reach the target before it enters
    # each line enters through ``front`` before the target's base, then runs inside to
    # where it leaves through ``back`` or to its end in the base, whichever comes first
    to_base = min(point_segment_distance(target, p, q) for p, q in front) - radius
    return min(
        to_base,
        min(
            min(
                point_segment_distance(p, *g),
                point_segment_distance(q, *g),
                point_segment_distance(g[0], p, q),
                point_segment_distance(g[1], p, q),
            )
            for p, q in front
            for g in back
        ),
    )


def _cut(
    a: tuple[float, float],
    b: tuple[float, float],
    ra: float,
    rb: float,
    ex: float,
    ey: float,
    theta: float,
    beta: float,
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of edge a-b (seen at relative angles ra, rb) within ``beta`` of ``theta``."""
    if ra > rb:
        a, b, ra, rb = b, a, rb, ra
    if rb < -beta or ra > beta:
        return None
    return (
        a if ra >= -beta else _at(a, b, ex, ey, theta - beta),
        b if rb <= beta else _at(a, b, ex, ey, theta + beta),
    )


def _at(
    a: tuple[float, float], b: tuple[float, float], ex: float, ey: float, phi: float
) -> tuple[float, float]:
    """Where the line of sight at angle ``phi`` crosses the line a-b."""
    ux, uy = math.cos(phi), math.sin(phi)
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = ux * dy - uy * dx
    if den == 0:
        return a
    t = -(ux * (a[1] - ey) - uy * (a[0] - ex)) / den
    t = min(1.0, max(0.0, t))
    return (a[0] + dx * t, a[1] + dy * t)
