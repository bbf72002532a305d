"""The odds panel is laid out after the frame's flip, never inside the frame, and only
where the slot has room for it (issue 24).

Why these checks: the frame the player waits for must not carry the panel's re-layout,
and the lay-out after it must not push the two past the 60 Hz slot; the panel shows its
last good picture meanwhile, with the busy marker once it has waited a frame, and follows
in the first gap with room. Checked headless by the panel's state (its text, what is
owed) and by pixels (the marker, the panel's picture).
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
    step(app, 2)  # what the clicks owed is laid out (every gap has room: conftest)
    assert not app.battle.owed.busy


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
    move_mouse(app, screen_pos(app, "r1"))
    assert not owed.busy  # room in this frame's gap: laid out at once
    r1_text = app.hud.odds.html_text
    owed.budget = 0.0  # from now no gap after a flip has room
    move_mouse(app, screen_pos(app, "r0"))
    # drawn with the panel's last good picture (r1's odds); r0's text is owed
    assert app.hud.odds.html_text == r1_text
    assert owed.busy and app.busy()
    assert not _marker_drawn(app)  # owed by this frame alone: no marker yet
    shown = _panel_pixels(app)
    for _ in range(8):
        step(app)
        # the last good picture with the marker, while the text waits for room
        assert _marker_drawn(app) and app.hud.odds.html_text == r1_text
        assert _panel_pixels(app) != shown  # the marker is on the panel
    owed.budget = 10.0  # a gap with room
    step(app)
    assert _marker_drawn(app)  # this frame was drawn before its gap
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


def test_a_text_is_laid_out_only_where_the_slot_has_room_for_it():
    """The rule itself, on a clock of our own: a lay-out after a frame's flip only when
    the time the frame took, the predicted cost and the slack fit in the slot; the
    prediction scales the last lay-outs' costs to the new text's length; a text that
    finds no room for STALE frames is laid out anyway."""
    now = [0.0]
    laid: list[str] = []
    o = owed_mod.OwedText(budget=0.010, clock=lambda: now[0])

    def lay_out(box, key, text):
        laid.append(text)
        now[0] += 0.004  # every lay-out here takes 4 ms

    def frame(start: float, at: float) -> None:
        now[0] = at
        o.settle(start, lay_out)

    o.owe("odds", "box", "a", shown="")
    assert o.predict("a") == owed_mod.FIRST_GUESS_S * 101 / 100
    frame(0.0, 0.005)  # 5 ms in, ~3 ms guessed, 1 ms slack: room
    assert laid == ["a"] and not o.busy and abs(o.cost - 0.004) < 1e-12
    o.owe("odds", "box", "b", shown="a")
    assert abs(o.predict("b") - 0.004) < 1e-12  # as long as "a": as costly
    frame(0.020, 0.026)  # 6 ms in: 6 + 4 + 1 would pass 10
    assert laid == ["a"] and o.busy and o.waiting() == ["box"]
    o.owe("odds", "box", "c", shown="a")  # a newer text replaces the waiting one
    frame(0.040, 0.044)  # 4 ms in: 4 + 4 + 1 fits
    assert laid == ["a", "c"] and not o.busy
    long = "d" * 300
    o.owe("odds", "box", long, shown="c")
    assert o.predict(long) > 0.010  # four times the text: more than the slot
    for k in range(owed_mod.STALE):  # never room, however short the frame
        frame(0.060 + 0.020 * k, 0.060 + 0.020 * k)
        assert laid == ["a", "c"] and o.busy
    frame(1.0, 1.0)  # owed STALE frames ago: laid out anyway
    assert laid == ["a", "c", long]
    o.owe("odds", "box", long, shown=long)
    assert not o.busy  # the text shown is the text asked for
