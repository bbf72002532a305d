"""Every action the rules offer is reachable from the window (issue 23 item 1).

Why walk the scenarios: the computer picks from ``Game.candidates``; a player must be
able to make each of those choices too — a UMR leader's ``lead`` on a teammate, each of a
GEM wizard's spells at each power on a friendly block, embarking into one's own vehicle.
The walk plays each bundled scenario a few seeded random actions deep and asks, in every
state it passes, which control gives each candidate; then two of them are made with real
clicks.
"""

from __future__ import annotations

import random
from pathlib import Path

import pygame
import pytest

from engine.scenario import load_scenario, new_game
from engine.ui import choices
from tests.ui.conftest import click, key, press, screen_pos, settle, step

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIOS = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("rulesets/*/scenarios/*.toml"))


def _start(app, path: str):
    game = new_game(load_scenario(ROOT / path))
    app.start(game, {s: "human" for s in game.state.sides})
    step(app)
    if app.battle.awaiting:
        key(app, pygame.K_RETURN)
    return game


def _model_for(game, actor: str) -> str:
    """A live model that is the actor or belongs to the acting unit ('' for a unit off
    the table, whose acts the window always shows)."""
    live = game.state.live()
    if any(m.id == actor for m in live):
        return actor
    return next((m.id for m in live if m.unit == actor), "")


def _missing(app) -> list[str]:
    g, c = app.game, app.controller
    out = []
    for a in g.candidates():
        if a.actor:
            c.select(_model_for(g, a.actor) or c.selected)
        if not c.control_of(a):
            out.append(repr(a.to_dict()))
    return out


@pytest.mark.parametrize("path", SCENARIOS)
def test_every_candidate_has_a_control(app, path):
    game = _start(app, path)
    rng = random.Random(7)
    kinds: set[str] = set()
    for depth in range(24):
        if game.to_act() is None:
            break
        if depth % 4 == 0:
            assert _missing(app) == [], f"{path} at action {depth}: no control"
            kinds |= {a.KIND for a in game.candidates()}
        cands = game.candidates()
        # prefer actions over the end-of-phase clicks, so the walk reaches fights
        pick = [a for a in cands if a.KIND not in choices.SIDE_ACTS] or cands
        game.apply(rng.choice(pick))
        app.battle.version += 1
        app.controller.reset()
    assert kinds


def test_umr_leader_leads_a_teammate_with_clicks(app):
    game = _start(app, "rulesets/umr/scenarios/default.toml")
    lead = next(a for a in game.candidates() if a.KIND == "lead")
    click(app, screen_pos(app, lead.actor))
    mode = next(m for m in app.controller.modes() if m.proto.KIND == "lead")
    assert lead.target in mode.offered
    k = app.controller.modes().index(mode)
    press(app, app.hud.action_buttons[k])
    assert app.controller.mode is not None and app.controller.mode.proto.KIND == "lead"
    marks = app.controller.classify(mode.proto)
    assert marks[lead.target].cls == "valid"  # a friend, marked as a target
    before = len(game.history)
    click(app, screen_pos(app, lead.target))
    settle(app, 0.5)
    assert len(game.history) == before + 1
    assert game.history[-1].action == {"do": "lead", "actor": lead.actor, "target": lead.target}


def test_gem_wizard_casts_each_spell_on_a_friend_with_clicks(app):
    game = _start(app, "rulesets/gem/scenarios/fantasy.toml")
    for _ in range(40):  # to the casting side's magic phase
        casts = [a for a in game.candidates() if a.KIND == "cast"]
        if casts:
            break
        game.apply(game.ruleset.advance(game.state, game.ctx))
        app.battle.version += 1
        settle(app, 0.1)
        if app.battle.awaiting:
            key(app, pygame.K_RETURN)
    assert casts
    wizard = _model_for(game, casts[0].actor)
    click(app, screen_pos(app, wizard))
    modes = [m for m in app.controller.modes() if m.proto.KIND == "cast"]
    spells = {(a.spell, a.power) for a in casts}
    assert {(m.proto.spell, m.proto.power) for m in modes} == spells  # one button each
    cast = casts[0]
    mode = next(m for m in modes if (m.proto.spell, m.proto.power) == (cast.spell, cast.power))
    press(app, app.hud.action_buttons[app.controller.modes().index(mode)])
    friend = _model_for(game, cast.target)
    assert game.state.models[friend].side == game.state.models[wizard].side
    before = len(game.history)
    click(app, screen_pos(app, friend))
    settle(app, 0.5)
    assert len(game.history) == before + 1
    assert game.history[-1].action["do"] == "cast"
    assert game.history[-1].action["target"] == cast.target
