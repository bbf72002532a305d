"""The odds panel's text box keeps its scroll bar across texts and draws what a new box
draws (engine/ui/steadybox.py, issue 24).

Why pixels: reusing the bar is only allowed because nobody can tell; so a box that went
through other texts (short ones that hide the bar, tall ones that show it, scrolled) must
give the very picture of a box built with its last text, bar included.
"""

from __future__ import annotations

import pygame
import pytest
from pygame_gui.elements import UITextBox

from engine.ui.steadybox import SteadyTextBox

SHORT = "<b>b0 shoot r1</b><br>in range"
TALL = "<br>".join(f"line {k}: <font color='#f08a80'>{k * 7}%</font> to hit" for k in range(12))
TALLER = "<br>".join(f"row {k} of the <b>odds</b>" for k in range(25))


def _picture(app, box) -> list[tuple[int, ...]]:
    """The window's pixels over the box and its scroll bar, after one drawing."""
    app.manager.update(0.0)
    app.screen.fill((0, 0, 0))
    app.manager.draw_ui(app.screen)
    r = box.rect
    return [
        tuple(app.screen.get_at((x, y)))
        for x in range(r.x, r.right)
        for y in range(r.y, r.bottom, 2)
    ]


def _fresh(app, text: str) -> list[tuple[int, ...]]:
    box = UITextBox(text, pygame.Rect(40, 40, 300, 116), app.manager)
    try:
        return _picture(app, box)
    finally:
        box.kill()


@pytest.mark.parametrize(
    "history",
    [
        [TALL],
        [TALL, TALLER],
        [SHORT, TALL, SHORT, TALLER],
        [TALLER, TALL],
        [TALL, SHORT],
    ],
)
def test_a_box_that_went_through_other_texts_draws_what_a_new_box_draws(app, history):
    box = SteadyTextBox("", pygame.Rect(40, 40, 300, 116), app.manager)
    for text in history:
        box.set_text(text)
        _picture(app, box)
        if box.scroll_bar is not None:
            box.scroll_bar.set_scroll_from_start_percentage(0.5)  # the player scrolled
            _picture(app, box)
    last = history[-1]
    box.set_text(last + " ")  # a new text: the scroll position starts at the top again
    box.set_text(last)
    mine = _picture(app, box)
    box.kill()
    assert mine == _fresh(app, last)


def test_the_bar_is_built_once_and_hidden_while_the_text_fits(app):
    box = SteadyTextBox("", pygame.Rect(40, 40, 300, 116), app.manager)
    assert box.scroll_bar is None
    box.set_text(TALL)
    bar = box.scroll_bar
    assert bar is not None and bar.visible
    box.set_text(SHORT)
    assert box.scroll_bar is None and not bar.visible and bar.alive()
    box.set_text(TALLER)
    assert box.scroll_bar is bar and bar.visible
    assert bar.visible_percentage < 1.0 and bar.start_percentage == 0.0
    box.kill()
    assert not bar.alive()


def test_a_resized_box_draws_what_a_new_box_of_that_size_draws(app):
    box = SteadyTextBox("", pygame.Rect(40, 40, 300, 116), app.manager)
    box.set_text(TALL)
    box.set_dimensions((300, 140))
    box.set_text(TALLER)
    mine = _picture(app, box)
    box.kill()
    fresh = UITextBox(TALLER, pygame.Rect(40, 40, 300, 140), app.manager)
    assert mine == _picture(app, fresh)
    fresh.kill()
