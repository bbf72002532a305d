"""Bases: outlines, sample points, edge-to-edge distance and overlap.

Why apart: every other measurement starts from a base's exact shape; round bases are
measured as exact discs, rectangles as polygons.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely

from engine.battlefield import (
    Footprint,
    base_is_round,
    base_radius_in,
    base_size_in,
)
from engine.geometry._common import (
    _GOLDEN_ANGLE,
    _OUTLINE_VERTICES,
    SIGHT_SAMPLES,
    Point,
    _cos_sin,
    _cos_sin_np,
)


def _fp_vertices(fps: Sequence[Footprint], n: int) -> np.ndarray:
    """Polygon vertices (k, n, 2) of bases, counter-clockwise.

    A round base is the regular n-gon inscribed in it with its first vertex on the facing;
    a rectangle has 4 vertices (front-right, front-left, rear-left, rear-right), padded to n
    by repeating the last one (zero-length edges add nothing to areas or clipping).
    """
    k = len(fps)
    out = np.empty((k, n, 2))
    if k == 0:
        return out
    c = np.array([(f.x, f.y) for f in fps], dtype=float)
    fac = np.array([f.facing for f in fps], dtype=float)
    rnd = np.array([base_is_round(f.base) for f in fps])
    if rnd.any():
        idx = np.flatnonzero(rnd)
        r = np.array([base_radius_in(fps[i].base) for i in idx])
        ang = fac[idx, None] + np.arange(n) * (360.0 / n)
        cs, sn = _cos_sin_np(ang)
        out[idx, :, 0] = c[idx, 0, None] + r[:, None] * cs
        out[idx, :, 1] = c[idx, 1, None] + r[:, None] * sn
    if (~rnd).any():
        idx = np.flatnonzero(~rnd)
        wd = np.array([base_size_in(fps[i].base) for i in idx])
        hw, hd = wd[:, 0] / 2, wd[:, 1] / 2
        cs, sn = _cos_sin_np(fac[idx])
        lx = np.stack([hd, hd, -hd, -hd], axis=1)
        ly = np.stack([-hw, hw, hw, -hw], axis=1)
        vx = c[idx, 0, None] + lx * cs[:, None] - ly * sn[:, None]
        vy = c[idx, 1, None] + lx * sn[:, None] + ly * cs[:, None]
        m = min(4, n)
        out[idx, :m, 0] = vx[:, :m]
        out[idx, :m, 1] = vy[:, :m]
        if n > 4:
            out[idx, 4:, 0] = vx[:, 3, None]
            out[idx, 4:, 1] = vy[:, 3, None]
    return out


def _sample_patterns() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The unit sample patterns of :func:`_fp_samples`, made once: a sunflower spiral in
    the unit disc (x, y) and the centres of a square grid in the unit square (x, y)."""
    ns = SIGHT_SAMPLES
    kk = np.arange(ns)
    disc_r = np.sqrt((kk + 0.5) / ns)
    disc_a = kk * _GOLDEN_ANGLE
    side = int(round(math.sqrt(ns)))
    g = (np.arange(side) + 0.5) / side - 0.5
    gx, gy = np.meshgrid(g, g, indexing="ij")
    return disc_r * np.cos(disc_a), disc_r * np.sin(disc_a), gx.ravel(), gy.ravel()


_DISC_X, _DISC_Y, _GRID_X, _GRID_Y = _sample_patterns()


def _fp_samples(fps: Sequence[Footprint]) -> np.ndarray:
    """Deterministic equal-area sample points (k, SIGHT_SAMPLES, 2) of bases.

    Round: a sunflower (Vogel) spiral, equal area per point, strictly inside the disc;
    rectangle: the centres of an 8 x 8 grid. Both turn with the facing.
    """
    k, ns = len(fps), SIGHT_SAMPLES
    if k == 0:
        return np.empty((0, ns, 2))
    c = np.array([(f.x, f.y) for f in fps], dtype=float)
    fac = np.radians(np.array([f.facing for f in fps], dtype=float))
    rnd = np.array([base_is_round(f.base) for f in fps])
    wd = np.array([base_size_in(f.base) for f in fps], dtype=float)  # (k, 2): w, d
    half = wd[:, 0, None] / 2  # radius of a round base (w == d == diameter)
    if rnd.all():  # the usual case: the spiral alone (the same numbers as below)
        lx, ly = half * _DISC_X[None, :], half * _DISC_Y[None, :]
    else:
        lx = np.where(rnd[:, None], half * _DISC_X[None, :], _GRID_X[None, :] * wd[:, 1, None])
        ly = np.where(rnd[:, None], half * _DISC_Y[None, :], _GRID_Y[None, :] * wd[:, 0, None])
    cs, sn = np.cos(fac)[:, None], np.sin(fac)[:, None]
    out = np.empty((k, ns, 2))
    out[..., 0] = c[:, 0, None] + lx * cs - ly * sn
    out[..., 1] = c[:, 1, None] + lx * sn + ly * cs
    return out


#: per (base, facing) of a round base: the sample offsets' four products of
#: :func:`_fp_samples` (see ``_round_samples``)
_ROUND_PARTS: dict[tuple[object, float], tuple[np.ndarray, ...]] = {}


def _round_samples(fp: Footprint) -> np.ndarray:
    """``_fp_samples([fp])`` of one round base, bit for bit: the offsets' products
    (``lx * cs`` ...) depend on the base and the facing alone, so they are kept and only
    the centre is added, in the same order of operations. Why: a moved model's samples
    are asked once per move, and the general path costs some twenty array operations."""
    key = (fp.base, fp.facing)
    parts = _ROUND_PARTS.get(key)
    if parts is None:
        fac = np.radians(np.array([fp.facing], dtype=float))
        half = np.array([base_size_in(fp.base)], dtype=float)[:, 0, None] / 2
        lx, ly = half * _DISC_X[None, :], half * _DISC_Y[None, :]
        cs, sn = np.cos(fac)[:, None], np.sin(fac)[:, None]
        parts = (lx * cs, ly * sn, lx * sn, ly * cs)
        if len(_ROUND_PARTS) > 256:  # a game has a handful; never grow without bound
            _ROUND_PARTS.clear()
        _ROUND_PARTS[key] = parts
    xc, xs, yc, ys = parts
    out = np.empty((1, SIGHT_SAMPLES, 2))
    out[..., 0] = fp.x + xc - xs
    out[..., 1] = fp.y + yc + ys
    return out


def base_samples(fp: Footprint) -> list[Point]:
    """The equal-weight sample points used for area terrain in the visible fraction.

    Public so that a baseline (bench/geometry.py) or a ruleset can reproduce the sampling.
    """
    return [(float(x), float(y)) for x, y in _fp_samples([fp])[0]]


def _fp_geom(fp: Footprint, n: int = _OUTLINE_VERTICES) -> shapely.Polygon:
    v = _fp_vertices([fp], n)[0]
    if not base_is_round(fp.base):
        v = v[:4]
    return shapely.Polygon(v)


def _base_area(fp: Footprint) -> float:
    """Exact area of a base in square inches (pi r^2 for a round base)."""
    if base_is_round(fp.base):
        return math.pi * base_radius_in(fp.base) ** 2
    w, d = base_size_in(fp.base)
    return w * d


def _cone_vertices(target: Footprint) -> np.ndarray:
    """The target's side of the sight cone: its base, a round one by a circumscribed
    polygon (so that the hull contains the whole disc)."""
    if base_is_round(target.base):
        n = 32
        v = _fp_vertices([target], n)[0]
        c = np.array([target.x, target.y])
        return c + (v - c) / math.cos(math.pi / n)
    return _fp_vertices([target], 4)[0]


def _hull_with_eye(v: np.ndarray, observer: Footprint) -> shapely.Geometry:
    """Convex hull of the target's cone vertices ``v`` and the observer's eye."""
    pts = np.vstack([v, [[observer.x, observer.y]]])
    return shapely.convex_hull(shapely.multipoints(pts))


def _sight_cone(observer: Footprint, target: Footprint) -> shapely.Geometry:
    """Convex hull of the eye and the target's base (a round base by a circumscribed
    polygon, so that the hull contains the whole disc): terrain outside it cannot hide
    any part of the target."""
    return _hull_with_eye(_cone_vertices(target), observer)


def footprint_outline(fp: Footprint, n: int = 32) -> list[Point]:
    """Polygon vertices of a base for drawing (a circle becomes a regular n-gon).

    Counter-clockwise, no repeated closing vertex; a rectangle gives its 4 corners
    starting at the front-right one.
    """
    if base_is_round(fp.base):
        v = _fp_vertices([fp], max(3, n))[0]
    else:
        v = _fp_vertices([fp], 4)[0]
    return [(float(x), float(y)) for x, y in v]


def _local(fp: Footprint, p: Point) -> tuple[float, float]:
    """Point p in the base's frame: (along facing, to the left)."""
    c, s = _cos_sin(fp.facing)
    dx, dy = p[0] - fp.x, p[1] - fp.y
    return dx * c + dy * s, -dx * s + dy * c


def _rect_point_dist(fp: Footprint, p: Point) -> float:
    """Exact distance from a point to a rectangular base (0 inside)."""
    w, d = base_size_in(fp.base)
    lx, ly = _local(fp, p)
    ex = max(abs(lx) - d / 2, 0.0)
    ey = max(abs(ly) - w / 2, 0.0)
    return math.hypot(ex, ey)


def _rect_signed_dist(fp: Footprint, p: Point) -> float:
    """Signed distance from a point to a rectangular base (negative inside)."""
    w, d = base_size_in(fp.base)
    lx, ly = _local(fp, p)
    qx, qy = abs(lx) - d / 2, abs(ly) - w / 2
    if qx <= 0 and qy <= 0:
        return max(qx, qy)
    return math.hypot(max(qx, 0.0), max(qy, 0.0))


def _sorted_pair(a: Footprint, b: Footprint) -> tuple[Footprint, Footprint]:
    """Canonical order so that library calls see (a, b) and (b, a) identically."""
    pa, pb = (a.x, a.y, a.facing), (b.x, b.y, b.facing)
    if pa != pb:  # decided before the bases: no repr to build (the common case)
        return (a, b) if pa < pb else (b, a)
    ka = (a.x, a.y, a.facing, repr(a.base))
    kb = (b.x, b.y, b.facing, repr(b.base))
    return (a, b) if ka <= kb else (b, a)


def distance(a: Footprint, b: Footprint) -> float:
    """Base edge to base edge in inches; 0.0 when touching or overlapping.

    Round-round is the exact centre distance minus both radii; round-rectangle is the
    exact distance from the circle's centre to the rectangle minus the radius; two
    rectangles go through shapely (exact for polygons). Symmetric by construction.

    Two round bases 1" across (25.4 mm), centres 3" apart, are 2" apart edge to edge; a
    2" x 1" rectangle facing north is measured from its nearest edge:

    >>> from engine.battlefield import Footprint
    >>> distance(Footprint(0, 0, 0, 25.4), Footprint(3, 0, 0, 25.4))
    2.0
    >>> distance(Footprint(0, 0, 0, 25.4), Footprint(3, 0, 90, (50.8, 25.4)))
    1.5
    """
    if a.base == b.base and base_is_round(a.base):
        # one round base size: the same sum in either order, so no canonical order needed
        r = base_radius_in(a.base)
        return max(math.hypot(a.x - b.x, a.y - b.y) - r - r, 0.0)
    a, b = _sorted_pair(a, b)
    ra, rb = base_is_round(a.base), base_is_round(b.base)
    if ra and rb:
        gap = math.hypot(a.x - b.x, a.y - b.y) - base_radius_in(a.base) - base_radius_in(b.base)
        return max(gap, 0.0)
    if ra or rb:
        circ, rect = (a, b) if ra else (b, a)
        return max(_rect_point_dist(rect, (circ.x, circ.y)) - base_radius_in(circ.base), 0.0)
    return float(shapely.distance(_fp_geom(a), _fp_geom(b)))


def distance_point(fp: Footprint, p: Point) -> float:
    """Edge of a base to a point in inches (0.0 when the point is on or inside the base)."""
    if base_is_round(fp.base):
        return max(math.hypot(p[0] - fp.x, p[1] - fp.y) - base_radius_in(fp.base), 0.0)
    return _rect_point_dist(fp, p)


def _rect_axes_extent(fp: Footprint, axis: tuple[float, float]) -> tuple[float, float]:
    v = _fp_vertices([fp], 4)[0]
    pr = v[:, 0] * axis[0] + v[:, 1] * axis[1]
    return float(pr.min()), float(pr.max())


def _penetration(a: Footprint, b: Footprint) -> float:
    """How deep two bases overlap in inches (<= 0 when apart or touching).

    Round-round: sum of radii minus centre distance. Round-rectangle: radius minus the
    signed distance from the centre to the rectangle. Rectangles: the separating-axis
    overlap (the smallest overlap of the projections on the four edge normals).
    """
    ra, rb = base_is_round(a.base), base_is_round(b.base)
    if ra and rb:
        return base_radius_in(a.base) + base_radius_in(b.base) - math.hypot(a.x - b.x, a.y - b.y)
    if ra or rb:
        circ, rect = (a, b) if ra else (b, a)
        return base_radius_in(circ.base) - _rect_signed_dist(rect, (circ.x, circ.y))
    best = math.inf
    for f in (a, b):
        c, s = _cos_sin(f.facing)
        for axis in ((c, s), (-s, c)):
            a0, a1 = _rect_axes_extent(a, axis)
            b0, b1 = _rect_axes_extent(b, axis)
            best = min(best, min(a1, b1) - max(a0, b0))
    return best


def overlaps(a: Footprint, b: Footprint, tol: float = 1e-6) -> bool:
    """True when two bases overlap by more than ``tol`` inches (touching is not overlap).

    >>> from engine.battlefield import Footprint
    >>> a = Footprint(0, 0, 0, 25.4)
    >>> overlaps(a, Footprint(0.9, 0, 0, 25.4)), overlaps(a, Footprint(1.0, 0, 0, 25.4))
    (True, False)
    """
    # bounding circles apart by more than tol (and a margin for rounding): the bases
    # are apart, and the exact test below would say so too
    reach = base_radius_in(a.base) + base_radius_in(b.base) + tol + 1e-9
    dx, dy = a.x - b.x, a.y - b.y
    if dx * dx + dy * dy > reach * reach:
        return False
    a, b = _sorted_pair(a, b)
    return _penetration(a, b) > tol
