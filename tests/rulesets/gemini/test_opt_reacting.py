"""Charge reactions, reaction moves and waiting reactions in play (GM-CHARGE-REACTIONS,
GM-REACTIONS, GM-I-CHARGE-REACT, GM-I-REACT-MOVE, GM-I-REACT-WAIT), forced dice through
the game."""

from __future__ import annotations

from engine.actions import Charge, Choose, EndPhase, Move
from engine.testing import apply
from rulesets.gemini.chapters import measure
from tests.rulesets.gemini.helpers import RIFLE, duel


def _reds_turn(g):
    for _ in range(4):
        apply(g, EndPhase())
    assert g.state.active == "red"


def test_charged_model_is_asked_before_the_charger_moves():
    """GM-CHARGE-REACTIONS: the charge waits for the charged side's answer."""
    g = duel({"weapons": [RIFLE]}, gap=8.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    d = g.state.pending[0]
    assert d["side"] == "blue" and d["options"] == ["stand_and_fire", "run", "hold"]
    assert g.state.models["r"].y == 18.0  # not moved yet


def test_stand_and_fire_shoots_the_charger_down():
    """Stand and fire: 2d6 against Act 4 (5, 2: one success, a rapid-fire weapon fires
    twice), hits on 4+ (4, 4), wounds on 4+ (4, 4): W 2 gone, no charge goes in."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"W": 2}}, gap=8.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    apply(g, Choose(option="stand_and_fire"), dice=[5, 2, 4, 4, 4, 4])
    assert g.state.models["r"].removed
    assert g.state.models["b"].vars["reacted"] == g.state.turn


def test_stand_and_fire_misses_and_the_charge_goes_in():
    g = duel({"weapons": [RIFLE]}, gap=8.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    apply(g, Choose(option="stand_and_fire"), dice=[5, 2, 1, 1])
    r, b = g.state.models["r"], g.state.models["b"]
    assert measure.in_contact(r, b) and r.vars["charged"] == g.state.turn


def test_run_two_successes_outruns_the_charge():
    """Run: 5, 6 are two successes, 2 × M 4 = 8" directly away (y 10 → 2); the charger
    (reach 8") falls short and ends 8" nearer, not in contact (GM-I-CHARGE-REACT)."""
    g = duel(gap=8.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    apply(g, Choose(option="run"), dice=[5, 6])
    r, b = g.state.models["r"], g.state.models["b"]
    assert (round(b.x, 6), round(b.y, 6)) == (20.0, 2.0)
    assert round(r.y, 6) == 10.0 and not measure.in_contact(r, b)
    assert r.vars.get("charged") != g.state.turn


def test_run_one_success_is_caught():
    """One success (4, 1): 4" away; the charger's reach 2 × M 5 = 10" still makes it."""
    g = duel({}, {"stats": {"M": 5}}, gap=5.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    apply(g, Choose(option="run"), dice=[4, 1])
    r, b = g.state.models["r"], g.state.models["b"]
    assert round(b.y, 6) == 6.0 and measure.in_contact(r, b)


def test_no_charge_reaction_without_the_switch_or_once_reacted():
    g = duel({"weapons": [RIFLE]}, gap=8.0)
    _reds_turn(g)
    apply(g, Charge(actor="r", target="b"))
    assert not g.state.pending and measure.in_contact(g.state.models["r"], g.state.models["b"])
    g = duel({"weapons": [RIFLE]}, gap=8.0, options={"reactions": True})
    _reds_turn(g)
    g.state.models["b"].vars["reacted"] = g.state.turn
    apply(g, Charge(actor="r", target="b"))
    assert not g.state.pending


def test_reaction_move_one_success_moves_m():
    """GM-I-REACT-MOVE: red moves within 9"; blue answers with a move: 2d6 (5, 2) one
    success, so 4" of its 10" path (x 20 → 16)."""
    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    assert "move" in g.state.pending[0]["verbs"]
    assert not g.check(Move(actor="b", to=(5.0, 10.0))).ok  # 15" > 2 × M
    assert not g.check(Move(actor="r", to=(20.0, 20.0))).ok  # not the reactor
    apply(g, Move(actor="b", to=(12.0, 10.0)), dice=[5, 2])
    b = g.state.models["b"]
    assert (round(b.x, 6), round(b.y, 6)) == (16.0, 10.0)
    assert b.vars["reacted"] == g.state.turn and not g.state.pending


def test_reaction_move_no_success_stays():
    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True})
    _reds_turn(g)
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    apply(g, Move(actor="b", to=(12.0, 10.0)), dice=[1, 3])
    assert g.state.models["b"].pos == (20.0, 10.0)


def _wait(g):
    _reds_turn(g)
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    assert g.state.pending[0]["options"] == ["fire", "wait", "hold"]
    ev = apply(g, Choose(option="wait"))
    assert not [e for e in ev if e.kind == "roll"] and not g.state.pending


def test_waiting_reaction_fires_at_the_end_of_the_turn():
    """GM-REACTIONS: blue waits till the end of red's turn, then fires (GM-I-REACT-WAIT):
    2d6 against Act 4 (5, 2: one success, the rapid-fire weapon fires twice), hits on 4+
    (4, 5), wounds on 4+ (4, 4): red's two wounds gone. The reaction counts for turn 1,
    so blue may react again in red's turn 2."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"W": 2}}, gap=13.0, options={"reactions": True})
    _wait(g)
    for _ in range(4):
        assert not g.state.pending
        apply(g, EndPhase())
    d = g.state.pending[0]
    assert d["side"] == "blue" and d["options"] == ["fire", "hold"] and d["data"]["late"]
    assert g.state.turn == 2
    apply(g, Choose(option="fire"), dice=[5, 2, 4, 5, 4, 4])
    assert g.state.models["r"].removed
    assert g.state.models["b"].vars["reacted"] == 1


def test_a_waiting_model_is_not_asked_again_in_that_turn():
    """One reaction a turn (GM-REACTIONS): while it waits, a second move asks nothing."""
    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True, "running": "double"})
    _wait(g)
    g.state.models["r"].vars.pop("moved")
    apply(g, Move(actor="r", to=(21.0, 18.0)))
    assert not g.state.pending


def test_waiting_reaction_may_move_instead():
    """At the turn's end the waiting model moves: 2d6 (6, 6) two successes, up to 8"."""
    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True})
    _wait(g)
    for _ in range(4):
        apply(g, EndPhase())
    apply(g, Move(actor="b", to=(14.0, 10.0)), dice=[6, 6])
    assert g.state.models["b"].pos == (14.0, 10.0) and not g.state.pending


def test_waiting_model_that_cannot_react_any_more_loses_it():
    """Routing by the turn's end (GM-REACTIONS: no reactions while routing): no question."""
    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True})
    _wait(g)
    g.state.models["b"].status.append("routing")
    for _ in range(4):
        apply(g, EndPhase())
    assert not g.state.pending and "react_wait" not in g.state.models["b"].vars


def test_waiting_reaction_in_the_activation_game_comes_when_the_side_passes():
    """GM-I-REACT-WAIT with turns = "arap": blue waits; when red's turn passes to blue
    (red's only model has activated), blue is asked to fire at red."""
    from engine.actions import EndActivation
    from rulesets.gemini.actions import Activate

    g = duel({"weapons": [RIFLE]}, gap=13.0, options={"reactions": True, "turns": "arap"})
    apply(g, Activate(actor="b", count=1), dice=[1])  # no action: blue's model is done
    assert g.to_act() == "red"
    apply(g, Activate(actor="r", count=1), dice=[5])
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    assert g.state.pending[0]["options"] == ["fire", "wait", "hold"]
    apply(g, Choose(option="wait"))
    assert not g.state.pending
    apply(g, EndActivation())
    d = g.state.pending[0]
    assert d["side"] == "blue" and d["data"]["late"] and d["options"] == ["fire", "hold"]
