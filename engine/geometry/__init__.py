"""The geometry service: distances, sight, arcs, zones, templates, scatter and turns.

Why one package: DESIGN.md makes it the only importer of shapely, so every ruleset, the
physics service and the window measure the table the same way and never hold a library
object. Every public function returns plain floats, tuples, lists of ``(x, y)`` tuples
and feature ids.

Conventions (DESIGN.md "The table and its terrain"): inches, origin bottom-left, x east,
y north, facing in degrees counter-clockwise from east; bases in millimetres (a number is
a round base's diameter, ``(w, d)`` a rectangle whose front edge of width ``w`` faces the
model's facing). Distances are base edge to base edge.

Sight in one paragraph (details in :class:`Geometry`): the eye is the centre of the
observer's base; the *visible fraction* is the share of the target's base outside the
shadows cast by sight-blocking terrain. Shadows are polygons built with shapely; a round
base is measured against them as an exact disc (circle ∩ polygon in closed form), so the
fraction is exact for both base shapes and the fast matrix agrees with the per-pair
reference to rounding error.

Where things live (import them from here, ``from engine.geometry import X``; the
submodules are the package's own layout and may move):

* ``bases``: outlines, samples, ``distance``, ``distance_point``, ``overlaps``;
* ``arcs``: ``bearing``, ``arc_wedge``, ``in_arc``;
* ``zones``: ``zone_point``, ``zone_of``, ``zone_polygons``;
* ``templates``: ``template_hits``, ``template_outline``, ``scatter``;
* ``paths``: ``turn_poses``, ``straight_poses``, ``path_length``;
* ``sweeps``: ``arc_entry``, ``point_along`` (a moving base against fire arcs);
* ``terrain_index``: ``features_at``, ``features_under``, ``crossings``,
  ``path_terrain_lengths``;
* ``sight`` (with ``tables``, ``matrix`` and ``arrays``): :class:`Geometry` and
  :class:`Sight`.
"""

from engine.battlefield import Footprint
from engine.geometry._common import SIGHT_SAMPLES, ZONE_TOL, Point
from engine.geometry.arcs import arc_wedge, bearing, in_arc
from engine.geometry.arrays import Sight
from engine.geometry.bases import (
    base_samples,
    distance,
    distance_point,
    footprint_outline,
    overlaps,
)
from engine.geometry.paths import path_length, straight_poses, turn_poses
from engine.geometry.sight import Geometry
from engine.geometry.sweeps import arc_entry, point_along
from engine.geometry.templates import scatter, template_hits, template_outline
from engine.geometry.terrain_index import (
    crossings,
    features_at,
    features_under,
    path_terrain_lengths,
)
from engine.geometry.zones import zone_of, zone_point, zone_polygons

__all__ = [
    "SIGHT_SAMPLES",
    "ZONE_TOL",
    "Footprint",
    "Geometry",
    "Point",
    "Sight",
    "arc_entry",
    "arc_wedge",
    "base_samples",
    "bearing",
    "crossings",
    "distance",
    "distance_point",
    "features_at",
    "features_under",
    "footprint_outline",
    "in_arc",
    "overlaps",
    "path_length",
    "path_terrain_lengths",
    "point_along",
    "scatter",
    "straight_poses",
    "template_hits",
    "template_outline",
    "turn_poses",
    "zone_of",
    "zone_point",
    "zone_polygons",
]
