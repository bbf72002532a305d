"""A contested roll on screen: one row of dice per side, its score, the verdict.

Why its own panel: in a Gemini Combat Score fight both models roll at once, a parry
makes the foe re-roll its best die, and only the highest die plus WS and the modifiers
counts; a flat line of faces (the usual dice panel) hides whose die was whose. The rows
come from the fight's log entry (``data["contest"]``, ``overlays.contest_rows``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pygame
import pygame.gfxdraw

from engine.ui import style
from engine.ui.overlays import DiceAnim
from engine.ui.textcache import TextCache

#: the ring of a die a parry made its roller re-roll
PARRIED = (236, 170, 60)
#: the face of a die and its plain ring
FACE, RING = (244, 240, 228), (60, 60, 70)
#: how long (of the animation's 0..1) the dice tumble before they settle
SETTLE = 0.6
SIZE, GAP, NAME_W, SUM_W = 34, 6, 150, 330


def draw(
    surf: pygame.Surface,
    view: tuple[float, float, float, float],
    anim: DiceAnim,
    text: TextCache,
    label: Callable[..., Any],
) -> None:
    """The contest panel at the foot of the table view (``view``: x, y, w, h)."""
    vx, vy, vw, vh = view
    most = max(len(r.faces) for r in anim.rows)
    width = NAME_W + most * (SIZE + GAP) + SUM_W
    x0 = vx + vw / 2 - width / 2
    rows_h = len(anim.rows) * (SIZE + 10)
    y0 = vy + vh - rows_h - 96
    panel = pygame.Rect(int(x0 - 14), int(y0 - 12), int(width + 28), rows_h + 44)
    pygame.gfxdraw.box(surf, panel, (16, 18, 24, 220))
    settled = anim.t >= SETTLE
    for j, row in enumerate(anim.rows):
        y = y0 + j * (SIZE + 10)
        label(surf, row.label[:18], (x0 + NAME_W / 2, y + SIZE / 2 - 9), style.INK, 16, None)
        for k, face in enumerate(row.faces):
            shown = (
                face
                if settled
                else random.Random(int(anim.t * 30) * 131 + k * 7 + j * 53).randint(1, 6)
            )
            rect = pygame.Rect(int(x0 + NAME_W + k * (SIZE + GAP)), int(y), SIZE, SIZE)
            pygame.draw.rect(surf, FACE, rect, border_radius=6)
            parried = settled and k in row.rerolled
            pygame.draw.rect(
                surf, PARRIED if parried else RING, rect, 3 if parried else 2, border_radius=6
            )
            t = text.get(str(shown), int(SIZE * 0.8), (30, 30, 36), True)
            surf.blit(t, t.get_rect(center=rect.center))
        if settled:
            sx = x0 + NAME_W + most * (SIZE + GAP) + SUM_W / 2
            label(surf, row.score[:48], (sx, y + SIZE / 2 - 9), style.INK, 16, None)
    if anim.caption and settled:
        c = style.INK if anim.good is None else style.GOOD if anim.good else style.BAD
        note = "   (ringed: re-rolled by a parry)" if any(r.rerolled for r in anim.rows) else ""
        label(surf, anim.caption[:70] + note, (vx + vw / 2, y0 + rows_h + 2), c, 18, None)
