"""A rich-text box that keeps its scroll bar when its text changes: the odds panel's box.

Why: pygame_gui's text box throws its scroll bar away on every new text and, when the new
text is too tall for the box again, builds a fresh one (a bar, three buttons, their
themes and shapes): about 10 ms of a re-layout that otherwise costs 1 to 3 ms, and the
odds panel's text overflows its box for most charges and shots with modifiers. Reusing
the bar (reset to the top, resized to the new share of the text in view) gives the same
picture (tests/ui/test_steady_box.py compares the pixels) for a tenth of the cost, so the
panel's re-layout fits in the gap after a frame (engine/ui/owed.py, issue 24).
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame_gui.elements import UITextBox, UIVerticalScrollBar


class SteadyTextBox(UITextBox):
    """A :class:`UITextBox` whose scroll bar survives a new text (module docstring)."""

    #: the bar set aside during a rebuild; between texts that fit, the hidden bar
    #: kept for the next text that does not (it then shows again)
    _spare: UIVerticalScrollBar | None = None
    _parked: UIVerticalScrollBar | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """The base box, and a hidden bar built now, while the window opens: the first
        text too tall for the box then costs no more than the others."""
        super().__init__(*args, **kwargs)
        if self.scroll_bar is None and self._parked is None:
            bar = UIVerticalScrollBar(
                self._bar_rect(),
                1.0,
                self.ui_manager,
                self.ui_container,
                parent_element=self,
                visible=self.visible,
                anchors=self.anchors,
            )
            self.join_focus_sets(bar)
            bar.hide()
            self._parked = bar

    def rebuild(self) -> None:
        """The base rebuild, with the old scroll bar set aside for reuse instead of
        killed; hidden and kept when the new text fits without one."""
        self._spare, self.scroll_bar = self.scroll_bar or self._parked, None
        self._parked = None
        try:
            super().rebuild()
        finally:
            spare, self._spare = self._spare, None
            if spare is not None and spare is not self.scroll_bar:
                spare.hide()
                self._parked = spare
            elif spare is not None and self.visible:
                spare.show()

    def kill(self) -> None:
        """The base kill, and the kept bar with it."""
        if self._parked is not None:
            self._parked.kill()
            self._parked = None
        super().kill()

    def _build_scrollbar_for_oversized_text(
        self, total_corner_width_offsets: int, total_corner_height_offsets: int
    ) -> None:
        """The base method's narrower wrap and re-parse, then the set-aside bar
        reused where it fits the box as a new one would (else a new one is built)."""
        spare = self._spare
        if spare is None or spare.relative_rect != self._bar_rect():
            super()._build_scrollbar_for_oversized_text(
                total_corner_width_offsets, total_corner_height_offsets
            )
            return
        self.text_wrap_rect = pygame.Rect(
            self.rect[0]
            + self.padding[0]
            + self.border_width["left"]
            + self.shadow_width
            + self.rounded_corner_width_offsets[0],
            self.rect[1]
            + self.padding[1]
            + self.border_width["top"]
            + self.shadow_width
            + self.rounded_corner_height_offsets[0],
            max(
                1,
                self.rect[2]
                - self.padding[0] * 2
                - (self.border_width["left"] + self.border_width["right"])
                - self.shadow_width * 2
                - total_corner_width_offsets
                - self.scroll_bar_width,
            ),
            max(
                1,
                self.rect[3]
                - self.padding[1] * 2
                - (self.border_width["top"] + self.border_width["bottom"])
                - self.shadow_width * 2
                - total_corner_height_offsets,
            ),
        )
        self.parse_html_into_style_data()
        visible = 1.0
        if self.text_box_layout is not None:
            visible = self.text_wrap_rect[3] / self.text_box_layout.layout_rect.height
        spare.reset_scroll_position()
        spare.set_visible_percentage(visible)
        self.scroll_bar = spare

    def _bar_rect(self) -> pygame.Rect:
        """Where the base method puts a new scroll bar (relative to the container)."""
        return pygame.Rect(
            (
                self.relative_rect.right
                - self.border_width["right"]
                - self.shadow_width
                - self.scroll_bar_width,
                self.relative_rect.top + self.border_width["top"] + self.shadow_width,
            ),
            (
                self.scroll_bar_width,
                self.rect.height
                - (self.border_width["left"] + self.border_width["right"])
                - 2 * self.shadow_width,
            ),
        )
