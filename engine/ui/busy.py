"""The busy marker: a turning ring of dots and a word in the table's top-left corner.

Why: work that does not fit in a frame (target marks being measured, the computer
thinking) runs off it, and meanwhile the table shows its last good picture. The marker
says that picture is about to change, so a player does not read stale rings as the
answer (issue 24).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pygame

RGB = tuple[int, int, int]
#: dots round the ring, and the ring's turns a second
DOTS = 8
TURNS = 1.0


def busy_marker(
    surf: pygame.Surface,
    view: Any,
    text: str,
    label: Callable[..., pygame.Rect],
    now_ms: int | None = None,
) -> None:
    """Draw the marker into the table ``view`` (a rect) with the renderer's ``label``;
    nothing when ``text`` is empty (no work is owed)."""
    if not text:
        return
    x0, y0 = int(view[0]) + 22, int(view[1]) + 22
    t = (pygame.time.get_ticks() if now_ms is None else now_ms) / 1000.0
    lead = int(t * TURNS * DOTS) % DOTS
    pygame.draw.circle(surf, (20, 22, 28), (x0, y0), 15)
    for k in range(DOTS):
        a = 2 * math.pi * k / DOTS
        fade = ((k - lead) % DOTS) / DOTS  # the leading dot brightest
        c = int(90 + 165 * (1 - fade))
        p = (x0 + round(10 * math.cos(a)), y0 + round(10 * math.sin(a)))
        pygame.draw.circle(surf, (c, c, min(255, c + 20)), p, 2)
    label(surf, text, (x0 + 22, y0 - 9), (230, 232, 238), 16, (20, 22, 28), False)
