"""Rendered text, cached: the labels and cards of every frame cost a blit, not a render.

Why a module: the renderer, the terrain tiles and the window's panels all draw text in
the same fonts; one cache keyed by (text, size, colour, bold, background) serves them.
"""

from __future__ import annotations

from collections import OrderedDict

import pygame

from engine.ui.style import font_path

RGB = tuple[int, int, int]


class TextCache:
    """Rendered text surfaces keyed by (text, size, colour, bold); LRU-bounded.

    ``enabled=False`` renders every time: the benchmark's uncached baseline.
    """

    def __init__(self, enabled: bool = True, limit: int = 3000) -> None:
        self.enabled = enabled
        self.limit = limit
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._cache: OrderedDict[tuple[str, int, RGB, bool, RGB | None], pygame.Surface] = (
            OrderedDict()
        )

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
