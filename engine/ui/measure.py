"""The window's view of the geometry service, with plain-math fallbacks.

Why an adapter: ``engine.geometry`` (shapely) is the only place that measures sight,
cover, zones and arcs, and the window must show exactly what the rules measure. But the
window must keep drawing if a measurement fails (a degenerate polygon, a service still
being written), so every call goes through here: the service when it answers, a simple
approximation (circles and wedges in plain math) when it does not. Results are plain
tuples of floats, never library objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.battlefield import Battlefield, Footprint, base_is_round, base_size_in

Point = tuple[float, float]
Polygon = list[Point]

try:  # the service may be missing while it is being written; fall back to plain math
    from engine import geometry as _geo
except Exception:  # pragma: no cover - depends on the checkout
    _geo = None


def have_service() -> bool:
    return _geo is not None


def _call(name: str, *args: Any, **kw: Any) -> Any:
    """Call ``engine.geometry.<name>`` or return None when it is absent or fails."""
    fn = getattr(_geo, name, None) if _geo is not None else None
    if fn is None:
        return None
    try:
        return fn(*args, **kw)
    except Exception:
        return None


def polygons(value: Any) -> list[Polygon]:
    """Normalise a service answer to a list of polygons (lists of (x, y))."""
    if value is None:
        return []
    if hasattr(value, "geoms"):  # defensive: a library object slipped through
        return [p for g in value.geoms for p in polygons(g)]
    if hasattr(value, "exterior"):
        return [[(float(x), float(y)) for x, y in value.exterior.coords]]
    seq = list(value)
    if not seq:
        return []
    first = seq[0]
    if isinstance(first, (int, float)):
        return []
    if len(first) == 2 and isinstance(first[0], (int, float)):
        return [[(float(x), float(y)) for x, y in seq]] if len(seq) >= 3 else []
    out: list[Polygon] = []
    for part in seq:
        out.extend(polygons(part))
    return out


# --- footprints -------------------------------------------------------------------------


def outline(fp: Footprint, segments: int = 24) -> Polygon:
    """The base's outline in inches (a circle as ``segments`` points, a rectangle as 4)."""
    x, y, facing, base = fp
    w, d = base_size_in(base)
    if base_is_round(base):
        r = w / 2
        return [
            (
                x + r * math.cos(2 * math.pi * k / segments),
                y + r * math.sin(2 * math.pi * k / segments),
            )
            for k in range(segments)
        ]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    pts = []
    for fx, fy in ((d / 2, w / 2), (-d / 2, w / 2), (-d / 2, -w / 2), (d / 2, -w / 2)):
        pts.append((x + fx * c - fy * s, y + fx * s + fy * c))
    return pts


def contains(fp: Footprint, px: float, py: float, pad: float = 0.0) -> bool:
    """Whether the point (inches) lies on the base (grown by ``pad`` inches)."""
    x, y, facing, base = fp
    w, d = base_size_in(base)
    if base_is_round(base):
        return math.hypot(px - x, py - y) <= w / 2 + pad
    c, s = math.cos(math.radians(-facing)), math.sin(math.radians(-facing))
    lx = (px - x) * c - (py - y) * s
    ly = (px - x) * s + (py - y) * c
    return abs(lx) <= d / 2 + pad and abs(ly) <= w / 2 + pad


def radius(base: Any) -> float:
    """Half the base's smaller side: how far from the centre the edge surely is."""
    w, d = base_size_in(base)
    return min(w, d) / 2


def distance(a: Footprint, b: Footprint) -> float:
    """Edge-to-edge distance in inches (the service's, else bounding circles)."""
    v = _call("distance", a, b)
    if isinstance(v, (int, float)):
        return float(v)
    return max(0.0, math.hypot(a.x - b.x, a.y - b.y) - radius(a.base) - radius(b.base))


def path_length(points: Sequence[Point]) -> float:
    v = _call("path_length", list(points))
    if isinstance(v, (int, float)):
        return float(v)
    return sum(math.dist(p, q) for p, q in zip(points, points[1:]))


# --- arcs, zones, templates ---------------------------------------------------------------


def arc_wedge(fp: Footprint, arc_deg: float, reach: float) -> Polygon:
    """The fire-arc wedge centred on the facing, ``reach`` inches long."""
    got = polygons(_call("arc_wedge", fp, arc_deg, reach))
    if got:
        return got[0]
    if arc_deg >= 360:
        return outline(Footprint(fp.x, fp.y, 0.0, 2 * 25.4 * reach), 48)
    pts = [(fp.x, fp.y)]
    n = max(4, int(arc_deg / 6))
    for k in range(n + 1):
        a = math.radians(fp.facing - arc_deg / 2 + arc_deg * k / n)
        pts.append((fp.x + reach * math.cos(a), fp.y + reach * math.sin(a)))
    return pts


def zones(fp: Footprint, extent: float = 8.0) -> dict[str, list[Polygon]]:
    """Front, flank and rear zones of a base (each a list of polygons)."""
    got = _call("zone_polygons", fp, extent)
    out: dict[str, list[Polygon]] = {}
    if isinstance(got, dict):
        for k, v in got.items():
            key = str(k)
            key = "flank" if key.startswith("flank") or key in ("left", "right") else key
            out.setdefault(key, []).extend(polygons(v))
        if out:
            return out
    # Fallback: quarter wedges around the facing (GEM's half-planes need the service).
    for name, centre in (("front", 0.0), ("flank", 90.0), ("rear", 180.0), ("flank", 270.0)):
        wedge = arc_wedge(Footprint(fp.x, fp.y, fp.facing + centre, fp.base), 90.0, extent)
        out.setdefault(name, []).append(wedge)
    return out


def template(centre: Point, r: float) -> Polygon:
    got = polygons(_call("template_outline", centre, r))
    if got:
        return got[0]
    return outline(Footprint(centre[0], centre[1], 0.0, 2 * 25.4 * r), 40)


def turn_arcs(fp: Footprint, turn_radius: float, sweep_deg: float = 90.0) -> list[list[Point]]:
    """The two arcs (left and right) a vehicle can follow at ``turn_radius`` inches."""
    out: list[list[Point]] = []
    for sign in (1, -1):
        poses = _call("turn_poses", fp.x, fp.y, fp.facing, turn_radius, sign * sweep_deg)
        if poses:
            out.append([(float(p[0]), float(p[1])) for p in poses])
    if len(out) == 2:
        return out
    out = []
    h = math.radians(fp.facing)
    for side in (1, -1):
        cx = fp.x - side * turn_radius * math.sin(h)
        cy = fp.y + side * turn_radius * math.cos(h)
        start = math.atan2(fp.y - cy, fp.x - cx)
        pts = []
        for k in range(25):
            a = start + side * math.radians(sweep_deg) * k / 24
            pts.append((cx + turn_radius * math.cos(a), cy + turn_radius * math.sin(a)))
        out.append(pts)
    return out


# --- sight ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SightView:
    """What the window needs of a line of sight (see Geometry.sight)."""

    fraction: float
    soft: bool
    hard: bool
    distance: float
    blockers: tuple[str, ...] = ()
    shadow: tuple[Polygon, ...] = ()


class Sight:
    """Per-battlefield sight service (one ``engine.geometry.Geometry``), cached by pair.

    Why a cache here: hovering the same target on every frame must not re-run shapely;
    the key holds both footprints, so a model that moved is measured afresh.
    """

    def __init__(self, battlefield: Battlefield, geo: Any = None) -> None:
        self.battlefield = battlefield
        self._geo = geo
        self._cache: dict[tuple, SightView] = {}

    @property
    def geo(self) -> Any:
        if self._geo is None and _geo is not None:
            try:
                self._geo = _geo.Geometry(self.battlefield)
            except Exception:
                self._geo = False
        return self._geo or None

    def sight(self, a: Footprint, b: Footprint) -> SightView:
        key = (tuple(a), tuple(b))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        view = self._measure(a, b)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[key] = view
        return view

    def _measure(self, a: Footprint, b: Footprint) -> SightView:
        geo = self.geo
        dist = distance(a, b)
        if geo is None:
            return SightView(1.0, False, False, dist)
        try:
            s = geo.sight(a, b)
        except Exception:
            return SightView(1.0, False, False, dist)
        vis = getattr(s, "visible", 1.0)
        frac = getattr(s, "fraction", None)
        if frac is None:
            frac = float(vis) if not isinstance(vis, bool) else (1.0 if vis else 0.0)
        shadow: list[Polygon] = []
        fn = getattr(geo, "shadow_outline", None)
        try:
            shadow = polygons(fn(a, b) if fn else _call("shadow_outline", a, b))
        except Exception:
            shadow = []
        blockers = tuple(str(x) for x in (getattr(s, "blockers", ()) or ()))
        return SightView(
            float(frac),
            bool(getattr(s, "soft_cover", False)),
            bool(getattr(s, "hard_cover", False)),
            float(getattr(s, "distance", dist) or dist),
            blockers,
            tuple(shadow),
        )


def point_in_polygon(px: float, py: float, poly: Sequence[Point]) -> bool:
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi + 1e-300) + xi:
            inside = not inside
        j = i
    return inside


def rim_points(observer: Point, fp: Footprint, n: int = 5) -> list[Point]:
    """``n`` points across the target base as seen from ``observer`` (tangent to tangent)."""
    dx, dy = fp.x - observer[0], fp.y - observer[1]
    d = math.hypot(dx, dy) or 1.0
    px, py = -dy / d, dx / d
    w, dd = base_size_in(fp.base)
    half = (w if base_is_round(fp.base) else max(w, dd)) / 2 * 0.92
    pts = []
    for k in range(n):
        t = -1 + 2 * k / (n - 1) if n > 1 else 0.0
        pts.append((fp.x + px * half * t, fp.y + py * half * t))
    if not base_is_round(fp.base):
        poly = outline(fp)
        pts = [p if point_in_polygon(p[0], p[1], poly) else (fp.x, fp.y) for p in pts]
    return pts
