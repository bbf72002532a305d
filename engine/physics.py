"""The physics service: swept moves, first contacts, charge packing and ramming.

Why a module of its own: it is the only place that imports pymunk (DESIGN.md, "Rules of
dependency"), so every ruleset asks the same questions ("how far does this base get along
this path?", "where do these chargers fit around that target?") and gets plain numbers,
tuples and string ids back, never library objects. The pymunk space is a cache of the
battlefield and the current bases; it is never saved.

How contacts are found (DESIGN.md, "The table and its terrain", and its two pitfalls):

* A round base moving along a straight leg is a radius segment query. ``space.
  segment_query_first`` can return the wrong first contact because its spatial index
  ignores the radius, so we ask ``space.bb_query`` for everything in the radius-padded box
  of the leg and run ``shape.segment_query(a, b, r)`` on each candidate ourselves: exact.
* Any other footprint (rectangles, or any base swept through poses) uses conservative
  advancement: if the footprint inflated by ``m`` is clear at a pose, every pose within a
  displacement of ``m`` is clear too (the moved footprint lies inside the inflated one), so
  we may jump that far. Close to an obstacle ``m`` shrinks, and the first contact is then
  bracketed and bisected to well under the contact tolerance. Nothing is found by stepping
  a simulation until a collision fires.

* Charging bases are packed round the target on the contact ring: the exact contact
  distance in each direction comes from the Minkowski sum of the two convex outlines, the
  directions are tried nearest the approach point first, and each spot is rounded to the
  grid and checked with shape queries. A ring that only just fits (six equal round bases
  round a seventh) closes by shifting earlier chargers one grid step (``_nudge``).

Two pymunk 7.3 behaviours we step around (measured here): ``Shape.shapes_collide`` raises an
AssertionError when the shapes do not touch, and the sign of the ``distance`` in a
``shape_query`` contact set differs between circle and rounded-polygon pairs. So overlap is
only ever asked as a yes/no (does ``space.shape_query`` report the shape?), with probes
grown or shrunk by a known margin, and distances come from ``point_query`` or our own maths.

Contact tolerance (:data:`CONTACT_TOLERANCE`, 0.01 in): results are rounded to 0.01 in and a
stop point is chosen among the nearby 0.01 in grid points so that the base does not touch or
overlap anything (strictly clear) while its gap to what stopped it is at most 0.01 in. Rules
should therefore treat "gap <= 0.01 in" as base contact.

Determinism: single thread, one space built once, bases added in id order, candidate
contacts ordered by (distance along the path, kind, id) rather than by the spatial index's
order (so an incremental :meth:`Physics.sync` answers exactly as a fresh build), searches
bounded by counts never by clocks, and the only simulation (ramming) uses a fixed time step
with bodies added in a fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import pymunk

from engine.battlefield import Battlefield, Footprint, base_is_round, base_radius_in, base_size_in
from engine.polygons import point_in_polygon

Pose = tuple[float, float, float]
Point = tuple[float, float]

#: Base contact: a stop point leaves a gap in (0, CONTACT_TOLERANCE] inches to what stopped it.
CONTACT_TOLERANCE = 0.01
#: Ids reported for the four table edges (hit_kind "edge").
EDGE_IDS = ("edge:south", "edge:east", "edge:north", "edge:west")
#: Default terrain kinds that bases cannot enter (the "tall" class).
IMPASSABLE_KINDS = ("wall", "building", "rocks")

# Largest safe jump of conservative advancement (inches); smaller means more queries.
_MAX_STEP = 0.5
# Below this inflation we probe the un-inflated footprint a step ahead instead of shrinking
# further; an overlap shallower than this could in principle slip between probes.
_MIN_STEP = 0.002
# Bisection stops when the bracket is this short (inches of footprint displacement), which
# leaves room for the 0.01 in rounding inside the contact tolerance.
_BISECT = 0.001
# A base overlapping something by less than this at the start of a move merely touches it.
_START_OVERLAP = 1e-4
# Distances under this count as zero.
_EPS = 1e-9
# Back-off distances (inches) tried when no rounded point next to the contact is clear.
_BACKOFFS = (0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64)
# Angular samples around a target when packing chargers (round/round and otherwise).
_RING_SAMPLES_ROUND = 720
_RING_SAMPLES_OTHER = 360
# Preferred gap (inches) between a placed charger and its target, inside the tolerance.
_PACK_GAP = 0.007
# The rounding grid (inches).
_GRID = 0.01
# Tries allowed when shifting placed chargers to make room (see Physics._nudge).
_NUDGE_BUDGET = 400
# Ramming simulation: fixed step, duration, velocity kept per second, solver settings.
_RAM_DT = 1.0 / 120.0
_RAM_STEPS = 120
_RAM_DAMPING = 0.05
_RAM_ITERATIONS = 30
_RAM_SLOP = 0.001
_RAM_WALL_RADIUS = 0.02

_KIND_RANK = {"model": 0, "terrain": 1, "edge": 2}


@dataclass(frozen=True)
class MoveResult:
    """Outcome of :meth:`Physics.move`: where the base stopped and why."""

    end: tuple[float, float]
    travelled: float
    blocked_by: str | None
    complete: bool


@dataclass(frozen=True)
class SweepResult:
    """Outcome of :meth:`Physics.sweep`: the last clear pose and what was touched first."""

    index: int
    pose: tuple[float, float, float]
    hit: str | None
    hit_kind: str | None


class _Tag(NamedTuple):
    kind: str  # "model" | "terrain" | "edge"
    id: str


class _Contact(NamedTuple):
    """First contact of a sweep: between poses[leg - 1] and poses[leg], at parameter t."""

    leg: int
    t: float
    rate: float
    hits: list[pymunk.Shape]


def _r2(v: float) -> float:
    """Round to 0.01 and turn -0.0 into 0.0 so equal results print and compare equal."""
    return round(v, 2) + 0.0


def _norm_deg(a: float) -> float:
    """Facing in [0, 360) rounded to 0.01 degree."""
    a = _r2(a % 360.0)
    return 0.0 if a >= 360.0 else a


def _angle_diff(a: float, b: float) -> float:
    """Signed smallest rotation (degrees) taking facing b to facing a, in (-180, 180]."""
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


def _interp(p0: Pose, p1: Pose, t: float) -> Pose:
    """Pose a fraction t of the way from p0 to p1, turning the short way round."""
    return (
        p0[0] + (p1[0] - p0[0]) * t,
        p0[1] + (p1[1] - p0[1]) * t,
        p0[2] + _angle_diff(p1[2], p0[2]) * t,
    )


def _base_key(base: float | tuple[float, float]) -> tuple:
    if base_is_round(base):
        return ("round", float(base))  # type: ignore[arg-type]
    w, d = base  # type: ignore[misc]
    return ("rect", float(w), float(d))


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


class Physics:
    """Contact queries over one battlefield and the current set of bases.

    Build once per battlefield (the terrain is static), call :meth:`sync` whenever bases
    move, then ask. Nothing here changes the game state: results are proposals that the
    rules layer applies and then re-syncs.
    """

    def __init__(
        self,
        battlefield: Battlefield,
        impassable_kinds: Iterable[str] = IMPASSABLE_KINDS,
    ) -> None:
        self.battlefield = battlefield
        self.impassable_kinds = frozenset(impassable_kinds)
        self._space = pymunk.Space()
        self._tags: dict[pymunk.Shape, _Tag] = {}
        self._shapes_by_id: dict[str, list[pymunk.Shape]] = {}
        self._impassable: list[tuple[str, tuple[Point, ...]]] = []
        self._bodies: dict[str, Footprint] = {}
        self._model_shapes: dict[str, pymunk.Shape] = {}
        self._probes: dict[tuple, tuple[pymunk.Body, pymunk.Shape]] = {}
        static = self._space.static_body
        # Impassable polygons become their boundary segments: pymunk polygons are convex
        # hulls, and walls or buildings often are not. A base can only get inside one by
        # crossing its boundary, and placement checks centres with _inside_impassable.
        for feature in battlefield.terrain:
            if feature.kind not in self.impassable_kinds:
                continue
            pts = tuple(feature.polygon)
            self._impassable.append((feature.id, pts))
            for i, a in enumerate(pts):
                b = pts[(i + 1) % len(pts)]
                if math.dist(a, b) > _EPS:
                    self._add_static(pymunk.Segment(static, a, b, 0.0), _Tag("terrain", feature.id))
        w, h = battlefield.width, battlefield.depth
        corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        for i, eid in enumerate(EDGE_IDS):
            seg = pymunk.Segment(static, corners[i], corners[(i + 1) % 4], 0.0)
            self._add_static(seg, _Tag("edge", eid))

    # ----------------------------------------------------------------- bookkeeping

    def _add_static(self, shape: pymunk.Shape, tag: _Tag) -> None:
        self._space.add(shape)
        self._tags[shape] = tag
        self._shapes_by_id.setdefault(tag.id, []).append(shape)

    def _remove_static(self, shape: pymunk.Shape) -> None:
        tag = self._tags.pop(shape)
        self._space.remove(shape)
        shapes = self._shapes_by_id[tag.id]
        shapes.remove(shape)
        if not shapes:
            del self._shapes_by_id[tag.id]

    def _world_shape(self, fp: Footprint) -> pymunk.Shape:
        """A base as a shape on the static body, in table coordinates."""
        static = self._space.static_body
        if base_is_round(fp.base):
            return pymunk.Circle(static, base_radius_in(fp.base), offset=(fp.x, fp.y))
        return pymunk.Poly(static, _world_corners(fp))

    def sync(self, bodies: Mapping[str, Footprint]) -> None:
        """Replace the set of model bases (ids -> footprints).

        Only bases that are new or whose footprint changed are rebuilt, in id order.
        Nothing this service reports depends on the order shapes sit in pymunk's index
        (candidates are always ranked by distance, kind and id), so an incremental sync
        answers exactly as a fresh build would.
        """
        new = {mid: Footprint(*bodies[mid]) for mid in sorted(bodies)}
        for mid in new:
            if mid in self._shapes_by_id and mid not in self._model_shapes:
                raise ValueError(f"model id {mid!r} is already a terrain or table-edge id")
        for mid in sorted(self._model_shapes):
            if new.get(mid) != self._bodies[mid]:
                self._remove_static(self._model_shapes.pop(mid))
        for mid, fp in new.items():
            if mid not in self._model_shapes:
                shape = self._world_shape(fp)
                self._add_static(shape, _Tag("model", mid))
                self._model_shapes[mid] = shape
        self._bodies = new

    def kind_of(self, id_: str) -> str | None:
        """The kind ("model", "terrain" or "edge") of an id a result reported, or None."""
        shapes = self._shapes_by_id.get(id_)
        return self._tags[shapes[0]].kind if shapes else None

    def footprint(self, mid: str) -> Footprint:
        """The footprint last synced for a model."""
        return self._bodies[mid]

    def _exclude(self, mover: str, ignore: Iterable[str]) -> set[pymunk.Shape]:
        out = {self._model_shapes[mover]}
        for i in ignore:
            out.update(self._shapes_by_id.get(i, ()))
        return out

    def _sorted_tags(self, shapes: Iterable[pymunk.Shape]) -> list[pymunk.Shape]:
        return sorted(shapes, key=lambda s: (_KIND_RANK[self._tags[s].kind], self._tags[s].id))

    # ----------------------------------------------------------------- probes

    def _probe(
        self, base: float | tuple[float, float], pose: Pose, inflate: float = 0.0
    ) -> pymunk.Shape:
        """A query shape for a base at a pose, grown (or, if negative, shrunk) by inflate.

        Cached per (base, inflate) on a body of its own that is never added to the space:
        pymunk's shape_query reads the body's transform, so moving the body is enough.
        """
        key = (_base_key(base), inflate)
        entry = self._probes.get(key)
        if entry is None:
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            if base_is_round(base):
                shape: pymunk.Shape = pymunk.Circle(body, base_radius_in(base) + inflate)
            elif inflate >= 0:
                shape = pymunk.Poly(body, _local_corners(base), radius=inflate)
            else:
                shape = pymunk.Poly(body, _local_corners(base, inflate))
            entry = (body, shape)
            self._probes[key] = entry
        body, shape = entry
        body.position = (pose[0], pose[1])
        body.angle = math.radians(pose[2])
        return shape

    def _blockers(self, probe: pymunk.Shape, exclude: set[pymunk.Shape]) -> list[pymunk.Shape]:
        """Tagged shapes the probe touches or overlaps, in (kind, id) order."""
        hits = [
            info.shape
            for info in self._space.shape_query(probe)
            if info.shape in self._tags and info.shape not in exclude
        ]
        return self._sorted_tags(hits)

    def _clear(self, base: float | tuple[float, float], pose: Pose, exclude: set) -> bool:
        return not self._blockers(self._probe(base, pose), exclude)

    def _touching(self, base: float | tuple[float, float], pose: Pose, exclude: set) -> bool:
        return bool(self._blockers(self._probe(base, pose, CONTACT_TOLERANCE), exclude))

    def _inside_impassable(self, x: float, y: float) -> str | None:
        for fid, poly in self._impassable:
            if point_in_polygon(x, y, poly):
                return fid
        return None

    def _on_table(self, x: float, y: float) -> bool:
        return self.battlefield.on_table(x, y) and self._inside_impassable(x, y) is None

    def _tolerated(self, base: float | tuple[float, float], pose: Pose, exclude: set) -> set:
        """What a base already overlaps where it starts: it may move out of it freely."""
        return set(self._blockers(self._probe(base, pose, -_START_OVERLAP), exclude))

    # ----------------------------------------------------------------- snapping

    @staticmethod
    def _grid_candidates(pose: Pose) -> list[Pose]:
        """The 3x3 grid points (0.01 in) around a pose, nearest first."""
        x, y = pose[0], pose[1]
        rx, ry, f = _r2(x), _r2(y), _norm_deg(pose[2])
        cands = []
        for i in (-1, 0, 1):
            for j in (-1, 0, 1):
                cx, cy = _r2(rx + i * 0.01), _r2(ry + j * 0.01)
                cands.append(((cx - x) ** 2 + (cy - y) ** 2, i, j, (cx, cy, f)))
        cands.sort()
        return [c[3] for c in cands]

    def _settle(
        self,
        base: float | tuple[float, float],
        exact: Pose,
        exclude: set,
        need_touch: bool,
        back: Callable[[float], Pose],
    ) -> tuple[Pose, float]:
        """Round a stop pose to the 0.01 in grid without creating an overlap.

        Returns the pose and how far back along the path (inches) it had to go. With
        need_touch the first choice must also stay within the contact tolerance of
        something, so a blocked base ends touching what blocked it.
        """
        for k in (0.0, *_BACKOFFS):
            pe = exact if k == 0.0 else back(k)
            for cand in self._grid_candidates(pe):
                if not self._on_table(cand[0], cand[1]) or not self._clear(base, cand, exclude):
                    continue
                if need_touch and k == 0.0 and not self._touching(base, cand, exclude):
                    continue
                return cand, k
        start = back(math.inf)
        return (_r2(start[0]), _r2(start[1]), _norm_deg(start[2])), math.inf

    # ----------------------------------------------------------------- moving

    def _first_hit_circle(
        self, a: Point, b: Point, r: float, exclude: set
    ) -> tuple[float, pymunk.Shape] | None:
        """Earliest contact of a disc of radius r moving from a to b: (alpha, shape).

        bb_query over the radius-padded box, then an exact radius segment query per
        candidate (not space.segment_query_first; see the module docstring). A shape the
        disc already touches at a blocks at once only if the leg goes deeper into it:
        distance to a convex shape along a line is convex, so a leg that starts by moving
        away (or along it) never comes back.
        """
        length = math.dist(a, b)
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        pad = r + CONTACT_TOLERANCE
        bb = pymunk.BB(
            min(a[0], b[0]) - pad,
            min(a[1], b[1]) - pad,
            max(a[0], b[0]) + pad,
            max(a[1], b[1]) + pad,
        )
        best: tuple[float, int, str, pymunk.Shape] | None = None
        step = min(1e-3, length)
        for shape in self._space.bb_query(bb, pymunk.ShapeFilter()):
            if shape not in self._tags or shape in exclude:
                continue
            d0 = shape.point_query(a).distance - r
            if d0 <= _EPS:
                d1 = shape.point_query((a[0] + ux * step, a[1] + uy * step)).distance - r
                if d1 >= d0 - 1e-12:
                    continue
                alpha = 0.0
            else:
                info = shape.segment_query(a, b, r)
                if info is None:
                    continue
                alpha = info.alpha
            tag = self._tags[shape]
            key = (alpha, _KIND_RANK[tag.kind], tag.id, shape)
            if best is None or key[:3] < best[:3]:
                best = key
        return None if best is None else (best[0], best[3])

    def move(
        self, mover: str, path: Sequence[tuple[float, float]], ignore: Iterable[str] = ()
    ) -> MoveResult:
        """Move a base from where it stands through the waypoints; stop at the first contact.

        The move starts at the base's synced centre; a first waypoint equal to it is
        simply skipped. The facing does not change (a rectangle slides, it does not
        steer: use :meth:`sweep` with poses for that). Impassable terrain, table edges
        and other bases (except ``ignore``, which may name models or terrain) stop it.
        The end is rounded to 0.01 in, clear of everything, and when blocked within
        :data:`CONTACT_TOLERANCE` of what stopped it. Whatever the base already overlaps
        at its start does not stop it (so a badly placed base can get out).
        """
        fp = self._bodies[mover]
        exclude = self._exclude(mover, ignore)
        start: Pose = (fp.x, fp.y, fp.facing)
        exclude |= self._tolerated(fp.base, start, exclude)
        pts: list[Point] = [(fp.x, fp.y)]
        for p in path:
            q = (float(p[0]), float(p[1]))
            if math.dist(q, pts[-1]) > _EPS:
                pts.append(q)
        poses = [(x, y, fp.facing) for x, y in pts]
        if len(poses) < 2:
            end, _ = self._settle(fp.base, start, exclude, False, lambda k: start)
            return MoveResult((end[0], end[1]), 0.0, None, True)
        if base_is_round(fp.base):
            contact = self._first_contact_round(base_radius_in(fp.base), pts, exclude)
        else:
            contact = self._sweep_core(fp.base, poses, exclude)
        if contact is None:
            last = len(poses) - 1
            whole = _Contact(last, 1.0, math.dist(pts[-2], pts[-1]), [])
            end, _ = self._settle_contact(fp.base, poses, whole, exclude, need_touch=False)
            leg, blocker = last, None
        else:
            end, _ = self._settle_contact(fp.base, poses, contact, exclude)
            leg, blocker = contact.leg, self._tags[contact.hits[0]].id
        # Distance along the path to the (rounded) end: whole legs, then the end's
        # projection on its leg, so travelled and end always agree.
        a, b = pts[leg - 1], pts[leg]
        length = math.dist(a, b)
        along = ((end[0] - a[0]) * (b[0] - a[0]) + (end[1] - a[1]) * (b[1] - a[1])) / length
        covered = sum(math.dist(p, q) for p, q in zip(pts[: leg - 1], pts[1:leg]))
        travelled = covered + min(length, max(0.0, along))
        return MoveResult((end[0], end[1]), _r2(travelled), blocker, contact is None)

    def _first_contact_round(self, r: float, pts: Sequence[Point], exclude: set) -> _Contact | None:
        """First contact of a round base along the polyline pts, leg by leg, exactly."""
        for i in range(1, len(pts)):
            hit = self._first_hit_circle(pts[i - 1], pts[i], r, exclude)
            if hit is not None:
                return _Contact(i, hit[0], math.dist(pts[i - 1], pts[i]), [hit[1]])
        return None

    # ----------------------------------------------------------------- sweeping

    def _advance(
        self, base: float | tuple[float, float], p0: Pose, p1: Pose, rate: float, exclude: set
    ) -> tuple[float, list[pymunk.Shape]] | None:
        """Conservative advancement from a clear p0 towards p1; (t, hits) of first contact.

        ``rate`` bounds how far any point of the footprint moves per unit of t, so a
        footprint clear when inflated by m stays clear for a further m / rate of t.
        """
        t, m = 0.0, _MAX_STEP
        while True:
            if not self._blockers(self._probe(base, _interp(p0, p1, t), m), exclude):
                if t + m / rate >= 1.0:
                    return None
                t += m / rate
                m = min(_MAX_STEP, 2.0 * m)
                continue
            if m > _MIN_STEP:
                m *= 0.5
                continue
            t2 = min(1.0, t + m / rate)
            hits = self._blockers(self._probe(base, _interp(p0, p1, t2)), exclude)
            if not hits:
                if t2 >= 1.0:
                    return None
                t = t2
                continue
            lo, hi = t, t2
            while (hi - lo) * rate > _BISECT:
                mid = 0.5 * (lo + hi)
                mid_hits = self._blockers(self._probe(base, _interp(p0, p1, mid)), exclude)
                if mid_hits:
                    hi, hits = mid, mid_hits
                else:
                    lo = mid
            return lo, hits

    def _sweep_core(
        self, base: float | tuple[float, float], poses: Sequence[Pose], exclude: set
    ) -> _Contact | None:
        reach = 0.0 if base_is_round(base) else base_radius_in(base)
        for i in range(1, len(poses)):
            p0, p1 = poses[i - 1], poses[i]
            turn = math.radians(abs(_angle_diff(p1[2], p0[2])))
            rate = math.hypot(p1[0] - p0[0], p1[1] - p0[1]) + reach * turn
            if rate <= _EPS:
                continue
            found = self._advance(base, p0, p1, rate, exclude)
            if found is not None:
                return _Contact(i, found[0], rate, found[1])
        return None

    def _settle_contact(
        self,
        base: float | tuple[float, float],
        poses: Sequence[Pose],
        contact: _Contact,
        exclude: set,
        need_touch: bool = True,
    ) -> tuple[Pose, float]:
        """Settle the pose at a contact, backing off along its leg if rounding needs it."""
        p0, p1 = poses[contact.leg - 1], poses[contact.leg]

        def back(k: float) -> Pose:
            return _interp(p0, p1, max(0.0, contact.t - k / contact.rate))

        return self._settle(base, back(0.0), exclude, need_touch, back)

    def sweep(
        self,
        mover: str,
        poses: Sequence[tuple[float, float, float]],
        ignore: Iterable[str] = (),
    ) -> SweepResult:
        """Sweep a base through poses (x, y, facing); report the first contact.

        Between consecutive poses the centre moves in a straight line and the facing turns
        the short way, so sample arcs finely enough for the path you mean (the contact
        search itself never skips anything between samples). ``poses[0]`` is where the
        sweep starts (normally the base's current pose); whatever the footprint already
        overlaps there is ignored. The reported pose is the last clear one, rounded, and
        within :data:`CONTACT_TOLERANCE` of the contact.
        """
        fp = self._bodies[mover]
        if not poses:
            raise ValueError("sweep needs at least one pose")
        poses = [(float(p[0]), float(p[1]), float(p[2])) for p in poses]
        exclude = self._exclude(mover, ignore)
        exclude |= self._tolerated(fp.base, poses[0], exclude)
        contact = self._sweep_core(fp.base, poses, exclude)
        if contact is None:
            if len(poses) < 2:
                end, _ = self._settle(fp.base, poses[0], exclude, False, lambda k: poses[0])
                return SweepResult(0, end, None, None)
            p0, p1 = poses[-2], poses[-1]
            turn = math.radians(abs(_angle_diff(p1[2], p0[2])))
            rate = math.dist(p0[:2], p1[:2]) + base_radius_in(fp.base) * turn
            whole = _Contact(len(poses) - 1, 1.0, max(rate, _EPS), [])
            end, _ = self._settle_contact(fp.base, poses, whole, exclude, need_touch=False)
            return SweepResult(len(poses) - 1, end, None, None)
        end, _ = self._settle_contact(fp.base, poses, contact, exclude)
        tag = self._tags[contact.hits[0]]
        return SweepResult(contact.leg - 1, end, tag.id, tag.kind)

    # ----------------------------------------------------------------- charging

    def _best_contact_pose(
        self,
        tfp: Footprint,
        tshape: pymunk.Shape,
        base: float | tuple[float, float],
        origin: Point,
        exclude: set,
        placed: dict[str, tuple[Pose, pymunk.Shape]],
    ) -> tuple[Pose, dict[str, Pose]] | None:
        """Nearest clear pose to origin with the base in contact with the target.

        Returns the pose and any nudges of already placed chargers (id -> new pose) it
        needs; see :meth:`_nudge`.
        """
        tx, ty = tfp.x, tfp.y
        dx, dy = origin[0] - tx, origin[1] - ty
        theta0 = math.atan2(dy, dx) if math.hypot(dx, dy) > _EPS else 0.0
        both_round = base_is_round(base) and base_is_round(tfp.base)
        n = _RING_SAMPLES_ROUND if both_round else _RING_SAMPLES_OTHER
        ring = base_radius_in(base) + base_radius_in(tfp.base)
        placed_shapes = {shape: cid for cid, (_, shape) in placed.items()}
        # Cheap pre-filter: a spot whose centre is well inside another base's inscribed
        # circle (plus ours) overlaps it too deeply for any nudge, so skip pymunk there.
        mine = _inscribed_radius(base)
        solid = [
            (fp.x, fp.y, max(0.0, mine + _inscribed_radius(fp.base) - 4.0 * _GRID) ** 2)
            for mid, fp in self._bodies.items()
            if self._model_shapes[mid] not in exclude and self._model_shapes[mid] is not tshape
        ]
        solid += [
            (
                pose[0],
                pose[1],
                max(0.0, mine + _inscribed_radius(self._bodies[cid].base) - 4.0 * _GRID) ** 2,
            )
            for cid, (pose, _) in placed.items()
        ]
        # Angles are tried in order of how close their exact contact point is to the
        # origin; only then the grid points around it, nearest first. Ranking grid points
        # by their own distance to a far origin would drift chargers sideways to the
        # outer edge of the tolerance band and waste room round the target.
        ring_points = []
        for k in range(n):
            theta = theta0 + 2.0 * math.pi * k / n
            d = ring if both_round else _contact_distance(tfp, base, theta)
            x, y = tx + d * math.cos(theta), ty + d * math.sin(theta)
            ring_points.append((round(math.dist((x, y), origin), 9), k, x, y, theta))
        ring_points.sort()
        tried: set[Point] = set()
        for _, _, x0, y0, theta in ring_points:
            # Aim a little outside exact contact: the band up to the tolerance is room
            # that lets neighbours on the ring round onto the grid without overlapping.
            ax = x0 + _PACK_GAP * math.cos(theta)
            ay = y0 + _PACK_GAP * math.sin(theta)
            cands: dict[Point, float] = {}
            for extra in (0.0, 0.5 * CONTACT_TOLERANCE, CONTACT_TOLERANCE):
                x = x0 + extra * math.cos(theta)
                y = y0 + extra * math.sin(theta)
                for fx in (math.floor, math.ceil):
                    for fy in (math.floor, math.ceil):
                        p = (_r2(fx(x * 100.0) / 100.0), _r2(fy(y * 100.0) / 100.0))
                        if p not in tried:
                            cands[p] = (p[0] - ax) ** 2 + (p[1] - ay) ** 2
            for x, y in sorted(cands, key=lambda p: (cands[p], p)):
                tried.add((x, y))
                if any((x - ox) ** 2 + (y - oy) ** 2 < lim for ox, oy, lim in solid):
                    continue
                if not self._on_table(x, y):
                    continue
                pose = (x, y, _norm_deg(math.degrees(math.atan2(ty - y, tx - x))))
                touch = self._blockers(self._probe(base, pose, CONTACT_TOLERANCE), exclude)
                if tshape not in touch:
                    continue  # not in contact with the target
                hits = self._blockers(self._probe(base, pose), exclude)
                if not hits:
                    return pose, {}
                if len(hits) > 2 or any(h not in placed_shapes for h in hits):
                    continue  # overlaps (or exactly touches) the target or something else
                nudges = self._nudge(tfp, tshape, base, pose, hits, exclude, placed)
                if nudges is not None:
                    return pose, nudges
        return None

    def _charger_ok(
        self, tshape: pymunk.Shape, base: float | tuple[float, float], pose: Pose, exclude: set
    ) -> bool:
        """A charger's pose is clear of everything and within tolerance of the target."""
        if not self._on_table(pose[0], pose[1]) or not self._clear(base, pose, exclude):
            return False
        return tshape in self._blockers(self._probe(base, pose, CONTACT_TOLERANCE), exclude)

    def _nudge(
        self,
        tfp: Footprint,
        tshape: pymunk.Shape,
        base: float | tuple[float, float],
        pose: Pose,
        hits: list[pymunk.Shape],
        exclude: set,
        placed: dict[str, tuple[Pose, pymunk.Shape]],
    ) -> dict[str, Pose] | None:
        """Make room at pose by moving the (at most two) placed chargers it grazes one grid
        step (0.01 in) each, keeping them in contact with the target.

        Why: every position is rounded to the 0.01 in grid, and a ring of bases that fits
        exactly (six round bases round an equal one) only closes if its members sit on
        the right grid points. Which ones is only known when the last arrives, so a
        charger may shift an earlier one by a rounding step; it stays as good a spot as
        rounding allows. Only shallow overlaps (less than two grid steps) are repaired.
        """
        by_shape = {shape: cid for cid, (_, shape) in placed.items()}
        if self._blockers(self._probe(base, pose, -2.0 * _GRID), exclude):
            return None
        me = self._world_shape(Footprint(pose[0], pose[1], pose[2], base))
        self._space.add(me)
        self._tags[me] = _Tag("model", "")
        try:
            queue = [by_shape[h] for h in hits]
            budget = [_NUDGE_BUDGET]
            return self._nudge_rec(queue, {}, set(), tfp, tshape, exclude, placed, budget)
        finally:
            self._space.remove(me)
            del self._tags[me]

    def _nudge_rec(
        self,
        queue: list[str],
        chosen: dict[str, Pose],
        moved: set[pymunk.Shape],
        tfp: Footprint,
        tshape: pymunk.Shape,
        exclude: set,
        placed: dict[str, tuple[Pose, pymunk.Shape]],
        budget: list[int],
    ) -> dict[str, Pose] | None:
        """Depth-first search for one-step moves of the chargers in queue (and of those
        each move grazes in turn) that leave everything clear; None if there is none
        within the search budget (counted in tries, so the answer is reproducible)."""
        if not queue:
            return dict(chosen)
        by_shape = {shape: cid for cid, (_, shape) in placed.items()}
        cid, rest = queue[0], queue[1:]
        old_pose, old_shape = placed[cid]
        base = self._bodies[cid].base
        moved_now = moved | {old_shape}
        for cand in self._grid_candidates(old_pose)[1:]:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
            facing = _norm_deg(math.degrees(math.atan2(tfp.y - cand[1], tfp.x - cand[0])))
            alt = (cand[0], cand[1], facing)
            if not self._on_table(alt[0], alt[1]):
                continue
            skip = exclude | moved_now
            if tshape not in self._blockers(self._probe(base, alt, CONTACT_TOLERANCE), skip):
                continue
            hits = self._blockers(self._probe(base, alt), skip)
            more: list[str] = []
            ok = True
            for h in hits:
                hid = by_shape.get(h)
                if hid is None or hid in chosen:
                    ok = False  # terrain, the target, a bystander or an already moved one
                    break
                if hid not in rest and hid not in more:
                    more.append(hid)
            if not ok:
                continue
            if more and self._blockers(self._probe(base, alt, -2.0 * _GRID), skip):
                continue  # too deep to fix by one step
            shape = self._world_shape(Footprint(alt[0], alt[1], alt[2], base))
            self._space.add(shape)
            self._tags[shape] = _Tag("model", cid)
            chosen[cid] = alt
            try:
                found = self._nudge_rec(
                    rest + more, chosen, moved_now, tfp, tshape, exclude, placed, budget
                )
            finally:
                self._space.remove(shape)
                del self._tags[shape]
                del chosen[cid]
            if found is not None:
                return found
        return None

    def place_in_contact_poses(
        self,
        target: str,
        chargers: Sequence[str],
        approach: Mapping[str, tuple[float, float]] | None = None,
    ) -> dict[str, tuple[float, float, float]]:
        """Like :meth:`place_in_contact`, with each charger's facing (toward the target).

        Chargers are lifted off the table while placing (their current bases block
        nothing); each placed charger then blocks the ones after it. Placement is greedy
        in the given order, so order chargers (or give approach points) the way the rules
        want the target's edges filled. A later charger may shift an earlier one by one
        0.01 in grid step to close a ring (see :meth:`_nudge`).
        """
        approach = approach or {}
        tfp = self._bodies[target]
        tshape = self._model_shapes[target]
        exclude = {self._model_shapes[c] for c in chargers if c != target}
        placed: dict[str, tuple[Pose, pymunk.Shape]] = {}

        def put(cid: str, pose: Pose) -> None:
            if cid in placed:
                self._space.remove(placed[cid][1])
                del self._tags[placed[cid][1]]
            shape = self._world_shape(Footprint(pose[0], pose[1], pose[2], self._bodies[cid].base))
            self._space.add(shape)
            self._tags[shape] = _Tag("model", cid)
            placed[cid] = (pose, shape)

        try:
            for cid in chargers:
                if cid == target or cid in placed:
                    continue
                cfp = self._bodies[cid]
                origin = approach.get(cid, (cfp.x, cfp.y))
                origin = (float(origin[0]), float(origin[1]))
                found = self._best_contact_pose(tfp, tshape, cfp.base, origin, exclude, placed)
                if found is None:
                    continue
                pose, nudges = found
                for nid in sorted(nudges):
                    put(nid, nudges[nid])
                put(cid, pose)
        finally:
            for _, shape in placed.values():
                self._space.remove(shape)
                del self._tags[shape]
        return {cid: placed_pose for cid, (placed_pose, _) in placed.items()}

    def place_in_contact(
        self,
        target: str,
        chargers: Sequence[str],
        approach: Mapping[str, tuple[float, float]] | None = None,
    ) -> dict[str, tuple[float, float]]:
        """Put each charger's base in base contact with the target's, near where it came from.

        Each charger goes to the clear contact position nearest ``approach[id]`` (default:
        its current centre), in the given order; one that finds no room is left out of
        the result. Gaps to the target are in (0, CONTACT_TOLERANCE]; no base or terrain
        is overlapped. Six equal round bases fit around a seventh.
        """
        poses = self.place_in_contact_poses(target, chargers, approach)
        return {cid: (p[0], p[1]) for cid, p in poses.items()}

    # ----------------------------------------------------------------- ramming

    def ram(
        self,
        rammer: str,
        target: str,
        speed: float,
        heading: float,
        masses: Mapping[str, float] | None = None,
    ) -> dict:
        """A rammer driving at ``speed`` (in/s) along ``heading`` for one second.

        The first contact is found by a sweep (not by stepping), then a short fixed-step
        pymunk simulation (1/120 s steps, one second, strong damping standing in for
        ground friction) plays out the collision with terrain and other bases static.
        Masses default to base area (square inches). Returns plain numbers:
        ``impact_speed`` (closing speed along the contact normal), ``contact`` (x, y) or
        None if the target was not reached first, ``rammer_end`` and ``target_end`` as
        (x, y, facing). If the simulated ends would overlap anything, the rammer is left
        touching the target and the target where it was.
        """
        fp, tfp = self._bodies[rammer], self._bodies[target]
        tshape = self._model_shapes[target]
        h = math.radians(heading)
        ux, uy = math.cos(h), math.sin(h)
        start: Pose = (fp.x, fp.y, fp.facing)
        poses = [start, (fp.x + ux * speed, fp.y + uy * speed, fp.facing)]
        exclude = self._exclude(rammer, ())
        exclude |= self._tolerated(fp.base, start, exclude)
        target_pose = (_r2(tfp.x), _r2(tfp.y), _norm_deg(tfp.facing))
        contact = self._sweep_core(fp.base, poses, exclude) if speed > 0 else None
        if contact is None or contact.hits[0] is not tshape:
            if contact is None:
                end, _ = self._settle(fp.base, poses[-1], exclude, False, lambda k: start)
            else:
                end, _ = self._settle_contact(fp.base, poses, contact, exclude)
            return {
                "impact_speed": 0.0,
                "contact": None,
                "rammer_end": end,
                "target_end": target_pose,
            }
        hit_pose = _interp(poses[0], poses[1], contact.t)
        fallback, _ = self._settle_contact(fp.base, poses, contact, exclude)
        probe = self._probe(fp.base, hit_pose, CONTACT_TOLERANCE)
        info = next((i for i in self._space.shape_query(probe) if i.shape is tshape), None)
        contact_pt, nx, ny = (hit_pose[0], hit_pose[1]), ux, uy
        if info is not None and info.contact_point_set.points:
            cps = info.contact_point_set
            pa, pb = cps.points[0].point_a, cps.points[0].point_b
            contact_pt = ((pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0)
            nx, ny = cps.normal.x, cps.normal.y
        impact = abs(speed * (ux * nx + uy * ny))
        ends = self._simulate_ram(rammer, target, hit_pose, (ux * speed, uy * speed), masses)
        rammer_end, target_end = ends
        if rammer_end is None or target_end is None:
            rammer_end, target_end = fallback, target_pose
        return {
            "impact_speed": _r2(impact),
            "contact": (_r2(contact_pt[0]), _r2(contact_pt[1])),
            "rammer_end": rammer_end,
            "target_end": target_end,
        }

    def _simulate_ram(
        self,
        rammer: str,
        target: str,
        hit_pose: Pose,
        velocity: Point,
        masses: Mapping[str, float] | None,
    ) -> tuple[Pose | None, Pose | None]:
        """Fixed-step simulation of the collision; rounded, overlap-checked end poses."""
        sim = pymunk.Space()
        sim.iterations = _RAM_ITERATIONS
        sim.damping = _RAM_DAMPING
        sim.collision_slop = _RAM_SLOP
        static = sim.static_body
        # Terrain and edges in the order they were built, then bases in id order: the
        # solver's results depend on insertion order, so it must never vary.
        for shape, tag in self._tags.items():
            if tag.kind != "model":
                a, b = shape.a, shape.b
                sim.add(pymunk.Segment(static, (a.x, a.y), (b.x, b.y), _RAM_WALL_RADIUS))
        for mid in sorted(self._bodies):
            if mid not in (rammer, target):
                sim.add(self._copy_model_shape(self._bodies[mid], static))
        bodies: dict[str, pymunk.Body] = {}
        for mid in sorted((rammer, target)):
            fp = self._bodies[mid]
            pose = hit_pose if mid == rammer else (fp.x, fp.y, fp.facing)
            w, d = base_size_in(fp.base)
            mass = float((masses or {}).get(mid, w * d))
            if base_is_round(fp.base):
                moment = pymunk.moment_for_circle(mass, 0, base_radius_in(fp.base))
            else:
                moment = pymunk.moment_for_poly(mass, _local_corners(fp.base))
            body = pymunk.Body(mass, moment)
            body.position = (pose[0], pose[1])
            body.angle = math.radians(pose[2])
            if base_is_round(fp.base):
                shape = pymunk.Circle(body, base_radius_in(fp.base))
            else:
                shape = pymunk.Poly(body, _local_corners(fp.base))
            shape.friction = 0.5
            shape.elasticity = 0.2
            sim.add(body, shape)
            bodies[mid] = body
        bodies[rammer].velocity = velocity
        for _ in range(_RAM_STEPS):
            sim.step(_RAM_DT)
        ends = {}
        for mid, body in bodies.items():
            p = body.position
            ends[mid] = (p.x, p.y, math.degrees(body.angle))
        return self._check_pair(rammer, ends[rammer], target, ends[target])

    def _copy_model_shape(self, fp: Footprint, static: pymunk.Body) -> pymunk.Shape:
        if base_is_round(fp.base):
            return pymunk.Circle(static, base_radius_in(fp.base), offset=(fp.x, fp.y))
        return pymunk.Poly(static, _world_corners(fp))

    def _check_pair(
        self, a: str, pose_a: Pose, b: str, pose_b: Pose
    ) -> tuple[Pose | None, Pose | None]:
        """Round two simulated poses onto the grid so neither overlaps anything."""
        fa, fb = self._bodies[a], self._bodies[b]
        base_ex = {self._model_shapes[a], self._model_shapes[b]}
        tb = (_r2(pose_b[0]), _r2(pose_b[1]), _norm_deg(pose_b[2]))
        for cb in self._grid_candidates(pose_b):
            if self._on_table(cb[0], cb[1]) and self._clear(fb.base, cb, base_ex):
                tb = cb
                break
        else:
            return None, None
        shape_b = self._world_shape(Footprint(tb[0], tb[1], tb[2], fb.base))
        self._space.add(shape_b)
        self._tags[shape_b] = _Tag("model", b)
        try:
            for ca in self._grid_candidates(pose_a):
                if self._on_table(ca[0], ca[1]) and self._clear(fa.base, ca, base_ex):
                    return ca, tb
        finally:
            self._space.remove(shape_b)
            del self._tags[shape_b]
        return None, None
