"""The lazy menu (``proposals``, issue 24): what the random agent and the search's
rollouts draw from before checking. GM-TURN: in every turn structure the draws are
legal, the menu offers the same attacks as ``candidates`` (so the rollout policy, which
picks the best attack of the menu, sees the same ones), and sketched moves are playable."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import actions as act
from engine.agents import RandomAgent
from engine.scenario import load_scenario, new_game
from rulesets.gemini.actions import Activate
from rulesets.gemini.chapters import switches
from tests.rulesets.gemini.helpers import duel

SCENARIOS = Path(__file__).resolve().parents[3] / "rulesets" / "gemini" / "scenarios"


def _attacks(actions: list[act.Action]) -> set[str]:
    return {repr(a.to_dict()) for a in actions if isinstance(a, (act.Charge, act.Shoot, act.Fight))}


@pytest.mark.parametrize("name", ["default", "gasr", "vault"])
def test_draws_are_legal_and_the_menu_keeps_every_attack(name):
    game = new_game(load_scenario(SCENARIOS / f"{name}.toml"))
    agents = {s: RandomAgent(i) for i, s in enumerate(game.state.sides)}
    menus = moves = 0
    for n in range(120):
        side = game.to_act()
        if side is None:
            break
        menu = game.ruleset.proposals(game.state, side, game.ctx)
        if menu is not None:
            menus += 1
            sure, unsure = menu
            legal = game.candidates(side)
            assert _attacks(legal) <= _attacks(sure + unsure)
            moves += any(isinstance(a, act.Move) and game.check(a).ok for a in unsure)
        a = agents[side].choose(game.clone(dice_seed=n), side)
        assert game.check(a).ok, (a, game.check(a).reasons)
        game.apply(a)
    assert menus > 20 and moves > 3


def test_no_menu_while_a_decision_is_owed():
    """A pending answer (a reaction, a charge reaction) is left to ``candidates``."""
    game = new_game(load_scenario(SCENARIOS / "default.toml"))
    side = game.to_act()
    game.state.pending.append({"side": side, "kind": "test", "options": ["a"]})
    assert game.ruleset.proposals(game.state, side, game.ctx) is None


def test_the_menu_follows_the_turn_structure():
    """GM-TURN: in phases, the end of the phase comes first; GM-ARAP: with activation
    dice, before a model activates the menu is the bare end and each ready model's
    activation rolls, every one of them legal."""
    game = new_game(load_scenario(SCENARIOS / "default.toml"))
    side = game.to_act()
    sure, unsure = game.ruleset.proposals(game.state, side, game.ctx)
    assert switches.of(game.state).turns == "phases"
    assert not sure and isinstance(unsure[0], act.EndPhase)
    game = duel(options={"turns": "arap"})
    side = game.to_act()
    sure, unsure = game.ruleset.proposals(game.state, side, game.ctx)
    assert isinstance(unsure[0], act.EndActivation)
    rolls = [a for a in unsure if isinstance(a, Activate)]
    assert rolls and {a.actor for a in rolls} == {m.id for m in game.state.live(side)}
    assert all(game.check(a).ok for a in rolls)
