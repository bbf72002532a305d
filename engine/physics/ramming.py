"""Ramming: a short fixed-step pymunk simulation of a vehicle pushing bases aside."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pymunk

from engine.battlefield import Footprint, base_is_round, base_radius_in, base_size_in
from engine.physics._common import (
    _RAM_DAMPING,
    _RAM_DT,
    _RAM_ITERATIONS,
    _RAM_SLOP,
    _RAM_STEPS,
    _RAM_WALL_RADIUS,
    CONTACT_TOLERANCE,
    Point,
    Pose,
    _interp,
    _norm_deg,
    _r2,
    _Tag,
)
from engine.physics.charges import _Charges
from engine.physics.outlines import _local_corners, _world_corners


class _Ramming(_Charges):
    """Ramming for :class:`engine.physics.Physics`."""

    def ram(
        self,
        rammer: str,
        target: str,
        speed: float,
        heading: float,
        masses: Mapping[str, float] | None = None,
    ) -> dict[str, Any]:
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
