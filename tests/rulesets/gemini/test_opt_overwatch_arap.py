"""``overwatch = "arap"`` in the activation game (GM-OVERWATCH-ARAP, GM-I-OVERWATCH,
GM-I-RAPID-HALF), forced dice through the game."""

from __future__ import annotations

from engine.actions import Charge, Choose, EndActivation, Move
from engine.testing import apply, make_game
from rulesets.gemini.actions import Activate, Overwatch
from tests.rulesets.gemini.helpers import RIFLE, duel

ARAP = {"turns": "arap", "overwatch": "arap"}


def why(g, a):
    return " ".join(map(str, g.check(a).reasons))


def _on_overwatch(g, then: str = "red"):
    """Blue activates with one die (a 5: one action) and spends it on overwatch."""
    apply(g, Activate(actor="b", count=1), dice=[5])
    apply(g, Overwatch(actor="b"))
    assert "overwatch" in g.state.models["b"].status
    apply(g, EndActivation())
    assert g.to_act() == then


def test_overwatch_costs_an_action_and_fires_at_24_inches_as_two_successes():
    """GM-OVERWATCH-ARAP: red moves to 23" off (beyond the 9" of a reaction, within 24");
    blue fires its rifle once (rapid fire beyond half range: GM-I-RAPID-HALF) with no
    reaction roll: 5+ beyond half range (5), 4+ to wound (4): red is out; overwatch is
    lost on firing."""
    g = duel({"weapons": [RIFLE]}, gap=28.0, options=ARAP)
    _on_overwatch(g)
    apply(g, Activate(actor="r", count=1), dice=[4])
    apply(g, Move(actor="r", to=(20.0, 34.0)))
    d = g.state.pending[0]
    assert d["side"] == "blue" and d["data"]["mode"] == "arap"
    ev = apply(g, Choose(option="fire"), dice=[5, 4])
    assert not [e for e in ev if "reacts (Act" in e.text]
    assert g.state.models["r"].removed and "overwatch" not in g.state.models["b"].status


def test_overwatch_takes_the_action_die():
    """One action: after overwatch nothing is left to do."""
    g = duel({"weapons": [RIFLE]}, gap=30.0, options=ARAP)
    apply(g, Activate(actor="b", count=1), dice=[5])
    apply(g, Overwatch(actor="b"))
    assert not g.check(Move(actor="b", to=(20.0, 12.0))).ok


def test_overwatch_only_as_an_action_in_the_activation_game():
    """GM-I-OVERWATCH: elsewhere a model enters it by neither moving nor firing."""
    g = duel({"weapons": [RIFLE]}, gap=30.0, options={"overwatch": "arap"})
    assert "neither moving nor firing" in why(g, Overwatch(actor="b"))
    g = duel(gap=30.0, options=ARAP)
    apply(g, Activate(actor="b", count=1), dice=[5])
    assert "no shooting weapon" in why(g, Overwatch(actor="b"))


def test_a_move_ends_overwatch():
    """GM-OVERWATCH-ARAP: it may turn on the spot, but moving ends it."""
    g = duel({"weapons": [RIFLE]}, gap=30.0, options=ARAP)
    apply(g, Activate(actor="b", count=3), dice=[5, 5, 5])
    apply(g, Overwatch(actor="b"))
    apply(g, Move(actor="b", to=(20.0, 10.0), facing=45.0))  # a turn: still on overwatch
    assert "overwatch" in g.state.models["b"].status
    apply(g, Move(actor="b", to=(20.0, 12.0)))
    assert "overwatch" not in g.state.models["b"].status


def test_overwatch_fires_at_a_charger_of_a_friend_before_it_goes_in():
    """GM-OVERWATCH-ARAP: red charges blue's b2; b, in overwatch 14.6" from red, fires
    before the charge moves (5+ beyond half range: 5, wound 4+: 4): the charger falls,
    no charge."""
    models = [
        {"id": "b", "side": "blue", "x": 10.0, "y": 10.0, "weapons": [RIFLE]},
        {"id": "b2", "side": "blue", "x": 20.0, "y": 18.0},
        {"id": "r", "side": "red", "x": 20.0, "y": 22.0},
    ]
    g = make_game("gemini", models, vars={"options": ARAP})
    _on_overwatch(g, then="blue")
    apply(g, EndActivation())  # b2 passes: blue's turn is over
    apply(g, Activate(actor="r", count=1), dice=[6])
    apply(g, Charge(actor="r", target="b2"))
    assert g.state.pending[0]["data"]["then"] == "charge"
    assert g.state.models["r"].pos == (20.0, 22.0)
    apply(g, Choose(option="fire"), dice=[5, 4])
    assert g.state.models["r"].removed and g.state.models["b2"].pos == (20.0, 18.0)


def test_overwatch_holds_and_the_charge_goes_in():
    models = [
        {"id": "b", "side": "blue", "x": 10.0, "y": 10.0, "weapons": [RIFLE]},
        {"id": "b2", "side": "blue", "x": 20.0, "y": 18.0},
        {"id": "r", "side": "red", "x": 20.0, "y": 22.0},
    ]
    g = make_game("gemini", models, vars={"options": ARAP})
    _on_overwatch(g, then="blue")
    apply(g, EndActivation())
    apply(g, Activate(actor="r", count=1), dice=[6])
    apply(g, Charge(actor="r", target="b2"))
    apply(g, Choose(option="hold"))
    r = g.state.models["r"]
    assert r.vars["charged"] == g.state.turn and abs(r.y - 18.98) < 0.05
