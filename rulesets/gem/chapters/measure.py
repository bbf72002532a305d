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
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine import geometry, polygons
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
from engine.state import GameState, Model
from engine.table import Memo, Table, footprint, shapes
from engine.table import distance as table_distance
from engine.table import in_arc as table_in_arc

from ..state import live_models

if TYPE_CHECKING:  # the physics service (pymunk) is imported only when first used
    from engine.physics import Physics

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


# Why memos: ``check`` is asked about every option the AI weighs, and again when the
# chosen one is applied in each clone, so the same measurements (a base against a base,
# a path against the terrain) come up over and over. They live in the engine's table
# service: ``memo(bf)`` per battlefield (terrain answers), ``shapes(name)`` for answers
# about bases alone; each holds a pure function of its key, so its answer is the very
# float or list the service gave the first time.


def memo(bf: Battlefield) -> Memo:
    """GEM's terrain memo of one battlefield (kept by the battlefield's table)."""
    return Table.of(bf).memo("gem.terrain")


def _fps_key(models: Iterable[Model]) -> tuple[Footprint, ...] | None:
    """The footprints of models as a memo key, None when a base is unhashable (a list)."""
    key = tuple(fp(m) for m in models)
    try:
        hash(key)
    except TypeError:
        return None
    return key


# ------------------------------------------------------------------ bases and segments
fp = footprint


def segment_fp(a: Point, b: Point) -> Footprint:
    """A straight segment as a hair-thin rectangular base lying along it.

    Why: GEM asks "how close does this line pass to that base" (the 1" friendly-fire gap,
    a rout path, a block's sweep); the service measures bases, so the segment becomes one
    (1e-6 mm wide: its edges are within 2e-8 in of the line) and stays exact otherwise.
    """
    length = math.dist(a, b)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return Footprint(mid[0], mid[1], geometry.bearing(a, b), (_HAIR_MM, max(length * MM, _HAIR_MM)))


distance = table_distance


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
    d = polygons.point_segment_distance(m.pos, a, b)
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
    d = polygons.point_segment_distance(p, a, b)
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
        return shapes("gem.zone").get_or(key, lambda: _zone_of(targets, attackers, facing))
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


bearing = Table.bearing
angle_diff = polygons.angle_diff
in_arc = table_in_arc


def straight_ahead(front: Sequence[Model], facing: float, target: Model) -> bool:
    """GEM-2.2.2 (GEM-I-BLOCKFIRE): is the target wholly ahead of a block's front line and
    at least partly in the corridor as wide as the front rank running straight ahead?

    Memoised on the footprints: a block's volley asks it once per front-rank figure."""
    fps = _fps_key([*front, target])
    if fps is None:
        return _straight_ahead(front, facing, target)
    return shapes("gem.ahead").get_or((fps, facing), lambda: _straight_ahead(front, facing, target))


def _straight_ahead(front: Sequence[Model], facing: float, target: Model) -> bool:
    if geometry.zone_of(band_fp(front, facing), fp(target)) != "front":
        return False
    return geometry.overlaps(_corridor(front, facing), fp(target), tol=1e-9)


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
    return [f for _, f in Table.of(bf).pieces(kinds)]


def _kinds(bf: Battlefield) -> dict[str, str]:
    """Feature id -> kind (the battlefield is frozen for the whole game)."""
    return memo(bf).get_or("kinds", lambda: {f.id: f.kind for f in bf.terrain})


def clear_of(
    bf: Battlefield, ks: frozenset[str] | None, x0: float, y0: float, x1: float, y1: float
) -> bool:
    """Is the box (x0, y0)-(x1, y1) apart from every feature of ``ks``? Then the service
    need not be asked (its answer would be "none"): most paths and bases on most tables
    are nowhere near the terrain a question is about."""
    return Table.of(bf).clear_of(ks, (x0, y0, x1, y1))


def any_of(bf: Battlefield, ks: frozenset[str] | set[str] | None) -> bool:
    """Is there any feature of these kinds? (Spares the service a question it would
    answer with nothing: most moves on most tables meet no obstacle.)"""
    if ks is None:
        return True
    return bool(Table.of(bf).pieces(ks))


def _kinds_memo(
    bf: Battlefield, key: Hashable, ks: frozenset[str] | None, find: Callable[[], Iterable[str]]
) -> list[str]:
    """The ids ``find`` gives, kept to ``kinds``, remembered per battlefield under
    ``key`` (an unhashable key, a point or base given as a list, is just not kept)."""
    kind = _kinds(bf)
    return list(memo(bf).get_or(key, lambda: [i for i in find() if ks is None or kind[i] in ks]))


def features_at(bf: Battlefield, p: Point, kinds: Iterable[str] | None = None) -> list[str]:
    """Ids of the features (of ``kinds``) containing the point, boundary included."""
    ks = frozenset(kinds) if kinds is not None else None
    if not any_of(bf, ks) or clear_of(bf, ks, p[0], p[1], p[0], p[1]):
        return []
    return _kinds_memo(bf, ("at", p, ks), ks, lambda: geometry.features_at(p, bf))


def features_under(bf: Battlefield, f: Footprint, kinds: Iterable[str] | None = None) -> list[str]:
    """Ids of the features (of ``kinds``) a base overlaps (touching is not overlapping)."""
    ks = frozenset(kinds) if kinds is not None else None
    if not any_of(bf, ks):
        return []
    r = base_radius_in(f.base)  # the base lies within this of its centre
    if clear_of(bf, ks, f.x - r, f.y - r, f.x + r, f.y + r):
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
    if not any_of(bf, ks):
        return 0.0
    return memo(bf).get_or(("in", tuple(path), ks), lambda: _path_in(bf, path, ks))


def _path_in(bf: Battlefield, path: Sequence[Point], ks: frozenset[str]) -> float:
    pieces = {f.id: f for f in features(bf, ks)}
    total = 0.0
    for p, q in zip(path, path[1:]):
        if clear_of(bf, ks, min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1])):
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
        for c, d in zip(ring, ring[1:] + ring[:1]):
            ts.update(polygons.cuts(p, q, c, d))
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


def crossed(bf: Battlefield, path: Sequence[Point], kinds: Iterable[str]) -> list[str]:
    """Ids of the features of ``kinds`` whose inside the path crosses or enters."""
    ks = frozenset(kinds)
    if not any_of(bf, ks):
        return []
    try:
        xs, ys = [float(p[0]) for p in path], [float(p[1]) for p in path]
        if xs and clear_of(bf, ks, min(xs), min(ys), max(xs), max(ys)):
            return []
    except (TypeError, ValueError):
        pass  # let the service judge what it makes of such a path
    key = ("cross", tuple(path), ks)
    return list(memo(bf).get_or(key, lambda: geometry.crossings(path, bf, set(ks))))


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
    s = ctx.table.sight(shooter, target)
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


def space(ctx: Context, state: GameState, lift: Iterable[str] = frozenset()) -> Physics:
    """The physics space synced to the table (only when a base differs from last time),
    without the figures in ``lift``.

    The signature is plain (id, x, y, facing, base) tuples, compared as the footprints
    were; building footprints for every figure on every check cost more than the check.
    """
    lifted = set(lift)
    sig = tuple(
        (m.id, m.x, m.y, m.facing, m.base) for m in live_models(state) if m.id not in lifted
    )
    return ctx.table.synced(sig, lambda: {k: Footprint(x, y, f, b) for k, x, y, f, b in sig})
