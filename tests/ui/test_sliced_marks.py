"""Target marks measured a slice per frame (issue 24): the frame never waits for a whole
table of sight lines; meanwhile it shows the last complete marks and a busy marker, and
the slices add up to exactly what ``classify`` answers at once."""

from __future__ import annotations

import pygame

from engine.ui import targets
from engine.ui.overlays import TargetMark
from engine.ui.targets import Sliced
from tests.ui.conftest import click, key, screen_pos, step


def _marks(ids, cls="valid"):
    return {t: TargetMark(cls, "") for t in ids}


def test_slices_add_up_and_the_last_complete_marks_stand_in_meanwhile():
    ids = [f"t{i:02d}" for i in range(20)]
    asked: list[str] = []

    def mark(t: str) -> TargetMark:
        asked.append(t)
        return TargetMark("valid", "")

    s = Sliced(budget=0.0)  # no time at all: one target a call
    first, done = s.soon(1, "k", lambda: ids, mark, lambda t: True)
    assert not done and s.busy and list(first) == ids[:1]
    while not done:
        got, done = s.soon(1, "k", lambda: ids, mark, lambda t: True)
    assert got == _marks(ids) and asked == ids  # each target measured once, in order
    # the game moves on (version 2): until the new marks are done, the old ones stand,
    # less the targets that left the table
    asked.clear()
    shown, done = s.soon(
        2, "k", lambda: ids, lambda t: TargetMark("hidden", ""), lambda t: t != "t00"
    )
    assert not done and shown == {t: m for t, m in got.items() if t != "t00"}
    assert len(asked) == 0  # the new version's slice was measured with its own mark


def test_the_window_marks_over_frames_with_a_busy_marker(battle, monkeypatch):
    app = battle
    c = app.controller
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)  # shoot: two enemies to mark
    monkeypatch.setattr(targets, "SMALL_TABLE", 1)
    c.sliced = Sliced(budget=0.0)  # from now on one target a call, nothing measured yet
    c._cache.clear()
    ov = app.battle.overlays()
    assert ov.busy and len(ov.targets) < 2 and app.busy()
    step(app, 3)
    ov = app.battle.overlays()
    assert not ov.busy and ov.targets == c.classify(c.mode.proto)
    assert set(ov.targets) == {"r0", "r1"}


def test_the_frame_budget_is_shared_and_renewed_each_frame():
    s = Sliced(budget=0.05)
    s._spent = 0.05  # the frame's budget already spent by an earlier call
    ids = [f"t{i:02d}" for i in range(20)]
    got, done = s.soon(1, "k", lambda: ids, lambda t: TargetMark("valid", ""), lambda t: True)
    assert not done and len(got) == 1  # one target, no more, in a spent frame
    s.new_frame()
    got, done = s.soon(1, "k", lambda: ids, lambda t: TargetMark("valid", ""), lambda t: True)
    assert done and got == _marks(ids)  # a fresh 50 ms does the cheap rest at once


def test_a_small_table_is_marked_in_one_frame(battle):
    app = battle
    click(app, screen_pos(app, "b0"))
    key(app, pygame.K_1)
    assert app.controller.mode is not None
    ov = app.battle.overlays()
    assert not ov.busy and set(ov.targets) == {"r0", "r1"}
