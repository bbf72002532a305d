"""Skids: a base sliding straight on until it meets a body or terrain, and then stopping
or glancing off it.

Why here and not in a ruleset: where a rulebook leaves the motion to the table (GEM's
skid after sudden deceleration, an out-of-control vehicle, SWOMP's skid) the rules only
say "it goes straight on this far"; what it meets on the way, and whether it stops or
slides along, is the physics service's to find, the same way for every ruleset.

How: a chain of exact swept moves (``_sweep_core``), never a time-stepped simulation, so
a save replays to the same positions. At each contact the normal is taken from the
nearest point of what was met to the base's centre; a base meeting a surface at no more
than ``glance`` degrees glances off it and slides along it, keeping the component of its
remaining distance along the surface (no friction); a steeper blow stops it. The base
keeps its facing throughout (it slides, it does not steer).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import pymunk

from engine.physics._common import _EPS, CONTACT_TOLERANCE, Point, Pose, _Contact
from engine.physics.charges import _Charges

#: The steepest blow (degrees between the path and the surface met) that glances off.
GLANCE_DEG = 30.0

_MAX_GLANCES = 4


@dataclass(frozen=True)
class SkidResult:
    """Outcome of :meth:`Physics.skid`.

    ``pose`` is where the base ends (rounded to 0.01 in, clear of everything), ``travelled``
    the inches it slid (legs summed), ``hits`` what it met in order as (id, kind, glanced)
    and ``path`` the centre's corners (start, each contact, end) for drawing the slide.
    """

    pose: Pose
    travelled: float
    hits: tuple[tuple[str, str, bool], ...]
    path: tuple[Point, ...]

    @property
    def stopped_by(self) -> str | None:
        """What stopped the skid (the last thing met, if it did not glance off it)."""
        return self.hits[-1][0] if self.hits and not self.hits[-1][2] else None


class _Skids(_Charges):
    """Skidding for :class:`engine.physics.Physics`."""

    def skid(
        self,
        mover: str,
        heading: float,
        dist: float,
        ignore: Iterable[str] = (),
        glance: float = GLANCE_DEG,
    ) -> SkidResult:
        """Slide ``mover`` ``dist`` inches along ``heading`` (degrees, 0 = east, counter-
        clockwise) from where it was synced; stop at the first body, terrain or table
        edge met at more than ``glance`` degrees, glance off anything met at less. Nothing
        in the space changes: the result is a proposal, as every other query here."""
        fp = self._bodies[mover]
        pose: Pose = (fp.x, fp.y, fp.facing)
        exclude = self._exclude(mover, ignore)
        exclude |= self._tolerated(fp.base, pose, exclude)
        d = (math.cos(math.radians(heading)), math.sin(math.radians(heading)))
        left, travelled = float(dist), 0.0
        hits: list[tuple[str, str, bool]] = []
        path: list[Point] = [(pose[0], pose[1])]
        limit = math.sin(math.radians(glance))
        for _ in range(_MAX_GLANCES + 1):
            if left <= _EPS:
                break
            end: Pose = (pose[0] + d[0] * left, pose[1] + d[1] * left, pose[2])
            contact = self._sweep_core(fp.base, [pose, end], exclude)
            whole = contact is None
            if contact is None:
                contact = _Contact(1, 1.0, max(left, _EPS), [])
            stop, _ = self._settle_contact(fp.base, [pose, end], contact, exclude, not whole)
            step = math.dist(pose[:2], stop[:2])
            travelled += step
            left -= step
            pose = stop
            path.append((pose[0], pose[1]))
            if whole:
                break
            shape = contact.hits[0]
            tag = self._tags[shape]
            n = self._normal(fp.base, shape, pose, d)
            dn = d[0] * n[0] + d[1] * n[1]
            glanced = left > _EPS and -dn <= limit + 1e-12
            hits.append((tag.id, tag.kind, glanced))
            if not glanced:
                break
            tx, ty = d[0] - dn * n[0], d[1] - dn * n[1]
            tl = math.hypot(tx, ty)
            if tl <= _EPS:
                break
            left *= tl
            d = (tx / tl, ty / tl)
        return SkidResult(pose, round(travelled, 2), tuple(hits), tuple(path))

    def _normal(
        self, base: float | tuple[float, float], shape: pymunk.Shape, pose: Pose, d: Point
    ) -> Point:
        """Unit normal of the contact between the base at ``pose`` and ``shape``, turned to
        face against the motion ``d`` (it was met, so it pushes back): pymunk's contact
        normal of the base's probe grown by twice the contact tolerance, else the
        direction from the shape's nearest point to the base's centre."""
        probe = self._probe(base, pose, 2 * CONTACT_TOLERANCE)
        info = next((i for i in self._space.shape_query(probe) if i.shape is shape), None)
        if info is not None and info.contact_point_set.points:
            nx, ny = info.contact_point_set.normal.x, info.contact_point_set.normal.y
        else:
            q = shape.point_query((pose[0], pose[1])).point
            nx, ny = pose[0] - q.x, pose[1] - q.y
        ln = math.hypot(nx, ny)
        if ln <= _EPS:
            return (-d[0], -d[1])
        nx, ny = nx / ln, ny / ln
        return (-nx, -ny) if nx * d[0] + ny * d[1] > 0 else (nx, ny)
