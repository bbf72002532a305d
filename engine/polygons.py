"""Small pure-Python polygon tests for hot paths that cannot afford a shapely call.

Why not engine.geometry: the physics service must not import shapely (DESIGN.md rule 2),
and a ruleset asking "is this point in water?" on every AI candidate is faster with a
few edge tests than with a round trip through GEOS. Exact figures (cover, sight, areas)
still come from ``engine.geometry``.
"""

from __future__ import annotations

from collections.abc import Sequence

Point = tuple[float, float]


def point_in_polygon(x: float, y: float, poly: Sequence[Point]) -> bool:
    """Even-odd rule over the polygon's edges (simple polygons, as maps are made of)."""
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < xc:
                inside = not inside
    return inside
