"""Swept moves: how far a base gets along a path or through poses before first contact."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pymunk

from engine.battlefield import base_is_round, base_radius_in
from engine.physics._common import (
    _BACKOFFS,
    _BISECT,
    _EPS,
    _KIND_RANK,
    _MAX_STEP,
    _MIN_STEP,
    CONTACT_TOLERANCE,
    MoveResult,
    Point,
    Pose,
    SweepResult,
    _angle_diff,
    _Contact,
    _interp,
    _r2,
)
from engine.physics.space import _Space


def _along(pts: Sequence[Point], leg: int, end: Sequence[float]) -> float:
    """Distance along the path to the (rounded) end: whole legs, then the end's
    projection on its leg ``leg``, so travelled and end always agree."""
    a, b = pts[leg - 1], pts[leg]
    length = math.dist(a, b)
    along = ((end[0] - a[0]) * (b[0] - a[0]) + (end[1] - a[1]) * (b[1] - a[1])) / length
    covered = sum(math.dist(p, q) for p, q in zip(pts[: leg - 1], pts[1:leg]))
    return _r2(covered + min(length, max(0.0, along)))


class _Moves(_Space):
    """Moving and sweeping for :class:`engine.physics.Physics`."""

    def _first_hit_circle(
        self, a: Point, b: Point, r: float, exclude: set[pymunk.Shape]
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

        Remembered until a shape is added or removed: an AI proposes a move, its check
        measures the same move, and the candidate filter checks it again (issue 24).
        """
        ignore = tuple(ignore)
        key = (mover, tuple((float(p[0]), float(p[1])) for p in path), ignore)
        got = self._moved.get(key)
        if got is None:
            if len(self._moved) >= 4096:
                self._moved.clear()
            got = self._moved[key] = self._move(mover, path, ignore)
        assert isinstance(got, MoveResult)
        return got

    def _move(
        self, mover: str, path: Sequence[tuple[float, float]], ignore: Iterable[str]
    ) -> MoveResult:
        """``move``, worked out."""
        fp = self._bodies[mover]
        start: Pose = (fp.x, fp.y, fp.facing)
        pts: list[Point] = [(fp.x, fp.y)]
        for p in path:
            q = (float(p[0]), float(p[1]))
            if math.dist(q, pts[-1]) > _EPS:
                pts.append(q)
        poses = [(x, y, fp.facing) for x, y in pts]
        if len(poses) >= 2 and base_is_round(fp.base):
            clear = self._open_end(mover, fp.base, pts, poses, ignore)
            if clear is not None:
                return MoveResult(
                    (clear[0], clear[1]), _along(pts, len(pts) - 1, clear), None, True
                )
        exclude = self._exclude(mover, ignore)
        exclude |= self._tolerated(fp.base, start, exclude)
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
        return MoveResult((end[0], end[1]), _along(pts, leg, end), blocker, contact is None)

    def _open_end(
        self,
        mover: str,
        base: float | tuple[float, float],
        pts: Sequence[Point],
        poses: Sequence[Pose],
        ignore: Iterable[str],
    ) -> Pose | None:
        """Where a round base moving along ``pts`` stops when no other shape (base,
        terrain outline, table edge) comes within its reach of the path: the first grid
        point on the table round the path's end (backing off along the last leg as
        ``_settle`` does), which is what the full search finds there, since nothing can
        touch the base anywhere on its way. None when something is near (or no such
        point is found): the full search decides. Why: most moves of a game cross open
        ground, and the full search asks the space four or five questions (issue 24)."""
        pad = base_radius_in(base) + CONTACT_TOLERANCE + 0.05
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        bb = pymunk.BB(min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
        own = self._model_shapes[mover]
        skip = {own}
        for i in ignore:
            skip.update(self._shapes_by_id.get(i, ()))
        for shape in self._space.bb_query(bb, pymunk.ShapeFilter()):
            if shape in self._tags and shape not in skip:
                return None
        last = len(poses) - 1
        p0, p1 = poses[last - 1], poses[last]
        rate = math.dist(pts[-2], pts[-1])
        for k in (0.0, *_BACKOFFS):
            pe = _interp(p0, p1, max(0.0, 1.0 - k / rate))
            for cand in self._grid_candidates(pe):
                if self._on_table(cand[0], cand[1]):
                    return cand
        return None

    def _first_contact_round(
        self, r: float, pts: Sequence[Point], exclude: set[pymunk.Shape]
    ) -> _Contact | None:
        """First contact of a round base along the polyline pts, leg by leg, exactly."""
        for i in range(1, len(pts)):
            hit = self._first_hit_circle(pts[i - 1], pts[i], r, exclude)
            if hit is not None:
                return _Contact(i, hit[0], math.dist(pts[i - 1], pts[i]), [hit[1]])
        return None

    def _advance(
        self,
        base: float | tuple[float, float],
        p0: Pose,
        p1: Pose,
        rate: float,
        exclude: set[pymunk.Shape],
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
        self, base: float | tuple[float, float], poses: Sequence[Pose], exclude: set[pymunk.Shape]
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
        exclude: set[pymunk.Shape],
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
