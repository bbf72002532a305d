"""Measuring the table for GEM: a thin adapter over the geometry service.

Why an adapter and no geometry of its own: DESIGN.md makes ``engine/geometry/`` the one
place that measures, so the distances, lines of sight, cover, zones, arcs and templates
GEM's rules read are the very measurements the window draws. This module only turns GEM's
models and groups (a block is many models) into footprints, and reads the service's plain
answers in GEM's own terms:

* Table 2's cover (GEM-2.2.5) from the visible fraction and the cover lists, with the
  bands of designer's interpretation GEM-I-SIGHT;
* the flank and rear lines of a whole block (GEM-2.3.3) and a block's corridor straight
  ahead (GEM-2.2.2), each as one rectangle handed to ``zone_of`` / ``overlaps``;
* a base's width across the line of fire (Table 2's target size, GEM-2.2.4);
* terrain along a path for movement costs (GEM-2.1.1), overlapping pieces counted once
  (GEM-I-OVERLAP).

Everything is in inches; distances are base edge to base edge (SCENARIO_FORMAT.md).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import geometry
from engine.battlefield import (
    MM_PER_INCH,
    TERRAIN_CLASSES,
    Battlefield,
    Footprint,
    TerrainFeature,
    base_is_round,
    base_radius_in,
    base_size_in,
)
from engine.ruleset import Context
from engine.state import Model

Point = tuple[float, float]
MM = MM_PER_INCH
#: GEM-I-SIGHT: a target showing less than this share of its base cannot be seen.
HIDDEN_BELOW = 0.05
#: GEM-I-SIGHT: the share of the base terrain must hide for the target to be behind it.
BEHIND_FROM = 0.25
#: Far enough to stand for "for ever" behind or ahead of a line on any table (inches).
FAR = 1000.0
#: Width (mm) of the hair-thin base that stands for a straight segment (see segment_fp).
_HAIR_MM = 1e-6
#: How far (inches) the service's measure of a base against a segment may stray from the
#: plain arithmetic used to skip it (the hair is 2e-8 in, float error far less): a
#: comparison this close to its limit is left to the service (see ``segment_within``).
_SLACK = 1e-6
#: Entries a memo keeps before it starts afresh (a few megabytes at most).
_MEMO_MAX = 20_000


# ------------------------------------------------------------------ memos
# Why memos: ``check`` is asked about every option the AI weighs, and again when the
# chosen one is applied in each clone, so the same measurements (a base against a base,
# a path against the terrain) come up over and over. Every memo below holds a pure
# function of plain values (footprints, points, the frozen battlefield), so its answer
# is the very float or list the service gave the first time.
_DIST: dict[tuple[Footprint, Footprint], float] = {}
_ARC: dict[tuple[Footprint, Footprint, float], bool] = {}
_ZONE: dict[tuple[Any, ...], str] = {}
_AHEAD: dict[tuple[Any, ...], bool] = {}
_BF: dict[int, tuple[Battlefield, dict[Hashable, Any]]] = {}


def _remember(memo: dict, key: Hashable, value: Any) -> Any:
    if len(memo) >= _MEMO_MAX:
        memo.clear()
    memo[key] = value
    return value


def _bf_memo(bf: Battlefield) -> dict[Hashable, Any]:
    """The memo of one battlefield, found by identity: hashing a frozen battlefield walks
    every terrain polygon, which cost more than most questions asked about it."""
    hit = _BF.get(id(bf))
    if hit is None or hit[0] is not bf:
        if len(_BF) > 16:
            _BF.clear()
        hit = _BF[id(bf)] = (bf, {})
    return hit[1]


_RADIUS: dict[Any, float] = {}


def radius_in(base: float | tuple[float, float]) -> float:
    """``base_radius_in`` (the bounding circle), memoised: a game has a handful of base
    sizes, and the cheap tests that spare the services ask it of every figure."""
    try:
        hit = _RADIUS.get(base)
    except TypeError:  # a base given as a list
        return base_radius_in(base)
    if hit is None:
        hit = _RADIUS[base] = base_radius_in(base)
    return hit


def _fps_key(models: Iterable[Model]) -> tuple[Footprint, ...] | None:
    """The footprints of models as a memo key, None when a base is unhashable (a list)."""
    key = tuple(fp(m) for m in models)
    try:
        hash(key)
    except TypeError:
        return None
    return key


# ------------------------------------------------------------------ bases and segments
def fp(m: Model) -> Footprint:
    """The model's base as the geometry service's footprint."""
    return Footprint(m.x, m.y, m.facing, m.base)


def segment_fp(a: Point, b: Point) -> Footprint:
    """A straight segment as a hair-thin rectangular base lying along it.

    Why: GEM asks "how close does this line pass to that base" (the 1" friendly-fire gap,
    a rout path, a block's sweep); the service measures bases, so the segment becomes one
    (1e-6 mm wide: its edges are within 2e-8 in of the line) and stays exact otherwise.
    """
    length = math.dist(a, b)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return Footprint(mid[0], mid[1], geometry.bearing(a, b), (_HAIR_MM, max(length * MM, _HAIR_MM)))


def distance(a: Model, b: Model) -> float:
    """Base edge to base edge, 0 when touching or overlapping (memoised: see _DIST)."""
    fa, fb = fp(a), fp(b)
    key = (fa, fb)
    try:
        hit = _DIST.get(key)
    except TypeError:  # a base given as a list
        return geometry.distance(fa, fb)
    if hit is None:
        hit = _remember(_DIST, key, geometry.distance(fa, fb))
    return hit


def _centre_to_segment(p: Point, a: Point, b: Point) -> float:
    """Plain distance from a point to the segment a-b (for bounds only, see below)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    px, py = p[0] - a[0], p[1] - a[1]
    ll = dx * dx + dy * dy
    if ll > 0.0:
        t = min(1.0, max(0.0, (px * dx + py * dy) / ll))
        px, py = px - t * dx, py - t * dy
    return math.hypot(px, py)


def segment_within(m: Model, a: Point, b: Point, limit: float) -> bool:
    """``segment_distance(m, a, b) < limit``, without the service when plain arithmetic
    settles it.

    Why: the 1" friendly-fire gap (GEM-2.2.2) asks this of every friendly figure for
    every shot, and nearly all of them stand far from the line of fire. The distance from
    the base's centre to the segment bounds the answer: it is at least that less the
    radius of the base's bounding circle and at most that (a round base: exactly that
    less its radius). Only when the limit falls within ``_SLACK`` of those bounds is the
    exact measure taken, so the answer is always the exact measure's.
    """
    d = _centre_to_segment(m.pos, a, b)
    if base_is_round(m.base):
        r = base_size_in(m.base)[0] / 2
        lo = hi = max(d - r, 0.0)
    else:
        w, dep = base_size_in(m.base)
        lo, hi = max(d - math.hypot(w, dep) / 2, 0.0), d
    if hi + _SLACK < limit:
        return True
    if lo - _SLACK >= limit:
        return False
    return segment_distance(m, a, b) < limit


def point_within(p: Point, a: Point, b: Point, limit: float) -> bool:
    """``point_segment_distance(p, a, b) < limit``, by plain arithmetic unless within
    ``_SLACK`` of the limit (why: see ``segment_within``; a block's sweep asks it of every
    figure on the table for every leg)."""
    d = _centre_to_segment(p, a, b)
    if d + _SLACK < limit:
        return True
    if d - _SLACK >= limit:
        return False
    return point_segment_distance(p, a, b) < limit


def segment_distance(m: Model, a: Point, b: Point) -> float:
    """Distance from a base to the straight segment a-b (a round base by its centre, the
    same sum the service does for a disc against a rectangle, without building one)."""
    if base_is_round(m.base):
        return max(point_segment_distance(m.pos, a, b) - base_size_in(m.base)[0] / 2, 0.0)
    return geometry.distance(fp(m), segment_fp(a, b))


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from a point to the straight segment a-b."""
    return geometry.distance_point(segment_fp(a, b), p)


def extent_along(m: Model, ox: float, oy: float, ux: float, uy: float) -> tuple[float, float]:
    """(min, max) of the base projected on the axis through (ox, oy) along unit (ux, uy):
    where GEM's front and rear lines fall (GEM-2.3.3) and where a charger stops."""
    if base_is_round(m.base):
        r = base_size_in(m.base)[0] / 2
        t = (m.x - ox) * ux + (m.y - oy) * uy
        return t - r, t + r
    w, d = base_size_in(m.base)
    fx, fy, lx, ly = _axes(m.facing)
    c = (m.x - ox) * ux + (m.y - oy) * uy
    half = abs(fx * ux + fy * uy) * d / 2 + abs(lx * ux + ly * uy) * w / 2
    return c - half, c + half


def bounds(f: Footprint) -> tuple[float, float, float, float]:
    """(x min, y min, x max, y max) of a base: what a deployment zone is checked against."""
    if base_is_round(f.base):
        r = base_size_in(f.base)[0] / 2
        return f.x - r, f.y - r, f.x + r, f.y + r
    pts = geometry.footprint_outline(f)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def overlaps(a: Footprint, b: Footprint) -> bool:
    """Do two bases overlap (touching does not count)?"""
    return geometry.overlaps(a, b)


def half_width(m: Model) -> float:
    return base_size_in(m.base)[0] / 2


# ------------------------------------------------------------------ zones and arcs
def _axes(facing: float) -> tuple[float, float, float, float]:
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return ux, uy, -uy, ux


def band_fp(
    models: Sequence[Model], facing: float, back: float = 0.0, ahead: float = 0.0
) -> Footprint:
    """One rectangle facing ``facing`` whose front edge lies on the group's front line
    (moved ``ahead``) and whose rear edge on its rear line (moved ``back`` further back),
    as wide as the group across the facing.

    Why: GEM draws its lines along the front of a unit's front rank and the rear of its
    rear rank (GEM-2.3.3), for a block as for a single figure; handing the service that
    rectangle makes its ``zone_of`` answer for the whole unit.
    """
    ux, uy, lx, ly = _axes(facing)
    ox, oy = models[0].x, models[0].y
    along = [extent_along(m, ox, oy, ux, uy) for m in models]
    across = [extent_along(m, ox, oy, lx, ly) for m in models]
    front = max(hi for _, hi in along) + ahead
    rear = min(lo for lo, _ in along) - back
    lo, hi = min(a for a, _ in across), max(b for _, b in across)
    s, t = (front + rear) / 2, (lo + hi) / 2
    cx, cy = ox + s * ux + t * lx, oy + s * uy + t * ly
    return Footprint(cx, cy, facing, (max(hi - lo, 1e-6) * MM, max(front - rear, 1e-6) * MM))


def zone_of(targets: Sequence[Model], attackers: Sequence[Model], facing: float) -> str:
    """GEM-2.3.3: where the attackers stand relative to the target (a model or a block).

    "rear": every attacker base wholly behind the rear line; "flank": wholly behind the
    front line (but not all behind the rear); "front": wholly ahead of the front line;
    "none": straddling the front line. The service's zones are read on the unit's band,
    and once more on the band stretched far back, whose "flank" is "behind the front line".
    """
    tk, ak = _fps_key(targets), _fps_key(attackers)
    key = None if tk is None or ak is None else (tk, ak, facing)
    if key is not None:
        hit = _ZONE.get(key)
        if hit is None:
            hit = _remember(_ZONE, key, _zone_of(targets, attackers, facing))
        return hit
    return _zone_of(targets, attackers, facing)


def _zone_of(targets: Sequence[Model], attackers: Sequence[Model], facing: float) -> str:
    band = band_fp(targets, facing)
    zones = [geometry.zone_of(band, fp(a)) for a in attackers]
    if all(z == "rear" for z in zones):
        return "rear"
    if all(z == "front" for z in zones):
        return "front"
    behind = band_fp(targets, facing, back=FAR)
    if all(geometry.zone_of(behind, fp(a)) == "flank" for a in attackers):
        return "flank"
    return "none"


def bearing(a: Point, b: Point) -> float:
    """Direction from a to b in degrees counter-clockwise from east."""
    return geometry.bearing(a, b)


def angle_diff(a: float, b: float) -> float:
    """Smallest absolute difference of two directions in degrees."""
    d = (a - b) % 360.0
    return min(d, 360.0 - d)


def in_arc(shooter: Model, target: Model, arc_deg: float) -> bool:
    """GEM-2.2.2: is any part of the target's base inside the arc centred on the facing?"""
    if arc_deg >= 360.0:
        return True  # the service's own first answer, without building footprints
    a, b = fp(shooter), fp(target)
    key = (a, b, arc_deg)
    try:
        hit = _ARC.get(key)
    except TypeError:
        return geometry.in_arc(a, b, arc_deg)
    if hit is None:
        hit = _remember(_ARC, key, geometry.in_arc(a, b, arc_deg))
    return hit


def straight_ahead(front: Sequence[Model], facing: float, target: Model) -> bool:
    """GEM-2.2.2 (GEM-I-BLOCKFIRE): is the target wholly ahead of a block's front line and
    at least partly in the corridor as wide as the front rank running straight ahead?

    Memoised on the footprints: a block's volley asks it once per front-rank figure."""
    fps = _fps_key([*front, target])
    key = None if fps is None else (fps, facing)
    hit = None if key is None else _AHEAD.get(key)
    if hit is not None:
        return hit
    if geometry.zone_of(band_fp(front, facing), fp(target)) != "front":
        ok = False
    else:
        ok = geometry.overlaps(_corridor(front, facing), fp(target), tol=1e-9)
    return ok if key is None else _remember(_AHEAD, key, ok)


def _corridor(front: Sequence[Model], facing: float) -> Footprint:
    """The rectangle from the front rank's front line FAR straight ahead, as wide as it."""
    band = band_fp(front, facing)
    w, d = band.base  # type: ignore[misc]
    ux, uy, _, _ = _axes(facing)
    shift = d / MM / 2 + FAR / 2
    return Footprint(band.x + ux * shift, band.y + uy * shift, facing, (w, FAR * MM))


def width_across(target: Model, frm: Point) -> float:
    """GEM-2.2.4: the target's base width (mm) across the line of fire from ``frm``: what
    Table 2's large and small targets are judged on."""
    if base_is_round(target.base):
        return float(target.base)  # type: ignore[arg-type]
    b = math.radians(bearing(frm, target.pos))
    nx, ny = -math.sin(b), math.cos(b)
    ux, uy, lx, ly = _axes(target.facing)
    w, d = target.base  # type: ignore[misc]
    return w * abs(lx * nx + ly * ny) + d * abs(ux * nx + uy * ny)


# ------------------------------------------------------------------ terrain
def features(bf: Battlefield, kinds: Iterable[str]) -> list[TerrainFeature]:
    ks = frozenset(kinds)
    memo = _bf_memo(bf)
    key = ("features", ks)
    hit = memo.get(key)
    if hit is None:
        hit = _remember(memo, key, [f for f in bf.terrain if f.kind in ks])
    return list(hit)


def _kinds(bf: Battlefield) -> dict[str, str]:
    """Feature id -> kind (the battlefield is frozen for the whole game)."""
    memo = _bf_memo(bf)
    hit = memo.get("kinds")
    if hit is None:
        hit = memo["kinds"] = {f.id: f.kind for f in bf.terrain}
    return hit


#: Slack (inches) on the box tests below: a box this near a feature's counts as touching.
_BOX_SLACK = 1e-9


def _clear_of(
    bf: Battlefield, ks: frozenset[str] | None, x0: float, y0: float, x1: float, y1: float
) -> bool:
    """Is the box (x0, y0)-(x1, y1) apart from the bounding box of every feature of
    ``ks`` (every feature for None)? Then nothing inside the box can touch, cross or lie in
    one of them, and the service need not be asked (its answer would be "none").

    Why: most paths and bases on most tables are nowhere near the terrain a question is
    about, and each question about a new path cost a shapely query."""
    memo = _bf_memo(bf)
    key = ("boxes", ks)
    boxes = memo.get(key)
    if boxes is None:
        boxes = []
        for f in bf.terrain:
            if (ks is None or f.kind in ks) and f.polygon:
                xs, ys = [float(p[0]) for p in f.polygon], [float(p[1]) for p in f.polygon]
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
        _remember(memo, key, boxes)
    s = _BOX_SLACK
    return all(
        bx0 > x1 + s or bx1 < x0 - s or by0 > y1 + s or by1 < y0 - s for bx0, by0, bx1, by1 in boxes
    )


def _any_of(bf: Battlefield, ks: frozenset[str] | set[str] | None) -> bool:
    """Is there any feature of these kinds? (Spares the service a question it would
    answer with nothing: most moves on most tables meet no obstacle.)"""
    if ks is None:
        return True
    memo = _bf_memo(bf)
    key = ("any", frozenset(ks))
    hit = memo.get(key)
    if hit is None:
        hit = _remember(memo, key, any(k in ks for k in _kinds(bf).values()))
    return hit


def _kinds_memo(
    bf: Battlefield, key: Hashable, ks: frozenset[str] | None, find: Callable[[], Iterable[str]]
) -> list[str]:
    """The ids ``find`` gives, kept to ``kinds``, remembered per battlefield under
    ``key`` (an unhashable key, a point or base given as a list, is just not kept)."""
    memo = _bf_memo(bf)
    try:
        hit = memo.get(key)
    except TypeError:
        hit, key = None, None
    if hit is None:
        kind = _kinds(bf)
        hit = [i for i in find() if ks is None or kind[i] in ks]
        if key is not None:
            _remember(memo, key, hit)
    return list(hit)


def features_at(bf: Battlefield, p: Point, kinds: Iterable[str] | None = None) -> list[str]:
    """Ids of the features (of ``kinds``) containing the point, boundary included."""
    ks = frozenset(kinds) if kinds is not None else None
    if not _any_of(bf, ks) or _clear_of(bf, ks, p[0], p[1], p[0], p[1]):
        return []
    return _kinds_memo(bf, ("at", p, ks), ks, lambda: geometry.features_at(p, bf))


def features_under(bf: Battlefield, f: Footprint, kinds: Iterable[str] | None = None) -> list[str]:
    """Ids of the features (of ``kinds``) a base overlaps (touching is not overlapping)."""
    ks = frozenset(kinds) if kinds is not None else None
    if not _any_of(bf, ks):
        return []
    r = base_radius_in(f.base)  # the base lies within this of its centre
    if _clear_of(bf, ks, f.x - r, f.y - r, f.x + r, f.y + r):
        return []
    return _kinds_memo(bf, ("under", f, ks), ks, lambda: geometry.features_under(f, bf))


def path_length(path: Sequence[Point]) -> float:
    return geometry.path_length(path)


def path_in(bf: Battlefield, path: Sequence[Point], kinds: Iterable[str]) -> float:
    """Length of the path inside features of ``kinds``, where two features overlap counted
    once (GEM-2.1.1 halves the move in difficult ground, not a quarter in woods on rough).

    The service gives each feature its own length along a leg; where one piece covers the
    leg that sum is the answer. Where two or more do, the leg is cut wherever it crosses
    one of their edges: between two cuts every piece holds all of the stretch or none of
    it, so the stretch is inside the union exactly when the longest piece length the
    service reports for it is the stretch itself (see ``_union_on_leg``).
    """
    ks = frozenset(kinds)
    if not _any_of(bf, ks):
        return 0.0
    memo = _bf_memo(bf)
    try:
        key: Hashable = ("in", tuple(path), ks)
        hit = memo.get(key)
    except TypeError:  # points given as lists
        return _path_in(bf, path, ks)
    if hit is None:
        hit = _remember(memo, key, _path_in(bf, path, ks))
    return hit


def _path_in(bf: Battlefield, path: Sequence[Point], ks: frozenset[str]) -> float:
    pieces = {f.id: f for f in features(bf, ks)}
    total = 0.0
    for p, q in zip(path, path[1:]):
        if _clear_of(bf, ks, min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])):
            continue  # no piece near the leg: it adds nothing
        inside = geometry.path_terrain_lengths([p, q], bf)
        hit = [pieces[i] for i, v in inside.items() if i in pieces and v > 1e-12]
        leg = math.dist(p, q)
        if len(hit) <= 1:
            total += min(sum(inside.get(f.id, 0.0) for f in hit), leg)
        else:
            total += _union_on_leg(bf, p, q, hit)
    return total


def _union_on_leg(bf: Battlefield, p: Point, q: Point, hit: list[TerrainFeature]) -> float:
    """Length of the leg p-q inside the union of the ``hit`` features (exact: the cuts are
    the leg's crossings with their outlines, the inside of each stretch the service's)."""
    ts = {0.0, 1.0}
    for f in hit:
        ring = list(f.polygon)
        for a, b in zip(ring, ring[1:] + ring[:1]):
            ts.update(_cuts(p, q, a, b))
    cuts = sorted(t for t in ts if 0.0 <= t <= 1.0)
    leg = math.dist(p, q)
    ids = [f.id for f in hit]
    out = 0.0
    for a, b in zip(cuts, cuts[1:]):
        if (b - a) * leg < 1e-9:
            continue
        pa = (p[0] + (q[0] - p[0]) * a, p[1] + (q[1] - p[1]) * a)
        pb = (p[0] + (q[0] - p[0]) * b, p[1] + (q[1] - p[1]) * b)
        sub = geometry.path_terrain_lengths([pa, pb], bf)
        out += min(max(sub.get(i, 0.0) for i in ids), (b - a) * leg)
    return out


def _cuts(p: Point, q: Point, a: Point, b: Point) -> list[float]:
    """Where along p-q (0 at p, 1 at q) the segment a-b meets it: its crossing, or the
    ends of a shared stretch when the two lie on one line."""
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


def crossed(bf: Battlefield, path: Sequence[Point], kinds: Iterable[str]) -> list[str]:
    """Ids of the features of ``kinds`` whose inside the path crosses or enters."""
    ks = frozenset(kinds)
    if not _any_of(bf, ks):
        return []
    try:
        xs, ys = [float(p[0]) for p in path], [float(p[1]) for p in path]
        if xs and _clear_of(bf, ks, min(xs), min(ys), max(xs), max(ys)):
            return []
    except (TypeError, ValueError):
        pass  # let the service judge what it makes of such a path
    memo = _bf_memo(bf)
    try:
        key: Hashable = ("cross", tuple(path), ks)
        hit = memo.get(key)
    except TypeError:  # points given as lists
        return geometry.crossings(path, bf, set(ks))
    if hit is None:
        hit = _remember(memo, key, geometry.crossings(path, bf, set(ks)))
    return list(hit)


def elevation_at(ctx: Context, p: Point) -> float:
    """Height of the highest hill under the point (GEM-2.3.1's higher ground)."""
    return ctx.geo.elevation_at(p)


# ------------------------------------------------------------------ sight and cover
@dataclass(frozen=True)
class Sight:
    """What the shooter sees of the target: seen at all, the best cover, and why."""

    visible: bool
    cover: str  # "", "soft" or "hard"
    why: str
    blocker: str = ""
    fraction: float = 1.0


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _seen(geo: geometry.Geometry, a: Footprint, b: Footprint) -> geometry.Sight:
    """The service's sight, memoised per battlefield: the terrain never changes in a game,
    and ``check``, the odds and the AI's candidates ask about the same pairs again."""
    memo = _CACHE.setdefault(geo, {})
    key = (a, b)
    hit = memo.get(key)
    if hit is None:
        if len(memo) > 20_000:
            memo.clear()
        hit = memo[key] = geo.sight(a, b)
    return hit


def sight(
    ctx: Context, shooter: Model, target: Model, soft: Iterable[str], hard: Iterable[str]
) -> Sight:
    """GEM-2.2.5 on the geometry service's sight (GEM-I-SIGHT).

    Seen: at least ``HIDDEN_BELOW`` of the base visible from the centre of the shooter's
    base (a figure inside a house is seen through it: the house is its cover). Hard
    cover: inside a house; behind a ``hard`` tall feature hiding ``BEHIND_FROM`` or more
    of the base; behind a ``hard`` line obstacle (low wall) within 2". Soft cover: in or
    behind ``soft`` area terrain or a hedge or fence within 2" (the service's cover
    lists), or a quarter or more of the base hidden by soft area terrain; lying prone.
    Only the best cover counts.
    """
    bf = ctx.battlefield
    kind = _kinds(bf)
    soft_k, hard_k = set(soft), set(hard)
    s = _seen(ctx.geo, fp(shooter), fp(target))
    under = features_under(bf, fp(target))
    houses = [i for i in under if kind[i] == "building"]
    frac = s.visible
    if houses and set(s.blockers) <= set(houses):
        return Sight(True, "hard", f"inside {kind[houses[0]]} {houses[0]}", houses[0], frac)
    hidden = 1.0 - frac
    if frac < HIDDEN_BELOW:
        blk = s.blockers[0] if s.blockers else ""
        what = f" by {kind[blk]} {blk}" if blk else ""
        return Sight(False, "", f"hidden{what} ({frac:.0%} of its base in view)", blk, frac)
    for i in s.hard_cover:
        if kind[i] not in hard_k:
            continue
        if TERRAIN_CLASSES[kind[i]] != "tall":
            return Sight(True, "hard", f"behind {kind[i]} {i}", i, frac)
        if hidden >= BEHIND_FROM - 1e-9:
            return Sight(True, "hard", f"behind {kind[i]} {i} ({hidden:.0%} hidden)", i, frac)
    for i in s.soft_cover:
        if kind[i] in soft_k:
            where = "in" if i in under else "behind"
            return Sight(True, "soft", f"{where} {kind[i]} {i}", i, frac)
    if hidden >= BEHIND_FROM - 1e-9:
        for i in s.blockers:
            if kind[i] in soft_k:
                return Sight(True, "soft", f"behind {kind[i]} {i} ({hidden:.0%} hidden)", i, frac)
    if "prone" in target.status:
        return Sight(True, "soft", "lying prone", "", frac)
    return Sight(True, "", "", "", frac)


# ------------------------------------------------------------------ templates and scatter
def template_shares(models: Iterable[Model], centre: Point, radius: float) -> dict[str, float]:
    """GEM-2.2.6: model id -> share of its base under a round template, for every base
    the template touches (a touched base is under it, DESIGN.md)."""
    return geometry.template_hits(centre, radius, {m.id: fp(m) for m in models})


def covered_share(target: Model, centre: Point, radius: float) -> float:
    """GEM-2.2.6: share of one base under a round template (0 when untouched)."""
    return template_shares([target], centre, radius).get(target.id, 0.0)


def clock_point(origin: Point, line_deg: float, clock: int, dist: float) -> Point:
    """GEM-2.2.6: ``dist`` inches from ``origin`` towards ``clock`` o'clock, 12 o'clock
    pointing along the line of fire and the hours running clockwise."""
    return geometry.scatter(origin, line_deg, clock, dist)
