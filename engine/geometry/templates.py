"""Circular templates, scatter, and the closed-form circle areas sight reuses."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import shapely

from engine.battlefield import (
    Footprint,
    base_is_round,
    base_radius_in,
    base_size_in,
)
from engine.geometry._common import _MIN_TEMPLATE_SHARE, Point, _cos_sin
from engine.geometry.bases import _fp_vertices, _rect_point_dist


def _lens_area(d: np.ndarray, r1: float, r2: np.ndarray) -> np.ndarray:
    """Exact area of the intersection of two circles (vectorized over d and r2)."""
    d = np.asarray(d, dtype=float)
    r2 = np.asarray(r2, dtype=float)
    out = np.zeros(np.broadcast(d, r2).shape)
    small = np.minimum(r1, r2)
    inside = d <= np.abs(r1 - r2)
    out = np.where(inside, np.pi * small**2, out)
    part = (~inside) & (d < r1 + r2)
    if part.any():
        dd, rr = d[part], r2[part]
        c1 = np.clip((dd**2 + r1**2 - rr**2) / (2 * dd * r1), -1.0, 1.0)
        c2 = np.clip((dd**2 + rr**2 - r1**2) / (2 * dd * rr), -1.0, 1.0)
        k = (-dd + r1 + rr) * (dd + r1 - rr) * (dd - r1 + rr) * (dd + r1 + rr)
        out[part] = (
            r1**2 * np.arccos(c1) + rr**2 * np.arccos(c2) - 0.5 * np.sqrt(np.clip(k, 0.0, None))
        )
    return out


def _circle_ring_terms(centre: Point, radius: float, polys: np.ndarray) -> np.ndarray:
    """Signed area of circle ∩ polygon for rings (k, n, 2) (positive counter-clockwise).

    Exact: the sum over edges of the signed area of circle ∩ triangle(centre, a, b); the
    parts of an edge inside the circle contribute triangles, the parts outside sectors.
    """
    a = polys - np.asarray(centre, dtype=float)
    b = np.roll(a, -1, axis=1)
    d = b - a
    A = (d**2).sum(-1)
    B = 2 * (a * d).sum(-1)
    C = (a**2).sum(-1) - radius**2
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = B**2 - 4 * A * C
        sq = np.sqrt(np.clip(disc, 0.0, None))
        t1 = np.where((disc > 0) & (A > 0), (-B - sq) / (2 * A), 0.0)
        t2 = np.where((disc > 0) & (A > 0), (-B + sq) / (2 * A), 0.0)
    s1 = np.clip(t1, 0.0, 1.0)
    s2 = np.clip(t2, 0.0, 1.0)
    p1 = a + s1[..., None] * d
    p2 = a + s2[..., None] * d

    def sector(p: np.ndarray, q: np.ndarray) -> np.ndarray:
        cr = p[..., 0] * q[..., 1] - p[..., 1] * q[..., 0]
        dt = (p * q).sum(-1)
        return 0.5 * radius**2 * np.arctan2(cr, dt)

    tri = 0.5 * (p1[..., 0] * p2[..., 1] - p1[..., 1] * p2[..., 0])
    return (sector(a, p1) + tri + sector(p2, b)).sum(-1)


def _circle_polygon_area(centre: Point, radius: float, polys: np.ndarray) -> np.ndarray:
    """Exact area of circle ∩ convex polygon for polygons (k, n, 2) of either orientation."""
    return np.abs(_circle_ring_terms(centre, radius, polys))


def _circle_geom_area(centre: Point, radius: float, geom: shapely.Geometry) -> float:
    """Exact area of a disc ∩ a polygonal shapely geometry (holes included)."""
    if geom is None or geom.is_empty:
        return 0.0
    total = 0.0
    for part in shapely.get_parts(shapely.orient_polygons(geom, exterior_cw=False)):
        if not isinstance(part, shapely.Polygon) or part.is_empty:
            continue
        for ring in (part.exterior, *part.interiors):
            c = np.asarray(ring.coords)[:-1, :2]
            if len(c) >= 3:
                total += float(_circle_ring_terms(centre, radius, c[None])[0])
    return max(total, 0.0)


def template_outline(centre: Point, radius: float, n: int = 48) -> list[Point]:
    """Polygon of a circular template for drawing."""
    out = []
    for k in range(max(3, n)):
        c, s = _cos_sin(360.0 * k / n)
        out.append((centre[0] + radius * c, centre[1] + radius * s))
    return out


def template_hits(
    centre: Point, radius: float, targets: Mapping[str, Footprint]
) -> dict[str, float]:
    """Bases a circular template touches -> share of each base's area it covers.

    Exact for both base shapes: the closed-form lens for round bases, circle ∩ polygon
    by edges for rectangles, vectorized with numpy. Shares are rounded to 4 decimals; a
    base the template merely touches is included with the minimum share 0.0001 (DESIGN:
    a base touched by a template is under it).

    A 2" template centred on one 1" base, touching the next, missing the third:

    >>> from engine.battlefield import Footprint
    >>> bases = {"a": Footprint(0, 0, 0, 25.4), "b": Footprint(1.5, 0, 0, 25.4),
    ...          "c": Footprint(3, 0, 0, 25.4)}
    >>> template_hits((0, 0), 1.0, bases)
    {'a': 1.0, 'b': 0.0001}
    """
    ids = list(targets)
    if not ids:
        return {}
    fps = [targets[i] for i in ids]
    rnd = np.array([base_is_round(f.base) for f in fps])
    share = np.zeros(len(ids))
    touched = np.zeros(len(ids), dtype=bool)
    cx, cy = centre
    if rnd.any():
        idx = np.flatnonzero(rnd)
        r = np.array([base_radius_in(fps[i].base) for i in idx])
        d = np.array([math.hypot(fps[i].x - cx, fps[i].y - cy) for i in idx])
        touched[idx] = d <= radius + r + 1e-9
        share[idx] = _lens_area(d, radius, r) / (np.pi * r**2)
    if (~rnd).any():
        idx = np.flatnonzero(~rnd)
        rects = [fps[i] for i in idx]
        polys = _fp_vertices(rects, 4)
        areas = np.array([base_size_in(f.base)[0] * base_size_in(f.base)[1] for f in rects])
        dist = np.array([_rect_point_dist(f, centre) for f in rects])
        touched[idx] = dist <= radius + 1e-9
        share[idx] = _circle_polygon_area(centre, radius, polys) / areas
    out: dict[str, float] = {}
    for i, fid in enumerate(ids):
        if touched[i]:
            out[fid] = max(min(round(float(share[i]), 4), 1.0), _MIN_TEMPLATE_SHARE)
    return out


def scatter(origin: Point, line_of_fire_deg: float, clock: int, distance_in: float) -> Point:
    """Where a scattering shot lands: ``distance_in`` from origin towards the clock face.

    12 o'clock points along the line of fire (away from the shooter), 3 o'clock is 90
    degrees clockwise from it, 6 o'clock back towards the shooter, 9 o'clock to the left.

    Fired east (0 degrees): 12 o'clock lands further east, 3 o'clock to the south.

    >>> scatter((0, 0), 0, 12, 3), scatter((0, 0), 0, 3, 2)
    ((3.0, 0.0), (0.0, -2.0))
    """
    if not 1 <= int(clock) <= 12:
        raise ValueError(f"clock must be 1..12, got {clock}")
    c, s = _cos_sin(line_of_fire_deg - 30.0 * (int(clock) % 12))
    return (origin[0] + distance_in * c, origin[1] + distance_in * s)
