"""The table as the rules measure it: one measuring facade per battlefield, with its memos.

Why here: every rulebook asks the same questions with models in hand (how far apart, in
my arc, can I see him, what does this path cost through woods and water, which terrain
does it touch first), and every ruleset had rebuilt the answers under its own names with
its own caches. A ``Table`` answers them once for a battlefield, on top of
``engine.geometry`` (exact shapely figures: sight, arcs, zones, bases against terrain),
``engine.physics`` (contact and movement, one space per thread) and ``engine.polygons``
(pure-Python segment maths for hot paths). It never imports shapely itself.

Lifetime and caches: a battlefield's table is kept *on the battlefield* (``Table.of``),
so it lives exactly as long as the battlefield and a freed battlefield's answers can
never be read for another that happens to reuse its address (the bug of caches keyed on
``id()``). Every cache a rule needs is a named :class:`Memo` the table owns
(``table.memo("umr.fire")``): pure answers about the static terrain and the positions in
the key, shared by every context on that battlefield (AI clones included) and by the
window's thinking thread — a dict get or set is atomic, and two threads computing one
key store the same answer. What is mutable (a physics space) is one per thread. Each
memo starts afresh when it reaches its limit; ``clear`` empties them all at once.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from engine import polygons
from engine.battlefield import (
    MM_PER_INCH,
    Battlefield,
    Footprint,
    TerrainFeature,
)
from engine.state import Model

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from engine.geometry import Geometry, Sight
    from engine.physics import Physics

Point = tuple[float, float]
Box = polygons.Box
T = TypeVar("T")

#: Entries a memo keeps before it starts afresh (a few megabytes at most).
MEMO_LIMIT = 50_000
#: Slack (inches) on bounding-box tests: a box this near a feature's counts as touching.
BOX_SLACK = 1e-9
_UNSYNCED = object()


class Memo(dict[Hashable, Any]):
    """A keyed memo owned by a table: ``get_or(key, compute)``. Cleared, not pruned, at
    ``limit`` entries (cheap, and the questions of the moment come back at once)."""

    def __init__(self, limit: int = MEMO_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def put(self, key: Hashable, value: T) -> T:
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value

    def get_or(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The answer remembered for ``key``, else ``compute()`` remembered. An unhashable
        key (a point given as a list) is computed and not kept."""
        try:
            return cast(T, self[key])
        except KeyError:
            return self.put(key, compute())
        except TypeError:
            return compute()


@dataclass
class Leg:
    """One stretch of a walked path: from, to, its length and what an inch of it costs."""

    a: Point
    b: Point
    length: float
    cost: float = 1.0


@dataclass
class Walk:
    """How far a path gets with an allowance: where it stops, the length travelled, the
    extra paid over one per inch (``Σ (cost - 1) × length``) and whether it got there."""

    end: Point
    travelled: float
    extra: float
    complete: bool
    legs: list[Leg] = field(default_factory=list)

    @property
    def spent(self) -> float:
        return self.travelled + self.extra


_LOCK = threading.Lock()
_LIVE: weakref.WeakSet[Table] = weakref.WeakSet()


def footprint(m: Model) -> Footprint:
    """A model's base as the services' footprint (a base read back as a list becomes a
    tuple, so footprints stay hashable)."""
    b = m.base
    return Footprint(m.x, m.y, m.facing, tuple(b) if isinstance(b, list) else b)


_SHAPES: dict[str, Memo] = {}


def shapes(name: str, limit: int = MEMO_LIMIT) -> Memo:
    """The memo called ``name`` of answers that depend on bases and points alone, never on
    a battlefield (two footprints' distance, an arc, a group's zone): one per process,
    right for every table, safe across threads for the reasons a table's memo is."""
    m = _SHAPES.get(name)
    if m is None:
        with _LOCK:
            m = _SHAPES.setdefault(name, Memo(limit))
    return m


def distance(a: Model, b: Model) -> float:
    """Base edge to base edge (inches), 0 when touching: ``geometry.distance`` of the two
    footprints, for rules that measure with no table at hand (who touches whom). A pair
    with a rectangle is memoised (its exact measure is a polygon distance)."""
    ba, bb = a.base, b.base
    if not isinstance(ba, (tuple, list)) and ba == bb:
        # two round bases of one size: geometry.distance's own sum, without footprints
        r = float(ba) / MM_PER_INCH / 2
        return max(math.hypot(a.x - b.x, a.y - b.y) - r - r, 0.0)
    fa, fb = footprint(a), footprint(b)
    return float(shapes("engine.distance").get_or((fa, fb), lambda: _geometry().distance(fa, fb)))


def in_arc(shooter: Model, target: Model, arc_deg: float, offset_deg: float = 0.0) -> bool:
    """Is any part of the target's base in the wedge of ``arc_deg`` centred on the
    shooter's facing (turned by ``offset_deg``)? Exact (``geometry.in_arc``), memoised."""
    if arc_deg >= 360.0:
        return True
    fa, fb = footprint(shooter), footprint(target)
    return bool(
        shapes("engine.arc").get_or(
            (fa, fb, arc_deg, offset_deg), lambda: _geometry().in_arc(fa, fb, arc_deg, offset_deg)
        )
    )


class Table:
    """The measuring facade of one battlefield (see the module docstring)."""

    # the segment and polygon maths, for rules that measure lines of their own
    point_in_polygon = staticmethod(polygons.point_in_polygon)
    polygon_distance = staticmethod(polygons.polygon_distance)
    closest_point = staticmethod(polygons.closest_point)
    closest_on_segment = staticmethod(polygons.closest_on_segment)
    point_segment_distance = staticmethod(polygons.point_segment_distance)
    crossing = staticmethod(polygons.crossing)
    angle_diff = staticmethod(polygons.angle_diff)
    footprint = staticmethod(footprint)

    def __init__(self, battlefield: Battlefield) -> None:
        self.battlefield = battlefield
        self._geo: Geometry | None = None
        self._memos: dict[str, Memo] = {}
        self._local = threading.local()
        self._pieces = Memo(1024)
        _LIVE.add(self)

    @classmethod
    def of(cls, battlefield: Battlefield) -> Table:
        """The battlefield's table, made on first use and kept on the battlefield itself."""
        t: Table | None = battlefield.__dict__.get("_table")
        if t is not None and t.battlefield is battlefield:
            return t
        with _LOCK:
            t = battlefield.__dict__.get("_table")
            if t is None or t.battlefield is not battlefield:
                t = cls(battlefield)
                object.__setattr__(battlefield, "_table", t)  # frozen: not a field
        return t

    def __reduce__(self) -> tuple[Any, ...]:
        """A copied or pickled battlefield gets a fresh table of its own (``of`` sees the
        copy is not this table's battlefield), never this one's memos or spaces."""
        return (_detached, ())

    # ------------------------------------------------------------------ services and memos
    @property
    def geo(self) -> Geometry:
        """The geometry service (terrain precomputed once; shared by every thread)."""
        if self._geo is None:
            from engine.geometry import Geometry

            with _LOCK:
                if self._geo is None:
                    self._geo = Geometry(self.battlefield)
        return self._geo

    @property
    def physics(self) -> Physics:
        """This thread's physics space: a space is mutable (``sync``), so the window's
        thread and the computer's thinking thread never share one."""
        ph = getattr(self._local, "physics", None)
        if ph is None:
            from engine.physics import Physics

            ph = self._local.physics = Physics(self.battlefield)
            self._local.synced = _UNSYNCED
        return ph

    def synced(self, key: Hashable, bodies: Callable[[], Mapping[str, Footprint]]) -> Physics:
        """This thread's physics space holding ``bodies()``, synced only when ``key`` (a
        plain signature of those bases) differs from the last sync made through here."""
        ph = self.physics
        if self._local.synced != key:
            ph.sync(bodies())
            self._local.synced = key
        return ph

    def unsync(self) -> None:
        """Forget the last sync (the space was changed by other means)."""
        self._local.synced = _UNSYNCED

    def memo(self, name: str, limit: int = MEMO_LIMIT) -> Memo:
        """The memo called ``name`` (by convention "<ruleset>.<question>"). Keys must hold
        everything the answer depends on besides the terrain (footprints, not model ids)."""
        m = self._memos.get(name)
        if m is None:
            with _LOCK:
                m = self._memos.setdefault(name, Memo(limit))
        return m

    def clear(self) -> None:
        """Empty every memo of this table (the one place answers are evicted wholesale)."""
        for m in list(self._memos.values()):
            m.clear()
        self._pieces.clear()

    # ------------------------------------------------------------------ models
    distance = staticmethod(distance)
    in_arc = staticmethod(in_arc)

    def distance_point(self, m: Model, p: Point) -> float:
        """Edge of a base to a point (0 on or inside the base)."""
        return float(_geometry().distance_point(footprint(m), p))

    @staticmethod
    def bearing(a: Point, b: Point) -> float:
        """Direction from a to b in degrees counter-clockwise from east, in [0, 360)."""
        dx, dy = b[0] - a[0], b[1] - a[1]
        if dx == 0 and dy == 0:
            return 0.0
        r = math.degrees(math.atan2(dy, dx)) % 360.0
        return 0.0 if r >= 360.0 else r + 0.0

    def zone_of(self, target: Footprint | Model, attacker: Footprint | Model) -> str:
        """The target's zone ("front", "flank", "rear") the attacker's whole base is in,
        else "none" (``geometry.zone_of``)."""
        t = target if isinstance(target, Footprint) else footprint(target)
        a = attacker if isinstance(attacker, Footprint) else footprint(attacker)
        return str(_geometry().zone_of(t, a))

    def overlaps(self, a: Footprint | Model, b: Footprint | Model, tol: float = 1e-6) -> bool:
        """Do two bases overlap by more than ``tol`` (touching is not overlapping)?"""
        fa = a if isinstance(a, Footprint) else footprint(a)
        fb = b if isinstance(b, Footprint) else footprint(b)
        return bool(_geometry().overlaps(fa, fb, tol))

    def sight(self, observer: Footprint | Model, target: Footprint | Model) -> Sight:
        """The geometry service's sight of one pair (memoised there, per battlefield)."""
        fa = observer if isinstance(observer, Footprint) else footprint(observer)
        fb = target if isinstance(target, Footprint) else footprint(target)
        return self.geo.sight(fa, fb)

    def visible(
        self, observer: Footprint | Model, target: Footprint | Model
    ) -> tuple[float, float]:
        """(visible fraction, distance) alone: the two numbers that decide whether there
        is a shot at all, about a third cheaper than ``sight`` for a new pair."""
        fa = observer if isinstance(observer, Footprint) else footprint(observer)
        fb = target if isinstance(target, Footprint) else footprint(target)
        return self.memo("engine.visible").get_or(
            (fa, fb),
            lambda: (float(self.geo.visible_fraction(fa, fb)), _geometry().distance(fa, fb)),
        )

    def visible_matrix(
        self, observers: Sequence[Footprint | Model], targets: Sequence[Footprint | Model]
    ) -> np.ndarray:
        """Visible fractions of every (observer, target) pair in one batched call, an
        array of shape (len(observers), len(targets)) (``Geometry.visible_matrix``): why,
        a side's candidates or the hover preview read a whole side's sight at once."""
        return self.geo.visible_matrix(_fps(observers), _fps(targets))

    def visible_row(
        self, observer: Footprint | Model, targets: Sequence[Footprint | Model]
    ) -> np.ndarray:
        """One observer's fractions against many targets (one row of the matrix)."""
        fa = observer if isinstance(observer, Footprint) else footprint(observer)
        return self.geo.visible_row(fa, _fps(targets))

    def visible_cross(
        self, moved: Footprint | Model, others: Sequence[Footprint | Model]
    ) -> tuple[np.ndarray, np.ndarray]:
        """A moved model re-scored in one pass: (what it sees of each of ``others``, what
        each of them sees of it), exactly the row and column a full matrix would give;
        every other pair keeps its fraction, as models never block sight."""
        fa = moved if isinstance(moved, Footprint) else footprint(moved)
        return self.geo.visible_cross(fa, _fps(others))

    # ------------------------------------------------------------------ terrain
    def pieces(self, kinds: Iterable[str] | None = None) -> tuple[tuple[Box, TerrainFeature], ...]:
        """The features of ``kinds`` (all for None) with their bounding boxes."""
        ks = frozenset(kinds) if kinds is not None else None
        return self._pieces.get_or(
            ks,
            lambda: tuple(
                (polygons.box_of(f.polygon), f)
                for f in self.battlefield.terrain
                if (ks is None or f.kind in ks) and f.polygon
            ),
        )

    def clear_of(self, kinds: Iterable[str] | None, box: Box) -> bool:
        """Is the box apart from every feature of ``kinds``? Then nothing inside it can
        touch, cross or lie in one, and the exact services need not be asked."""
        return not any(polygons.boxes_meet(b, box, BOX_SLACK) for b, _ in self.pieces(kinds))

    def feature_at(self, p: Point, kinds: Iterable[str] | None = None) -> TerrainFeature | None:
        """The first feature of ``kinds`` (battlefield order) containing the point."""
        x, y = p
        for (x0, y0, x1, y1), f in self.pieces(kinds):
            if x0 <= x <= x1 and y0 <= y <= y1 and polygons.point_in_polygon(x, y, f.polygon):
                return f
        return None

    def near(self, p: Point, reach: float, kinds: Iterable[str] | None = None) -> list[str]:
        """Kinds of the features of ``kinds`` within ``reach`` of the point (in them
        included), one entry per feature in battlefield order."""
        return [
            f.kind
            for _, f in self.pieces(kinds)
            if polygons.polygon_distance(p, f.polygon) <= reach
        ]

    def _near_leg(
        self, pieces: Sequence[tuple[Box, TerrainFeature]], a: Point, b: Point
    ) -> list[TerrainFeature]:
        box = (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
        return [f for bx, f in pieces if polygons.boxes_meet(bx, box)]

    def first_touched(
        self, path: Sequence[Point], kinds: Iterable[str] | None = None, skip: str = ""
    ) -> TerrainFeature | None:
        """The first feature of ``kinds`` (but the one called ``skip``) the path's centre
        line starts in or enters."""
        if not path:
            return None
        pieces = [(b, f) for b, f in self.pieces(kinds) if f.id != skip]
        x, y = path[0]
        for (x0, y0, x1, y1), f in pieces:
            if x0 <= x <= x1 and y0 <= y <= y1 and polygons.point_in_polygon(x, y, f.polygon):
                return f
        for a, b in zip(path, path[1:]):
            best: tuple[float, TerrainFeature] | None = None
            for g in self._near_leg(pieces, a, b):
                poly = g.polygon
                for i in range(len(poly)):
                    t = polygons.crossing(a, b, poly[i], poly[(i + 1) % len(poly)])
                    if t is not None and (best is None or t < best[0]):
                        best = (t, g)
            if best is not None:
                return best[1]
        return None

    def _cost_at(self, p: Point, costs: Mapping[str, float]) -> float:
        """What an inch costs at p: the dearest kind whose feature holds it, else 1."""
        c = 1.0
        for (x0, y0, x1, y1), f in self.pieces(costs):
            if (
                x0 <= p[0] <= x1
                and y0 <= p[1] <= y1
                and costs[f.kind] > c
                and polygons.point_in_polygon(p[0], p[1], f.polygon)
            ):
                c = costs[f.kind]
        return c

    def walk(self, path: Sequence[Point], allowance: float, costs: Mapping[str, float]) -> Walk:
        """Go along ``path`` spending ``allowance``: an inch inside a feature of a kind in
        ``costs`` costs that much (overlapping features: the dearest, once — the union of
        the kinds, never a sum), elsewhere one. Exact: each leg is cut where it crosses
        the outlines of those features. Returns where the allowance runs out."""
        left = max(0.0, allowance)
        travelled = extra = 0.0
        legs: list[Leg] = []
        here = path[0]
        pieces = self.pieces(costs)
        for a, b in zip(path, path[1:]):
            seg = math.dist(a, b)
            if seg < 1e-12:
                continue
            ts = {0.0, 1.0}
            for f in self._near_leg(pieces, a, b):
                poly = f.polygon
                for i in range(len(poly)):
                    t = polygons.crossing(a, b, poly[i], poly[(i + 1) % len(poly)])
                    if t is not None:
                        ts.add(t)
            cut = sorted(ts)
            for t0, t1 in zip(cut, cut[1:]):
                if t1 - t0 < 1e-12:
                    continue
                tm = (t0 + t1) / 2
                cost = self._cost_at((a[0] + (b[0] - a[0]) * tm, a[1] + (b[1] - a[1]) * tm), costs)
                length = seg * (t1 - t0)
                p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
                if length * cost <= left + 1e-9:
                    left -= length * cost
                    travelled += length
                    extra += length * (cost - 1.0)
                    here = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
                    legs.append(Leg(p0, here, length, cost))
                    continue
                part = left / cost
                frac = t0 + (t1 - t0) * part / length
                here = (a[0] + (b[0] - a[0]) * frac, a[1] + (b[1] - a[1]) * frac)
                travelled += part
                extra += part * (cost - 1.0)
                if part > 1e-9:
                    legs.append(Leg(p0, here, part, cost))
                return Walk(here, travelled, extra, False, legs)
        return Walk(here, travelled, extra, True, legs)

    def path_cost(
        self, path: Sequence[Point], costs: Mapping[str, float], sample: float | None = None
    ) -> float:
        """The allowance a path needs (see ``walk``). With ``sample`` the inside of the
        features is read at points that far apart along each leg, as a tape measure would
        (a ruleset that says so), instead of exactly."""
        if sample is None:
            return self.walk(path, math.inf, costs).spent
        pieces = self.pieces(costs)
        total = 0.0
        for a, b in zip(path, path[1:]):
            seg = math.dist(a, b)
            total += seg
            if not pieces or seg == 0:
                continue
            near = self._near_leg(pieces, a, b)
            if not near:
                continue
            n = max(1, int(seg / sample))
            more = 0.0
            for k in range(n):
                t = (k + 0.5) / n
                q = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                c = 1.0
                for f in near:
                    if costs[f.kind] > c and polygons.point_in_polygon(q[0], q[1], f.polygon):
                        c = costs[f.kind]
                more += c - 1.0
            total += seg * more / n
        return total

    def length_inside(self, f: TerrainFeature, a: Point, b: Point) -> float:
        """Length of the straight line a->b inside feature ``f``."""
        seg = math.dist(a, b)
        if seg < 1e-12:
            return 0.0
        poly = f.polygon
        ts = {0.0, 1.0}
        for i in range(len(poly)):
            t = polygons.crossing(a, b, poly[i], poly[(i + 1) % len(poly)])
            if t is not None:
                ts.add(t)
        cut = sorted(ts)
        inside = 0.0
        for t0, t1 in zip(cut, cut[1:]):
            m = (t0 + t1) / 2
            if polygons.point_in_polygon(a[0] + (b[0] - a[0]) * m, a[1] + (b[1] - a[1]) * m, poly):
                inside += seg * (t1 - t0)
        return inside


def _fps(items: Sequence[Footprint | Model]) -> list[Footprint]:
    """Footprints of models (footprints as they are)."""
    return [m if isinstance(m, Footprint) else footprint(m) for m in items]


def _detached() -> Table:
    """What a pickled or copied table becomes: an empty one bound to no battlefield."""
    t = Table.__new__(Table)
    t.battlefield = None  # type: ignore[assignment]
    return t


def _geometry() -> Any:
    """The geometry module, imported on first measure (a rules test that never measures
    never imports shapely)."""
    from engine import geometry

    return geometry


def release_spaces() -> None:
    """Free this thread's physics spaces of every live table (before interpreter
    teardown, else pymunk's finalizer runs after its module is gone and warns)."""
    for t in list(_LIVE):
        loc = t.__dict__.get("_local")
        if loc is not None and getattr(loc, "physics", None) is not None:
            loc.physics = None
