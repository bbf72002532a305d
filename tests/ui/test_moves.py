"""The move preview is what releasing the mouse does (issue 23 item 2): the same action,
the rules' own check, the real end where the rules stop a move short, and the reach of
the selected model drawn on the table."""

from __future__ import annotations

import math
from pathlib import Path

import pygame

from engine.scenario import load_scenario, new_game
from tests.ui.conftest import click, drag, key, post, screen_pos, settle, step

ROOT = Path(__file__).resolve().parent.parent.parent


def _start(app, path: str):
    game = new_game(load_scenario(ROOT / path))
    app.start(game, {s: "human" for s in game.state.sides})
    step(app)
    if app.battle.awaiting:
        key(app, pygame.K_RETURN)
    return game


def test_a_move_the_rules_would_stop_short_is_refused_with_its_reason(app):
    """SWOMP's captain, dragged 5" north at the start of the window tests' SWOMP table
    (tests/scenarios/swomp_window.toml, a copy of the default), would meet ml's base
    after 3": the check asks the same swept move that apply makes, so the
    preview refuses it and names what is in the way (SWOMP-I-PATH), and releasing
    leaves the captain where he stands."""
    game = _start(app, "tests/scenarios/swomp_window.toml")
    m = game.state.models["captain"]
    assert m.pos == (36.0, 5.0)
    a = screen_pos(app, "captain")
    b = app.camera.to_screen_i(36.0, 10.0)
    drag(app, a, b, release=False)
    pv = app.controller.preview()
    assert not pv.legal
    assert 'meets ml after 3.0"' in pv.reason
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))
    settle(app, 0.5)
    assert game.state.models["captain"].pos == (36.0, 5.0)


def test_the_selected_model_shows_its_reach(app):
    """GEM's Achilles may move 5": the reach outline is drawn around him, tinted, and its
    edge lies within the allowance in every direction."""
    game = _start(app, "rulesets/gem/scenarios/default.toml")
    side = game.to_act()
    mid = next(
        m.id
        for m in game.state.live(side)
        if game.ruleset.allowance(game.state, m.id, game.ctx, "")
    )
    allow = game.ruleset.allowance(game.state, mid, game.ctx, "")
    click(app, screen_pos(app, mid))
    ov = app.battle.overlays()
    assert len(ov.reach) >= 12
    m = game.state.models[mid]
    assert all(math.dist(p, m.pos) <= allow + 0.01 for p in ov.reach)
    assert max(math.dist(p, m.pos) for p in ov.reach) > allow * 0.5
    # the area is tinted on screen: a pixel inside the reach differs from the frame
    # drawn without it
    inside = app.camera.to_screen_i(
        m.x + (ov.reach[0][0] - m.x) * 0.7, m.y + (ov.reach[0][1] - m.y) * 0.7
    )
    app.battle.draw(app.screen)
    with_reach = app.screen.get_at(inside)
    ov.reach = []
    app.battle.renderer.render(app.screen, app.battle.table_view(), ov, app.camera)
    assert app.screen.get_at(inside) != with_reach
