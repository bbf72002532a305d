"""A base's swept way against fire arcs: where along a path a moving base first touches
a shooter's arc out to its range (SWOMP's overwatch fires "at any time" of a move).

Why here: DESIGN.md keeps shapely inside the geometry service; a ruleset asks for the
first distance along the way and reads sight at that point itself.
"""

from __future__ import annotations

from collections.abc import Sequence

import shapely

from engine.battlefield import Footprint, base_radius_in
from engine.geometry._common import Point
from engine.geometry.arcs import arc_wedge


def point_along(path: Sequence[Point], s: float) -> Point:
    """The point ``s`` inches along the polyline (its end beyond its length), to 0.01"."""
    line = shapely.LineString(path)
    p = line.interpolate(min(max(s, 0.0), line.length))
    return (round(p.x, 2), round(p.y, 2))


def arc_entry(
    path: Sequence[Point],
    reach: float,
    shooter: Footprint,
    arcs: Sequence[tuple[float, float]],
) -> float | None:
    """The first distance along ``path`` (a base centre's way) at which a round base of
    radius ``reach`` (inches) touches one of the shooter's arcs, each ``(degrees,
    range)`` with the range measured base edge to base edge; None if it never does.

    The wedge out to range grown by the moving base's radius is where its centre must be
    (a base is in an arc when any part of it is); the swept way is cut against it.

    A 1" base walking east along y = 5 meets a 90-degree arc facing east (edge y = x)
    when its centre is half an inch from that edge, at x = 5 - 0.5 * sqrt(2):

    >>> gun = Footprint(0.0, 0.0, 0.0, 25.4)
    >>> arc_entry([(-10.0, 5.0), (10.0, 5.0)], 0.5, gun, [(90.0, 24.0)])
    14.2929
    """
    if len(path) < 2 or not arcs:
        return None
    line = shapely.LineString(path)
    own = base_radius_in(shooter.base)
    best: float | None = None
    for deg, rng in arcs:
        far = rng + own
        wedge = shapely.Polygon(arc_wedge(shooter, min(deg, 360.0), far))
        disc = shapely.Point(shooter.x, shooter.y).buffer(far + reach, 64)
        zone = shapely.intersection(wedge.buffer(reach, 16), disc)
        hit = shapely.intersection(line, zone)
        if hit.is_empty:
            continue
        first = min(line.project(shapely.Point(*p)) for p in shapely.get_coordinates(hit))
        best = first if best is None else min(best, first)
    return None if best is None else round(best, 4)
