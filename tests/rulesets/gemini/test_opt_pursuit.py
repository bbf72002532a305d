"""``pursuit`` in play (GM-PURSUIT, GM-I-PURSUIT): a foe left behind by a rout out of
close combat may pursue; halting takes an Ld test. Forced dice through the game."""

from __future__ import annotations

from engine.actions import Choose, EndPhase, Move
from engine.testing import apply
from tests.rulesets.gemini.helpers import duel

OPTS = {"pursuit": True, "breaking_off": True}


def _routed(blue=None):
    """Red breaks off from blue in its turn and fails its Ld (6, 6): routing; the free
    hit's 3+ fails (1). Blue is asked whether to pursue."""
    g = duel(blue, gap=1.0, options=OPTS)
    for _ in range(4):
        apply(g, EndPhase())
    apply(g, Move(actor="r", to=(20.0, 14.5)), dice=[6, 6, 1])
    r = g.state.models["r"]
    assert "routing" in r.status and r.y == 14.5
    d = g.state.pending[0]
    assert d["side"] == "blue" and d["options"] == ["pursue", "stay"]
    return g


def test_pursuer_follows_its_move_and_is_pursuing():
    """M 2: blue follows 2" (y 10 → 12) and is pursuing (no reactions)."""
    g = _routed({"stats": {"M": 2}})
    apply(g, Choose(option="pursue"))
    b = g.state.models["b"]
    assert b.y == 12.0 and "pursuing" in b.status and b.vars["quarry"] == "r"


def test_stay_keeps_the_foe_where_it_is():
    g = _routed()
    apply(g, Choose(option="stay"))
    b = g.state.models["b"]
    assert b.y == 10.0 and "pursuing" not in b.status


def _to_blues_turn(g, dice):
    while g.state.phase != "recovery":
        apply(g, EndPhase())
    ev = apply(g, EndPhase(), dice=dice)
    assert g.state.active == "blue" and g.state.phase == "movement"
    return ev


def test_halting_fails_and_the_pursuit_goes_on():
    """At the start of blue's turn the halt test 6, 6 fails Ld 7: blue follows again
    and catches red (base contact at y 13.51), and has moved this turn."""
    g = _routed({"stats": {"M": 2}})
    apply(g, Choose(option="pursue"))
    ev = _to_blues_turn(g, [6, 6])
    b = g.state.models["b"]
    assert abs(b.y - 13.51) < 0.02 and "pursuing" in b.status
    assert b.vars["moved"] == g.state.turn and [e for e in ev if "pursues r" in e.text]


def test_halting_passes():
    """1, 2 passes Ld 7: the pursuit ends where blue stands."""
    g = _routed({"stats": {"M": 2}})
    apply(g, Choose(option="pursue"))
    _to_blues_turn(g, [1, 2])
    b = g.state.models["b"]
    assert "pursuing" not in b.status and b.y == 12.0


def test_no_pursuit_without_the_switch():
    g = duel(gap=1.0, options={"breaking_off": True})
    for _ in range(4):
        apply(g, EndPhase())
    apply(g, Move(actor="r", to=(20.0, 14.5)), dice=[6, 6, 1])
    assert not g.state.pending
