"""The odds panel is laid out after the frame's flip, never inside the frame (issue 24).

Why these checks: the frame the player waits for must not carry the panel's re-layout;
the panel shows its last good picture meanwhile, with the busy marker once it has waited
a frame, and is never more than one frame behind. Checked headless by the panel's state
(its text, what is owed) and by pixels (the marker, the panel's picture).
"""

from __future__ import annotations

import math

import pygame

from engine.ui import owed as owed_mod
from tests.ui.conftest import click, key, move_mouse, screen_pos, step


def _shoot_mode(app) -> None:
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)  # the first action button: shoot
    assert app.controller.mode is not None
    step(app, owed_mod.PATIENCE + 1)  # what the clicks owed is laid out; the panel is still


def _marker_centre(app) -> tuple[int, int]:
    r = app.hud.odds.rect
    return r.right - 118 + 22, r.y - 4 + 22


def _marker_drawn(app) -> bool:
    """The busy marker's dark disc at its centre and its ring of bright dots."""
    x0, y0 = _marker_centre(app)
    if tuple(app.screen.get_at((x0, y0)))[:3] != (20, 22, 28):
        return False
    lit = 0
    for k in range(8):
        a = 2 * math.pi * k / 8
        c = app.screen.get_at((x0 + round(10 * math.cos(a)), y0 + round(10 * math.sin(a))))
        lit += min(c[:3]) >= 85
    return lit >= 6


def _panel_pixels(app) -> list[tuple[int, ...]]:
    r = app.hud.odds.rect
    return [
        tuple(app.screen.get_at((x, y)))
        for x in range(r.x + 4, r.right - 4, 3)
        for y in range(r.y + 4, r.bottom - 4, 3)
    ]


def test_without_room_the_panel_waits_with_the_busy_marker_then_follows(battle):
    app = battle
    _shoot_mode(app)
    owed = app.battle.owed
    owed.budget = 0.0  # no gap after a flip has room
    move_mouse(app, screen_pos(app, "r1"))
    # the panel had been still: the first change goes in this frame's gap at once
    assert not owed.busy
    r1_text = app.hud.odds.html_text
    move_mouse(app, screen_pos(app, "r0"))
    # drawn with the panel's last good picture (r1's odds); r0's text is owed
    assert app.hud.odds.html_text == r1_text
    assert owed.busy and app.busy()
    assert not _marker_drawn(app)  # owed by this frame alone: no marker yet
    shown = _panel_pixels(app)
    for _ in range(owed_mod.PATIENCE - 2):
        step(app)
        # the last good picture with the marker, while the text waits for room
        assert _marker_drawn(app) and app.hud.odds.html_text == r1_text
        assert _panel_pixels(app) != shown  # the marker is on the panel
    step(app)
    # PATIENCE frames after the last lay-out: laid out after this frame's flip anyway
    assert _marker_drawn(app)
    assert app.hud.odds.html_text != r1_text and "66.7%" in app.hud.odds.html_text
    assert not owed.busy
    step(app)
    assert not _marker_drawn(app)
    assert _panel_pixels(app) != shown  # r0's odds are on the screen


def test_with_room_the_panel_follows_every_frame_after_the_flip(battle):
    app = battle
    _shoot_mode(app)
    owed = app.battle.owed
    owed.budget = 10.0  # every gap has room
    seen = []
    for target in ("r0", "r1", "r0"):
        move_mouse(app, screen_pos(app, target))
        assert not owed.busy  # laid out in this frame's gap, no frame later
        seen.append(app.hud.odds.html_text)
        assert not _marker_drawn(app)
    assert seen[0] == seen[2] != seen[1]  # no tenth-of-a-second throttle any more
    assert owed.cost > 0 and owed.spent >= 0


def test_a_text_that_does_not_fit_waits_only_while_the_gap_is_short():
    """The rule itself, on a clock of our own: room now, or the box was last laid out
    PATIENCE frames ago."""
    now = [0.0]
    laid: list[str] = []
    o = owed_mod.OwedText(budget=0.010, clock=lambda: now[0])
    o.cost = 0.004

    def frame(start: float, at: float) -> None:
        now[0] = at
        o.settle(start, lambda box, k, t: laid.append(t))

    o.owe("odds", "box", "a", shown="")
    frame(0.0, 0.007)  # no room, but the box was never laid out: at once
    assert laid == ["a"] and not o.busy
    o.owe("odds", "box", "b", shown="a")
    frame(0.020, 0.027)  # 7 ms into the frame: 4 ms more would pass 10
    assert laid == ["a"] and o.busy and o.waiting() == ["box"]
    o.owe("odds", "box", "c", shown="a")  # a newer text replaces the waiting one
    frame(0.040, 0.042)  # 2 ms in: room
    assert laid == ["a", "c"] and not o.busy
    o.owe("odds", "box", "d", shown="c")
    for k in range(1, owed_mod.PATIENCE):  # no room in any gap
        frame(0.040 + 0.020 * k, 0.049 + 0.020 * k)
        assert laid == ["a", "c"]
    frame(0.200, 0.209)  # PATIENCE frames after the last lay-out: anyway
    assert laid == ["a", "c", "d"]
    o.owe("odds", "box", "d", shown="d")
    assert not o.busy  # the text shown is the text asked for
