"""The three turn structures of the ``turns`` switch (GM-TURN, GM-INITIATIVE, GM-ARAP)."""

from __future__ import annotations

from engine.actions import EndActivation, Move, Shoot
from engine.testing import apply, make_game
from rulesets.gemini.actions import Activate
from rulesets.gemini.chapters.arap import NO_ACTIONS
from tests.rulesets.gemini.helpers import RIFLE, duel


def test_initiative_order_models_act_highest_i_first():
    """GM-INITIATIVE: models act in I order whatever their side; a tie across sides is
    settled by a die (here red 6 against blue 2)."""
    models = [
        {"id": "b1", "side": "blue", "x": 10.0, "y": 5.0, "stats": {"I": 2}},
        {"id": "b2", "side": "blue", "x": 20.0, "y": 5.0, "stats": {"I": 4}},
        {"id": "r1", "side": "red", "x": 10.0, "y": 40.0, "stats": {"I": 2}},
        {"id": "r2", "side": "red", "x": 20.0, "y": 40.0, "stats": {"I": 3}},
    ]
    g = make_game("gemini", models, first=None, setup_dice=[2, 6],
                  vars={"options": {"turns": "initiative"}})  # fmt: skip
    assert g.state.vars["initiative_order"]["order"] == ["b2", "r2", "r1", "b1"]
    assert g.to_act() == "blue"
    assert not g.check(Move(actor="b1", to=(10.0, 7.0))).ok
    apply(g, Move(actor="b2", to=(20.0, 8.0)))
    apply(g, EndActivation())
    assert g.to_act() == "red" and g.check(Move(actor="r2", to=(20.0, 37.0))).ok


def test_initiative_scenario_first_side_moves_first():
    """GM-INITIATIVE: an ambush hands one side the first moves despite a lower I."""
    g = duel({"stats": {"I": 5}}, {"stats": {"I": 1}}, first="red",
             options={"turns": "initiative"})  # fmt: skip
    assert g.state.vars["initiative_order"]["order"] == ["r", "b"]


def test_activation_dice_buy_actions_against_act():
    """GM-ARAP: three dice against Act 4: 5, 4 and 2 are two actions (one failure: the
    turn goes on); a third act is refused."""
    g = duel({"weapons": [RIFLE]}, gap=20.0, options={"turns": "arap"})
    assert not g.check(Move(actor="b", to=(20.0, 12.0))).ok  # activate first
    ev = apply(g, Activate(actor="b", count=3), dice=[5, 4, 2])
    assert [e.outcome for e in ev if e.kind == "resolution"] == ["2 actions"]
    apply(g, Move(actor="b", to=(20.0, 12.0)))
    apply(g, Move(actor="b", to=(20.0, 14.0)))  # a second move: another action die
    assert g.check(Shoot(actor="b", target="r")).codes == (NO_ACTIONS,)
    apply(g, EndActivation())
    assert g.to_act() == "red"


def test_two_failed_dice_end_the_sides_turn_and_frozen_rolls_two():
    """GM-ARAP: two failures hand the turn over after the model's actions; a frozen
    model rolls no more than two dice."""
    models = [
        {"id": "b1", "side": "blue", "x": 10.0, "y": 5.0},
        {"id": "b2", "side": "blue", "x": 20.0, "y": 5.0, "state": {"status": ["frozen"]}},
        {"id": "r1", "side": "red", "x": 10.0, "y": 40.0},
    ]
    g = make_game("gemini", models, vars={"options": {"turns": "arap"}})
    assert not g.check(Activate(actor="b2", count=3)).ok
    assert g.check(Activate(actor="b2", count=2)).ok
    apply(g, Activate(actor="b1", count=3), dice=[6, 1, 3])
    apply(g, Move(actor="b1", to=(10.0, 8.0)))
    apply(g, EndActivation())
    assert g.to_act() == "red"  # b2 never got its activation


def test_the_window_shows_statuses_most_telling_first_in_words():
    """The model card and the table: down and stunned before pinned, in words."""
    g = duel(red={"state": {"status": ["frozen", "running_for_cover", "stunned", "zzz"]}})
    v = g.ruleset.model_view(g.state.models["r"])
    assert v["status"] == ["stunned", "running for cover", "frozen", "zzz"]
