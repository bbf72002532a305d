"""Undo against the computer: it takes back the player's own last action and the
computer's answer to it, and the same action played again meets the same answer, with
the same dice after it.

Why SWOMP's firefight: its moves roll no dice, so a move, an end of activation and the
computer's answering move can all be taken back (undo stops at the last roll, DESIGN.md
"Undo"), and its shots roll d10s to show the dice stream after the replay is the same.
Why both levels: "normal" decides from the position alone (its dice are seeded from it),
"hard" searches on the clock, so only the remembered answer makes it replay the same.
"""

from __future__ import annotations

import pygame
import pytest

from engine.scenario import load_scenario, new_game
from engine.ui.app import App
from tests.ui.conftest import SIZE, key, press, step
from tests.ui.test_solo import pump_until

SCENARIO = "tests/scenarios/swomp_window.toml"


def start(tmp_path, level: str):
    app = App(size=SIZE, saves_dir=tmp_path / "saves", ai_delay=0.0)
    game = new_game(load_scenario(SCENARIO))
    assert game.to_act() == "blue"
    app.start(game, {"blue": "human", "red": level})
    step(app)
    return app


def blue_again(app) -> bool:
    return pump_until(
        app, lambda: app.game.to_act() == "blue" and app.battle.job is None, frames=600
    )


def move_and_end(app) -> None:
    """Blue moves its first model that can, then ends the activation (Space): red answers."""
    move = next(a for a in app.game.candidates() if a.KIND == "move")
    app.battle.submit(move)
    step(app)
    key(app, pygame.K_SPACE)
    assert blue_again(app)


def shoot(app) -> list[int]:
    """Blue's first shot (a roll): the faces it consumed."""
    game = app.game
    assert game is not None
    shot = next(a for a in game.candidates() if a.KIND == "shoot")
    n = len(game.history)
    app.battle.submit(shot)
    step(app)
    return [f for st in game.history[n:] for f in st.faces]


def steps(app) -> list[tuple]:
    game = app.game
    assert game is not None
    return [(s.side, str(s.action), tuple(s.faces), s.checksum) for s in game.history]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_undo_takes_back_own_action_and_the_answer_replays(tmp_path, level):
    app = start(tmp_path, level)
    try:
        move_and_end(app)
        played = steps(app)
        sides = [s[0] for s in played]
        assert sides[-1] == "red" and "blue" in sides  # red answered
        own = max(i for i, s in enumerate(sides) if s == "blue")  # blue's end of activation
        assert all(not s[2] for s in played[own:])  # no roll since: all of it can go back
        assert app.battle.undo_count() == len(played) - own
        assert app.hud.b_undo.is_enabled
        press(app, app.hud.b_undo)
        assert steps(app) == played[:own]  # blue's end and red's answer are gone
        assert app.game.to_act() == "blue"
        key(app, pygame.K_SPACE)  # the same action again
        assert blue_again(app)
        assert steps(app) == played  # the same answer, step for step
        faces = shoot(app)
        assert faces  # a shot rolls: the dice stream goes on from the same place
        assert app.game.history[-1].checksum
    finally:
        app.close()
    # a second window, no undo, the same inputs: the same answers and the same faces
    # (the hard level searches on the clock, so only "normal" is expected to match)
    if level == "normal":
        other = start(tmp_path, level)
        try:
            move_and_end(other)
            assert steps(other) == played
            assert shoot(other) == faces
        finally:
            other.close()


def test_undo_reaches_back_to_the_move_one_press_at_a_time(tmp_path):
    """After the answer is taken back, Undo again takes back blue's move itself."""
    app = start(tmp_path, "normal")
    try:
        before = steps(app)
        move_and_end(app)
        key(app, pygame.K_u)
        assert steps(app)[-1][:2] == ("blue", str(app.game.history[-1].action))
        assert "'move'" in steps(app)[-1][1]
        key(app, pygame.K_u)
        assert steps(app) == before
    finally:
        app.close()


class Fickle:
    """A computer that never decides the same way twice in a row (as a search stopped by
    the clock may not): the k-th call picks the k-th of its non-ending candidates."""

    name = "fickle"

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, game, side):
        opts = [a for a in game.candidates(side) if a.KIND == "move"]
        self.calls += 1
        return opts[self.calls % len(opts)] if opts else game.candidates(side)[0]


def test_an_undone_answer_is_remembered_not_asked_again(tmp_path):
    app = start(tmp_path, "normal")
    try:
        app.battle.agents["red"] = fickle = Fickle()
        move_and_end(app)
        played = steps(app)
        asked = fickle.calls
        press(app, app.hud.b_undo)
        key(app, pygame.K_SPACE)
        assert blue_again(app)
        assert steps(app) == played
        assert fickle.calls == asked  # the answer was recalled, not decided again
    finally:
        app.close()
