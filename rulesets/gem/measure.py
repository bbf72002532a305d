"""Measuring the table for GEM: distances, zones, arcs, widths across the line of fire,
terrain along a path, cover and templates.

Why here, in plain Python: every GEM rule that depends on the table (Table 2's size and
cover modifiers, Table 3's flank and rear zones, movement costs, templates) asks one of
these few questions, and each answer must be exact, cheap enough for ``check`` and the
AI's candidate lists, and identical on every machine (replays). They are small convex
cases (round and rectangular bases, straight lines of fire), so they are solved with the
standard library; contacts along a path are left to ``engine.physics``. Distances are base
edge to base edge (SCENARIO_FORMAT.md); everything is in inches.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.battlefield import Battlefield, TerrainFeature, base_is_round, base_size_in
from engine.state import Model

Point = tuple[float, float]
MM = 25.4
COVER_DISTANCE = 2.0


# ------------------------------------------------------------------ bases as shapes
def corners(x: float, y: float, facing: float, base) -> list[Point]:
    """Corners of a rectangular base (front-left, front-right, rear-right, rear-left)."""
    w, d = base_size_in(base)
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    out = []
    for fx, fy in ((d / 2, w / 2), (d / 2, -w / 2), (-d / 2, -w / 2), (-d / 2, w / 2)):
        out.append((x + fx * c - fy * s, y + fx * s + fy * c))
    return out


def model_shape(m: Model) -> tuple[str, object]:
    if base_is_round(m.base):
        return "circle", ((m.x, m.y), base_size_in(m.base)[0] / 2)
    return "poly", corners(m.x, m.y, m.facing, m.base)


def _seg_point(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _segs_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    def orient(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 * o2 < 0) and (o3 * o4 < 0)


def _seg_seg(a: Point, b: Point, c: Point, d: Point) -> float:
    if _segs_cross(a, b, c, d):
        return 0.0
    return min(_seg_point(a, c, d), _seg_point(b, c, d), _seg_point(c, a, b), _seg_point(d, a, b))


def inside(p: Point, poly: Sequence[Point]) -> bool:
    """Point in polygon (even-odd rule)."""
    x, y = p
    res = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                res = not res
    return res


def _edges(poly: Sequence[Point]) -> Iterable[tuple[Point, Point]]:
    for i in range(len(poly)):
        yield poly[i], poly[(i + 1) % len(poly)]


def point_poly_distance(p: Point, poly: Sequence[Point]) -> float:
    """0 inside, else the distance to the nearest edge."""
    if inside(p, poly):
        return 0.0
    return min(_seg_point(p, a, b) for a, b in _edges(poly))


def poly_poly_distance(p: Sequence[Point], q: Sequence[Point]) -> float:
    if inside(p[0], q) or inside(q[0], p):
        return 0.0
    return min(_seg_seg(a, b, c, d) for a, b in _edges(p) for c, d in _edges(q))


def shape_poly_distance(m: Model, poly: Sequence[Point]) -> float:
    kind, sh = model_shape(m)
    if kind == "circle":
        (c, r) = sh  # type: ignore[misc]
        return max(0.0, point_poly_distance(c, poly) - r)
    return poly_poly_distance(sh, poly)  # type: ignore[arg-type]


def distance(a: Model, b: Model) -> float:
    """Base edge to base edge, 0 when touching or overlapping."""
    ka, sa = model_shape(a)
    kb, sb = model_shape(b)
    if ka == "circle" and kb == "circle":
        (ca, ra), (cb, rb) = sa, sb  # type: ignore[misc]
        return max(0.0, math.dist(ca, cb) - ra - rb)
    if ka == "circle":
        (ca, ra) = sa  # type: ignore[misc]
        return max(0.0, point_poly_distance(ca, sb) - ra)  # type: ignore[arg-type]
    if kb == "circle":
        (cb, rb) = sb  # type: ignore[misc]
        return max(0.0, point_poly_distance(cb, sa) - rb)  # type: ignore[arg-type]
    return poly_poly_distance(sa, sb)  # type: ignore[arg-type]


def segment_distance(m: Model, a: Point, b: Point) -> float:
    """Distance from a base to a straight line segment."""
    kind, sh = model_shape(m)
    if kind == "circle":
        (c, r) = sh  # type: ignore[misc]
        return max(0.0, _seg_point(c, a, b) - r)
    poly = sh  # type: ignore[assignment]
    if inside(a, poly) or inside(b, poly):  # type: ignore[arg-type]
        return 0.0
    return min(_seg_seg(a, b, c, d) for c, d in _edges(poly))  # type: ignore[arg-type]


def extent_along(m: Model, ox: float, oy: float, ux: float, uy: float) -> tuple[float, float]:
    """(min, max) of the base projected on the axis through (ox, oy) along unit (ux, uy)."""
    kind, sh = model_shape(m)
    if kind == "circle":
        (c, r) = sh  # type: ignore[misc]
        t = (c[0] - ox) * ux + (c[1] - oy) * uy
        return t - r, t + r
    ts = [(p[0] - ox) * ux + (p[1] - oy) * uy for p in sh]  # type: ignore[union-attr]
    return min(ts), max(ts)


def half_depth(m: Model) -> float:
    return base_size_in(m.base)[1] / 2


def half_width(m: Model) -> float:
    return base_size_in(m.base)[0] / 2


# ------------------------------------------------------------------ zones and arcs
def zone_of(targets: Sequence[Model], attackers: Sequence[Model], facing: float) -> str:
    """GEM-2.3.3: where the attackers stand relative to the target (a model or a block).

    The lines run across the front and the rear of the target (its front rank's front
    edges, its rear rank's rear edges). "rear": every attacker base wholly behind the
    rear line; "flank": wholly behind the front line but not wholly behind the rear;
    "front": wholly ahead of the front line; "none": straddling the front line.
    """
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    ox, oy = targets[0].x, targets[0].y
    front = max(extent_along(t, ox, oy, ux, uy)[1] for t in targets)
    rear = min(extent_along(t, ox, oy, ux, uy)[0] for t in targets)
    lo = min(extent_along(a, ox, oy, ux, uy)[0] for a in attackers)
    hi = max(extent_along(a, ox, oy, ux, uy)[1] for a in attackers)
    eps = 1e-6
    if hi <= rear + eps:
        return "rear"
    if hi <= front + eps:
        return "flank"
    if lo >= front - eps:
        return "front"
    return "none"


def bearing(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def angle_diff(a: float, b: float) -> float:
    """Smallest absolute difference of two directions in degrees."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def in_arc(shooter: Model, target: Model, arc_deg: float) -> bool:
    """Is any part of the target's base inside the shooter's arc (centred on its facing)?"""
    if arc_deg >= 360:
        return True
    b = bearing(shooter.pos, target.pos)
    dist = math.dist(shooter.pos, target.pos)
    if dist < 1e-9:
        return True
    r = max(base_size_in(target.base)) / 2
    slack = math.degrees(math.asin(min(1.0, r / dist)))
    return angle_diff(b, shooter.facing) <= arc_deg / 2 + slack + 1e-9


def straight_ahead(front: Sequence[Model], facing: float, target: Model) -> bool:
    """GEM-2.2.2: is the target at least partly in the corridor straight ahead of a
    block's front rank (as wide as the rank) and in front of it?"""
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    lx, ly = -uy, ux
    ox, oy = front[0].x, front[0].y
    lat = [extent_along(m, ox, oy, lx, ly) for m in front]
    lo, hi = min(a for a, _ in lat), max(b for _, b in lat)
    front_line = max(extent_along(m, ox, oy, ux, uy)[1] for m in front)
    tlo, thi = extent_along(target, ox, oy, lx, ly)
    flo, _ = extent_along(target, ox, oy, ux, uy)
    return thi > lo + 1e-9 and tlo < hi - 1e-9 and flo >= front_line - 1e-6


def width_across(target: Model, frm: Point) -> float:
    """GEM-2.2.4: the target's base width (mm) across the line of fire from ``frm``."""
    if base_is_round(target.base):
        return float(target.base)  # type: ignore[arg-type]
    b = math.radians(bearing(frm, target.pos))
    nx, ny = -math.sin(b), math.cos(b)
    f = math.radians(target.facing)
    fx, fy = math.cos(f), math.sin(f)
    lx, ly = -fy, fx
    w, d = target.base  # type: ignore[misc]
    return w * abs(lx * nx + ly * ny) + d * abs(fx * nx + fy * ny)


# ------------------------------------------------------------------ terrain
def segment_inside_length(a: Point, b: Point, poly: Sequence[Point]) -> float:
    """Length of the segment a-b that lies inside the polygon."""
    ts = [0.0, 1.0]
    dx, dy = b[0] - a[0], b[1] - a[1]
    for c, d in _edges(poly):
        ex, ey = d[0] - c[0], d[1] - c[1]
        den = dx * ey - dy * ex
        if abs(den) < 1e-12:
            continue
        t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / den
        u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / den
        if 0 <= t <= 1 and 0 <= u <= 1:
            ts.append(t)
    ts.sort()
    total = 0.0
    L = math.hypot(dx, dy)
    for t0, t1 in zip(ts, ts[1:]):
        if t1 - t0 < 1e-12:
            continue
        tm = (t0 + t1) / 2
        if inside((a[0] + dx * tm, a[1] + dy * tm), poly):
            total += (t1 - t0) * L
    return total


def path_length(path: Sequence[Point]) -> float:
    return sum(math.dist(p, q) for p, q in zip(path, path[1:]))


def path_in(path: Sequence[Point], features: Iterable[TerrainFeature]) -> float:
    """Length of the path inside any of the features (overlaps counted once per leg by
    taking the largest single feature share, which is exact when they do not overlap)."""
    total = 0.0
    feats = list(features)
    for p, q in zip(path, path[1:]):
        best = 0.0
        acc = 0.0
        for f in feats:
            v = segment_inside_length(p, q, f.polygon)
            acc += v
            best = max(best, v)
        total += min(acc, math.dist(p, q))
    return total


def crossed(path: Sequence[Point], feature: TerrainFeature) -> bool:
    """Does the path cross (enter and leave, or touch) the feature's outline?"""
    for p, q in zip(path, path[1:]):
        for c, d in _edges(feature.polygon):
            if _segs_cross(p, q, c, d):
                return True
    return False


def features(bf: Battlefield, kinds: Iterable[str]) -> list[TerrainFeature]:
    ks = set(kinds)
    return [f for f in bf.terrain if f.kind in ks]


def features_at(
    bf: Battlefield, p: Point, kinds: Iterable[str] | None = None
) -> list[TerrainFeature]:
    ks = set(kinds) if kinds is not None else None
    return [f for f in bf.terrain if (ks is None or f.kind in ks) and inside(p, f.polygon)]


def elevation_at(bf: Battlefield, p: Point) -> float:
    return max(
        (f.height for f in bf.terrain if f.kind == "hill" and inside(p, f.polygon)), default=0.0
    )


@dataclass(frozen=True)
class Sight:
    """What the line of fire meets: visible at all, and the best cover the target has."""

    visible: bool
    cover: str  # "", "soft" or "hard"
    why: str
    blocker: str = ""


def sight(
    bf: Battlefield,
    shooter: Model,
    target: Model,
    soft: Iterable[str],
    hard: Iterable[str],
    tall: Iterable[str],
    area: Iterable[str],
) -> Sight:
    """GEM-2.2.5 read on the centre-to-centre line of fire.

    Tall terrain (walls, buildings, rocks) crossed by the line blocks sight unless it is
    within 2" of the target (then the target is behind it: hard cover) or of the shooter
    (firing over it). Area terrain lets sight in 2": more than 2" of the line inside one
    blocks sight. Soft cover: the target inside soft terrain or within 2" of its edge,
    or a soft obstacle crossed within 2" of the target; prone targets too. Hard cover:
    inside a building or behind a hard obstacle crossed within 2".
    """
    a, b = shooter.pos, target.pos
    soft_k, hard_k, tall_k, area_k = set(soft), set(hard), set(tall), set(area)
    cover, why, blocker = "", "", ""
    for f in bf.terrain:
        crossing = segment_inside_length(a, b, f.polygon) > 1e-9 or crossed([a, b], f)
        near_target = shape_poly_distance(target, f.polygon) <= COVER_DISTANCE + 1e-9
        near_shooter = shape_poly_distance(shooter, f.polygon) <= COVER_DISTANCE + 1e-9
        target_in = inside(b, f.polygon)
        if f.kind in tall_k:
            if target_in and f.kind == "building":
                cover, why, blocker = "hard", f"inside {f.kind} {f.id}", f.id
            elif crossing and not target_in:
                if near_target:
                    cover, why, blocker = "hard", f"behind {f.kind} {f.id}", f.id
                elif not near_shooter:
                    return Sight(False, "", f"line of fire blocked by {f.kind} {f.id}", f.id)
            continue
        if f.kind in area_k:
            shooter_in = inside(a, f.polygon)
            depth = segment_inside_length(a, b, f.polygon)
            if depth > COVER_DISTANCE + 1e-9 and not shooter_in:
                return Sight(
                    False,
                    "",
                    f'sight enters {f.kind} {f.id} only 2" ({depth:.1f}" of it in the way)',
                    f.id,
                )
        if f.kind in hard_k and crossing and near_target and not target_in:
            cover, why, blocker = "hard", f"behind {f.kind} {f.id}", f.id
        elif f.kind in soft_k and cover != "hard":
            if (
                target_in
                or (crossing and near_target)
                or (f.kind in area_k and near_target and crossing)
            ):
                cover, why, blocker = (
                    "soft",
                    f"{'in' if target_in else 'behind'} {f.kind} {f.id}",
                    f.id,
                )
    if cover != "hard" and "prone" in target.status:
        cover, why = "soft", "lying prone"
    return Sight(True, cover, why, blocker)


# ------------------------------------------------------------------ templates and scatter
def covered_share(target: Model, centre: Point, radius: float) -> float:
    """GEM-2.2.6: share of the base under a round template (0..1)."""
    kind, sh = model_shape(target)
    if kind == "circle":
        (c, r) = sh  # type: ignore[misc]
        d = math.dist(c, centre)
        R = radius
        if d >= r + R:
            return 0.0
        if d <= abs(R - r):
            return 1.0 if R >= r else (R * R) / (r * r)
        a1 = r * r * math.acos(max(-1.0, min(1.0, (d * d + r * r - R * R) / (2 * d * r))))
        a2 = R * R * math.acos(max(-1.0, min(1.0, (d * d + R * R - r * r) / (2 * d * R))))
        a3 = 0.5 * math.sqrt(max(0.0, (-d + r + R) * (d + r - R) * (d - r + R) * (d + r + R)))
        return (a1 + a2 - a3) / (math.pi * r * r)
    n = 12
    w, dd = base_size_in(target.base)
    f = math.radians(target.facing)
    hits = 0
    for i in range(n):
        for j in range(n):
            fx = (i + 0.5) / n * dd - dd / 2
            fy = (j + 0.5) / n * w - w / 2
            px = target.x + fx * math.cos(f) - fy * math.sin(f)
            py = target.y + fx * math.sin(f) + fy * math.cos(f)
            if math.dist((px, py), centre) <= radius:
                hits += 1
    return hits / (n * n)


def clock_point(origin: Point, line_deg: float, clock: int, dist: float) -> Point:
    """GEM-2.2.6: ``dist`` inches from ``origin`` towards ``clock`` o'clock, 12 o'clock
    pointing along the line of fire and the hours running clockwise."""
    ang = math.radians(line_deg - (clock % 12) * 30.0)
    return (origin[0] + dist * math.cos(ang), origin[1] + dist * math.sin(ang))
