"""Terrain decoration in world inches: what each kind of terrain piece looks like.

Why apart from the renderer: the decoration is pure geometry (trees scattered over
woods, stripes on fields, posts along fences) computed once per feature with a seeded
generator, so that tiles drawn at different times line up; drawing it onto pixels is
``tiles.py``'s job and the frame ``draw.py``'s.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine.battlefield import Battlefield, TerrainFeature
from engine.ui import style
from engine.ui.measure import point_in_polygon

Point = tuple[float, float]
RGB = tuple[int, int, int]
Poly = tuple[Point, ...]
Colours = tuple[RGB, RGB, RGB]


@dataclass(frozen=True)
class Glyph:
    """One drawing primitive in world inches. ``w`` is a width in inches (0 = filled)."""

    kind: str  # poly | ring | circle | line | lines | text
    colour: RGB
    pts: tuple[Point, ...]
    r: float = 0.0
    w: float = 0.0
    text: str = ""


def _rng(feature: TerrainFeature) -> random.Random:
    return random.Random(zlib.crc32(f"{feature.id}:{feature.kind}".encode()))


def _bbox(pts: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def _edge_distance(px: float, py: float, poly: Sequence[Point]) -> float:
    best = float("inf")
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        dx, dy = bx - ax, by - ay
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / ll))
        best = min(best, math.hypot(px - ax - t * dx, py - ay - t * dy))
    return best


def _scatter(feature: TerrainFeature, spacing: float, margin: float) -> list[Point]:
    """Jittered grid points inside the polygon, at least ``margin`` from its edge."""
    rng = _rng(feature)
    x0, y0, x1, y1 = _bbox(feature.polygon)
    out = []
    y = y0 + spacing / 2
    row = 0
    while y < y1:
        x = x0 + spacing / 2 + (spacing / 2 if row % 2 else 0)
        while x < x1:
            px = x + rng.uniform(-0.35, 0.35) * spacing
            py = y + rng.uniform(-0.35, 0.35) * spacing
            if point_in_polygon(px, py, feature.polygon) and (
                margin <= 0 or _edge_distance(px, py, feature.polygon) >= margin
            ):
                out.append((px, py))
            x += spacing
        y += spacing * 0.87
        row += 1
    return out


def _clip_line(a: Point, b: Point, poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    """The parts of segment ab inside the polygon (even-odd), for stripes and ripples."""
    ts = [0.0, 1.0]
    n = len(poly)
    dx, dy = b[0] - a[0], b[1] - a[1]
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        ex, ey = q[0] - p[0], q[1] - p[1]
        den = dx * ey - dy * ex
        if abs(den) < 1e-12:
            continue
        t = ((p[0] - a[0]) * ey - (p[1] - a[1]) * ex) / den
        u = ((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / den
        if 0 <= t <= 1 and 0 <= u <= 1:
            ts.append(t)
    ts.sort()
    out = []
    for t0, t1 in zip(ts, ts[1:]):
        if t1 - t0 < 1e-9:
            continue
        tm = (t0 + t1) / 2
        if point_in_polygon(a[0] + dx * tm, a[1] + dy * tm, poly):
            out.append(((a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1)))
    return out


def _stripes(poly: Sequence[Point], angle: float, gap: float) -> list[tuple[Point, Point]]:
    """Parallel lines at ``angle`` degrees, ``gap`` inches apart, clipped to the polygon."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    nx, ny = -s, c
    proj = [p[0] * nx + p[1] * ny for p in poly]
    along = [p[0] * c + p[1] * s for p in poly]
    lo, hi = min(along) - 1, max(along) + 1
    out = []
    k = math.floor(min(proj) / gap) * gap
    while k <= max(proj):
        a = (nx * k + c * lo, ny * k + s * lo)
        b = (nx * k + c * hi, ny * k + s * hi)
        out.extend(_clip_line(a, b, poly))
        k += gap
    return out


def _axis(poly: Sequence[Point]) -> tuple[Point, Point, float]:
    """Centre line of a long thin polygon: (start, end, thickness) along its longest edge."""
    n = len(poly)
    best = max(range(n), key=lambda i: math.dist(poly[i], poly[(i + 1) % n]))
    p, q = poly[best], poly[(best + 1) % n]
    ln = math.dist(p, q) or 1.0
    ux, uy = (q[0] - p[0]) / ln, (q[1] - p[1]) / ln
    vx, vy = -uy, ux
    us = [pt[0] * ux + pt[1] * uy for pt in poly]
    vs = [pt[0] * vx + pt[1] * vy for pt in poly]
    vm = (min(vs) + max(vs)) / 2
    a = (ux * min(us) + vx * vm, uy * min(us) + vy * vm)
    b = (ux * max(us) + vx * vm, uy * max(us) + vy * vm)
    return a, b, max(vs) - min(vs)


def _along(a: Point, b: Point, step: float) -> list[Point]:
    ln = math.dist(a, b)
    n = max(1, int(ln / step))
    return [
        (a[0] + (b[0] - a[0]) * (k + 0.5) / n, a[1] + (b[1] - a[1]) * (k + 0.5) / n)
        for k in range(n)
    ]


def _thickness(poly: Sequence[Point]) -> float:
    """Typical width of a strip-like polygon: twice its area over its perimeter."""
    area = (
        abs(
            sum(
                poly[i][0] * poly[(i + 1) % len(poly)][1]
                - poly[(i + 1) % len(poly)][0] * poly[i][1]
                for i in range(len(poly))
            )
        )
        / 2
    )
    perim = sum(math.dist(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))
    return max(0.05, 2 * area / perim) if perim else 0.5


def _band_points(poly: Sequence[Point], thick: float) -> list[Point]:
    """Points along the middle of a strip of any shape (straight, L, zigzag): a fine grid
    kept where the point is well inside, thinned to about one per ``thick``."""
    step = max(0.08, thick / 3)
    x0, y0, x1, y1 = _bbox(poly)
    keep: list[Point] = []
    y = y0 + step / 2
    while y < y1:
        x = x0 + step / 2
        while x < x1:
            if point_in_polygon(x, y, poly) and _edge_distance(x, y, poly) >= thick * 0.3:
                if all(math.dist((x, y), k) >= thick * 0.8 for k in keep[-40:]):
                    keep.append((x, y))
            x += step
        y += step
    return keep


def _centroid(poly: Sequence[Point]) -> Point:
    a = cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        cr = x0 * y1 - x1 * y0
        a += cr
        cx += (x0 + x1) * cr
        cy += (y0 + y1) * cr
    if abs(a) < 1e-9:
        xs, ys = zip(*poly)
        return (sum(xs) / n, sum(ys) / n)
    return (cx / (3 * a), cy / (3 * a))


def _shrink(poly: Sequence[Point], f: float) -> tuple[Point, ...]:
    cx, cy = _centroid(poly)
    return tuple((cx + (x - cx) * f, cy + (y - cy) * f) for x, y in poly)


def _hill(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly)]
    for k in (0.72, 0.44):
        g.append(Glyph("ring", detail, _shrink(poly, k), w=0.06))
    g.append(Glyph("ring", edge, poly, w=0.09))
    g.append(Glyph("text", style.shade(edge, 0.7), (_centroid(poly),), text=f'hill {f.height:g}"'))
    return g


def _woods(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    heavy = f.kind == "heavy_woods"
    spacing, rad = (1.05, 0.62) if heavy else (1.6, 0.55)
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.1 if heavy else 0.07)]
    for x, y in _scatter(f, spacing, rad * 0.5):
        r = rad * rng.uniform(0.8, 1.15)
        g.append(Glyph("circle", style.shade(detail, 0.85), ((x + 0.08, y - 0.08),), r=r))
        g.append(Glyph("circle", detail, ((x, y),), r=r * 0.92))
        g.append(
            Glyph(
                "circle",
                style.shade(fill, 1.12 if not heavy else 1.05),
                ((x - r * 0.25, y + r * 0.25),),
                r=r * 0.38,
            )
        )
    return g


def _brush(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.05)]
    for x, y in _scatter(f, 1.0, 0.3):
        for dx in (-0.18, 0.0, 0.18):
            g.append(Glyph("line", detail, ((x, y - 0.15), (x + dx, y + 0.2)), w=0.05))
    return g


def _wheat(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly)]
    for a, b in _stripes(poly, 20.0 + rng.uniform(-8, 8), 0.55):
        g.append(Glyph("line", detail, (a, b), w=0.07))
    g.append(Glyph("ring", edge, poly, w=0.08))
    return g


def _rough(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.05)]
    for x, y in _scatter(f, 0.8 if f.kind == "rubble" else 0.9, 0.15):
        if f.kind == "rough":
            g.append(Glyph("circle", detail, ((x, y),), r=rng.uniform(0.08, 0.16)))
        else:
            r = rng.uniform(0.14, 0.28)
            a0 = rng.uniform(0, math.pi)
            pts = tuple(
                (x + r * math.cos(a0 + k * 2.1), y + r * math.sin(a0 + k * 2.1)) for k in range(3)
            )
            g.append(Glyph("poly", detail, pts))
    return g


def _water(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly)]
    angle = 0.0
    if f.kind != "water":
        a, b, _ = _axis(poly)
        angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
    gap = {"water": 1.2, "river": 0.9, "stream": 0.6}[f.kind]
    for a, b in _stripes(poly, angle, gap):
        ln = math.dist(a, b)
        if ln < 0.4:
            continue
        n = max(1, int(ln / 1.4))
        for k in range(n):
            if rng.random() < 0.45:
                continue
            t0, t1 = k / n, min(1.0, k / n + 0.5 / n)
            p = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            q = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            g.append(Glyph("line", detail, (p, q), w=0.06))
    g.append(Glyph("ring", edge, poly, w=0.09))
    return g


def _road(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.06)]
    a, b, thick = _axis(poly)
    if thick < math.dist(a, b) / 2:
        for p, q in zip(_along(a, b, 1.2), _along(a, b, 1.2)[1:]):
            g.append(Glyph("line", detail, (p, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)), w=0.08))
    return g


def _building(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    inner = _shrink(poly, 0.82)
    g = [Glyph("poly", fill, poly), Glyph("poly", style.shade(fill, 0.88), inner)]
    for a, b in _stripes(inner, 45.0, 0.45):
        g.append(Glyph("line", detail, (a, b), w=0.05))
    g.append(Glyph("ring", edge, poly, w=0.14))
    a, b, _ = _axis(poly)
    for p, q in _clip_line(a, b, inner):
        g.append(Glyph("line", style.shade(fill, 1.25), (p, q), w=0.1))
    return g


def _wall(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.08)]
    a, b, _ = _axis(poly)
    across = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) + 90.0
    for p, q in _stripes(poly, across, 0.7):
        g.append(Glyph("line", detail, (p, q), w=0.05))
    return g


def _rocks(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    fill, edge, detail = c
    g = [Glyph("poly", fill, poly), Glyph("ring", edge, poly, w=0.1)]
    cx, cy = _centroid(poly)
    for x, y in poly[::2]:
        g.append(Glyph("line", style.shade(fill, 0.75), ((cx, cy), (x, y)), w=0.06))
    g.append(Glyph("poly", detail, _shrink(poly, 0.35)))
    return g


def _line_obstacle(f: TerrainFeature, poly: Poly, c: Colours, rng: random.Random) -> list[Glyph]:
    """Hedges (a row of bushes), fences (posts on a rail), low walls (courses of stone)."""
    fill, edge, detail = c
    thick = _thickness(poly)
    band = _band_points(poly, thick)
    a, b, _ = _axis(poly)
    if f.kind == "fence":
        g = [Glyph("ring", fill, poly, w=max(0.06, thick * 0.25))]
        for p in band[::2]:
            g.append(Glyph("circle", edge, (p,), r=max(0.1, thick * 0.45)))
        return g
    g = [Glyph("poly", fill, poly)]
    if f.kind == "hedge":
        sizes = [max(thick * 0.62, 0.22) * rng.uniform(0.85, 1.15) for _ in band]
        for p, r in zip(band, sizes, strict=True):
            g.append(Glyph("circle", edge, (p,), r=r))
        for p, r in zip(band, sizes, strict=True):
            g.append(Glyph("circle", fill, (p,), r=r * 0.8))
            g.append(Glyph("circle", detail, ((p[0] - r * 0.25, p[1] + r * 0.25),), r=r * 0.4))
        return g
    g.append(Glyph("ring", edge, poly, w=0.06))
    across = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) + 90.0
    for p, q in _stripes(poly, across, 0.5):
        g.append(Glyph("line", detail, (p, q), w=0.05))
    return g


#: terrain kind -> how it is decorated (any other kind: its fill and a thin edge)
_DECOR = {
    "hill": _hill,
    "woods": _woods,
    "heavy_woods": _woods,
    "brush": _brush,
    "wheat_field": _wheat,
    "rough": _rough,
    "rubble": _rough,
    "water": _water,
    "river": _water,
    "stream": _water,
    "road": _road,
    "building": _building,
    "wall": _wall,
    "rocks": _rocks,
    "hedge": _line_obstacle,
    "fence": _line_obstacle,
    "low_wall": _line_obstacle,
}


def terrain_glyphs(feature: TerrainFeature) -> list[Glyph]:
    """How one terrain piece looks, in world inches: fill, edge and its telling details."""
    colours = style.TERRAIN.get(feature.kind, ((128, 128, 128),) * 3)
    poly = tuple(feature.polygon)
    decorate = _DECOR.get(feature.kind)
    if decorate is None:
        return [Glyph("poly", colours[0], poly), Glyph("ring", colours[1], poly, w=0.06)]
    return decorate(feature, poly, colours, _rng(feature))


def _felt_glyphs(bf: Battlefield) -> list[Glyph]:
    """Tufts of grass and a faint foot grid: a table that reads as a table at any zoom."""
    rng = random.Random(int(bf.width * 1000 + bf.depth))
    out = []
    for _ in range(int(bf.width * bf.depth / 3)):
        x, y = rng.uniform(0, bf.width), rng.uniform(0, bf.depth)
        c = style.FELT_DARK if rng.random() < 0.6 else style.FELT_LIGHT
        out.append(Glyph("circle", c, ((x, y),), r=rng.uniform(0.1, 0.3)))
    step = 12.0
    x = step
    while x < bf.width:
        out.append(Glyph("line", style.GRID, ((x, 0.0), (x, bf.depth)), w=0.05))
        x += step
    y = step
    while y < bf.depth:
        out.append(Glyph("line", style.GRID, ((0.0, y), (bf.width, y)), w=0.05))
        y += step
    return out
