"""The random agent's lazy pick (issue 24): drawn from a ruleset's ``proposals`` and
checked one at a time, it returns only legal actions, each legal action of the menu can
come up, and a menu with nothing legal is an error, as an empty candidate list is."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.actions import EndPhase
from engine.agents import RandomAgent
from engine.ruleset import Legality
from engine.scenario import load_scenario, new_game

GEM = Path(__file__).resolve().parents[2] / "rulesets/gem/scenarios/default.toml"


def _game_in_play():
    game = new_game(load_scenario(GEM))
    agent = RandomAgent(1)
    for n in range(30):  # past deployment, into the turns
        side = game.to_act()
        if side is None or game.ruleset.proposals(game.state, side, game.ctx) is not None:
            break
        game.apply(agent.choose(game.clone(dice_seed=n), side))
    return game


def test_lazy_picks_are_legal_and_cover_the_legal_menu():
    game = _game_in_play()
    side = game.to_act()
    sure, unsure = game.ruleset.proposals(game.state, side, game.ctx)
    legal = {repr(a.to_dict()) for a in sure + unsure if game.check(a).ok}
    picked = set()
    for seed in range(200):
        a = RandomAgent(seed).choose(game, side)
        assert game.check(a).ok
        picked.add(repr(a.to_dict()))
    assert picked <= legal
    assert len(picked) >= min(len(legal), 3)


class _Menu:
    """A ruleset stand-in whose menu is given: ``legal`` names the legal actions."""

    def __init__(self, sure, unsure, legal):
        self.menu, self.legal = (sure, unsure), legal

    def proposals(self, state, side, ctx):
        return self.menu

    def check(self, action):
        return Legality.yes() if action.actor in self.legal else Legality.no("no")


class _Game:
    def __init__(self, ruleset):
        self.ruleset, self.ctx = ruleset, None
        self.state = type("State", (), {"ruleset": "menu"})()

    def check(self, action):
        return self.ruleset.check(action)

    def allowed(self, action):
        return self.check(action).ok


def test_a_refused_draw_is_drawn_again_among_the_rest():
    acts = [EndPhase(actor=x) for x in ("a", "b", "c", "d")]
    game = _Game(_Menu([], acts + acts, legal={"c"}))
    for seed in range(20):
        assert RandomAgent(seed).choose(game, "blue").actor == "c"


def test_a_menu_with_nothing_legal_is_an_error():
    game = _Game(_Menu([], [EndPhase(actor="a")], legal=set()))
    with pytest.raises(RuntimeError, match="no legal action"):
        RandomAgent(0).choose(game, "blue")
