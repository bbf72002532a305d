"""The physics service: swept moves, first contacts, charge packing and skids.

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
bounded by counts never by clocks; a skid is a chain of such sweeps, never a time-stepped
simulation.

Where things live (import them from here; the submodules are the package's own layout):
``space`` (the pymunk space, probes and snapping), ``moves`` (``move``, ``sweep``),
``charges`` (``place_in_contact``), ``skids`` (``skid``: slide until something stops it
or it glances off), ``outlines`` (the exact contact distance) and ``_common`` (tolerances
and result types).
"""

from __future__ import annotations

from engine.physics._common import (
    CONTACT_TOLERANCE,
    EDGE_IDS,
    IMPASSABLE_KINDS,
    MoveResult,
    Point,
    Pose,
    SweepResult,
)
from engine.physics.skids import GLANCE_DEG, SkidResult, _Skids

__all__ = [
    "CONTACT_TOLERANCE",
    "EDGE_IDS",
    "GLANCE_DEG",
    "IMPASSABLE_KINDS",
    "MoveResult",
    "Physics",
    "Point",
    "Pose",
    "SkidResult",
    "SweepResult",
]


class Physics(_Skids):
    """Contact queries over one battlefield and the current set of bases.

    Build once per battlefield (the terrain is static), call :meth:`sync` whenever bases
    move, then ask. Nothing here changes the game state: results are proposals that the
    rules layer applies and then re-syncs.
    """
