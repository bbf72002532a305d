"""The geometry service: distances, sight, arcs, zones, templates, scatter and turns.

Why one module: DESIGN.md makes this the only importer of shapely, so every ruleset, the
physics service and the window measure the table the same way and never hold a library
object. Every public function returns plain floats, tuples, lists of ``(x, y)`` tuples
and feature ids.

Conventions (DESIGN.md "The table and its terrain"): inches, origin bottom-left, x east,
y north, facing in degrees counter-clockwise from east; bases in millimetres (a number is
a round base's diameter, ``(w, d)`` a rectangle whose front edge of width ``w`` faces the
model's facing). Distances are base edge to base edge.

Sight in one paragraph (details in :class:`Geometry`): the eye is the centre of the
observer's base; the *visible fraction* is the share of the target's base outside the
shadows cast by sight-blocking terrain. Shadows are polygons built with shapely; a round
base is measured against them as an exact disc (circle ∩ polygon in closed form), so the
fraction is exact for both base shapes and the fast matrix agrees with the per-pair
reference to rounding error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely

from engine.battlefield import (
    AREA_SIGHT_DEPTH,
    COVER_PROXIMITY,
    Battlefield,
    Footprint,
    TerrainFeature,
    base_is_round,
    base_radius_in,
    base_size_in,
)

Point = tuple[float, float]

#: Vertices of the polygon drawing a round base's hidden part (drawing only).
_OUTLINE_VERTICES = 64
#: Sample points per target base for area terrain (equal-area, deterministic).
SIGHT_SAMPLES = 64
#: Slack on the area-terrain depth so that float noise cannot flip a sample at exactly 2".
_DEPTH_EPS = 1e-9
#: Contact tolerance (inches) for zones: a base touching a zone's line is inside the zone.
ZONE_TOL = 1e-6
#: A touching-but-not-overlapping tolerance for bases against terrain polygons.
_TOUCH_TOL = 1e-9
#: Share reported for a base that a template merely touches (DESIGN: touched = under it).
_MIN_TEMPLATE_SHARE = 1e-4

#: Snap-rounding grid (inches) for shapely overlays of shadows. Floating overlays can drop
#: a polygon whose vertices nearly coincide with another's (GEOS unaryUnion, see
#: libgeos/geos#965 and #1383), which shadows built edge by edge produce all the time;
#: a fixed-precision overlay is robust and 1e-12" changes no area measurably.
_GRID = 1e-12
#: An eye this close (inches) to a tall feature counts as inside it (see ``_eye_in``).
_EYE_TOL = 1e-9
_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
_AREA_CLASSES = ("area",)
_BLOCK_CLASSES = ("tall", "elevation")


# --------------------------------------------------------------------------- trig helpers


def _cos_sin(deg: float) -> tuple[float, float]:
    """cos/sin of an angle in degrees, exact on the axes (so a quarter turn lands on 6.0,
    not 5.999999999999999, and tests can compare coordinates exactly)."""
    r = deg % 360.0
    if r == 0.0:
        return 1.0, 0.0
    if r == 90.0:
        return 0.0, 1.0
    if r == 180.0:
        return -1.0, 0.0
    if r == 270.0:
        return 0.0, -1.0
    rad = math.radians(r)
    return math.cos(rad), math.sin(rad)


def _cos_sin_np(deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized :func:`_cos_sin` (same exact axis values)."""
    m = np.mod(np.asarray(deg, dtype=float), 360.0)
    rad = np.radians(m)
    c, s = np.cos(rad), np.sin(rad)
    for val, cv, sv in ((0.0, 1.0, 0.0), (90.0, 0.0, 1.0), (180.0, -1.0, 0.0), (270.0, 0.0, -1.0)):
        mask = m == val
        c[mask] = cv
        s[mask] = sv
    return c, s


def _norm_deg(deg: float) -> float:
    """Angle in [0, 360); guards the float case where ``-1e-17 % 360 == 360.0``."""
    r = deg % 360.0
    return 0.0 if r >= 360.0 else r + 0.0


Num = float | np.ndarray


def _cross(ax: Num, ay: Num, bx: Num, by: Num) -> Num:
    """z of the cross product (a x b), for floats and arrays alike."""
    return ax * by - ay * bx


# --------------------------------------------------------------------------- bases


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
    kk = np.arange(ns)
    disc_r = np.sqrt((kk + 0.5) / ns)
    disc_a = kk * _GOLDEN_ANGLE
    side = int(round(math.sqrt(ns)))
    g = (np.arange(side) + 0.5) / side - 0.5
    gx, gy = np.meshgrid(g, g, indexing="ij")
    half = wd[:, 0, None] / 2  # radius of a round base (w == d == diameter)
    lx = np.where(
        rnd[:, None],
        half * (disc_r * np.cos(disc_a))[None, :],
        gx.ravel()[None, :] * wd[:, 1, None],
    )
    ly = np.where(
        rnd[:, None],
        half * (disc_r * np.sin(disc_a))[None, :],
        gy.ravel()[None, :] * wd[:, 0, None],
    )
    cs, sn = np.cos(fac)[:, None], np.sin(fac)[:, None]
    out = np.empty((k, ns, 2))
    out[..., 0] = c[:, 0, None] + lx * cs - ly * sn
    out[..., 1] = c[:, 1, None] + lx * sn + ly * cs
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
    ka = (a.x, a.y, a.facing, repr(a.base))
    kb = (b.x, b.y, b.facing, repr(b.base))
    return (a, b) if ka <= kb else (b, a)


def distance(a: Footprint, b: Footprint) -> float:
    """Base edge to base edge in inches; 0.0 when touching or overlapping.

    Round-round is the exact centre distance minus both radii; round-rectangle is the
    exact distance from the circle's centre to the rectangle minus the radius; two
    rectangles go through shapely (exact for polygons). Symmetric by construction.
    """
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
    """True when two bases overlap by more than ``tol`` inches (touching is not overlap)."""
    a, b = _sorted_pair(a, b)
    return _penetration(a, b) > tol


# --------------------------------------------------------------------------- arcs


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


# --------------------------------------------------------------------------- zones


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


# --------------------------------------------------------------------------- templates


def _lens_area(d: np.ndarray, r1: float, r2: np.ndarray) -> np.ndarray:
    """Exact area of the intersection of two circles (vectorized over d and r2)."""
    d = np.asarray(d, dtype=float)
    r2 = np.asarray(r2, dtype=float)
    out = np.zeros(np.broadcast(d, r2).shape)
    small = np.minimum(r1, r2)
    inside = d <= np.abs(r1 - r2)
    out = np.where(inside, np.pi * small**2, out)
    part = (~inside) & (d < r1 + r2)
    if part.any():
        dd, rr = d[part], r2[part]
        c1 = np.clip((dd**2 + r1**2 - rr**2) / (2 * dd * r1), -1.0, 1.0)
        c2 = np.clip((dd**2 + rr**2 - r1**2) / (2 * dd * rr), -1.0, 1.0)
        k = (-dd + r1 + rr) * (dd + r1 - rr) * (dd - r1 + rr) * (dd + r1 + rr)
        out[part] = (
            r1**2 * np.arccos(c1) + rr**2 * np.arccos(c2) - 0.5 * np.sqrt(np.clip(k, 0.0, None))
        )
    return out


def _circle_ring_terms(centre: Point, radius: float, polys: np.ndarray) -> np.ndarray:
    """Signed area of circle ∩ polygon for rings (k, n, 2) (positive counter-clockwise).

    Exact: the sum over edges of the signed area of circle ∩ triangle(centre, a, b); the
    parts of an edge inside the circle contribute triangles, the parts outside sectors.
    """
    a = polys - np.asarray(centre, dtype=float)
    b = np.roll(a, -1, axis=1)
    d = b - a
    A = (d**2).sum(-1)
    B = 2 * (a * d).sum(-1)
    C = (a**2).sum(-1) - radius**2
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = B**2 - 4 * A * C
        sq = np.sqrt(np.clip(disc, 0.0, None))
        t1 = np.where((disc > 0) & (A > 0), (-B - sq) / (2 * A), 0.0)
        t2 = np.where((disc > 0) & (A > 0), (-B + sq) / (2 * A), 0.0)
    s1 = np.clip(t1, 0.0, 1.0)
    s2 = np.clip(t2, 0.0, 1.0)
    p1 = a + s1[..., None] * d
    p2 = a + s2[..., None] * d

    def sector(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        cr = p[..., 0] * q[..., 1] - p[..., 1] * q[..., 0]
        dt = (p * q).sum(-1)
        return 0.5 * radius**2 * np.arctan2(cr, dt)

    tri = 0.5 * (p1[..., 0] * p2[..., 1] - p1[..., 1] * p2[..., 0])
    return (sector(a, p1) + tri + sector(p2, b)).sum(-1)


def _circle_polygon_area(centre: Point, radius: float, polys: np.ndarray) -> np.ndarray:
    """Exact area of circle ∩ convex polygon for polygons (k, n, 2) of either orientation."""
    return np.abs(_circle_ring_terms(centre, radius, polys))


def _circle_geom_area(centre: Point, radius: float, geom: shapely.Geometry) -> float:
    """Exact area of a disc ∩ a polygonal shapely geometry (holes included)."""
    if geom is None or geom.is_empty:
        return 0.0
    total = 0.0
    for part in shapely.get_parts(shapely.orient_polygons(geom, exterior_cw=False)):
        if not isinstance(part, shapely.Polygon) or part.is_empty:
            continue
        for ring in (part.exterior, *part.interiors):
            c = np.asarray(ring.coords)[:-1, :2]
            if len(c) >= 3:
                total += float(_circle_ring_terms(centre, radius, c[None])[0])
    return max(total, 0.0)


def template_outline(centre: Point, radius: float, n: int = 48) -> list[Point]:
    """Polygon of a circular template for drawing."""
    out = []
    for k in range(max(3, n)):
        c, s = _cos_sin(360.0 * k / n)
        out.append((centre[0] + radius * c, centre[1] + radius * s))
    return out


def template_hits(
    centre: Point, radius: float, targets: Mapping[str, Footprint]
) -> dict[str, float]:
    """Bases a circular template touches -> share of each base's area it covers.

    Exact for both base shapes: the closed-form lens for round bases, circle ∩ polygon
    by edges for rectangles, vectorized with numpy. Shares are rounded to 4 decimals; a
    base the template merely touches is included with the minimum share 0.0001 (DESIGN:
    a base touched by a template is under it).
    """
    ids = list(targets)
    if not ids:
        return {}
    fps = [targets[i] for i in ids]
    rnd = np.array([base_is_round(f.base) for f in fps])
    share = np.zeros(len(ids))
    touched = np.zeros(len(ids), dtype=bool)
    cx, cy = centre
    if rnd.any():
        idx = np.flatnonzero(rnd)
        r = np.array([base_radius_in(fps[i].base) for i in idx])
        d = np.array([math.hypot(fps[i].x - cx, fps[i].y - cy) for i in idx])
        touched[idx] = d <= radius + r + 1e-9
        share[idx] = _lens_area(d, radius, r) / (np.pi * r**2)
    if (~rnd).any():
        idx = np.flatnonzero(~rnd)
        rects = [fps[i] for i in idx]
        polys = _fp_vertices(rects, 4)
        areas = np.array([base_size_in(f.base)[0] * base_size_in(f.base)[1] for f in rects])
        dist = np.array([_rect_point_dist(f, centre) for f in rects])
        touched[idx] = dist <= radius + 1e-9
        share[idx] = _circle_polygon_area(centre, radius, polys) / areas
    out: dict[str, float] = {}
    for i, fid in enumerate(ids):
        if touched[i]:
            out[fid] = max(min(round(float(share[i]), 4), 1.0), _MIN_TEMPLATE_SHARE)
    return out


def scatter(origin: Point, line_of_fire_deg: float, clock: int, distance_in: float) -> Point:
    """Where a scattering shot lands: ``distance_in`` from origin towards the clock face.

    12 o'clock points along the line of fire (away from the shooter), 3 o'clock is 90
    degrees clockwise from it, 6 o'clock back towards the shooter, 9 o'clock to the left.
    """
    if not 1 <= int(clock) <= 12:
        raise ValueError(f"clock must be 1..12, got {clock}")
    c, s = _cos_sin(line_of_fire_deg - 30.0 * (int(clock) % 12))
    return (origin[0] + distance_in * c, origin[1] + distance_in * s)


# --------------------------------------------------------------------------- movement


def turn_poses(
    x: float, y: float, facing: float, radius: float, angle_deg: float, step_deg: float = 5.0
) -> list[tuple[float, float, float]]:
    """Poses (x, y, facing) along a turning arc, for the physics sweep and the window.

    Positive angle turns left (counter-clockwise), negative right; radius 0 pivots in
    place. The first pose is the start, the last exactly the analytic end pose; facings
    are normalized to [0, 360).
    """
    radius = abs(radius)
    steps = max(1, math.ceil(abs(angle_deg) / max(step_deg, 1e-9))) if angle_deg else 0
    poses = [(x, y, _norm_deg(facing))]
    if steps == 0:
        return poses
    sgn = 1.0 if angle_deg > 0 else -1.0
    c0, s0 = _cos_sin(facing)
    # centre of the turning circle, on the inside of the turn
    ccx, ccy = x - sgn * radius * s0, y + sgn * radius * c0
    for k in range(1, steps + 1):
        a = angle_deg if k == steps else angle_deg * k / steps
        c, s = _cos_sin(facing + a)
        px, py = ccx + sgn * radius * s, ccy - sgn * radius * c
        if radius == 0.0:
            px, py = x, y
        poses.append((px, py, _norm_deg(facing + a)))
    return poses


def straight_poses(
    x: float, y: float, facing: float, length: float, step: float = 0.5
) -> list[tuple[float, float, float]]:
    """Poses along a straight move of ``length`` inches along the facing (negative length
    backs up); first the start, last exactly the end."""
    c, s = _cos_sin(facing)
    steps = max(1, math.ceil(abs(length) / max(step, 1e-9))) if length else 0
    f = _norm_deg(facing)
    poses = [(x, y, f)]
    for k in range(1, steps + 1):
        t = length if k == steps else length * k / steps
        poses.append((x + t * c, y + t * s, f))
    return poses


def path_length(path: Sequence[Point]) -> float:
    """Total length of a polyline in inches."""
    return float(sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])))


# --------------------------------------------------------------------------- terrain index


def _feature_geom(f: TerrainFeature) -> shapely.Geometry:
    """A valid polygonal shapely geometry for a feature (invalid rings are repaired)."""
    if len(f.polygon) < 3:
        raise ValueError(f"terrain feature {f.id!r}: a polygon needs at least 3 points")
    g = shapely.Polygon(f.polygon)
    if not g.is_valid:
        g = shapely.make_valid(g)
        parts = [p for p in shapely.get_parts(g) if isinstance(p, shapely.Polygon)]
        parts += [
            q for p in shapely.get_parts(g) if isinstance(p, shapely.MultiPolygon) for q in p.geoms
        ]
        g = shapely.MultiPolygon(parts) if len(parts) != 1 else parts[0]
    return shapely.orient_polygons(g, exterior_cw=False)


class _TerrainIndex:
    """Shapely geometries of a battlefield's terrain, built once and prepared."""

    def __init__(self, bf: Battlefield):
        self.features = bf.terrain
        self.ids = [f.id for f in bf.terrain]
        self.kinds = [f.kind for f in bf.terrain]
        self.classes = [f.cls for f in bf.terrain]
        self.geoms = np.array([_feature_geom(f) for f in bf.terrain], dtype=object)
        if len(self.geoms):
            shapely.prepare(self.geoms)
        self.tree = shapely.STRtree(self.geoms)

    def query(self, geom: shapely.Geometry, predicate: str = "intersects") -> np.ndarray:
        return np.sort(self.tree.query(geom, predicate=predicate))


@lru_cache(maxsize=16)
def _cached_index(bf: Battlefield) -> _TerrainIndex:
    return _TerrainIndex(bf)


def _index(bf: Battlefield) -> _TerrainIndex:
    """The terrain index of a battlefield, built once per (hashable) battlefield: the
    module-level queries are called with the same static table all game long."""
    try:
        return _cached_index(bf)
    except TypeError:  # unhashable contents (lists in polygons): build without caching
        return _TerrainIndex(bf)


def _path_geom(path: Sequence[Point]) -> shapely.Geometry | None:
    pts = [(float(p[0]), float(p[1])) for p in path]
    if not pts:
        return None
    if len(pts) == 1 or all(p == pts[0] for p in pts):
        return shapely.Point(pts[0])
    return shapely.LineString(pts)


def path_terrain_lengths(path: Sequence[Point], battlefield: Battlefield) -> dict[str, float]:
    """Feature id -> length (inches) of the path inside that feature, for movement costs.

    Overlapping features each get their full length; features the path only touches are
    left out.
    """
    line = _path_geom(path)
    if line is None or isinstance(line, shapely.Point):
        return {}
    idx = _index(battlefield)
    cand = idx.query(line)
    if cand.size == 0:
        return {}
    lengths = shapely.length(shapely.intersection(line, idx.geoms[cand]))
    return {idx.ids[i]: float(v) for i, v in zip(cand, lengths) if v > 1e-12}


def features_at(p: Point, battlefield: Battlefield) -> list[str]:
    """Ids of the features containing a point (boundary included), in battlefield order."""
    idx = _index(battlefield)
    return [idx.ids[i] for i in idx.query(shapely.Point(p), "intersects")]


def _base_hits(fp: Footprint, idx: _TerrainIndex, cand: np.ndarray) -> np.ndarray:
    """Mask over ``cand``: the base overlaps the feature (touching does not count)."""
    if cand.size == 0:
        return np.zeros(0, dtype=bool)
    geoms = idx.geoms[cand]
    if base_is_round(fp.base):
        d = shapely.distance(shapely.Point(fp.x, fp.y), geoms)
        return d < base_radius_in(fp.base) - _TOUCH_TOL
    rect = _fp_geom(fp)
    return shapely.intersects(rect, geoms) & ~shapely.touches(rect, geoms)


def _base_bbox(fp: Footprint) -> shapely.Geometry:
    r = base_radius_in(fp.base)
    return shapely.box(fp.x - r, fp.y - r, fp.x + r, fp.y + r)


def features_under(fp: Footprint, battlefield: Battlefield) -> list[str]:
    """Ids of the features a base overlaps (round bases exactly as discs; touching is not
    overlapping), in battlefield order."""
    idx = _index(battlefield)
    cand = idx.query(_base_bbox(fp))
    hit = _base_hits(fp, idx, cand)
    return [idx.ids[i] for i in cand[hit]]


def crossings(
    path: Sequence[Point], battlefield: Battlefield, kinds: Iterable[str] | None = None
) -> list[str]:
    """Ids of the features whose interior the path crosses or enters (merely running along
    or touching a boundary does not count), in battlefield order.

    ``kinds`` filters by terrain kind or class name (``{"hedge"}`` or ``{"line"}``).
    """
    geom = _path_geom(path)
    if geom is None:
        return []
    idx = _index(battlefield)
    want = set(kinds) if kinds is not None else None
    cand = idx.query(geom)
    if cand.size == 0:
        return []
    inner = ~shapely.touches(geom, idx.geoms[cand])
    out = []
    for i, ok in zip(cand, inner):
        if ok and (want is None or idx.kinds[i] in want or idx.classes[i] in want):
            out.append(idx.ids[i])
    return out


# --------------------------------------------------------------------------- sight


@dataclass(frozen=True)
class Sight:
    """What an observer sees of a target (DESIGN.md: the 1/4-3/4 method).

    ``visible`` is the visible fraction of the target's base; ``blockers`` the features
    casting shadow on it (tall terrain, hills crested, area terrain beyond 2");
    ``soft_cover``/``hard_cover`` the features that give cover by their class; ``distance``
    base edge to base edge. Rulesets map these to their own bands and modifiers.
    """

    visible: float
    blockers: tuple[str, ...]
    soft_cover: tuple[str, ...]
    hard_cover: tuple[str, ...]
    distance: float


@dataclass
class _Targets:
    """Per-target arrays for the vectorized sight code."""

    C: np.ndarray  # (n, 2) centres
    R: np.ndarray  # (n,) bounding radius
    V: np.ndarray  # (n, 4, 2) corners of rectangular bases, counter-clockwise
    S: np.ndarray  # (n, SIGHT_SAMPLES, 2) sample points
    area: np.ndarray  # (n,) exact base area (pi r^2 for round bases)
    rnd: np.ndarray  # (n,) round base?
    axes: np.ndarray  # (n, 2, 2) facing unit vector and its left normal
    fps: tuple[Footprint, ...] = ()
    lev: np.ndarray | None = None  # (n,) ground elevation (set by Geometry)


@dataclass
class _TallInfo:
    """What the tall pass leaves for the area pass: merged hidden angular intervals of the
    pairs it solved by intervals (groups ranked into ``upid``), and the pairs it sent to
    the shapely fallback (with the candidate features of every pair)."""

    upid: np.ndarray
    g_rank: np.ndarray
    g_lo: np.ndarray
    g_hi: np.ndarray
    bad: np.ndarray
    pid: np.ndarray
    kk: np.ndarray


def _target_arrays(tgs: Sequence[Footprint]) -> _Targets:
    V = _fp_vertices(tgs, 4)  # rectangles' corners (unused for round bases)
    rnd = np.array([base_is_round(t.base) for t in tgs], dtype=bool)
    R = np.array([base_radius_in(t.base) for t in tgs], dtype=float)
    wd = np.array([base_size_in(t.base) for t in tgs], dtype=float).reshape(len(tgs), 2)
    area = np.where(rnd, np.pi * R**2, wd[:, 0] * wd[:, 1])
    fac = np.array([t.facing for t in tgs], dtype=float)
    cs, sn = _cos_sin_np(fac)
    axes = np.stack([np.stack([cs, sn], -1), np.stack([-sn, cs], -1)], axis=1)
    return _Targets(
        C=np.array([(t.x, t.y) for t in tgs], dtype=float).reshape(len(tgs), 2),
        R=R,
        V=V,
        S=_fp_samples(tgs),
        area=area,
        rnd=rnd,
        axes=axes,
        fps=tuple(tgs),
    )


def _group_starts(key: np.ndarray) -> np.ndarray:
    """Start offsets of runs of equal values in a sorted key array."""
    if key.size == 0:
        return np.zeros(0, dtype=np.intp)
    return np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))


def _expand(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows with ``counts[i]`` items starting at ``starts[i]``: (row of each item, item)."""
    total = int(counts.sum())
    rep = np.repeat(np.arange(counts.size), counts)
    first = np.cumsum(counts) - counts
    item = starts[rep] + (np.arange(total) - first[rep])
    return rep, item


def _segment_dist2(px: Num, py: Num, ax: Num, ay: Num, bx: Num, by: Num) -> Num:
    """Squared distance from points p to segments ab (arrays broadcast)."""
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = np.where(l2 > 0, ((px - ax) * dx + (py - ay) * dy) / l2, 0.0)  # caller ignores 0/0
    t = np.clip(t, 0.0, 1.0)
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return qx * qx + qy * qy


def _eye_in(geoms: np.ndarray, E: np.ndarray) -> np.ndarray:
    """(len(E), geoms.shape[-1]) mask: the eye is inside the feature or within _EYE_TOL of
    it. Such a feature does not block that observer: it looks out of it. The tolerance
    keeps an eye lying on (or a rounding error off) a boundary from casting the whole
    polygon's shadow in one code path and none in another."""
    pts = shapely.points(E)
    return shapely.dwithin(geoms.reshape(1, -1), pts[:, None], _EYE_TOL)


class Geometry:
    """Everything that depends on the terrain, precomputed once per battlefield.

    Sight model (DESIGN.md): the eye is the centre of the observer's base.

    * Tall terrain (wall, building, rocks) casts the shadow ``{q : segment eye->q meets the
      polygon}``: the union of the "shadow quads" behind the polygon's edges, the polygon
      itself included, so the part of a target standing inside a tall feature is hidden.
      A tall feature containing the eye (or within 1e-9" of it) does not block that
      observer (it looks out).
    * A hill blocks exactly like a tall polygon between two models that are both lower
      than it (eye level = ground elevation + the given height) and neither of whose
      centres is on it; a model on the hill sees and is seen across it.
    * Area terrain (woods, heavy_woods, brush, wheat_field): a point of the target is
      hidden when the segment eye->point runs more than ``AREA_SIGHT_DEPTH`` inside area
      polygons (lengths summed over features). That shadow is bounded by curves, so it is
      measured on ``SIGHT_SAMPLES`` fixed equal-area sample points of the target base
      (:func:`base_samples`). When at least one sample is hidden by area terrain, the
      visible fraction is the share of samples hidden neither by area terrain nor by the
      exact tall shadows; otherwise (tall terrain only) it is the exact area ratio.
    * Line obstacles, ground, water and roads never block sight; models never block.

    ``visible_fraction``/``sight`` compute one pair straightforwardly with shapely (the
    reference); ``visible_matrix`` computes many pairs with numpy on the terrain edges
    and agrees with the reference to rounding error.
    """

    def __init__(self, battlefield: Battlefield):
        self.battlefield = battlefield
        self._idx = _index(battlefield)
        feats = battlefield.terrain
        self._blk = [i for i, f in enumerate(feats) if f.cls in _BLOCK_CLASSES]
        self._area = [i for i, f in enumerate(feats) if f.cls in _AREA_CLASSES]
        self._hills = [i for i, f in enumerate(feats) if f.cls == "elevation"]
        self._nb = len(self._blk)
        self._blk_geoms = self._idx.geoms[self._blk] if self._nb else np.zeros(0, object)
        self._blk_hill = np.array([feats[i].cls == "elevation" for i in self._blk], dtype=bool)
        self._blk_h = np.array([feats[i].height for i in self._blk], dtype=float)
        self._hill_geoms = self._idx.geoms[self._hills] if self._hills else np.zeros(0, object)
        self._hill_h = np.array([feats[i].height for i in self._hills], dtype=float)
        self._build_edges()
        self._build_pieces()
        self._tcache: dict[tuple[Footprint, ...], _Targets] = {}
        # per target base: cone vertices, sample points, ground elevation (see _target_parts)
        self._pcache: dict[Footprint, tuple[np.ndarray, np.ndarray | None, float]] = {}
        self._sight_cache: dict[tuple, Sight] = {}
        # terrain that can matter to a shot: blocks sight, hides, or gives cover
        self._sight_relevant = np.array(
            [f.cls in ("tall", "area", "elevation", "line") for f in feats], dtype=bool
        )
        self._fc = np.vstack([self._bc, self._pc])
        self._fr = np.concatenate([self._br, self._pr])

    # ------------------------------------------------------------------ precompute

    def _build_edges(self) -> None:
        """Edge arrays of sight-blocking polygons, rings oriented with the inside on the
        left; plus a bounding circle per feature for the pre-filter."""
        ea, eb, start, count, bc, br = [], [], [], [], [], []
        n = 0
        for g in self._blk_geoms:
            k0 = n
            pts = []
            for poly in shapely.get_parts(g):
                rings = [poly.exterior, *poly.interiors]
                for ring in rings:
                    c = np.asarray(ring.coords)[:, :2]
                    a, b = c[:-1], c[1:]
                    keep = np.any(a != b, axis=1)
                    ea.append(a[keep])
                    eb.append(b[keep])
                    n += int(keep.sum())
                pts.append(np.asarray(poly.exterior.coords)[:, :2])
            start.append(k0)
            count.append(n - k0)
            allp = np.vstack(pts)
            mn, mx = allp.min(0), allp.max(0)
            cen = (mn + mx) / 2
            bc.append(cen)
            br.append(float(np.sqrt(((allp - cen) ** 2).sum(1)).max()))
        self._ea = np.vstack(ea) if ea else np.zeros((0, 2))
        self._eb = np.vstack(eb) if eb else np.zeros((0, 2))
        self._e_start = np.array(start, dtype=np.intp)
        self._e_count = np.array(count, dtype=np.intp)
        self._bc = np.array(bc, dtype=float).reshape(-1, 2)
        self._br = np.array(br, dtype=float) * (1 + 1e-9) + 1e-9

    def _build_pieces(self) -> None:
        """Convex pieces of area polygons (the polygon itself when convex, else a
        constrained triangulation) as padded inward half-planes, so the length of a
        segment inside a polygon is a sum of Cyrus-Beck clips in numpy."""
        normals, offsets, owner, pc, pr = [], [], [], [], []
        self._area_diam = []
        for ai, fi in enumerate(self._area):
            g = self._idx.geoms[fi]
            hull = shapely.convex_hull(g)
            allp = shapely.get_coordinates(g)
            diam = float(np.sqrt(((allp[:, None] - allp[None]) ** 2).sum(-1)).max())
            self._area_diam.append(diam)
            convex = (
                isinstance(g, shapely.Polygon)
                and not list(g.interiors)
                and abs(hull.area - g.area) <= 1e-12 * max(hull.area, 1.0)
            )
            pieces = (
                [g]
                if convex
                else list(shapely.get_parts(shapely.constrained_delaunay_triangles(g)))
            )
            for piece in pieces:
                piece = shapely.orient_polygons(piece, exterior_cw=False)
                c = np.asarray(piece.exterior.coords)[:, :2]
                a, b = c[:-1], c[1:]
                keep = np.any(a != b, axis=1)
                a, b = a[keep], b[keep]
                if len(a) < 3:
                    continue
                nrm = np.stack([-(b[:, 1] - a[:, 1]), b[:, 0] - a[:, 0]], axis=1)
                normals.append(nrm)
                offsets.append((nrm * a).sum(1))
                owner.append(ai)
                mn, mx = c.min(0), c.max(0)
                cen = (mn + mx) / 2
                pc.append(cen)
                pr.append(float(np.sqrt(((c - cen) ** 2).sum(1)).max()))
        self._npc = len(normals)
        mx = max((len(x) for x in normals), default=3)
        self._pnx = np.zeros((self._npc, mx))
        self._pny = np.zeros((self._npc, mx))
        self._po = np.zeros((self._npc, mx))
        for k, (nrm, off) in enumerate(zip(normals, offsets)):
            pad = mx - len(nrm)  # repeat the last half-plane: it constrains nothing new
            self._pnx[k] = np.r_[nrm[:, 0], np.repeat(nrm[-1, 0], pad)]
            self._pny[k] = np.r_[nrm[:, 1], np.repeat(nrm[-1, 1], pad)]
            self._po[k] = np.r_[off, np.repeat(off[-1], pad)]
        self._p_owner = np.array(owner, dtype=np.intp)
        self._pc = np.array(pc, dtype=float).reshape(-1, 2)
        self._pr = np.array(pr, dtype=float) * (1 + 1e-9) + 1e-9
        self._area_pieces = [np.flatnonzero(self._p_owner == ai) for ai in range(len(self._area))]
        self._area_diam = np.asarray(self._area_diam, dtype=float)
        # Only features no wider than the sight depth can make the diameter bound useful.
        self._area_small = bool(
            self._area_diam.size and self._area_diam.min() <= AREA_SIGHT_DEPTH + _DEPTH_EPS
        )

    # ------------------------------------------------------------------ simple queries

    def elevation_at(self, p: Point) -> float:
        """Height of the highest hill containing p (boundary included), else 0."""
        if not self._hills:
            return 0.0
        hit = shapely.intersects_xy(self._hill_geoms, p[0], p[1])
        return float(self._hill_h[hit].max()) if hit.any() else 0.0

    def _elev_np(self, P: np.ndarray) -> np.ndarray:
        out = np.zeros(len(P))
        for g, h in zip(self._hill_geoms, self._hill_h):
            hit = shapely.intersects_xy(g, P[:, 0], P[:, 1])
            out = np.where(hit, np.maximum(out, h), out)
        return out

    def impassable(self) -> list[list[Point]]:
        """Polygons of tall terrain, for the physics service."""
        return [
            [(float(x), float(y)) for x, y in f.polygon]
            for f in self.battlefield.terrain
            if f.cls == "tall"
        ]

    # ------------------------------------------------------------------ shared numpy kernels

    def _piece_lengths(self, E: np.ndarray, P: np.ndarray, pieces: np.ndarray) -> np.ndarray:
        """Length of segments E[r] -> P[r, s] inside convex piece ``pieces[r]``: (R, S).

        Cyrus-Beck clipping against the piece's inward half-planes (pieces with fewer edges
        repeat their last half-plane). A segment parallel to an edge gets a tiny positive
        slope there, so it is cut away exactly when it runs outside that edge.
        """
        out = np.empty(P.shape[:2])
        chunk = 4096
        for s in range(0, len(pieces), chunk):
            e, p, pc = E[s : s + chunk], P[s : s + chunk], pieces[s : s + chunk]
            nx, ny, off = self._pnx[pc], self._pny[pc], self._po[pc]  # (r, m)
            dx = p[..., 0] - e[:, 0, None]  # (r, S)
            dy = p[..., 1] - e[:, 1, None]
            ng = off - nx * e[:, 0, None] - ny * e[:, 1, None]  # -(n.E - o): (r, m)
            h = nx[:, :, None] * dx[:, None, :]
            h += ny[:, :, None] * dy[:, None, :]  # n.D: (r, m, S), samples innermost
            h[h == 0] = 1e-300
            t = ng[:, :, None] / h
            pos = h > 0
            enter = np.where(pos, t, 0.0).max(1)
            leave = np.where(pos, 1.0, t).min(1)
            np.minimum(leave, 1.0, out=leave)
            np.maximum(enter, 0.0, out=enter)
            np.subtract(leave, enter, out=leave)
            np.maximum(leave, 0.0, out=leave)
            out[s : s + chunk] = leave * np.sqrt(dx * dx + dy * dy)
        return out

    @staticmethod
    def _crossed(E: np.ndarray, P: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Whether segment E[r] -> P[r, s] crosses edge A[r] B[r]: (R, S) bool."""
        dx = P[..., 0] - E[:, None, 0]
        dy = P[..., 1] - E[:, None, 1]
        ax, ay = (A - E)[:, 0, None], (A - E)[:, 1, None]
        bx, by = (B - E)[:, 0, None], (B - E)[:, 1, None]
        o1 = _cross(dx, dy, ax, ay)
        o2 = _cross(dx, dy, bx, by)
        ex, ey = (B - A)[:, 0], (B - A)[:, 1]
        o3 = _cross(ex, ey, (E - A)[:, 0], (E - A)[:, 1])[:, None]
        o4 = _cross(ex[:, None], ey[:, None], P[..., 0] - A[:, 0, None], P[..., 1] - A[:, 1, None])
        return (o1 * o2 <= 0) & (o3 * o4 < 0)

    # ------------------------------------------------------------------ activity of blockers

    def _blk_active(
        self, E: np.ndarray, Ct: np.ndarray, lev_o: np.ndarray, lev_t: np.ndarray
    ) -> np.ndarray:
        """Mask broadcastable to (no, nt, nb): the blocker casts shadow for this pair at all
        (a tall feature unless it contains the eye; a hill under the rule on the class)."""
        no, nt, nb = len(E), len(Ct), self._nb
        hill = self._blk_hill
        if not hill.any():
            inside = _eye_in(self._blk_geoms[None, :], E)
            return ~inside[:, None, :]
        eye_in = np.zeros((no, nb), dtype=bool)
        if (~hill).any():
            eye_in[:, ~hill] = _eye_in(self._blk_geoms[None, ~hill], E)
        act = np.broadcast_to(~eye_in[:, None, :], (no, nt, nb)).copy()
        gh = self._blk_geoms[None, hill]
        o_on = _eye_in(gh, E)  # (no, nh)
        t_on = shapely.intersects_xy(gh, Ct[:, 0, None], Ct[:, 1, None])  # (nt, nh)
        h = self._blk_h[hill]
        low_o = (lev_o[:, None] < h[None, :]) & ~o_on
        low_t = (lev_t[:, None] < h[None, :]) & ~t_on
        act[:, :, hill] = low_o[:, None, :] & low_t[None, :, :]
        return act

    @staticmethod
    def _capsule(
        E: np.ndarray, D: np.ndarray, L2: np.ndarray, R: np.ndarray, fc: np.ndarray, fr: np.ndarray
    ) -> np.ndarray:
        """(no, nt, nf) mask: the feature's bounding circle comes within the target's bounding
        radius of the eye-to-target-centre segment (a superset of the sight cone)."""
        W = fc[None, :, :] - E[:, None, :]  # (no, nf, 2)
        W2 = (W**2).sum(-1)  # (no, nf)
        dot = np.matmul(D, W.transpose(0, 2, 1))  # (no, nt, nf)
        t = np.where(L2[..., None] > 0, dot / L2[..., None], 0.0)
        t = np.clip(t, 0.0, 1.0)
        d2 = W2[:, None, :] - 2 * t * dot + t * t * L2[..., None]
        lim = (fr[None, None, :] + R[None, :, None]) * (1 + 1e-7) + 1e-7
        return d2 <= lim * lim

    # ------------------------------------------------------------------ the matrix

    def _targets(self, tgs: list[Footprint]) -> _Targets:
        """Target arrays, cached: the hover preview asks about the same enemies every frame."""
        key = tuple(tgs)
        try:
            hit = self._tcache.get(key)
        except TypeError:  # a base given as a list: unhashable, so not cached
            key, hit = None, None
        if hit is None:
            hit = _target_arrays(tgs)
            hit.lev = self._elev_np(hit.C)
            if key is not None:
                if len(self._tcache) >= 8:
                    self._tcache.pop(next(iter(self._tcache)))
                self._tcache[key] = hit
        return hit

    def visible_fraction(self, observer: Footprint, target: Footprint) -> float:
        """Visible fraction of the target's base from the observer's eye (reference path)."""
        return self._reference(observer, target, 0.0, 0.0)[0]

    def visible_row(self, observer: Footprint, targets: Sequence[Footprint]) -> np.ndarray:
        """One observer against many targets (the hover preview): shape (len(targets),)."""
        return self.visible_matrix([observer], targets)[0]

    def visible_matrix(
        self, observers: Sequence[Footprint], targets: Sequence[Footprint]
    ) -> np.ndarray:
        """Visible fractions for every (observer, target) pair: shape (len(observers),
        len(targets)), equal to :meth:`visible_fraction` pair by pair.

        How it is fast (DESIGN.md: numpy on the terrain edges): a bounding-circle pre-filter
        over all pairs x features leaves most pairs at 1.0 at once. For the rest, each
        front-facing edge of a blocker (the eye on its outer side) is clipped to the cone
        the target subtends from the eye. An edge wholly in front of the target hides it
        over the edge's angular interval; an edge wholly behind it hides nothing (the two
        are told apart exactly: triangle eye-edge against the base, edge against the
        base). The hidden area is then the base's area inside the union of the intervals:
        a circular segment in closed form for a disc, half-plane clipping for a rectangle.
        Pairs where an edge cuts into the base itself fall back to the exact shapely
        shadows; pairs touched by area terrain use the sampled method of the class.
        """
        obs, tgs = list(observers), list(targets)
        no, nt = len(obs), len(tgs)
        vis = np.ones((no, nt))
        if no == 0 or nt == 0 or (self._nb == 0 and self._npc == 0):
            return vis
        E = np.array([(o.x, o.y) for o in obs], dtype=float).reshape(no, 2)
        T = self._targets(tgs)
        with np.errstate(all="ignore"):
            D = T.C[None, :, :] - E[:, None, :]
            L2 = (D**2).sum(-1)
            cand = self._capsule(E, D, L2, T.R, self._fc, self._fr)
            nb = self._nb
            info = None
            if nb:
                candB = cand[:, :, :nb]
                candB &= self._blk_active(E, T.C, self._elev_np(E), T.lev)
                if candB.any():
                    info = self._tall_pass(E, T, candB, vis)
            if self._npc:
                self._area_pass(E, T, cand[:, :, nb:], vis, info)
        return vis

    def _area_pass(
        self, E: np.ndarray, T: _Targets, candP: np.ndarray, vis: np.ndarray, info: _TallInfo | None
    ) -> None:
        """Sampled visible fraction for pairs where area terrain hides some sample.

        Runs after the tall pass: pairs already wholly hidden stay 0 (every sample would be
        hidden too); the tall part of each sample comes from the tall pass's intervals.
        """
        nt = len(T.C)
        candP &= (vis > 0)[..., None]
        ii, jj, pp = np.nonzero(candP)
        if ii.size == 0:
            return
        pid = ii * nt + jj
        if self._area_small:
            # The depth along any ray is at most the sum of the diameters of the distinct
            # area features in play: skip pairs that can never reach the limit.
            new = np.concatenate(([True], pid[1:] != pid[:-1]))
            starts = np.flatnonzero(new)
            owners = self._p_owner[pp]
            first = new.copy()
            first[1:] |= owners[1:] != owners[:-1]
            bound = np.add.reduceat(self._area_diam[owners] * first, starts)
            keep_pair = bound > AREA_SIGHT_DEPTH + _DEPTH_EPS
            if not keep_pair.all():
                rows = keep_pair[np.cumsum(new) - 1]
                ii, jj, pp, pid = ii[rows], jj[rows], pp[rows], pid[rows]
                if ii.size == 0:
                    return
        starts = _group_starts(pid)
        lengths = self._piece_lengths(E[ii], T.S[jj], pp)
        depth = np.add.reduceat(lengths, starts, axis=0)
        hid = depth > AREA_SIGHT_DEPTH + _DEPTH_EPS
        inv = hid.any(1)
        if not inv.any():
            return
        st = starts[inv]
        pi, pj = ii[st], jj[st]
        hid = hid[inv]
        if info is not None:
            hid |= self._tall_samples(E, T, pi, pj, info)
        vis[pi, pj] = 1.0 - hid.sum(1) / hid.shape[1]

    def _tall_samples(
        self, E: np.ndarray, T: _Targets, pi: np.ndarray, pj: np.ndarray, info: _TallInfo
    ) -> np.ndarray:
        """The sample points of pairs (pi, pj) (sorted) that tall terrain hides: by the
        merged angular intervals where the tall pass had them, by edge crossings
        otherwise."""
        nt = len(T.C)
        inv_pid = pi * nt + pj
        tall = np.zeros((len(pi), SIGHT_SAMPLES), dtype=bool)
        if info.g_rank.size:
            gp = info.upid[info.g_rank]
            rowi = np.minimum(np.searchsorted(inv_pid, gp), len(inv_pid) - 1)
            sel = inv_pid[rowi] == gp
            if sel.any():
                rowi = rowi[sel]
                Ei = E[pi[rowi]]
                ux = T.C[pj[rowi], 0] - Ei[:, 0]
                uy = T.C[pj[rowi], 1] - Ei[:, 1]
                Px = T.S[pj[rowi], :, 0] - Ei[:, 0, None]
                Py = T.S[pj[rowi], :, 1] - Ei[:, 1, None]
                phi = np.arctan2(
                    ux[:, None] * Py - uy[:, None] * Px, ux[:, None] * Px + uy[:, None] * Py
                )
                hit = (phi >= info.g_lo[sel][:, None]) & (phi <= info.g_hi[sel][:, None])
                st = _group_starts(rowi)
                tall[rowi[st]] = np.logical_or.reduceat(hit, st, axis=0)
        if info.bad.size:
            rowb = np.minimum(np.searchsorted(inv_pid, info.bad), len(inv_pid) - 1)
            for r in rowb[inv_pid[rowb] == info.bad]:
                feats = info.kk[info.pid == inv_pid[r]]
                _, edge = _expand(self._e_count[feats], self._e_start[feats])
                n = edge.size
                cr = self._crossed(
                    np.repeat(E[pi[r]][None], n, 0),
                    np.repeat(T.S[pj[r]][None], n, 0),
                    self._ea[edge],
                    self._eb[edge],
                )
                tall[r] |= cr.any(0)
        return tall

    def _tall_pass(
        self, E: np.ndarray, T: _Targets, cand: np.ndarray, vis: np.ndarray
    ) -> _TallInfo:
        """Exact visible fraction against tall terrain (and crested hills) for the candidate
        pairs, by angular intervals, with an exact shapely fallback."""
        nt, nb = len(T.C), self._nb
        ii, jj, kk = np.nonzero(cand)
        # Front-facing edges (the eye on their outer side) cast the shadow; they depend on
        # the eye only, so find them per observer and expand each (pair, feature) to them.
        ax_ = self._ea[None, :, 0] - E[:, 0, None]
        ay_ = self._ea[None, :, 1] - E[:, 1, None]
        bx_ = self._eb[None, :, 0] - E[:, 0, None]
        by_ = self._eb[None, :, 1] - E[:, 1, None]
        fm = _cross(ax_, ay_, bx_, by_) < 0  # (no, m)
        fi, fe = np.nonzero(fm)
        fcount = np.add.reduceat(fm, self._e_start, axis=1, dtype=np.intp).ravel()
        fstart = np.cumsum(fcount) - fcount
        fk = ii * nb + kk
        rep, pos = _expand(fcount[fk], fstart[fk])
        edge = fe[pos]
        ri, rj = ii[rep], jj[rep]
        Er = E[ri]
        a = self._ea[edge] - Er
        b = self._eb[edge] - Er
        edge_feat = kk[rep]
        pid_all = ii * nt + jj
        # Per-row cone of the target's bounding circle (the disc itself for a round base).
        Dr = T.C[rj] - E[ri]
        d = np.sqrt((Dr**2).sum(1))
        Rr = T.R[rj]
        too_close = d <= Rr * (1 + 1e-9) + 1e-12
        ux, uy = Dr[:, 0] / d, Dr[:, 1] / d
        sa = np.where(too_close, 1.0, Rr / d)
        ca = np.sqrt(np.clip(1.0 - sa * sa, 0.0, None))
        d1x, d1y = ux * ca + uy * sa, -ux * sa + uy * ca
        d2x, d2y = ux * ca - uy * sa, ux * sa + uy * ca

        def lin_range(f0: np.ndarray, f1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            cut = f0 / (f0 - f1)
            lo = np.where(f0 >= 0, 0.0, np.where(f1 >= 0, cut, 2.0))
            hi = np.where(f1 >= 0, 1.0, np.where(f0 >= 0, cut, -1.0))
            return lo, hi

        lo1, hi1 = lin_range(_cross(d1x, d1y, a[:, 0], a[:, 1]), _cross(d1x, d1y, b[:, 0], b[:, 1]))
        lo2, hi2 = lin_range(_cross(a[:, 0], a[:, 1], d2x, d2y), _cross(b[:, 0], b[:, 1], d2x, d2y))
        s0, s1 = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
        inside = (s1 - s0 > 1e-12) | too_close
        ri, rj, a, b, edge_feat = ri[inside], rj[inside], a[inside], b[inside], edge_feat[inside]
        s0, s1, too_close = s0[inside], s1[inside], too_close[inside]
        ux, uy, d, Rr = ux[inside], uy[inside], d[inside], Rr[inside]
        ab = b - a
        pa = a + s0[:, None] * ab
        pb = a + s1[:, None] * ab
        # Where is the clipped edge relative to the target? If the triangle (eye, pa, pb)
        # misses the target, the edge is wholly in front of it and shadows the target's
        # whole depth over its angular interval. If the triangle reaches the target but the
        # edge itself does not touch it, the edge is wholly behind it (by continuity along
        # the rays) and hides nothing. Otherwise the pair goes to the exact fallback.
        # Discs by distances, rectangles by separating axes; near-contacts (1e-9") count
        # as contacts, which only sends a pair to the fallback.
        front_ok = np.zeros(len(ri), dtype=bool)
        seg_clear = np.zeros(len(ri), dtype=bool)
        rnd = T.rnd[rj]
        if rnd.any():
            m = rnd & ~too_close
            cx, cy = (ux * d)[m], (uy * d)[m]
            ax_, ay_, bx_, by_ = pa[m, 0], pa[m, 1], pb[m, 0], pb[m, 1]
            zx = np.zeros_like(ax_)
            dseg = _segment_dist2(cx, cy, ax_, ay_, bx_, by_)
            d2 = np.minimum.reduce(
                [
                    _segment_dist2(cx, cy, zx, zx, ax_, ay_),
                    dseg,
                    _segment_dist2(cx, cy, bx_, by_, zx, zx),
                ]
            )
            c1 = _cross(ax_, ay_, cx, cy)
            c2 = _cross(bx_ - ax_, by_ - ay_, cx - ax_, cy - ay_)
            c3 = _cross(-bx_, -by_, cx - bx_, cy - by_)
            tri_in = ((c1 <= 0) & (c2 <= 0) & (c3 <= 0)) | ((c1 >= 0) & (c2 >= 0) & (c3 >= 0))
            lim = Rr[m] + 1e-9
            front_ok[m] = (~tri_in) & (d2 > lim * lim)
            seg_clear[m] = dseg > lim * lim
        if (~rnd).any():
            m = (~rnd) & ~too_close
            V4 = T.V[rj[m], :4, :] - E[ri[m]][:, None, :]
            tri = np.stack([np.zeros_like(pa[m]), pa[m], pb[m]], axis=1)  # (k, 3, 2)
            seg = tri[:, 1:, :]
            te = np.roll(tri, -1, axis=1) - tri
            axes = [np.stack([-te[:, q, 1], te[:, q, 0]], -1) for q in range(3)]
            axes += [T.axes[rj[m], 0], T.axes[rj[m], 1]]
            sep_t = np.zeros(int(m.sum()), dtype=bool)
            sep_s = np.zeros(int(m.sum()), dtype=bool)
            for q, ax in enumerate(axes):
                p2 = (V4 * ax[:, None, :]).sum(-1)
                ln = np.sqrt((ax**2).sum(-1)) * 1e-9 + 1e-12
                p1 = (tri * ax[:, None, :]).sum(-1)
                sep_t |= (p1.max(1) < p2.min(1) - ln) | (p2.max(1) < p1.min(1) - ln)
                if q != 0 and q != 2:  # the segment's own normal is axis 1; skip eye sides
                    p3 = (seg * ax[:, None, :]).sum(-1)
                    sep_s |= (p3.max(1) < p2.min(1) - ln) | (p2.max(1) < p3.min(1) - ln)
            front_ok[m] = sep_t
            seg_clear[m] = sep_s
        ok = front_ok | seg_clear
        behind = seg_clear & ~front_ok
        if behind.any():
            keep = ~behind
            ri, rj, pa, pb, ok = ri[keep], rj[keep], pa[keep], pb[keep], ok[keep]
            ux, uy = ux[keep], uy[keep]
        row_pid = ri * nt + rj
        if ok.all():
            bad_pids = np.zeros(0, dtype=row_pid.dtype)
            good = ok
        else:
            newg = np.concatenate(([True], row_pid[1:] != row_pid[:-1]))
            grp = np.cumsum(newg) - 1
            bad_grp = np.zeros(int(grp[-1]) + 1, dtype=bool)
            bad_grp[grp[~ok]] = True
            bad_pids = row_pid[newg][bad_grp]
            good = ~bad_grp[grp]
        # Angular intervals relative to the direction of the target, merged per pair.
        gpid = row_pid[good]
        ux_g, uy_g = ux[good], uy[good]
        pa_g, pb_g = pa[good], pb[good]
        fa = np.arctan2(
            _cross(ux_g, uy_g, pa_g[:, 0], pa_g[:, 1]), ux_g * pa_g[:, 0] + uy_g * pa_g[:, 1]
        )
        fb = np.arctan2(
            _cross(ux_g, uy_g, pb_g[:, 0], pb_g[:, 1]), ux_g * pb_g[:, 0] + uy_g * pb_g[:, 1]
        )
        lo, hi = np.minimum(fa, fb), np.maximum(fa, fb)
        info = _TallInfo(
            upid=np.zeros(0, np.intp),
            g_rank=np.zeros(0, np.intp),
            g_lo=np.zeros(0),
            g_hi=np.zeros(0),
            bad=bad_pids,
            pid=pid_all,
            kk=kk,
        )
        if gpid.size:
            newp = np.concatenate(([True], gpid[1:] != gpid[:-1]))
            rank = np.cumsum(newp) - 1
            upid = gpid[newp]
            klo, khi = rank * 8.0 + lo, rank * 8.0 + hi
            order = np.argsort(klo, kind="stable")
            klo, khi, rank_s = klo[order], khi[order], rank[order]
            run = np.maximum.accumulate(khi)
            new = np.concatenate(([True], klo[1:] > run[:-1]))
            st = np.flatnonzero(new)
            g_lo = klo[st] - rank_s[st] * 8.0
            g_hi = np.maximum.reduceat(khi, st) - rank_s[st] * 8.0
            g_rank = rank_s[st]
            gi, gj = upid[g_rank] // nt, upid[g_rank] % nt
            uxx = T.C[gj, 0] - E[gi, 0]
            uyy = T.C[gj, 1] - E[gi, 1]
            nn = np.sqrt(uxx**2 + uyy**2)
            # Area of the target on the clockwise side of the ray at each merged endpoint.
            # A disc in closed form (a circular segment), a rectangle by clipping.
            A_lo = np.empty(g_lo.size)
            A_hi = np.empty(g_hi.size)
            rg = T.rnd[gj]
            if rg.any():
                r = T.R[gj[rg]]
                for g_phi, A in ((g_lo, A_lo), (g_hi, A_hi)):
                    sv = np.clip(-nn[rg] * np.sin(g_phi[rg]) / r, -1.0, 1.0)
                    A[rg] = r * r * (np.arccos(sv) - sv * np.sqrt(1.0 - sv * sv))
            if (~rg).any():
                sel = np.flatnonzero(~rg)
                Vrel = T.V[gj[sel]] - E[gi[sel]][:, None, :]
                ux1, uy1 = uxx[sel] / nn[sel], uyy[sel] / nn[sel]
                A_lo[sel] = self._clip_area(Vrel, ux1, uy1, g_lo[sel])
                A_hi[sel] = self._clip_area(Vrel, ux1, uy1, g_hi[sel])
            hidden = np.bincount(g_rank, weights=A_hi - A_lo, minlength=upid.size)
            pi, pj = upid // nt, upid % nt
            vis[pi, pj] = np.clip(1.0 - hidden / T.area[pj], 0.0, 1.0)
            info.upid, info.g_rank, info.g_lo, info.g_hi = upid, g_rank, g_lo, g_hi
        # Exact fallback for the pairs an edge reaches into.
        if bad_pids.size:
            for pidv in bad_pids:
                i, j = divmod(int(pidv), nt)
                feats = kk[pid_all == pidv]
                hid_area, _ = self._exact_hidden(E[i], T.fps[j], feats, front_only=True)
                vis[i, j] = min(max(1.0 - hid_area / T.area[j], 0.0), 1.0)
        return info

    @staticmethod
    def _clip_area(Vrel: np.ndarray, ux: np.ndarray, uy: np.ndarray, phi: np.ndarray) -> np.ndarray:
        """Area of each polygon (eye at the origin) on the clockwise side of the ray at angle
        ``phi`` from direction u. Shoelace over the clipped edges; the cut itself runs
        through the origin and adds nothing, so each edge contributes its cross product
        times the share of it on that side."""
        c, s = np.cos(phi), np.sin(phi)
        wx, wy = ux * c - uy * s, ux * s + uy * c
        X = np.ascontiguousarray(Vrel[..., 0])
        Y = np.ascontiguousarray(Vrel[..., 1])
        sv = wx[:, None] * Y
        sv -= wy[:, None] * X  # side of each vertex: <= 0 is the clockwise side
        Xn, Yn, sn = np.roll(X, -1, 1), np.roll(Y, -1, 1), np.roll(sv, -1, 1)
        cpq = X * Yn
        cpq -= Y * Xn
        # share of each edge on the side <= 0, branch-free: -min(sv, sn) / |sn - sv|, clipped
        den = sn - sv
        np.abs(den, out=den)
        den += 1e-300
        f = np.minimum(sv, sn)
        np.negative(f, out=f)
        f /= den
        np.clip(f, 0.0, 1.0, out=f)
        f *= cpq
        return 0.5 * f.sum(-1)

    # ------------------------------------------------------------------ exact shapely shadows

    def _exact_hidden(
        self, eye: np.ndarray, target: Footprint, feats: Iterable[int], front_only: bool
    ) -> tuple[float, dict[int, float]]:
        """Exact hidden area of a target base behind blockers ``feats`` (indices into the
        blocker list): base ∩ union of the edges' shadow pentagons (shapely), measured
        exactly against the disc of a round base. Returns the total and the area each
        feature hides on its own."""
        feats = [int(k) for k in feats]
        if not feats:
            return 0.0, {}
        E = np.asarray(eye, dtype=float)
        rnd = base_is_round(target.base)
        rad = base_radius_in(target.base)
        reach = math.hypot(target.x - E[0], target.y - E[1]) + rad
        tgeom = None if rnd else _fp_geom(target)
        box = (target.x - rad, target.y - rad, target.x + rad, target.y + rad)
        pieces, owner = [], []
        for k in feats:
            polys = self._edge_shadows(E, k, reach, front_only)
            if polys is None:
                continue
            if rnd:
                pieces.append(shapely.clip_by_rect(polys, *box))
            else:
                pieces.append(shapely.intersection(tgeom, polys, grid_size=_GRID))
            owner.append(k)
        if not pieces:
            return 0.0, {}

        def measure(g: shapely.Geometry) -> float:
            if rnd:
                return _circle_geom_area((target.x, target.y), rad, g)
            return float(g.area)

        per: dict[int, float] = {}
        unions = []
        for k, pc in zip(owner, pieces):
            u = shapely.union_all(pc, grid_size=_GRID)
            per[k] = measure(u)
            unions.append(u)
        if len(unions) > 1:
            total = measure(shapely.union_all(unions, grid_size=_GRID))
        else:
            total = per[owner[0]]
        return total, per

    def _edge_shadows(
        self, E: np.ndarray, k: int, reach: float, front_only: bool
    ) -> np.ndarray | None:
        """Shadow pentagons of blocker k's edges from eye E, long enough to pass ``reach``:
        edge a-b, then out along the rays through b, their bisector and a (the bisector
        keeps the far side beyond reach for edges spanning up to 180 degrees)."""
        s, n = self._e_start[k], self._e_count[k]
        a = self._ea[s : s + n] - E
        b = self._eb[s : s + n] - E
        na = np.sqrt((a**2).sum(1))
        nb = np.sqrt((b**2).sum(1))
        cr = _cross(a[:, 0], a[:, 1], b[:, 0], b[:, 1])
        keep = (cr < 0) if front_only else np.ones(len(a), dtype=bool)
        keep &= np.abs(cr) > 1e-12 * na * nb
        keep &= (na > 0) & (nb > 0)
        if not keep.any():
            return None
        a, b, na, nb = a[keep], b[keep], na[keep], nb[keep]
        ah, bh = a / na[:, None], b / nb[:, None]
        mh = ah + bh
        mh /= np.sqrt((mh**2).sum(1))[:, None]
        R = np.maximum(1.5 * reach + 1.0, 1.5 * np.maximum(na, nb) + 1.0)[:, None]
        return shapely.polygons(np.stack([a, b, bh * R, mh * R, ah * R], axis=1) + E)

    # ------------------------------------------------------------------ the reference path

    def _active_blockers(
        self,
        observer: Footprint,
        target: Footprint,
        lev_o: float,
        lev_t: float,
        cone: shapely.Geometry,
    ) -> list[int]:
        """Blockers (indices into the blocker list) casting shadow for this pair whose
        polygon meets the sight cone (convex hull of the eye and the target)."""
        out = []
        if not self._nb:
            return out
        hit = shapely.intersects(self._blk_geoms, cone)
        for k in np.flatnonzero(hit):
            g = self._blk_geoms[k]
            if self._blk_hill[k]:
                h = self._blk_h[k]
                on_o = _eye_in(np.array([g], dtype=object), np.array([[observer.x, observer.y]]))[
                    0, 0
                ]
                on_t = shapely.intersects_xy(g, target.x, target.y)
                if on_o or on_t or lev_o >= h or lev_t >= h:
                    continue
            elif _eye_in(np.array([g], dtype=object), np.array([[observer.x, observer.y]]))[0, 0]:
                continue
            out.append(int(k))
        return out

    def _reference(
        self, observer: Footprint, target: Footprint, ho: float, ht: float, detail: bool = False
    ) -> tuple[float, list[int], list[int]]:
        """Straightforward visible fraction of one pair (see the class docstring).

        Returns (visible, blocker indices hiding part of the target, area feature indices
        whose depth hides samples).
        """
        E = np.array([observer.x, observer.y], dtype=float)
        cv, lev_t0 = self._target_parts(target)
        cone = _hull_with_eye(cv, observer)
        area_t = _base_area(target)
        lev_o = self.elevation_at((observer.x, observer.y)) + ho
        lev_t = lev_t0 + ht
        blk = self._active_blockers(observer, target, lev_o, lev_t, cone)
        area_hid = None
        area_feats: list[int] = []
        S = np.zeros((0, 2))  # the target's sample points, once area terrain is in play
        if self._area:
            hit = shapely.intersects(self._idx.geoms[self._area], cone)
            ais = [ai for ai in np.flatnonzero(hit)]
            pcs = (
                np.concatenate([self._area_pieces[ai] for ai in ais])
                if ais
                else np.zeros(0, dtype=np.intp)
            )
            if pcs.size:
                S = self._target_samples(target)
                with np.errstate(all="ignore"):
                    L = self._piece_lengths(
                        np.repeat(E[None], pcs.size, 0), np.repeat(S[None], pcs.size, 0), pcs
                    )
                area_hid = L.sum(0) > AREA_SIGHT_DEPTH + _DEPTH_EPS
                if area_hid.any():
                    own = self._p_owner[pcs]
                    for ai in ais:
                        if (L[own == ai][:, area_hid] > 0).any():
                            area_feats.append(self._area[ai])
                else:
                    area_hid = None
        if area_hid is not None:
            tall = np.zeros(len(S), dtype=bool)
            for k in blk:
                s, n = self._e_start[k], self._e_count[k]
                A, B = self._ea[s : s + n], self._eb[s : s + n]
                cr = self._crossed(np.repeat(E[None], n, 0), np.repeat(S[None], n, 0), A, B)
                tall |= cr.any(0)
            visible = 1.0 - float((area_hid | tall).sum()) / len(S)
            hiders = []
            if detail:
                _, per = self._exact_hidden(E, target, blk, front_only=False)
                hiders = [k for k, v in per.items() if v > 1e-9 * area_t]
            return visible, hiders, area_feats
        if not blk:
            return 1.0, [], []
        total, per = self._exact_hidden(E, target, blk, front_only=False)
        visible = min(max(1.0 - total / area_t, 0.0), 1.0)
        hiders = [k for k, v in per.items() if v > 1e-9 * area_t]
        return visible, hiders, area_feats

    def _target_parts(self, target: Footprint) -> tuple[np.ndarray, float]:
        """(sight-cone vertices, ground elevation) of a target base, cached: every
        observer on the table asks about the same few target bases."""
        hit = self._target_hit(target)
        if hit is None:
            return _cone_vertices(target), self.elevation_at((target.x, target.y))
        return hit[0], hit[2]

    def _target_samples(self, target: Footprint) -> np.ndarray:
        """The target's area-terrain sample points (``_fp_samples``), cached likewise."""
        hit = self._target_hit(target)
        if hit is None:
            return _fp_samples([target])[0]
        if hit[1] is None:
            S = _fp_samples([target])[0]
            S.setflags(write=False)
            hit = self._pcache[target] = (hit[0], S, hit[2])
        assert hit[1] is not None
        return hit[1]

    def _target_hit(self, target: Footprint) -> tuple[np.ndarray, np.ndarray | None, float] | None:
        """The cache entry of a target base (made on first use; samples come lazily, as
        only pairs near area terrain need them), or None for an unhashable base."""
        try:
            hit = self._pcache.get(target)
        except TypeError:  # a base given as a list: unhashable, so not cached
            return None
        if hit is None:
            cv = _cone_vertices(target)
            cv.setflags(write=False)
            if len(self._pcache) > 4096:
                self._pcache.clear()
            hit = self._pcache[target] = (cv, None, self.elevation_at((target.x, target.y)))
        return hit

    def sight(
        self,
        observer: Footprint,
        target: Footprint,
        observer_height: float = 0.0,
        target_height: float = 0.0,
    ) -> Sight:
        """Visible fraction, blockers and cover of one shot (memoised; see ``_sight``).

        Why a cache: rules ask about the same pairs over and over (the AI's candidate
        filter, the window's hover, each clone of a search), and terrain never changes.
        A pair with no sight-relevant terrain anywhere near the line and the target's
        base answers at once without the exact computation.
        """
        key = (observer, target, observer_height, target_height)
        hit = self._sight_cache.get(key)
        if hit is not None:
            return hit
        if self._nothing_near(observer, target):
            hit = Sight(1.0, (), (), (), distance(observer, target))
        else:
            hit = self._sight(observer, target, observer_height, target_height)
        if len(self._sight_cache) > 50_000:
            self._sight_cache.clear()
        self._sight_cache[key] = hit
        return hit

    def _nothing_near(self, observer: Footprint, target: Footprint) -> bool:
        """True when no sight-relevant feature touches the box around the eye and the
        target's base grown by the cover distance (then: fully visible, no cover)."""
        r = base_radius_in(target.base) + COVER_PROXIMITY
        box = shapely.box(
            min(observer.x, target.x - r),
            min(observer.y, target.y - r),
            max(observer.x, target.x + r),
            max(observer.y, target.y + r),
        )
        near = self._idx.query(box)
        return not bool(np.any(self._sight_relevant[near])) if len(near) else True

    def _sight(
        self, observer: Footprint, target: Footprint, observer_height: float, target_height: float
    ) -> Sight:
        """Visible fraction, blockers and cover of one shot, computed exactly.

        Heights are added to the ground elevation of each model for hills only (a model
        taller than a hill sees over it). Cover: an area feature gives soft cover when the
        target's base overlaps it, or when the line of fire (eye to the target's centre)
        passes through it, the eye is not inside it and the target's base is within
        ``COVER_PROXIMITY``; a hedge or fence gives soft cover, a low wall hard cover, when
        the line of fire crosses it and the target is within ``COVER_PROXIMITY``; tall
        features hiding part of the target give hard cover.
        """
        visible, hiders, area_feats = self._reference(
            observer, target, observer_height, target_height, detail=True
        )
        feats = self.battlefield.terrain
        hider_ids = {self._blk[k] for k in hiders}
        blockers = sorted(hider_ids | set(area_feats))
        hard = [fi for fi in sorted(hider_ids) if feats[fi].cls == "tall"]
        soft: list[int] = []
        lof = shapely.LineString([(observer.x, observer.y), (target.x, target.y)])
        if lof.length == 0:
            lof = shapely.Point(observer.x, observer.y)
        cand = self._idx.query(shapely.union(lof, _base_bbox(target).buffer(COVER_PROXIMITY)))
        for fi in cand:
            f = feats[fi]
            if f.cls == "area":
                g = self._idx.geoms[fi]
                under = bool(_base_hits(target, self._idx, np.array([fi]))[0])
                if under:
                    soft.append(int(fi))
                    continue
                if shapely.contains_xy(g, observer.x, observer.y):
                    continue
                if shapely.intersects(lof, g) and self._base_gap(target, g) <= COVER_PROXIMITY:
                    soft.append(int(fi))
            elif f.kind in ("hedge", "fence", "low_wall"):
                g = self._idx.geoms[fi]
                if shapely.intersects(lof, g) and self._base_gap(target, g) <= COVER_PROXIMITY:
                    (hard if f.kind == "low_wall" else soft).append(int(fi))
        ids = self._idx.ids
        return Sight(
            visible=float(visible),
            blockers=tuple(ids[i] for i in blockers),
            soft_cover=tuple(ids[i] for i in sorted(set(soft))),
            hard_cover=tuple(ids[i] for i in sorted(set(hard))),
            distance=distance(observer, target),
        )

    @staticmethod
    def _base_gap(fp: Footprint, g: shapely.Geometry) -> float:
        """Base edge to polygon distance (exact for round bases)."""
        if base_is_round(fp.base):
            d = float(shapely.distance(shapely.Point(fp.x, fp.y), g))
            return max(d - base_radius_in(fp.base), 0.0)
        return float(shapely.distance(_fp_geom(fp), g))

    # ------------------------------------------------------------------ drawing

    def shadow_outline(self, observer: Footprint, target: Footprint) -> list[list[Point]]:
        """The hidden part(s) of the target's base as polygons, for the window to draw.

        Exact for tall terrain and hills; the part hidden by area terrain is traced along
        48 rays across the target (an approximation for drawing only).
        """
        E = np.array([observer.x, observer.y], dtype=float)
        tgeom = _fp_geom(target)
        cone = _sight_cone(observer, target)
        lev_o = self.elevation_at((observer.x, observer.y))
        lev_t = self.elevation_at((target.x, target.y))
        blk = self._active_blockers(observer, target, lev_o, lev_t, cone)
        parts = []
        if blk:
            parts.append(self._shadow_geom(E, tgeom, blk))
        area = self._area_shadow(E, target, tgeom, cone)
        if area is not None:
            parts.append(area)
        if not parts:
            return []
        return _rings(
            shapely.intersection(tgeom, shapely.union_all(parts, grid_size=_GRID), grid_size=_GRID)
        )

    def _shadow_geom(
        self, E: np.ndarray, tgeom: shapely.Geometry, feats: list[int]
    ) -> shapely.Geometry:
        """Union of the exact shadows of blockers ``feats`` reaching past the target."""
        tb = shapely.get_coordinates(tgeom)
        reach = float(np.sqrt(((tb - E) ** 2).sum(1)).max())
        polys = [
            p for k in feats if (p := self._edge_shadows(E, k, reach, front_only=False)) is not None
        ]
        if not polys:
            return shapely.Polygon()
        return shapely.union_all(np.concatenate(polys), grid_size=_GRID)

    def _area_shadow(
        self, E: np.ndarray, target: Footprint, tgeom: shapely.Geometry, cone: shapely.Geometry
    ) -> shapely.Geometry | None:
        """Approximate region hidden by area terrain: along 48 rays across the target, the
        distance where the in-area length passes AREA_SIGHT_DEPTH, joined into quads."""
        if not self._area:
            return None
        hit = shapely.intersects(self._idx.geoms[self._area], cone)
        ais = list(np.flatnonzero(hit))
        if not ais:
            return None
        tb = shapely.get_coordinates(tgeom) - E
        ang = np.arctan2(tb[:, 1], tb[:, 0])
        ref = math.atan2(target.y - E[1], target.x - E[0])
        rel = (ang - ref + np.pi) % (2 * np.pi) - np.pi
        far = float(np.sqrt((tb**2).sum(1)).max()) + 1.0
        nray = 48
        phis = ref + np.linspace(rel.min(), rel.max(), nray)
        ends = E + far * np.stack([np.cos(phis), np.sin(phis)], 1)
        # Per ray: the in-area intervals, then where their running total passes the limit.
        cut = np.full(nray, np.inf)
        for r in range(nray):
            seg = shapely.LineString([E, ends[r]])
            ivs = []
            for ai in ais:
                inter = shapely.intersection(seg, self._idx.geoms[self._area[ai]])
                for part in shapely.get_parts(inter):
                    if isinstance(part, shapely.LineString) and part.length > 0:
                        c = np.asarray(part.coords)
                        dd = np.sqrt(((c - E) ** 2).sum(1))
                        ivs.append((dd.min(), dd.max()))
            if not ivs:
                continue
            iv = np.array(ivs)
            bps = np.unique(iv.ravel())
            cum = np.clip(bps[:, None] - iv[None, :, 0], 0.0, (iv[:, 1] - iv[:, 0])[None]).sum(1)
            over = np.flatnonzero(cum > AREA_SIGHT_DEPTH)
            if over.size:
                q = over[0]
                slope = max(((bps[q - 1] >= iv[:, 0]) & (bps[q - 1] < iv[:, 1])).sum(), 1)
                cut[r] = bps[q - 1] + (AREA_SIGHT_DEPTH - cum[q - 1]) / slope
        quads = []
        for r in range(nray - 1):
            if np.isfinite(cut[r]) and np.isfinite(cut[r + 1]):
                d0 = np.array([math.cos(phis[r]), math.sin(phis[r])])
                d1 = np.array([math.cos(phis[r + 1]), math.sin(phis[r + 1])])
                quads.append(
                    shapely.Polygon(
                        [E + d0 * cut[r], E + d1 * cut[r + 1], E + d1 * far, E + d0 * far]
                    )
                )
        if not quads:
            return None
        return shapely.union_all(quads, grid_size=_GRID)
