"""Fear and Terror outside a charge (GM-FEAR, GM-TERROR, GM-I-FEAR-TURN) and the
smoke's halved WS is in test_combat_score. Forced dice through the game."""

from __future__ import annotations

from engine.actions import EndPhase
from engine.testing import apply
from tests.rulesets.gemini.helpers import duel

CONTACT = 25.0 / 25.4 + 0.01


def _to_reds_turn(g, dice):
    for _ in range(3):
        apply(g, EndPhase())
    return apply(g, EndPhase(), dice=dice, exact=False)


def test_terror_within_eight_inches_at_the_start_of_the_turn_routs():
    """Red starts its turn 5" from a terror-causer: Cl 7 − 1 = 6, a 4 + 4 fails: rout;
    the rout runs 2D6 (2, 2) = 4" and the rally (6, 6) fails (GM-I-ROUT)."""
    g = duel({"stats": {"causes_terror": True}}, gap=6.0, options={"psychology": True})
    ev = _to_reds_turn(g, [4, 4, 2, 2, 6, 6])
    r = g.state.models["r"]
    assert "routing" in r.status and r.vars["terror_tested"] is True and r.y == 20.0
    assert [e for e in ev if "terror test" in e.text]


def test_terror_once_a_game_and_passed():
    g = duel({"stats": {"causes_terror": True}}, gap=6.0, options={"psychology": True})
    _to_reds_turn(g, [3, 3])
    r = g.state.models["r"]
    assert "routing" not in r.status and r.vars["terror_tested"] is True


def test_terror_beyond_eight_inches_no_test():
    g = duel({"stats": {"causes_terror": True}}, gap=10.0, options={"psychology": True})
    ev = _to_reds_turn(g, [])
    assert not [e for e in ev if "terror test" in e.text]


def test_fear_in_base_contact_at_the_start_of_the_turn():
    """A fear-causer in contact: Cl 7, 6 + 6 fails: red is afraid of it (6s to hit)."""
    g = duel({"stats": {"causes_fear": True}}, gap=CONTACT, options={"psychology": True})
    _to_reds_turn(g, [6, 6])
    r = g.state.models["r"]
    assert "afraid" in r.status and r.vars["afraid_of"] == "b"


def test_fear_not_at_a_distance():
    g = duel({"stats": {"causes_fear": True}}, gap=6.0, options={"psychology": True})
    _to_reds_turn(g, [6, 6])
    assert "afraid" not in g.state.models["r"].status
