"""Sight answered without the exact measure where a cheap proof settles it: a target
certainly wholly in view, or certainly wholly hidden, and the cover of a pair already
proven in view.

Why here: these proofs restate the sight model of :class:`engine.geometry.Geometry`
(its sight cone, its shadows, its woods' sight depth), so they belong beside it, where
a change of that model is seen; they were UMR's, whose shots ask about many pairs the
exact measure (shapely shadows, sample points in woods) would spend most of a game on
(issue 24). Each proof is a sufficient condition for the exact answer, with margins
wider than the exact measure's tolerances; where none proves anything the caller
measures exactly, so no verdict ever depends on which one answered.

* In view: no tall terrain comes within the target's reach of the line from the eye
  to the target's centre, nor a hill higher than both models stand, and any area
  terrain that does is too shallow along that line to hide. The sight cone (the hull
  of the eye and the base) lies within that reach of the line, so nothing else can
  hide any of the target.
* Behind a hill or tall terrain: from the eye, every ray toward the target's base
  crosses an edge of one blocking feature nearer than the base's nearest point (the
  union of those edges' angles covers the base's angle). A feature the eye stands in
  or on never blocks; a hill blocks only models both lower than it whose centres are
  off it.
* Deep in woods: a target whose whole base lies more than the sight depth inside one
  area feature, or an eye as deep inside one, seen from (or looking) farther than that
  depth: every line of sight then runs more than the depth through it.
* Out of woods: an eye inside area terrain whose every line of sight toward the base
  runs farther than the sight depth before it leaves it (the outline's nearest point
  inside the sight wedge is that far), the base lying farther still.
* Through woods: each area feature's kernel (a convex part of it) spans every line of
  sight, and the least run through the kernels, added up, exceeds the sight depth.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.battlefield import AREA_SIGHT_DEPTH, Footprint, base_is_round, base_radius_in
from engine.geometry._common import _AREA_CLASSES, _BLOCK_CLASSES
from engine.geometry.chords import kernel, least_chord, rel_angle
from engine.polygons import box_of, crossing, point_in_polygon, point_segment_distance

Box = tuple[float, float, float, float]
#: (bounding box, outline, class, height) of a feature that can hide part of a target
Piece = tuple[Box, Any, str, float]

#: inches: a blocking edge must be this much nearer than the base, a point this much
#: deeper in woods than the sight depth, an eye this far off a feature it does not stand on
_MARGIN = 1e-3
#: radians of overlap asked of the blocking edges' angles at each side of the base
_ANGLE = 1e-7
#: the target's base grown as the sight cone grows it (a round base's hull is a 32-gon
#: drawn round the circle), plus slack so that rounding can never clear a piece
_GROW, _SLACK = 1.01, 0.05
#: the sight depth (inches) a point must lie beyond inside woods, with the margin
_DEPTH = AREA_SIGHT_DEPTH + _MARGIN
#: the run through woods (inches) every line of sight must stay under to see through
_SHALLOW = AREA_SIGHT_DEPTH - _MARGIN
#: terrain classes that can hide part of a target: the blockers (tall terrain and hills)
#: and area terrain; hedges and walls only give cover
_HIDING = (*_BLOCK_CLASSES, *_AREA_CLASSES)


class _Proofs:
    """The proofs of :class:`engine.geometry.Geometry` (see the module docstring)."""

    battlefield: Any
    _hiding_pieces: tuple[Piece, ...] | None = None
    _tall_first_pieces: tuple[Piece, ...]
    _in_view: dict[tuple[Footprint, Footprint], bool]
    _kernels: dict[Any, tuple[tuple[float, float], ...]]

    if TYPE_CHECKING:  # the Geometry's own (``engine.geometry.tables``)

        def elevation_at(self, p: tuple[float, float]) -> float: ...

    def _hiders(self) -> tuple[Piece, ...]:
        """The features that can hide part of a target, in the battlefield's order."""
        got = self._hiding_pieces
        if got is None:
            got = self._hiding_pieces = tuple(
                (box_of(f.polygon), f.polygon, f.cls, float(f.height or 0.0))
                for f in self.battlefield.terrain
                if f.polygon and f.cls in _HIDING
            )
        return got

    def _tall_first(self) -> tuple[Piece, ...]:
        """``_hiders``, tall terrain first, then hills, then area terrain (each in the
        battlefield's order): a tall feature near the line settles ``surely_in_view``
        at once, the others only when all are looked at."""
        got: tuple[Piece, ...] | None = self.__dict__.get("_tall_first_pieces")
        if got is None:
            rank = {"tall": 0, "elevation": 1}
            got = self._tall_first_pieces = tuple(
                sorted(self._hiders(), key=lambda p: rank.get(p[2], 2))
            )
        return got

    def surely_in_view(self, observer: Footprint, target: Footprint) -> bool:
        """True only when no terrain can hide any of ``target``'s base from the eye at
        ``observer`` (the sight's visible fraction is then 1, with no blockers): every
        feature that can hide and comes within the base's reach of the line from the
        eye to its centre is a hill no higher than where one of them stands, or area
        terrain that no line of sight runs through (all of them added up) farther than
        the sight depth (``_run_bound``). False when it cannot tell. Remembered per
        pair: a shot's check asks it, and its line of fire (``quick_sight``) again."""
        memo: dict[tuple[Footprint, Footprint], bool] | None = self.__dict__.get("_in_view")
        if memo is None or len(memo) > 50_000:
            memo = self._in_view = {}
        key = (observer, target)
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._in_view_proof(observer, target)
        return got

    def _in_view_proof(self, observer: Footprint, target: Footprint) -> bool:
        r = base_radius_in(target.base) * _GROW + _SLACK
        e, t = (observer.x, observer.y), (target.x, target.y)
        x0, y0 = min(e[0], t[0]) - r, min(e[1], t[1]) - r
        x1, y1 = max(e[0], t[0]) + r, max(e[1], t[1]) + r
        woods: list[Any] = []
        levels: tuple[float, float] | None = None
        for (bx0, by0, bx1, by1), poly, cls, height in self._tall_first():
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0 or not _meets(e, t, poly, r):
                continue
            if cls in _AREA_CLASSES:
                woods.append(poly)
                continue
            if cls == "elevation":
                if levels is None:
                    levels = (self.elevation_at(e), self.elevation_at(t))
                if levels[0] >= height or levels[1] >= height:
                    continue  # one of them stands as high as the hill: it hides nothing
            return False
        return not woods or _run_bound(woods, e, t, r) < _SHALLOW

    def surely_hidden(self, observer: Footprint, target: Footprint) -> bool:
        """True only when the sight's visible fraction of ``target`` from ``observer``
        is 0 (see the module docstring); False when it cannot tell."""
        if not base_is_round(target.base):
            return False
        ex, ey, tx, ty = observer.x, observer.y, target.x, target.y
        d = math.hypot(tx - ex, ty - ey)
        r = base_radius_in(target.base) * _GROW + _SLACK
        if d <= r + 4 * _MARGIN:
            return False
        near = d - r  # the base's nearest point from the eye
        reach = near - _MARGIN  # a blocking edge lies wholly nearer than this
        x0, y0 = min(ex, tx) - r, min(ey, ty) - r
        x1, y1 = max(ex, tx) + r, max(ey, ty) + r
        casters = []
        woods = []
        for piece in self._hiders():
            (bx0, by0, bx1, by1), poly, cls, height = piece
            if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
                continue
            if cls == "area":
                if near > _DEPTH and (
                    _deep_in(piece, tx, ty, r)
                    or _deep_in(piece, ex, ey, 0.0)
                    or _exit_gap(poly, ex, ey, tx, ty, r) > _DEPTH
                ):
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
                k = self._kernel(piece[1])
                run += least_chord(k, ex, ey, theta, alpha + _ANGLE, reach, (tx, ty), r)
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
                    levels = (self.elevation_at((ex, ey)), self.elevation_at((tx, ty)))
                if levels[0] >= height or levels[1] >= height:
                    continue
            spans += _edge_spans(poly, ex, ey, theta, alpha, reach)
        return _covers(spans, alpha)

    def _kernel(self, poly: Any) -> tuple[tuple[float, float], ...]:
        """An area feature's kernel (``chords.kernel``), once per outline."""
        kernels = self.__dict__.get("_kernels")
        if kernels is None:
            kernels = self._kernels = {}
        got = kernels.get(poly)
        if got is None:
            got = kernels[poly] = kernel(poly)
        return got


def _run_bound(polys: list[Any], e: tuple[float, float], t: tuple[float, float], r: float) -> float:
    """An upper bound on how far a line of sight from the eye ``e`` to a point within
    ``r`` of ``t`` runs inside the polygons, added up (inf when the eye is that near).
    Why it holds: such a line stays in the wedge of half-angle asin(r / d) about the
    direction from ``e`` to ``t``; the distance it travels inside a polygon is its
    advance along that direction while inside, divided by the cosine of its angle to
    it; and that advance stays within the extent along the direction of the part of
    the polygon inside the wedge (``_wedge_extent``), cut to the line's own, 0 to d + r."""
    d = math.dist(e, t)
    if d <= r + 4 * _MARGIN:
        return math.inf
    ux, uy = (t[0] - e[0]) / d, (t[1] - e[1]) / d
    alpha = math.asin(r / d) + _ANGLE
    slant = math.cos(alpha)
    total = 0.0
    for poly in polys:
        got = _wedge_extent(poly, e, (ux, uy), alpha)
        if got is not None:
            lo, hi = max(got[0], 0.0), min(got[1], d + r)
            if hi > lo:
                total += (hi - lo) / slant
    return total


def _wedge_extent(
    poly: Any, e: tuple[float, float], u: tuple[float, float], alpha: float
) -> tuple[float, float] | None:
    """(least, greatest) advance along ``u`` from ``e`` of the polygon's part inside the
    wedge of half-angle ``alpha`` about ``u`` with its apex at ``e``; None when none of
    it is inside. The extremes of that part lie at the polygon's vertices inside the
    wedge, where its edges cross the wedge's two sides, or at the apex if the polygon
    holds it."""
    ex, ey = e
    ux, uy = u
    tan = math.tan(alpha)
    ca, sa = math.cos(alpha), math.sin(alpha)
    sides = ((ca * ux - sa * uy, sa * ux + ca * uy), (ca * ux + sa * uy, -sa * ux + ca * uy))
    advances: list[float] = []
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i][0] - ex, poly[i][1] - ey
        along = ax * ux + ay * uy
        if along >= 0 and abs(ux * ay - uy * ax) <= along * tan:
            advances.append(along)
        bx, by = poly[(i + 1) % n][0] - ex, poly[(i + 1) % n][1] - ey
        wx, wy = bx - ax, by - ay
        for dx, dy in sides:
            den = dx * wy - dy * wx
            if den == 0:
                continue
            lam = (ax * wy - ay * wx) / den  # along the side, from the apex
            mu = (ax * dy - ay * dx) / den  # along the edge, from its first end
            if lam >= 0 and 0 <= mu <= 1:
                advances.append(lam * ca)
    if point_in_polygon(ex, ey, poly):
        advances.append(0.0)
    return (min(advances), max(advances)) if advances else None


def _meets(e: tuple[float, float], t: tuple[float, float], poly: Any, r: float) -> bool:
    """Does the polygon come within ``r`` of the segment e-t (or hold a part of it)?"""
    if point_in_polygon(e[0], e[1], poly) or point_in_polygon(t[0], t[1], poly):
        return True
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        if (
            crossing(e, t, a, b) is not None
            or point_segment_distance(a, e, t) <= r
            or point_segment_distance(e, a, b) <= r
            or point_segment_distance(t, a, b) <= r
        ):
            return True
    return False


def _edge_gap(p: tuple[float, float], poly: Any) -> float:
    """Distance from a point to a polygon's outline (inside or out)."""
    n = len(poly)
    return min(point_segment_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))


def _box_gap(box: Box, x: float, y: float) -> float:
    """Distance from a point to a box (0 inside): no edge inside the box is nearer."""
    dx = max(box[0] - x, 0.0, x - box[2])
    dy = max(box[1] - y, 0.0, y - box[3])
    return math.hypot(dx, dy)


def _on(piece: Piece, x: float, y: float) -> bool:
    """The point is inside the feature or within ``_MARGIN`` of its outline."""
    (bx0, by0, bx1, by1), poly = piece[0], piece[1]
    if x < bx0 - _MARGIN or x > bx1 + _MARGIN or y < by0 - _MARGIN or y > by1 + _MARGIN:
        return False
    return point_in_polygon(x, y, poly) or _edge_gap((x, y), poly) <= _MARGIN


def _deep_in(piece: Piece, x: float, y: float, r: float) -> bool:
    """Every point within ``r`` of (x, y) lies deeper than the sight depth inside the
    area feature: then a line of sight to or from it that runs farther than the depth
    runs more than the depth inside it. A point that deep inside lies that far inside
    the feature's box too, which is tested first."""
    (bx0, by0, bx1, by1), poly = piece[0], piece[1]
    need = _DEPTH + r
    if min(x - bx0, bx1 - x, y - by0, by1 - y) <= need:
        return False
    return point_in_polygon(x, y, poly) and _edge_gap((x, y), poly) > need


def _exit_gap(poly: Any, ex: float, ey: float, tx: float, ty: float, r: float) -> float:
    """How far every line of sight from an eye inside the polygon toward the base
    within ``r`` of (tx, ty) runs before it first meets the outline, at least: the
    distance from the eye to the outline's part inside the sight wedge (half-angle
    asin(r / d), with ``_ANGLE`` to spare), where each such line leaves. 0 for an eye
    outside the polygon or that near the base."""
    d = math.hypot(tx - ex, ty - ey)
    if d <= r + 4 * _MARGIN or not point_in_polygon(ex, ey, poly):
        return 0.0
    alpha = math.asin(r / d) + _ANGLE
    ux, uy = (tx - ex) / d, (ty - ey) / d
    ca, sa = math.cos(alpha), math.sin(alpha)
    # the wedge's sides; a point p (from the eye) is inside when it lies clockwise of
    # the first and counter-clockwise of the second (alpha is far below a right angle)
    d1x, d1y = ca * ux - sa * uy, sa * ux + ca * uy
    d2x, d2y = ca * ux + sa * uy, -sa * ux + ca * uy
    best = math.inf
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i][0] - ex, poly[i][1] - ey
        bx, by = poly[(i + 1) % n][0] - ex, poly[(i + 1) % n][1] - ey
        lo, hi = 0.0, 1.0
        # each side: f(mu) = f0 + mu * (f1 - f0) <= 0 along the edge a + mu (b - a)
        for f0, f1 in (
            (d1x * ay - d1y * ax, d1x * by - d1y * bx),
            (d2y * ax - d2x * ay, d2y * bx - d2x * by),
        ):
            if f0 > 0 and f1 > 0:
                lo, hi = 1.0, 0.0
                break
            if f0 > 0:
                lo = max(lo, f0 / (f0 - f1))
            elif f1 > 0:
                hi = min(hi, f0 / (f0 - f1))
        if lo > hi:
            continue
        p = (ax + (bx - ax) * lo, ay + (by - ay) * lo)
        q = (ax + (bx - ax) * hi, ay + (by - ay) * hi)
        best = min(best, point_segment_distance((0.0, 0.0), p, q))
    return best


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
        ang.append(rel_angle(dx, dy, theta))
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
