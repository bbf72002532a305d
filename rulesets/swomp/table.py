"""Measuring the table for SWOMP: distances, fire arcs, sight and cover, blast markers.

Why an adapter: the rules ask a handful of questions in SWOMP's words ("is he in my fire
arc?", "what cover does he have?", "who is under the marker?"). The answers come from
``engine.geometry`` (the only shapely importer); while that service is not installed the
same questions are answered for an open table with plain circle arithmetic, so the
rules and their tests never depend on it being present.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from engine.battlefield import Footprint, base_radius_in
from engine.ruleset import Context
from engine.state import Model

try:  # the geometry service may not be installed yet (see the module docstring)
    from engine import geometry as _geo
except ImportError:  # pragma: no cover - depends on the engine's progress
    _geo = None

SOFT = "soft"
HARD = "hard"
NONE = "none"


def fp(m: Model) -> Footprint:
    b = m.base
    return Footprint(m.x, m.y, m.facing, tuple(b) if isinstance(b, list) else b)


def distance(a: Model, b: Model) -> float:
    """Base edge to base edge (SWOMP "A word about measurement")."""
    if _geo is not None:
        return float(_geo.distance(fp(a), fp(b)))
    gap = math.dist(a.pos, b.pos) - base_radius_in(a.base) - base_radius_in(b.base)
    return max(0.0, gap)


def centre_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.dist(a, b)


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Direction from a to b in degrees CCW from east, in [0, 360)."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) % 360.0


def angle_off(facing: float, direction: float) -> float:
    """Smallest angle between a facing and a direction, 0..180."""
    d = (direction - facing) % 360.0
    return 360.0 - d if d > 180.0 else d


def in_arc(shooter: Model, target: Model, arc_deg: float) -> bool:
    """Is the target (any part of its base) in a wedge of ``arc_deg`` centred on the
    shooter's facing? (SWOMP "Fire Arcs")."""
    if arc_deg >= 360:
        return True
    if _geo is not None:
        return bool(_geo.in_arc(fp(shooter), fp(target), arc_deg))
    d = math.dist(shooter.pos, target.pos)
    if d < 1e-9:
        return True
    spread = math.degrees(math.asin(min(1.0, base_radius_in(target.base) / d)))
    return angle_off(shooter.facing, bearing(shooter.pos, target.pos)) <= arc_deg / 2 + spread


def sight(ctx: Context, observer: Model, target: Model) -> tuple[bool, str]:
    """(visible, cover) where cover is none, soft or hard, read from the terrain the line
    of fire meets (SWOMP reads terrain kinds as units.toml says). Not memoised here: the
    engine's ``Geometry.sight`` keeps its own cache, shared by every clone."""
    if _geo is None or not ctx.battlefield.terrain:
        return True, NONE
    s = ctx.geo.sight(fp(observer), fp(target))
    if not s.visible:
        return False, NONE
    if s.hard_cover:
        return True, HARD
    if s.soft_cover:
        return True, SOFT
    return True, NONE


def under_marker(
    centre: tuple[float, float], diameter: float, models: Iterable[Model]
) -> list[str]:
    """Models whose base is partly or wholly under a round marker (SWOMP "Blast markers"),
    nearest the centre first (the order their contests are rolled in)."""
    ms = list(models)
    radius = diameter / 2.0
    if _geo is not None:
        shares: Mapping[str, Any] = _geo.template_hits(centre, radius, {m.id: fp(m) for m in ms})
        hit = {k for k, v in shares.items() if v and v > 0}
    else:
        hit = {m.id for m in ms if math.dist(centre, m.pos) < radius + base_radius_in(m.base)}
    order = sorted((math.dist(centre, m.pos), m.id) for m in ms if m.id in hit)
    return [mid for _, mid in order]


def offset(p: tuple[float, float], direction_deg: float, dist: float) -> tuple[float, float]:
    r = math.radians(direction_deg)
    return (round(p[0] + dist * math.cos(r), 2), round(p[1] + dist * math.sin(r), 2))


def on_table(ctx: Context, p: tuple[float, float]) -> bool:
    return ctx.battlefield.on_table(p[0], p[1])


def features_near(ctx: Context, m: Model, reach: float) -> list[str]:
    """Kinds of terrain the model stands in or within ``reach`` inches of (cover for
    rallying: SWOMP-I-RALLY)."""
    out = []
    r = base_radius_in(m.base) + reach
    for f in ctx.battlefield.terrain:
        if _point_poly_distance(m.pos, f.polygon) <= r:
            out.append(f.kind)
    return out


def _point_poly_distance(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> float:
    if _inside(p, poly):
        return 0.0
    return math.dist(p, closest_point(p, poly))


def closest_point(
    p: tuple[float, float], poly: tuple[tuple[float, float], ...]
) -> tuple[float, float]:
    """The point of the polygon's outline nearest to p (the AI's cover moves need the
    direction to it, not only the distance)."""
    best, out = math.inf, (float(poly[0][0]), float(poly[0][1]))
    n = len(poly)
    for i in range(n):
        q = _seg_closest(p, poly[i], poly[(i + 1) % n])
        d = math.dist(p, q)
        if d < best:
            best, out = d, q
    return out


def _inside(p: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _seg_closest(
    p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]
) -> tuple[float, float]:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L2 = dx * dx + dy * dy
    t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L2))
    return (ax + t * dx, ay + t * dy)


Box = tuple[float, float, float, float]
_POLYS: dict[int, tuple[object, dict]] = {}


def polygons(
    ctx: Context, kinds: frozenset[str]
) -> list[tuple[Box, tuple[tuple[float, float], ...]]]:
    """The battlefield's polygons of these kinds with their bounding boxes, built once
    per battlefield and kind set: terrain is static, and path_cost (difficult ground)
    and the AI's moves into cover (cover) ask for every candidate move."""
    field = ctx.battlefield
    held = _POLYS.get(id(field))
    if held is None or held[0] is not field:  # keyed by identity: hashing it is slow
        if len(_POLYS) > 32:
            _POLYS.clear()
        held = _POLYS[id(field)] = (field, {})
    per_field = held[1]
    got = per_field.get(kinds)
    if got is None:
        got = []
        for f in ctx.battlefield.terrain:
            if f.kind in kinds:
                xs = [x for x, _ in f.polygon]
                ys = [y for _, y in f.polygon]
                got.append(((min(xs), min(ys), max(xs), max(ys)), tuple(f.polygon)))
        per_field[kinds] = got
    return got


def path_cost(ctx: Context, pts: list[tuple[float, float]], difficult: Iterable[str]) -> float:
    """Length of a path, each inch inside difficult ground counted twice (SWOMP-I-TERRAIN).
    Sampled every 0.25 in, which is as fine as a tape measure. Only polygons whose
    bounding box meets a leg's are sampled (the same answer, far fewer tests)."""
    polys = polygons(ctx, frozenset(difficult))
    total = 0.0
    for a, b in zip(pts, pts[1:]):
        seg = math.dist(a, b)
        total += seg
        if not polys or seg == 0:
            continue
        x0, x1 = min(a[0], b[0]), max(a[0], b[0])
        y0, y1 = min(a[1], b[1]), max(a[1], b[1])
        near = [
            poly
            for (px0, py0, px1, py1), poly in polys
            if px0 <= x1 and x0 <= px1 and py0 <= y1 and y0 <= py1
        ]
        if not near:
            continue
        n = max(1, int(seg / 0.25))
        inside = 0
        for k in range(n):
            t = (k + 0.5) / n
            q = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if any(_inside(q, poly) for poly in near):
                inside += 1
        total += seg * inside / n
    return total
