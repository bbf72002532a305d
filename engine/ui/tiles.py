"""The static layer: the table and its terrain rendered into tiles per zoom level.

Why tiles: 40 decorated terrain pieces are far too slow to redraw at 60 frames a second,
and a whole table at the closest zoom is too big for one surface; tiles of one zoom
level are drawn once (``glyphs.py`` says what to draw) and only blitted afterwards.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import pygame

from engine.battlefield import Battlefield
from engine.ui import style
from engine.ui.camera import ZOOM_LEVELS, Camera
from engine.ui.glyphs import Glyph, _bbox, _felt_glyphs, terrain_glyphs
from engine.ui.textcache import TextCache

Point = tuple[float, float]
TILE = 512


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
