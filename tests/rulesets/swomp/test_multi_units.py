"""Multiple attackers from several units roll one contest, and each model fights once
per round (SWOMP "Close Combat: Multiple attackers": "When there is more than one
attacker in a close combat, only one contest is required"; SWOMP-I-MULTI-UNITS), with
forced dice. Before this, the audit's multi_two_units rolled two contests at CR 3 each
(swomp.md, defect 8)."""

from engine.actions import EndActivation, Fight
from rulesets.swomp.chapters import core

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def two_units():
    """Marine a in combat with hormagaunt g1 (unit u1) and g2 (unit u2)."""
    g = make(
        [
            m("a", "blue", 20.0, 24.0),
            m("g1", "red", 18.98, 24.0, "hormagaunt", unit="u1"),
            m("g2", "red", 21.02, 24.0, "hormagaunt", unit="u2"),
        ],
        first="red",
    )
    a = g.state.models["a"]
    core.engage(a, g.state.models["g1"])
    core.engage(a, g.state.models["g2"])
    return g


def test_attackers_of_two_units_roll_one_contest():
    """g1's fight brings g2 in: CR 3 plus half of g2's 3 (rounded down) = 4, one roll."""
    g = two_units()
    ev = attack(g, Fight(actor="g1", target="a"), [5, 5])
    res = [e.text for e in ev if e.kind == "resolution"]
    assert len(res) == 1
    assert res[0].startswith("g1, g2 attack a: CR 3 + half of g2 1 + 5 = 9 does not beat")


def test_a_model_that_struck_beside_another_unit_does_not_fight_again_this_round():
    """The per-round record: g2 struck in u1's combat, so u2's own action may not fight;
    the record is dropped when the next round begins."""
    g = two_units()
    attack(g, Fight(actor="g1", target="a"), [5, 5])
    g.apply(EndActivation())  # u1
    g.apply(EndActivation())  # blue's a
    why = g.check(Fight(actor="g2", target="a")).reason
    assert "g2 has already fought this round" in why
    g.apply(EndActivation())  # u2: round 1 ends
    assert g.state.turn == 2 and "joined" not in g.state.vars["swomp"]


def test_models_of_two_units_on_a_vehicle_roll_one_contest():
    """SWOMP "Multiple attackers": "the same rules apply ... against a vehicle": m1 (unit
    a) and m2 (unit b) on a stopped rhino roll once, CR 4 + stopped 5 + half of m2's 9
    (rounded down) 4 = 13 against DR 9, and m2 has fought for the round."""
    g = make(
        [
            m("m1", "blue", 14.13, 22.5, unit="a"),
            m("m2", "blue", 14.13, 25.5, unit="b"),
            m("rhino", "red", 16.0, 24.0, "rhino", facing=90.0, base=(70.0, 100.0)),
        ]
    )
    ev = attack(g, Fight(actor="m1", target="rhino"), [5, 5])
    res = [e.text for e in ev if e.kind == "resolution"]
    assert res == [
        "m1, m2 attack rhino's body: CR 4 + vehicle stopped 5 + half of m2 4 + 5 = 18 "
        "beats DR 9 + 5 = 14 (chance 71%): hit"
    ]
    g.apply(EndActivation())  # unit a
    g.apply(EndActivation())  # the rhino
    assert "m2 has already fought this round" in g.check(Fight(actor="m2", target="rhino")).reason
