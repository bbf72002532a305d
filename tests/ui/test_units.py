"""The window in a ruleset's own units and its sight circle (issue 21: Inter Arma is
measured in cm, 2 cm to the inch, and the window shows cm rulers and sight circles)."""

from __future__ import annotations

from pathlib import Path

import pygame

from engine.scenario import load_scenario, new_game
from engine.ui.overlays import length_text
from tests.ui.conftest import click, drag, key, screen_pos, step

ROOT = Path(__file__).resolve().parent.parent.parent


def test_length_text_in_inches_and_cm():
    assert length_text(3.5) == '3.5"'
    assert length_text(3.5, "cm", 2.0) == "7.0 cm"
    assert length_text(6.0, "cm", 2.0, "g") == "12 cm"


def test_inter_arma_in_the_window_shows_cm_and_the_sight_circle(app):
    """IA-I-CM: lengths in cm; IA-SIGHT: a figure on foot sees 30 cm (15 in) by day."""
    game = new_game(load_scenario(ROOT / "rulesets/inter_arma/scenarios/default.toml"))
    app.start(game, {s: "human" for s in game.state.sides})
    step(app)
    if app.battle.awaiting:
        key(app, pygame.K_RETURN)
    side = game.to_act()
    me = next(m for m in game.state.live(side) if m.stats["type"] == "infantry")
    p = screen_pos(app, me.id)
    click(app, p)
    assert app.controller.selected == me.id
    ov = app.battle.overlays()
    assert ov.sight_circle == (me.pos, 15.0)
    assert app.battle.table_view().unit_per_inch == 2.0
    drag(app, p, app.camera.to_screen_i(me.x + 1.0, me.y), release=False)
    assert " cm" in app.hud.odds.html_text and '"' not in app.hud.odds.html_text.split("<br>")[0]
