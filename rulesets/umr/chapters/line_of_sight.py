"""A target the line of fire certainly cannot see (UMR-BALLISTIC: more than 3/4 hidden, no
shot), found without the geometry service's exact measure.

Why: a random or greedy player asks about many shots that turn out blocked, and the
exact visible fraction of a new pair (shapely shadows, sample points in woods) was the
costliest question of a UMR game (issue 24). Each test below is a sufficient condition
under which the geometry service's own answer is "wholly hidden" (visible 0, so below
1/4 whatever the rounding), with margins wider than its tolerances; when no test
proves it, the caller measures exactly as before. So the verdict never changes, only
how fast it comes.

* Behind a hill or tall terrain: from the eye, every ray toward the target's base
  crosses an edge of one blocking feature nearer than the base's nearest point (the
  union of those edges' angles covers the base's angle). A feature the eye stands in
  or on never blocks; a hill blocks only models both lower than it whose centres are
  off it (the geometry service's sight model, ``engine.geometry.sight``).
* Deep in woods: a target whose whole base lies more than the sight depth inside one
  area feature, or an eye as deep inside one, seen from (or looking) farther than that
  depth: every line of sight then runs more than the depth through it.
* Through woods: each area feature's kernel (a convex part of it) spans every line of
  sight, and the least run through the kernels, added up, exceeds the sight depth.
"""

from __future__ import annotations

import math
from typing import Any

from engine.battlefield import AREA_SIGHT_DEPTH, Footprint, base_is_round, base_radius_in
from engine.polygons import point_in_polygon, point_segment_distance
from engine.ruleset import Context

#: inches: a blocking edge must be this much nearer than the base, a point this much
#: deeper in woods than the sight depth, an eye this far off a feature it does not stand on
_MARGIN = 1e-3
#: radians of overlap asked of the blocking edges' angles at each side of the base
_ANGLE = 1e-7
#: the target's base grown as ``measure._open_view`` grows it (the geometry service's
#: round base is a 32-gon drawn round the circle)
_GROW, _SLACK = 1.01, 0.05


def _blockers(
    ctx: Context,
) -> tuple[tuple[tuple[float, float, float, float], Any, str, float], ...]:
    """(bounding box, outline, class, height) of the features that cast shadows (tall
    terrain and hills) and of area terrain, once per table."""
    return ctx.memo("umr.shadow_casters").get_or(
        "pieces",
        lambda: tuple(
            (b, f.polygon, f.cls, float(f.height or 0.0))
            for b, f in ctx.table.pieces()
            if f.cls in ("tall", "elevation", "area")
        ),
    )


def _edge_gap(p: tuple[float, float], poly: Any) -> float:
    """Distance from a point to a polygon's outline (inside or out)."""
    n = len(poly)
    return min(point_segment_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))


def hidden_for_sure(ctx: Context, fa: Footprint, fb: Footprint) -> bool:
    """True only when the geometry service would find ``fb``'s base wholly hidden from
    the eye ``fa`` (see the module docstring); False when it cannot tell."""
    if not base_is_round(fb.base):
        return False
    ex, ey, tx, ty = fa.x, fa.y, fb.x, fb.y
    d = math.hypot(tx - ex, ty - ey)
    r = base_radius_in(fb.base) * _GROW + _SLACK
    if d <= r + 4 * _MARGIN:
        return False
    near = d - r  # the base's nearest point from the eye
    reach = near - _MARGIN  # a blocking edge lies wholly nearer than this
    x0, y0 = min(ex, tx) - r, min(ey, ty) - r
    x1, y1 = max(ex, tx) + r, max(ey, ty) + r
    casters = []
    woods = []
    for piece in _blockers(ctx):
        (bx0, by0, bx1, by1), poly, cls, height = piece
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue
        if cls == "area":
            if near > _DEPTH and (_deep_in(piece, tx, ty, r) or _deep_in(piece, ex, ey, 0.0)):
                return True
            woods.append(piece)
        elif _box_gap(piece[0], ex, ey) < reach:
            casters.append(piece)
    if not casters and not woods:
        return False
    theta = math.atan2(ty - ey, tx - ex)
    alpha = math.asin(r / d)
    if woods and near > _DEPTH:
        run = 0.0
        for piece in woods:
            k = _kernel(ctx, piece[1])
            run += _least_chord(k, ex, ey, theta, alpha + _ANGLE, reach, (tx, ty), r)
            if run > _DEPTH:
                return True
    spans: list[tuple[float, float]] = []
    levels: tuple[float, float] | None = None
    for piece in casters:
        _, poly, cls, height = piece
        if _on(piece, ex, ey):
            continue  # the eye looks out of a feature it stands in or on
        if cls == "elevation":
            if _on(piece, tx, ty):
                continue  # a model on the hill is seen across it
            if levels is None:
                geo = ctx.table.geo
                levels = (geo.elevation_at((ex, ey)), geo.elevation_at((tx, ty)))
            if levels[0] >= height or levels[1] >= height:
                continue
        spans += _edge_spans(poly, ex, ey, theta, alpha, reach)
    return _covers(spans, alpha)


def _rel(dx: float, dy: float, theta: float) -> float:
    """The angle of (dx, dy) less ``theta``, in (-pi, pi]."""
    a = math.atan2(dy, dx) - theta
    if a > math.pi:
        a -= 2 * math.pi
    elif a <= -math.pi:
        a += 2 * math.pi
    return a


#: the sight depth (inches) a point must lie beyond inside woods, with the margin
_DEPTH = AREA_SIGHT_DEPTH + _MARGIN


def _box_gap(box: tuple[float, float, float, float], x: float, y: float) -> float:
    """Distance from a point to a box (0 inside): no edge inside the box is nearer."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _on(piece: tuple, x: float, y: float) -> bool:
    """The point is inside the feature or within ``_MARGIN`` of its outline."""
    (bx0, by0, bx1, by1), poly = piece[0], piece[1]
    if x < bx0 - _MARGIN or x > bx1 + _MARGIN or y < by0 - _MARGIN or y > by1 + _MARGIN:
        return False
    return point_in_polygon(x, y, poly) or _edge_gap((x, y), poly) <= _MARGIN


def _deep_in(piece: tuple, x: float, y: float, r: float) -> bool:
    """Every point within ``r`` of (x, y) lies deeper than the sight depth inside the
    area feature: then a line of sight to or from it that runs farther than the depth
    runs more than the depth inside it. A point that deep inside lies that far inside
    the feature's box too, which is tested first."""
    (bx0, by0, bx1, by1), poly = piece[0], piece[1]
    need = _DEPTH + r
    if min(x - bx0, bx1 - x, y - by0, by1 - y) <= need:
        return False
    return point_in_polygon(x, y, poly) and _edge_gap((x, y), poly) > need


def _edge_spans(
    poly: Any, ex: float, ey: float, theta: float, alpha: float, reach: float
) -> list[tuple[float, float]]:
    """The angles (relative to the line to the target's centre) of the polygon's edges
    that lie wholly nearer the eye than ``reach`` and face the base's angle."""
    ang: list[float | None] = []
    for q in poly:
        dx, dy = q[0] - ex, q[1] - ey
        if dx * dx + dy * dy >= reach * reach:
            ang.append(None)  # too far: its edges may pass behind the base
            continue
        ang.append(_rel(dx, dy, theta))
    out = []
    n = len(ang)
    for i in range(n):
        a, b = ang[i], ang[(i + 1) % n]
        if a is None or b is None:
            continue
        lo, hi = (a, b) if a <= b else (b, a)
        if hi - lo >= math.pi or hi < -alpha or lo > alpha:
            continue  # the edge runs behind the eye, or misses the base's angle
        out.append((lo, hi))
    return out


def _covers(spans: list[tuple[float, float]], alpha: float) -> bool:
    """Do the angle spans cover [-alpha, alpha] (with ``_ANGLE`` to spare at each end)?"""
    if not spans:
        return False
    spans.sort()
    reached = -alpha - _ANGLE
    for lo, hi in spans:
        if lo > reached:
            return False
        if hi > reached:
            reached = hi
            if reached > alpha + _ANGLE:
                return True
    return False


def _kernel(ctx: Context, poly: Any) -> tuple[tuple[float, float], ...]:
    """The kernel of an outline (counter-clockwise): the points on the inner side of
    every edge's line, a convex polygon inside the outline (empty when the outline is
    not star-shaped), once per table. A line of sight runs at least as far inside the
    outline as inside its kernel."""
    return ctx.memo("umr.kernels").get_or(poly, lambda: _clip_kernel(poly))


def _clip_kernel(poly: Any) -> tuple[tuple[float, float], ...]:
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


def _least_chord(
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
    rel = [_rel(x - ex, y - ey, theta) for x, y in k]
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
