"""The renderer: a pure function of (table view, overlays, camera) onto a surface.

Why pure: the window, the screenshot script, the frame benchmark and the pixel tests all
draw the same frame from the same inputs; nothing here reads or changes the game. What
it keeps between frames is cache only — terrain tiles per zoom level (the static layer:
40 decorated polygons are far too slow to redraw at 60 fps), rendered text, and the
unit-link trees of the current view — and dropping any cache changes no pixel.

The pieces it is drawn with live beside it: ``textcache.py`` (rendered text),
``glyphs.py`` (terrain decoration in world inches) and ``tiles.py`` (the static layer).
"""

from __future__ import annotations

import math
import random
from collections import OrderedDict
from collections.abc import Sequence

import pygame
import pygame.gfxdraw

from engine.battlefield import (
    Battlefield,
    Footprint,
    base_size_in,
)
from engine.state import Base
from engine.ui import busy, contest, style
from engine.ui.camera import ZOOM_LEVELS, Camera
from engine.ui.glyphs import _centroid, terrain_glyphs
from engine.ui.measure import outline, template
from engine.ui.overlays import DiceAnim, ModelView, OddsCard, Overlays, TableView, TargetMark
from engine.ui.textcache import TextCache
from engine.ui.tiles import TerrainTiles

Point = tuple[float, float]
RGB = tuple[int, int, int]
#: what other modules import from here (the frame and the pieces it is drawn with)
__all__ = ["Renderer", "TerrainTiles", "TextCache", "terrain_glyphs"]


class Renderer:
    """Draws frames; holds only caches (tiles, text, unit links), never game state."""

    def __init__(self, battlefield: Battlefield, cache: bool = True) -> None:
        self.text = TextCache(enabled=cache)
        self.tiles = TerrainTiles(battlefield, self.text, enabled=cache)
        self.cache = cache
        self._links: tuple[int, list[tuple[str, Point, Point]]] | None = None
        self._layer: pygame.Surface | None = None
        self._layer_key: tuple[object, ...] | None = None
        self._sprites: OrderedDict[tuple[RGB, Base, int, int, bool], pygame.Surface] = OrderedDict()
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
        if ov.sight_circle:
            self._sight_circle(surf, cam, *ov.sight_circle)
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
        busy.busy_marker(surf, cam.view, ov.busy, self._label)  # when work is owed
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

    def _sprite(
        self, colour: RGB, base: Base, facing: float, level: int, done: bool
    ) -> pygame.Surface:
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
        if not isinstance(fp.base, tuple | list):
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
        self,
        surf: pygame.Surface,
        view: TableView,
        cam: Camera,
        mid: str,
        mark: TargetMark,
        hovered: bool,
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
        self,
        surf: pygame.Surface,
        view: TableView,
        cam: Camera,
        ghost: tuple[float, float, float, Base],
        actor: str,
        turn: bool,
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
        text = view.length(mv.length)
        if mv.remaining is not None:
            left = view.length(max(mv.remaining, 0.0))
            text += (
                f"  ({left} left of {view.length(mv.allowance, 'g')})"
                if mv.allowance is not None
                else f"  ({left} left)"
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
            tallest = max(share for _, share in card.dist) or 1.0
            n = len(card.dist)
            bw = max(6, min(26, (w - 16) // max(n, 1) - 2))
            base_y = box.bottom - 16
            for k, (v, share) in enumerate(card.dist):
                bx = box.x + 8 + k * (bw + 2)
                bh = int(34 * share / tallest)
                pygame.draw.rect(surf, (120, 170, 236), (bx, base_y - bh, bw, bh))
                self._label(surf, str(v), (bx + bw / 2, base_y + 1), (180, 186, 196), 14, None)

    def _sight_circle(self, surf: pygame.Surface, cam: Camera, at: Point, r: float) -> None:
        """A dashed circle of the selected model's sight (``Ruleset.sight_radius``)."""
        cx, cy = cam.to_screen(*at)
        rp = r * cam.scale
        n = max(24, int(rp / 4))
        pts = [(cx + rp * math.cos(2 * math.pi * k / n), cy + rp * math.sin(2 * math.pi * k / n))
               for k in range(n + 1)]  # fmt: skip
        self._dashed(surf, pts, style.shade((150, 200, 240), 0.9), 1, 6)

    def _scale_bar(self, surf: pygame.Surface, view: TableView, cam: Camera) -> None:
        upi = view.unit_per_inch or 1.0
        s = cam.scale / upi  # pixels per unit of the rules (an inch, a cm)
        units = next((n for n in (1, 2, 3, 6, 12, 24, 48) if n * s >= 90), 48)
        vx, vy, vw, vh = cam.view
        x, y = vx + 16, vy + vh - 24
        length = int(units * s)
        pygame.gfxdraw.box(surf, (x - 8, y - 20, length + 16, 32), (16, 18, 22, 180))
        pygame.draw.line(surf, style.INK, (x, y), (x + length, y), 3)
        step = 1 if units <= 24 else 2
        for k in range(0, units + 1, step):
            tick = 8 if k in (0, units) else 4
            pygame.draw.line(surf, style.INK, (x + k * s, y - tick), (x + k * s, y), 1)
        unit = view.unit_name or "in"
        self._label(surf, f"{units} {unit}", (x + length / 2, y - 19), style.INK, 16, None)

    def _dice(self, surf: pygame.Surface, cam: Camera, anim: DiceAnim) -> None:
        if anim.rows:
            contest.draw(surf, cam.view, anim, self.text, self._label)
            return
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


def _half_px(base: Base, s: float) -> float:
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
