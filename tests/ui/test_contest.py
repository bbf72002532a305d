"""Gemini's Combat Score dice in the window (issue #22): both sides' dice, the parried
die, the scores and the hits, checked by state and by pixels, headless."""

from __future__ import annotations

import pygame

from engine.actions import EndPhase
from engine.testing import make_game
from engine.ui import contest
from tests.ui.conftest import click, key, press, screen_pos, settle, step

SWORD = {"name": "sword", "class": "melee", "parry": 4, "size": "normal"}
KNIFE = {"name": "knife", "class": "melee", "parry": 0, "size": "small"}


def _fight_game():
    """The text's example (GM-COMBAT-SCORE): b WS 4 A 2 with a sword, r WS 3 A 1 with a
    knife, in base contact, Combat Score and parries on; to blue's close combat phase."""
    b = {"id": "b", "side": "blue", "x": 30.0, "y": 20.0, "weapons": [SWORD],
         "stats": {"WS": 4, "A": 2, "I": 4, "T": 3}}  # fmt: skip
    r = {"id": "r", "side": "red", "x": 30.0, "y": 20.99, "weapons": [KNIFE],
         "stats": {"WS": 3, "A": 1, "T": 3, "W": 3}}  # fmt: skip
    g = make_game("gemini", [b, r], vars={"options": {"combat_score": True, "parry": True}})
    g.scenario["path"] = "contest.toml"
    for _ in range(2):
        g.apply(EndPhase())
    assert g.state.phase == "close_combat"
    return g


def _colour_count(app, rect, colour, tol=10) -> int:
    n = 0
    for x in range(rect.left, rect.right, 2):
        for y in range(rect.top, rect.bottom, 2):
            c = app.screen.get_at((x, y))
            if all(abs(int(a) - int(b)) <= tol for a, b in zip(c[:3], colour, strict=True)):
                n += 1
    return n


def test_combat_score_fight_shows_both_rows_the_parry_and_the_scores(app):
    """Dice (GM-I-DICE): b's attack dice 5, 1; r's die 4; b's sword parries r's knife:
    r re-rolls its 4 into a 2. Scores: b 5 + WS 4 = 9; r 2 + WS 3 + 1 for b's fumble = 6:
    b wins by 3 (three hits); then the wound rolls."""
    g = _fight_game()
    app.start(g, {"blue": "human", "red": "human"})
    step(app)
    if app.battle.awaiting:
        key(app, pygame.K_RETURN)
    click(app, screen_pos(app, "b"))
    press(app, app.hud.action_buttons[0])  # its one action button: fight
    g.dice.force([5, 1, 4, 2, 1, 1, 1])
    click(app, screen_pos(app, "r"))
    anim = app.battle.dice
    assert anim is not None and len(anim.rows) == 2
    mine, theirs = anim.rows
    assert (mine.label, mine.faces, mine.rerolled) == ("b", [5, 1], [])
    assert (theirs.label, theirs.faces, theirs.rerolled) == ("r", [2], [0])
    assert mine.score == "5 + WS 4 = 9" and theirs.score == "2 + WS 3 + 1 b's fumbles = 6"
    assert anim.caption == "b wins: 3 hit(s)"
    text = app.hud.log.html_text
    assert "4 parried, now 2" in text and "b wins: 3 hit(s)" in text
    settle(app, 0.7)  # the dice have settled, the panel stays till the animation ends
    assert app.battle.dice is not None and app.battle.dice.t >= contest.SETTLE
    app.step(None, 1 / 60)
    vx, vy, vw, vh = app.camera.view
    foot = pygame.Rect(int(vx), int(vy + vh - 200), int(vw), 200)
    assert _colour_count(app, foot, contest.FACE) > 60  # three die faces
    assert _colour_count(app, foot, contest.PARRIED, tol=14) > 10  # r's re-rolled die
