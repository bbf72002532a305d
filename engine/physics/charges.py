"""Charge packing: chargers placed in base contact round a target, nearest spot first."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pymunk

from engine.battlefield import Footprint, base_is_round, base_radius_in
from engine.physics._common import (
    _EPS,
    _GRID,
    _NUDGE_BUDGET,
    _PACK_GAP,
    _RING_SAMPLES_OTHER,
    _RING_SAMPLES_ROUND,
    CONTACT_TOLERANCE,
    Point,
    Pose,
    _norm_deg,
    _r2,
    _Tag,
)
from engine.physics.moves import _Moves
from engine.physics.outlines import _contact_distance, _inscribed_radius


class _Charges(_Moves):
    """Charging for :class:`engine.physics.Physics`."""

    def _best_contact_pose(
        self,
        tfp: Footprint,
        tshape: pymunk.Shape,
        base: float | tuple[float, float],
        origin: Point,
        exclude: set[pymunk.Shape],
        placed: dict[str, tuple[Pose, pymunk.Shape]],
    ) -> tuple[Pose, dict[str, Pose]] | None:
        """Nearest clear pose to origin with the base in contact with the target.

        Returns the pose and any nudges of already placed chargers (id -> new pose) it
        needs; see :meth:`_nudge`.
        """
        tx, ty = tfp.x, tfp.y
        placed_shapes = {shape: cid for cid, (_, shape) in placed.items()}
        solid = self._solid_discs(tshape, base, exclude, placed)
        tried: set[Point] = set()
        for _, _, x0, y0, theta in _ring_points(tfp, base, origin):
            for x, y in _grid_spots(x0, y0, theta, tried):
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

    def _solid_discs(
        self,
        tshape: pymunk.Shape,
        base: float | tuple[float, float],
        exclude: set[pymunk.Shape],
        placed: dict[str, tuple[Pose, pymunk.Shape]],
    ) -> list[tuple[float, float, float]]:
        """(x, y, squared limit) per other base: a cheap pre-filter. A spot whose centre
        is well inside another base's inscribed circle (plus ours) overlaps it too deeply
        for any nudge, so pymunk need not be asked there."""
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
        return solid

    def _charger_ok(
        self,
        tshape: pymunk.Shape,
        base: float | tuple[float, float],
        pose: Pose,
        exclude: set[pymunk.Shape],
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
        exclude: set[pymunk.Shape],
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
        self._put(me, _Tag("model", ""))
        try:
            queue = [by_shape[h] for h in hits]
            budget = [_NUDGE_BUDGET]
            return self._nudge_rec(queue, {}, set(), tfp, tshape, exclude, placed, budget)
        finally:
            self._take(me)

    def _nudge_rec(
        self,
        queue: list[str],
        chosen: dict[str, Pose],
        moved: set[pymunk.Shape],
        tfp: Footprint,
        tshape: pymunk.Shape,
        exclude: set[pymunk.Shape],
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
            self._put(shape, _Tag("model", cid))
            chosen[cid] = alt
            try:
                found = self._nudge_rec(
                    rest + more, chosen, moved_now, tfp, tshape, exclude, placed, budget
                )
            finally:
                self._take(shape)
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
                self._take(placed[cid][1])
            shape = self._world_shape(Footprint(pose[0], pose[1], pose[2], self._bodies[cid].base))
            self._put(shape, _Tag("model", cid))
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
                self._take(shape)
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


def _ring_points(
    tfp: Footprint, base: float | tuple[float, float], origin: Point
) -> list[tuple[float, int, float, float, float]]:
    """Exact contact points round the target, nearest the origin first:
    (distance to origin, k, x, y, theta).

    Angles are tried in order of how close their exact contact point is to the origin;
    only then the grid points around it (:func:`_grid_spots`). Ranking grid points by
    their own distance to a far origin would drift chargers sideways to the outer edge of
    the tolerance band and waste room round the target.
    """
    tx, ty = tfp.x, tfp.y
    dx, dy = origin[0] - tx, origin[1] - ty
    theta0 = math.atan2(dy, dx) if math.hypot(dx, dy) > _EPS else 0.0
    both_round = base_is_round(base) and base_is_round(tfp.base)
    n = _RING_SAMPLES_ROUND if both_round else _RING_SAMPLES_OTHER
    ring = base_radius_in(base) + base_radius_in(tfp.base)
    ring_points = []
    for k in range(n):
        theta = theta0 + 2.0 * math.pi * k / n
        d = ring if both_round else _contact_distance(tfp, base, theta)
        x, y = tx + d * math.cos(theta), ty + d * math.sin(theta)
        ring_points.append((round(math.dist((x, y), origin), 9), k, x, y, theta))
    ring_points.sort()
    return ring_points


def _grid_spots(x0: float, y0: float, theta: float, tried: set[Point]) -> list[Point]:
    """The 0.01 in grid points next to contact point (x0, y0) not yet tried, nearest
    first to a spot a little outside exact contact: the band up to the tolerance is room
    that lets neighbours on the ring round onto the grid without overlapping."""
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
    return sorted(cands, key=lambda p: (cands[p], p))
