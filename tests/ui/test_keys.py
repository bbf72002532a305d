"""Number keys mean one verb for the whole game (issue 23 item 5).

Why: "1" once meant "lead" for a leader and "charge" a moment later, and "wait" on a
SWOMP marine, which ended the whole squad's action. Now each verb has its key (shoot 1,
fight 2, charge 3, then the ruleset's own verbs), shown on its button; verbs that end or
forfeit something have none.
"""

from __future__ import annotations

import random

import pygame
import pytest

from engine.ui import choices
from engine.ui.hud import ACTION_SLOTS
from tests.ui.conftest import click, key, screen_pos
from tests.ui.test_every_action import ROOT, _start


def test_each_verb_has_one_key_and_risky_ones_none():
    keys = choices.number_keys(("jump", "climb", "lead", "rpg_test"))
    assert keys == {
        "shoot": 1,
        "fight": 2,
        "charge": 3,
        "jump": 4,
        "climb": 5,
        "lead": 6,
        "rpg_test": 7,
    }
    swomp = choices.number_keys(("overwatch", "wait", "retreat", "rally", "clear_jam"))
    assert "wait" not in swomp and swomp["overwatch"] == 4 and swomp["retreat"] == 5
    assert len(choices.number_keys(tuple(f"v{k}" for k in range(20)))) == 9


@pytest.mark.parametrize("key_", ["umr", "swomp", "gem"])
def test_every_button_shows_its_verbs_key_in_every_state(app, key_):
    """Walk the default scenario; for every model of the side to act, every button's
    number is its verb's, whichever model and state."""
    game = _start(app, f"rulesets/{key_}/scenarios/default.toml")
    keys = app.battle.number_keys
    rng = random.Random(3)
    seen: dict[int, set[str]] = {}
    for _ in range(6):
        side = game.to_act()
        if side is None:
            break
        for m in game.state.live(side):
            app.controller.select(m.id)
            app.battle._refresh_actions()
            for it in app.hud.action_items:
                if it.key is not None:
                    assert keys[it.kind] == it.key, (m.id, it.label)
                    seen.setdefault(it.key, set()).add(it.kind)
                assert it.kind not in choices.RISKY or it.key is None, it.label
            for b, it in zip(app.hud.action_buttons, app.hud.action_items, strict=True):
                assert b.text.startswith(f"{it.key} ") == (it.key is not None)
        cands = [a for a in game.candidates() if not a.KIND.startswith("end")]
        game.apply(rng.choice(cands) if cands else game.candidates()[0])
        app.battle.version += 1
    assert all(len(kinds) == 1 for kinds in seen.values())


def test_a_number_picks_the_same_verb_on_two_models(battle):
    app = battle
    for mid in ("b0", "b1"):
        click(app, screen_pos(app, mid))
        assert app.controller.selected == mid
        key(app, pygame.K_1)
        assert app.controller.mode is not None
        assert app.controller.mode.proto.KIND == "shoot"
        assert app.controller.mode.proto.actor == mid
        key(app, pygame.K_ESCAPE)


def test_a_number_with_nothing_behind_it_says_so_and_does_nothing(battle):
    app = battle
    click(app, screen_pos(app, "b0"))
    n = len(app.game.history)
    key(app, pygame.K_9)
    assert len(app.game.history) == n and app.controller.mode is None
    assert app.controller.note is not None and "9: nothing" in app.controller.note[1]


def test_the_panel_holds_every_button_of_the_walked_scenarios(app):
    """No bundled default scenario needs the panel to scroll (eight buttons at once;
    more scroll, see test_actions_panel)."""
    for key_ in ("umr", "swomp", "gem"):
        game = _start(app, f"rulesets/{key_}/scenarios/default.toml")
        side = game.to_act()
        for m in game.state.live(side):
            app.controller.select(m.id)
            app.battle._refresh_actions()
            assert app.hud.action_total <= ACTION_SLOTS, (key_, m.id)
    assert ROOT.is_dir()
