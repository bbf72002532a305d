"""The renderer: a pure function of (table view, overlays, camera) onto a surface.

Why pure: the window, the screenshot script, the frame benchmark and the pixel tests all
draw the same frame from the same inputs; nothing here reads or changes the game. What
it keeps between frames is cache only — terrain tiles per zoom level (the static layer:
40 decorated polygons are far too slow to redraw at 60 fps), rendered text, and the
unit-link trees of the current view — and dropping any cache changes no pixel.

Terrain is decorated in world inches (trees, stripes, posts, waves, contour lines) with a
per-feature seeded generator, so tiles drawn at different times line up exactly.
"""

from __future__ import annotations

import math
import random
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import pygame
import pygame.gfxdraw

from engine.battlefield import (
    Battlefield,
    Footprint,
    TerrainFeature,
    base_is_round,
    base_size_in,
)
from engine.ui import style
from engine.ui.camera import ZOOM_LEVELS, Camera
from engine.ui.measure import outline, point_in_polygon, template
from engine.ui.overlays import DiceAnim, ModelView, OddsCard, Overlays, TableView
from engine.ui.style import font_path

Point = tuple[float, float]
RGB = tuple[int, int, int]
TILE = 512


# --- text -------------------------------------------------------------------------------


class TextCache:
    """Rendered text surfaces keyed by (text, size, colour, bold); LRU-bounded.

    ``enabled=False`` renders every time: the benchmark's uncached baseline.
    """

    def __init__(self, enabled: bool = True, limit: int = 3000) -> None:
        self.enabled = enabled
        self.limit = limit
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        f = self._fonts.get(key)
        if f is None:
            # Noto at three quarters of the size: pygame's default font's size is
            # its line height, Noto's is its em, so the labels keep their width
            f = pygame.font.Font(font_path(bold), max(8, round(size * 0.72)))
            self._fonts[key] = f
        return f

    def get(
        self, text: str, size: int, colour: RGB, bold: bool = False, bg: RGB | None = None
    ) -> pygame.Surface:
        key = (text, size, colour, bold, bg)
        if self.enabled:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        surf = self.font(size, bold).render(text, True, colour, bg)
        if self.enabled:
            self._cache[key] = surf
            if len(self._cache) > self.limit:
                self._cache.popitem(last=False)
        return surf


# --- terrain decoration (world inches) -------------------------------------------------------


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


def terrain_glyphs(feature: TerrainFeature) -> list[Glyph]:
    """How one terrain piece looks, in world inches: fill, edge and its telling details."""
    fill, edge, detail = style.TERRAIN.get(feature.kind, ((128, 128, 128),) * 3)
    poly = tuple(feature.polygon)
    kind = feature.kind
    g: list[Glyph] = [Glyph("poly", fill, poly)]
    rng = _rng(feature)
    if kind == "hill":
        for f in (0.72, 0.44):
            g.append(Glyph("ring", detail, _shrink(poly, f), w=0.06))
        g.append(Glyph("ring", edge, poly, w=0.09))
        g.append(
            Glyph(
                "text", style.shade(edge, 0.7), (_centroid(poly),), text=f'hill {feature.height:g}"'
            )
        )
        return g
    if kind in ("woods", "heavy_woods"):
        heavy = kind == "heavy_woods"
        spacing, rad = (1.05, 0.62) if heavy else (1.6, 0.55)
        g.append(Glyph("ring", edge, poly, w=0.1 if heavy else 0.07))
        for x, y in _scatter(feature, spacing, rad * 0.5):
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
    if kind == "brush":
        g.append(Glyph("ring", edge, poly, w=0.05))
        for x, y in _scatter(feature, 1.0, 0.3):
            for dx in (-0.18, 0.0, 0.18):
                g.append(Glyph("line", detail, ((x, y - 0.15), (x + dx, y + 0.2)), w=0.05))
        return g
    if kind == "wheat_field":
        for a, b in _stripes(poly, 20.0 + rng.uniform(-8, 8), 0.55):
            g.append(Glyph("line", detail, (a, b), w=0.07))
        g.append(Glyph("ring", edge, poly, w=0.08))
        return g
    if kind in ("rough", "rubble"):
        g.append(Glyph("ring", edge, poly, w=0.05))
        for x, y in _scatter(feature, 0.8 if kind == "rubble" else 0.9, 0.15):
            if kind == "rough":
                g.append(Glyph("circle", detail, ((x, y),), r=rng.uniform(0.08, 0.16)))
            else:
                r = rng.uniform(0.14, 0.28)
                a0 = rng.uniform(0, math.pi)
                pts = tuple(
                    (x + r * math.cos(a0 + k * 2.1), y + r * math.sin(a0 + k * 2.1))
                    for k in range(3)
                )
                g.append(Glyph("poly", detail, pts))
        return g
    if kind in ("water", "river", "stream"):
        angle = 0.0
        if kind != "water":
            a, b, _ = _axis(poly)
            angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        gap = {"water": 1.2, "river": 0.9, "stream": 0.6}[kind]
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
    if kind == "road":
        g.append(Glyph("ring", edge, poly, w=0.06))
        a, b, thick = _axis(poly)
        if thick < math.dist(a, b) / 2:
            for p, q in zip(_along(a, b, 1.2), _along(a, b, 1.2)[1:]):
                g.append(Glyph("line", detail, (p, ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)), w=0.08))
        return g
    if kind == "building":
        inner = _shrink(poly, 0.82)
        g.append(Glyph("poly", style.shade(fill, 0.88), inner))
        for a, b in _stripes(inner, 45.0, 0.45):
            g.append(Glyph("line", detail, (a, b), w=0.05))
        g.append(Glyph("ring", edge, poly, w=0.14))
        a, b, _ = _axis(poly)
        for p, q in _clip_line(a, b, inner):
            g.append(Glyph("line", style.shade(fill, 1.25), (p, q), w=0.1))
        return g
    if kind == "wall":
        g.append(Glyph("ring", edge, poly, w=0.08))
        a, b, _ = _axis(poly)
        across = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) + 90.0
        for p, q in _stripes(poly, across, 0.7):
            g.append(Glyph("line", detail, (p, q), w=0.05))
        return g
    if kind == "rocks":
        g.append(Glyph("ring", edge, poly, w=0.1))
        cx, cy = _centroid(poly)
        for x, y in poly[::2]:
            g.append(Glyph("line", style.shade(fill, 0.75), ((cx, cy), (x, y)), w=0.06))
        g.append(Glyph("poly", detail, _shrink(poly, 0.35)))
        return g
    if kind in ("hedge", "fence", "low_wall"):
        thick = _thickness(poly)
        band = _band_points(poly, thick)
        a, b, _ = _axis(poly)
        if kind == "hedge":
            sizes = [max(thick * 0.62, 0.22) * rng.uniform(0.85, 1.15) for _ in band]
            for p, r in zip(band, sizes, strict=True):
                g.append(Glyph("circle", edge, (p,), r=r))
            for p, r in zip(band, sizes, strict=True):
                g.append(Glyph("circle", fill, (p,), r=r * 0.8))
                g.append(Glyph("circle", detail, ((p[0] - r * 0.25, p[1] + r * 0.25),), r=r * 0.4))
        elif kind == "fence":
            g = [Glyph("ring", fill, poly, w=max(0.06, thick * 0.25))]
            for p in band[::2]:
                g.append(Glyph("circle", edge, (p,), r=max(0.1, thick * 0.45)))
        else:
            g.append(Glyph("ring", edge, poly, w=0.06))
            across = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0])) + 90.0
            for p, q in _stripes(poly, across, 0.5):
                g.append(Glyph("line", detail, (p, q), w=0.05))
        return g
    g.append(Glyph("ring", edge, poly, w=0.06))
    return g


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


class TerrainTiles:
    """The static layer: the table and its terrain rendered into tiles per zoom level.

    Tiles are TILE x TILE pixels of the table at one zoom level, in the table's own pixel
    grid (origin at its top-left corner), so panning only blits and zooming renders the
    few tiles that come into view. ``enabled=False`` redraws every frame (the baseline).
    """

    def __init__(
        self, battlefield: Battlefield, text: TextCache, enabled: bool = True, limit: int = 96
    ) -> None:
        self.bf = battlefield
        self.text = text
        self.enabled = enabled
        self.limit = limit
        self._tiles: OrderedDict[tuple[int, int, int], pygame.Surface] = OrderedDict()
        self._felt = _felt_glyphs(battlefield)
        order = {k: i for i, k in enumerate(style.KIND_ORDER)}
        feats = sorted(battlefield.terrain, key=lambda f: (order.get(f.kind, 99), f.id))
        self._features: list[tuple[tuple[float, float, float, float], list[Glyph]]] = []
        for f in feats:
            glyphs = terrain_glyphs(f)
            x0, y0, x1, y1 = _bbox(f.polygon)
            self._features.append(((x0 - 1, y0 - 1, x1 + 1, y1 + 1), glyphs))

    def tile(self, level: int, i: int, j: int) -> pygame.Surface:
        key = (level, i, j)
        hit = self._tiles.get(key) if self.enabled else None
        if hit is not None:
            self._tiles.move_to_end(key)
            return hit
        surf = self._render(level, i, j)
        if self.enabled:
            self._tiles[key] = surf
            if len(self._tiles) > self.limit:
                self._tiles.popitem(last=False)
        return surf

    def _render(self, level: int, i: int, j: int) -> pygame.Surface:
        s = ZOOM_LEVELS[level]
        surf = pygame.Surface((TILE, TILE))
        surf.fill(style.BACKGROUND)
        ox, oy = -i * TILE, -j * TILE
        depth = self.bf.depth
        table = pygame.Rect(ox, oy, math.ceil(self.bf.width * s), math.ceil(depth * s))
        pygame.draw.rect(surf, style.FELT, table)
        # the part of the world this tile shows, for culling
        wx0, wx1 = (i * TILE) / s, ((i + 1) * TILE) / s
        wy1, wy0 = depth - (j * TILE) / s, depth - ((j + 1) * TILE) / s
        surf.set_clip(table)
        for glyph in self._felt:
            if wx0 - 1 <= glyph.pts[0][0] <= wx1 + 1 and wy0 - 1 <= glyph.pts[0][1] <= wy1 + 1:
                self._glyph(surf, glyph, s, ox, oy, depth)
        for (x0, y0, x1, y1), glyphs in self._features:
            if x1 < wx0 or x0 > wx1 or y1 < wy0 or y0 > wy1:
                continue
            for glyph in glyphs:
                self._glyph(surf, glyph, s, ox, oy, depth)
        surf.set_clip(None)
        pygame.draw.rect(surf, style.TABLE_EDGE, table.inflate(4, 4), 3)
        return surf

    def _glyph(
        self, surf: pygame.Surface, g: Glyph, s: float, ox: int, oy: int, depth: float
    ) -> None:
        def tf(p: Point) -> tuple[float, float]:
            return (ox + p[0] * s, oy + (depth - p[1]) * s)

        if g.kind == "poly":
            pygame.draw.polygon(surf, g.colour, [tf(p) for p in g.pts])
        elif g.kind == "ring":
            pts = [tf(p) for p in g.pts]
            w = max(1, round(g.w * s))
            pygame.draw.polygon(surf, g.colour, pts, w)
            if w == 1:
                pygame.draw.aalines(surf, g.colour, True, pts)
        elif g.kind == "circle":
            r = g.r * s
            if r < 0.6:
                return
            c = tf(g.pts[0])
            pygame.draw.circle(surf, g.colour, c, max(1.0, r))
        elif g.kind == "line":
            w = max(1, round(g.w * s))
            a, b = tf(g.pts[0]), tf(g.pts[1])
            if w == 1:
                pygame.draw.aaline(surf, g.colour, a, b)
            else:
                pygame.draw.line(surf, g.colour, a, b, w)
        elif g.kind == "text":
            size = int(max(12, min(30, s * 0.9)))
            if s < 5:
                return
            t = self.text.get(g.text, size, g.colour, True)
            cx, cy = tf(g.pts[0])
            surf.blit(t, (cx - t.get_width() / 2, cy - t.get_height() / 2))

    def blit(self, target: pygame.Surface, cam: Camera) -> None:
        vx, vy, vw, vh = cam.view
        target.fill(style.BACKGROUND, cam.view)
        s = cam.scale
        tw, th = self.bf.width * s, self.bf.depth * s
        i0 = max(0, int((-cam.ox) // TILE))
        j0 = max(0, int((-cam.oy) // TILE))
        i1 = min(int(tw // TILE), int((vw - cam.ox) // TILE))
        j1 = min(int(th // TILE), int((vh - cam.oy) // TILE))
        clip = target.get_clip()
        target.set_clip(cam.view)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                target.blit(
                    self.tile(cam.level, i, j), (vx + cam.ox + i * TILE, vy + cam.oy + j * TILE)
                )
        target.set_clip(clip)


# --- the frame ----------------------------------------------------------------------------


class Renderer:
    """Draws frames; holds only caches (tiles, text, unit links), never game state."""

    def __init__(self, battlefield: Battlefield, cache: bool = True) -> None:
        self.text = TextCache(enabled=cache)
        self.tiles = TerrainTiles(battlefield, self.text, enabled=cache)
        self.cache = cache
        self._links: tuple[int, list[tuple[str, Point, Point]]] | None = None
        self._layer: pygame.Surface | None = None
        self._layer_key: tuple | None = None
        self._sprites: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        #: where the last odds card was drawn (tests check it stands beside its target)
        self.card_rect: pygame.Rect | None = None

    # public entry point ------------------------------------------------------------------
    def render(self, surf: pygame.Surface, view: TableView, ov: Overlays, cam: Camera) -> None:
        """Draw the table, the models and every overlay into ``cam.view`` of ``surf``.

        The table with its models is one cached layer per (game version, camera); what
        follows the mouse (rings, targets, sight, paths, odds) is drawn over it each frame.
        """
        self._table_layer(surf, view, ov, cam)
        clip = surf.get_clip()
        surf.set_clip(cam.view)
        if len(ov.reach) >= 3:  # where the selected model may move (the rules' check)
            self._poly_alpha(surf, cam, ov.reach, (150, 220, 160), 28, outline=True)
        for name, polys in ov.zones.items():
            c = style.ZONE_COLOURS.get(name, (200, 200, 200))
            for p in polys:
                self._poly_alpha(surf, cam, p, c, 42, outline=True)
                if len(p) >= 3:
                    sx, sy = cam.to_screen(*_centroid(p))
                    self._label(surf, name, (sx, sy - 7), style.shade(c, 1.3), 15, None)
        if ov.arc:
            self._poly_alpha(surf, cam, ov.arc, (110, 200, 240), 36, outline=True)
        if ov.template:
            self._template(surf, cam, *ov.template)
        for arc in ov.turn_arcs:
            self._dashed(surf, [cam.to_screen(*p) for p in arc], (240, 170, 80), 2, 8)
        self._rings(surf, view, ov, cam)
        for mid, mark in ov.targets.items():
            self._target(surf, view, cam, mid, mark, mid == ov.hover)
        for poly in ov.shadow:
            self._poly_alpha(surf, cam, poly, (10, 10, 14), 150, outline=False)
            pts = [cam.to_screen(*p) for p in poly]
            if len(pts) >= 3:
                self._dashed(surf, pts + [pts[0]], (228, 76, 76), 1, 4)
        for a, b, band in ov.sight_lines:
            c = style.SIGHT_COLOURS.get(band, style.INK)
            pa, pb = cam.to_screen(*a), cam.to_screen(*b)
            if band == "blocked":
                self._dashed(surf, [pa, pb], c, 1, 6)
            else:
                pygame.draw.aaline(surf, c, pa, pb)
        if ov.turn_ghost:
            self._ghost(surf, view, cam, ov.turn_ghost, ov.selected, True)
        if ov.move:
            self._move(surf, view, cam, ov)
        if ov.note:
            self._note(surf, cam, *ov.note)
        if ov.odds:
            self._odds(surf, cam, ov.odds)
        self._scale_bar(surf, view, cam)
        if ov.dice:
            self._dice(surf, cam, ov.dice)
        surf.set_clip(clip)

    # helpers ------------------------------------------------------------------------------
    @staticmethod
    def _poly_alpha(
        surf: pygame.Surface, cam: Camera, poly: Sequence[Point], c: RGB, a: int, outline: bool
    ) -> None:
        pts = [cam.to_screen_i(*p) for p in poly]
        if len(pts) < 3:
            return
        pygame.gfxdraw.filled_polygon(surf, pts, (*c, a))
        if outline:
            pygame.draw.aalines(surf, style.shade(c, 0.9), True, pts)

    @staticmethod
    def _dashed(
        surf: pygame.Surface, pts: Sequence[tuple[float, float]], c: RGB, w: int, dash: float
    ) -> None:
        on = True
        left = dash
        for a, b in zip(pts, pts[1:]):
            ln = math.dist(a, b)
            if ln == 0:
                continue
            t = 0.0
            while t < ln:
                step = min(left, ln - t)
                if on:
                    p = (a[0] + (b[0] - a[0]) * t / ln, a[1] + (b[1] - a[1]) * t / ln)
                    q = (
                        a[0] + (b[0] - a[0]) * (t + step) / ln,
                        a[1] + (b[1] - a[1]) * (t + step) / ln,
                    )
                    pygame.draw.line(surf, c, p, q, w)
                t += step
                left -= step
                if left <= 1e-9:
                    on = not on
                    left = dash

    def _label(
        self,
        surf: pygame.Surface,
        text: str,
        pos: tuple[float, float],
        c: RGB,
        size: int = 18,
        bg: RGB | None = (20, 22, 28),
        centre: bool = True,
    ) -> pygame.Rect:
        t = self.text.get(text, size, c, False, bg)
        x, y = pos
        if centre:
            x -= t.get_width() / 2
        r = surf.blit(t, (x, y))
        return r

    def _table_layer(
        self, surf: pygame.Surface, view: TableView, ov: Overlays, cam: Camera
    ) -> None:
        vx, vy, vw, vh = cam.view
        key = (
            view.version,
            id(view),
            cam.level,
            cam.ox,
            cam.oy,
            cam.view,
            ov.unit_links,
            tuple(sorted(ov.moving.items())),
        )
        if (
            not self.cache
            or self._layer is None
            or self._layer_key != key
            or self._layer.get_size() != (vw, vh)
        ):
            if self._layer is None or self._layer.get_size() != (vw, vh):
                self._layer = pygame.Surface((vw, vh))
            local = Camera(cam.table_w, cam.table_h, (0, 0, vw, vh), cam.level, cam.ox, cam.oy)
            self.tiles.blit(self._layer, local)
            if ov.unit_links:
                self._unit_links(self._layer, view, local)
            self._models(self._layer, view, ov, local)
            self._layer_key = key
        surf.blit(self._layer, (vx, vy))

    # models ------------------------------------------------------------------------------------
    def _unit_links(self, surf: pygame.Surface, view: TableView, cam: Camera) -> None:
        if self._links is None or self._links[0] != view.version or not self.cache:
            self._links = (view.version, _unit_trees(view.models))
        for side, a, b in self._links[1]:
            c = style.mix(view.side_colours.get(side, style.INK), style.FELT, 0.35)
            pygame.draw.aaline(surf, c, cam.to_screen(*a), cam.to_screen(*b))

    def _models(self, surf: pygame.Surface, view: TableView, ov: Overlays, cam: Camera) -> None:
        s = cam.scale
        x0, y0, x1, y1 = cam.visible_world()
        small = s < 20
        for m in view.models:
            x, y, facing = ov.moving.get(m.id, (m.x, m.y, m.facing))
            if x < x0 - 3 or x > x1 + 3 or y < y0 - 3 or y > y1 + 3:
                continue
            colour = view.side_colours.get(m.side, style.INK)
            cx, cy = cam.to_screen(x, y)
            sprite = self._sprite(colour, m.base, facing, cam.level, m.done)
            surf.blit(sprite, (cx - sprite.get_width() / 2, cy - sprite.get_height() / 2))
            r = _half_px(m.base, s)
            if m.max_hp > 1 or m.hp < m.max_hp:
                self._hp(surf, cx, cy + r + 3, max(14.0, 2 * r), m.hp, m.max_hp, small)
            if m.status:
                self._status(surf, cx, cy - r - 3, m.status, small)

    def _sprite(self, colour: RGB, base, facing: float, level: int, done: bool) -> pygame.Surface:
        """A base drawn once per (colour, size, facing to the degree, zoom level)."""
        key = (colour, base, round(facing) % 360, level, done)
        hit = self._sprites.get(key) if self.cache else None
        if hit is not None:
            return hit
        s = ZOOM_LEVELS[level]
        half = int(_half_px(base, s) * 1.5) + 3
        surf = pygame.Surface((2 * half, 2 * half), pygame.SRCALPHA)
        cam = Camera(2 * half / s, 2 * half / s, (0, 0, 2 * half, 2 * half), level, 0, 0)
        self._base(
            surf, cam, Footprint(half / s, half / s, float(round(facing)), base), colour, done
        )
        if self.cache:
            self._sprites[key] = surf
            if len(self._sprites) > 2000:
                self._sprites.popitem(last=False)
        return surf

    def _rings(self, surf: pygame.Surface, view: TableView, ov: Overlays, cam: Camera) -> None:
        """Selection, unit-mates and hover rings, and the name of what is pointed at."""
        s = cam.scale
        for mid in {ov.selected, ov.hover, *ov.unit_selected} - {""}:
            m = view.index.get(mid)
            if m is None:
                continue
            x, y, _ = ov.moving.get(m.id, (m.x, m.y, m.facing))
            cx, cy = cam.to_screen(x, y)
            r = _half_px(m.base, s)
            if m.id == ov.selected:
                pygame.draw.circle(surf, style.SELECT, (cx, cy), r + 4, 2)
            elif m.id in ov.unit_selected:
                pygame.draw.circle(surf, style.shade(style.SELECT, 0.75), (cx, cy), r + 3, 1)
            if m.id == ov.hover:
                pygame.draw.circle(surf, style.HOVER, (cx, cy), r + 2, 1)
            if (m.id == ov.hover or m.id == ov.selected) and m.label:
                self._label(
                    surf, m.label, (cx, cy + r + (10 if m.max_hp > 1 else 4)), style.INK, 16
                )

    def _base(
        self,
        surf: pygame.Surface,
        cam: Camera,
        fp: Footprint,
        colour: RGB,
        done: bool,
        alpha: int = 255,
    ) -> None:
        s = cam.scale
        cx, cy = cam.to_screen(fp.x, fp.y)
        rim = (150, 150, 150) if done else style.shade(colour, 0.45)
        mark = (176, 176, 170) if done else (250, 248, 236)
        h = math.radians(fp.facing)
        ux, uy = math.cos(h), -math.sin(h)
        if base_is_round(fp.base):
            r = max(3.0, float(fp.base) / 25.4 / 2 * s)
            if alpha < 255:
                pygame.gfxdraw.filled_circle(surf, int(cx), int(cy), int(r), (*colour, alpha))
                pygame.gfxdraw.aacircle(surf, int(cx), int(cy), int(r), (*rim, alpha))
            else:
                pygame.draw.circle(surf, colour, (cx, cy), r)
                pygame.draw.circle(surf, rim, (cx, cy), r, max(1, int(r / 7)))
        else:
            pts = [cam.to_screen(*p) for p in outline(fp)]
            if alpha < 255:
                pygame.gfxdraw.filled_polygon(
                    surf, [(int(a), int(b)) for a, b in pts], (*colour, alpha)
                )
            else:
                pygame.draw.polygon(surf, colour, pts)
                pygame.draw.polygon(surf, rim, pts, max(1, int(s / 10)))
            pygame.draw.line(surf, mark, pts[0], pts[3], max(2, int(s / 6)))
            r = _half_px(fp.base, s)
        px, py = -uy, ux
        tip = (cx + ux * r * 0.92, cy + uy * r * 0.92)
        left = (cx + ux * r * 0.42 + px * r * 0.36, cy + uy * r * 0.42 + py * r * 0.36)
        right = (cx + ux * r * 0.42 - px * r * 0.36, cy + uy * r * 0.42 - py * r * 0.36)
        if r >= 5:
            pygame.draw.polygon(surf, mark, (tip, left, right))
        else:
            pygame.draw.line(surf, mark, (cx + ux * r * 0.3, cy + uy * r * 0.3), tip, 1)

    def _hp(
        self,
        surf: pygame.Surface,
        cx: float,
        top: float,
        width: float,
        hp: int,
        max_hp: int,
        small: bool,
    ) -> None:
        width = min(width, 60.0)
        frac = max(0.0, min(1.0, hp / max_hp if max_hp else 0.0))
        bar = pygame.Rect(int(cx - width / 2), int(top), int(width), 4)
        pygame.draw.rect(surf, (20, 20, 24), bar.inflate(2, 2))
        c = (96, 216, 96) if frac > 0.6 else (232, 196, 64) if frac > 0.3 else (232, 72, 60)
        pygame.draw.rect(surf, c, (bar.x, bar.y, int(bar.w * frac), bar.h))
        if not small:
            self._label(
                surf, f"{hp}/{max_hp}", (bar.right + 3, bar.y - 5), style.INK, 15, centre=False
            )

    def _status(
        self, surf: pygame.Surface, cx: float, bottom: float, status: Sequence[str], small: bool
    ) -> None:
        words = [w if not small else w[:3] for w in status][:3]
        t = self.text.get(" ".join(words), 14, (255, 236, 160), False, (60, 30, 30))
        surf.blit(t, (cx - t.get_width() / 2, bottom - t.get_height()))

    def _target(
        self, surf: pygame.Surface, view: TableView, cam: Camera, mid: str, mark, hovered: bool
    ) -> None:
        m = view.index.get(mid)
        if m is None:
            return
        c = style.TARGET_COLOURS.get(mark.cls, style.INK)
        cx, cy = cam.to_screen(m.x, m.y)
        r = _half_px(m.base, cam.scale) + 3
        pygame.draw.circle(surf, c, (cx, cy), r, 2)
        # Only the hovered target says it in words; the others say it by ring colour
        # (and a visible share when in cover), so a crowded unit stays readable.
        if hovered:
            label = mark.label
        elif mark.cls == "cover" and mark.fraction is not None:
            label = f"{mark.fraction:.0%}"
        else:
            label = ""
        if label:
            self._label(surf, label, (cx, cy - r - 16), c, 15)

    def _template(
        self, surf: pygame.Surface, cam: Camera, centre: Point, r: float, ring: float
    ) -> None:
        self._poly_alpha(surf, cam, template(centre, r), (250, 150, 60), 60, outline=True)
        if ring > r:
            pts = [cam.to_screen(*p) for p in template(centre, ring)]
            self._dashed(surf, pts + [pts[0]], (250, 170, 90), 1, 7)

    def _ghost(
        self, surf: pygame.Surface, view: TableView, cam: Camera, ghost, actor: str, turn: bool
    ) -> None:
        m = view.index.get(actor)
        colour = view.side_colours.get(m.side, style.INK) if m else style.INK
        fp = Footprint(*ghost)
        self._base(surf, cam, fp, colour, False, alpha=120)
        if turn:
            cx, cy = cam.to_screen(fp.x, fp.y)
            r = _half_px(fp.base, cam.scale)
            self._label(
                surf,
                f"facing {fp.facing % 360:.0f}\u00b0  (Enter to turn)",
                (cx, cy + r + 8),
                style.INK,
                16,
            )

    def _move(self, surf: pygame.Surface, view: TableView, cam: Camera, ov: Overlays) -> None:
        mv = ov.move
        assert mv is not None
        pts = [cam.to_screen(*p) for p in mv.path]
        c = style.GOOD if mv.legal else style.BAD
        if len(pts) >= 2:
            pygame.draw.lines(surf, (20, 20, 20), False, pts, 4)
            pygame.draw.lines(surf, c, False, pts, 2)
        for p in pts[1:-1]:
            pygame.draw.circle(surf, c, p, 4)
        if mv.ghost:
            self._ghost(surf, view, cam, mv.ghost, mv.actor, False)
        if not pts:
            return
        end = pts[-1]
        text = f'{mv.length:.1f}"'
        if mv.remaining is not None:
            text += (
                f'  ({max(mv.remaining, 0.0):.1f}" left of {mv.allowance:g}")'
                if mv.allowance is not None
                else f'  ({mv.remaining:.1f}" left)'
            )
        if mv.chance is not None and mv.chance < 1:
            text += f"  \u00b7 {_pct(mv.chance)} to get there"
        if mv.charge_target:
            text = f"charge {mv.charge_target}: " + text
        self._label(surf, text, (end[0], end[1] + 14), c, 18)
        if not mv.legal and mv.reason:
            for k, line in enumerate(_wrap(mv.reason, 48)[:3]):
                self._label(surf, line, (end[0], end[1] + 32 + 16 * k), style.BAD, 16)

    def _note(self, surf: pygame.Surface, cam: Camera, at: Point, text: str, good: bool) -> None:
        sx, sy = cam.to_screen(*at)
        for k, line in enumerate(_wrap(text, 52)[:4]):
            self._label(surf, line, (sx, sy + 18 + 16 * k), style.GOOD if good else style.BAD, 16)

    def _odds(self, surf: pygame.Surface, cam: Camera, card: OddsCard) -> None:
        sx, sy = cam.to_screen(*card.anchor)
        title = _wrap(card.title, 34)[:2]
        words = _wrap(card.lines[0], 36)[:4] if card.chance is None and card.lines else []
        top = 6 + 16 * len(title)
        h = (
            top
            + (68 if card.chance is not None else 8 + 16 * len(words))
            + (56 if card.dist else 0)
        )
        w = 230
        vx, vy, vw, vh = cam.view
        # beside the target, never over it: right of it, else left of it
        x = sx + 30 if sx + 30 + w <= vx + vw - 4 else sx - 30 - w
        x = max(vx + 4, x)
        y = min(max(vy + 4, sy - h / 2), vy + vh - h - 4)
        box = pygame.Rect(int(x), int(y), w, int(h))
        self.card_rect = box.copy()
        pygame.gfxdraw.box(surf, box, (22, 26, 34, 226))
        pygame.draw.rect(surf, (110, 120, 140), box, 1, border_radius=3)
        for k, line in enumerate(title):
            self._label(surf, line, (box.x + 8, box.y + 6 + 16 * k), style.INK, 17, None, False)
        colour = style.BAD if card.refused else (180, 186, 196)
        for k, line in enumerate(words):
            self._label(surf, line, (box.x + 8, box.y + top + 4 + 16 * k), colour, 16, None, False)
        box = pygame.Rect(box.x, box.y + top - 22, box.w, box.h - (top - 22))  # odds below
        if card.chance is not None:
            pct = card.chance * 100
            txt = f"{pct:.0f}%" if 10 <= pct <= 90 or pct in (0, 100) else f"{pct:.1f}%"
            c = style.mix(style.BAD, style.GOOD, card.chance)
            self._label(surf, txt, (box.x + 8, box.y + 24), c, 40, None, False)
            self._label(
                surf,
                "chance of success",
                (box.x + 92, box.y + 34),
                (180, 186, 196),
                15,
                None,
                False,
            )
        if card.expected is not None:
            self._label(
                surf,
                f"expected {card.expected:.2f}",
                (box.x + 92, box.y + 50),
                (180, 186, 196),
                15,
                None,
                False,
            )
        if card.dist:
            top = max(p for _, p in card.dist) or 1.0
            n = len(card.dist)
            bw = max(6, min(26, (w - 16) // max(n, 1) - 2))
            base_y = box.bottom - 16
            for k, (v, p) in enumerate(card.dist):
                bx = box.x + 8 + k * (bw + 2)
                bh = int(34 * p / top)
                pygame.draw.rect(surf, (120, 170, 236), (bx, base_y - bh, bw, bh))
                self._label(surf, str(v), (bx + bw / 2, base_y + 1), (180, 186, 196), 14, None)

    def _scale_bar(self, surf: pygame.Surface, view: TableView, cam: Camera) -> None:
        s = cam.scale
        inches = next((n for n in (1, 2, 3, 6, 12, 24) if n * s >= 90), 24)
        vx, vy, vw, vh = cam.view
        x, y = vx + 16, vy + vh - 24
        length = int(inches * s)
        pygame.gfxdraw.box(surf, (x - 8, y - 20, length + 16, 32), (16, 18, 22, 180))
        pygame.draw.line(surf, style.INK, (x, y), (x + length, y), 3)
        for k in range(inches + 1):
            tick = 8 if k in (0, inches) else 4
            pygame.draw.line(surf, style.INK, (x + k * s, y - tick), (x + k * s, y), 1)
        unit = view.unit_name or "in"
        self._label(surf, f"{inches} {unit}", (x + length / 2, y - 19), style.INK, 16, None)

    def _dice(self, surf: pygame.Surface, cam: Camera, anim: DiceAnim) -> None:
        vx, vy, vw, vh = cam.view
        n = len(anim.faces)
        size = 44 if n <= 8 else 30
        gap = 8
        total = n * size + (n - 1) * gap
        x0 = vx + vw / 2 - total / 2
        y0 = vy + vh - size - 70
        settle = 0.6
        panel = pygame.Rect(int(x0 - 14), int(y0 - 12), int(total + 28), size + 46)
        pygame.gfxdraw.box(surf, panel, (16, 18, 24, 210))
        for k, (face, sides) in enumerate(zip(anim.faces, anim.sides, strict=False)):
            shown = face
            wobble = 0.0
            if anim.t < settle:
                rng = random.Random(int(anim.t * 30) * 131 + k * 7)
                shown = rng.randint(1, max(1, sides))
                wobble = math.sin(anim.t * 40 + k) * 6 * (1 - anim.t / settle)
            rect = pygame.Rect(int(x0 + k * (size + gap)), int(y0 + wobble), size, size)
            pygame.draw.rect(surf, (244, 240, 228), rect, border_radius=7)
            pygame.draw.rect(surf, (60, 60, 70), rect, 2, border_radius=7)
            t = self.text.get(str(shown), int(size * 0.8), (30, 30, 36), True)
            surf.blit(t, t.get_rect(center=rect.center))
            if size >= 40:
                self._label(
                    surf, f"d{sides}", (rect.centerx, rect.bottom + 2), (170, 176, 186), 14, None
                )
        if anim.caption and anim.t >= settle:
            c = style.INK if anim.good is None else style.GOOD if anim.good else style.BAD
            self._label(surf, anim.caption[:70], (vx + vw / 2, y0 + size + 16), c, 18, None)


def _pct(p: float) -> str:
    v = p * 100
    return f"{v:.0f}%" if 10 <= v <= 90 or v in (0.0, 100.0) else f"{v:.1f}%"


def _half_px(base, s: float) -> float:
    w, d = base_size_in(base)
    return max(3.0, max(w, d) / 2 * s)


def _unit_trees(models: Sequence[ModelView]) -> list[tuple[str, Point, Point]]:
    """Minimum spanning tree of each unit's models: a thin line shows who belongs together."""
    units: dict[str, list[ModelView]] = {}
    for m in models:
        units.setdefault(m.unit, []).append(m)
    out = []
    for ms in units.values():
        if len(ms) < 2:
            continue
        pts = [(m.x, m.y) for m in ms]
        inside = {0}
        best = {k: (math.dist(pts[0], pts[k]), 0) for k in range(1, len(pts))}
        while best:
            k = min(best, key=lambda i: best[i][0])
            _, parent = best.pop(k)
            inside.add(k)
            out.append((ms[0].side, pts[parent], pts[k]))
            for j in best:
                d = math.dist(pts[k], pts[j])
                if d < best[j][0]:
                    best[j] = (d, k)
    return out


def _wrap(text: str, width: int) -> list[str]:
    words = text.split()
    lines: list[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return lines
