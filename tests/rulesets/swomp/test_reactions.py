"""The defender's -2 retreat as a reaction to being attacked in close combat, with
forced dice; each test names the SWOMP section it checks."""

from engine.actions import Choose, EndActivation, Fight, Move
from engine.testing import apply, events_of
from rulesets.swomp import rules
from rulesets.swomp.actions import Retreat, SwompCharge
from rulesets.swomp.chapters import core, reactions

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def locked(first="red"):
    """b (red) charged a (blue) and both stood; now it is blue's action."""
    g = make(
        [m("a", "blue", 10, 24, stats={"HP": 3}), m("b", "red", 11.1, 24, stats={"HP": 3})],
        first=first,
    )
    attack(g, SwompCharge(actor="b", target="a"), [2, 9])
    apply(g, EndActivation())
    return g


def test_charge_gives_the_defender_a_retreat_decision():
    """SWOMP "Retreating from close combat": attempted at the beginning of a close
    combat; the charge's immediate round is one, so the charged model owes a decision
    before any contest is rolled, and to_act hands it to the defender's side."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 15, 24)], first="red")
    ev = apply(g, SwompCharge(actor="b", target="a"))
    assert not events_of(ev, "resolution")
    p = reactions.owed(g.state)
    assert p["kind"] == "retreat" and p["data"] == {"defender": "a", "attackers": ["b"]}
    assert g.to_act() == "blue"
    # the engine's pending decision, read as data (issue 17): verbs, options, text
    (saved,) = g.state.to_dict()["pending"]
    assert saved["side"] == "blue" and saved["verbs"] == ["retreat", "choose"]
    assert saved["options"] == ["stand"] and "retreat with a (-2 CR)" in saved["text"]
    assert not g.state.vars["swomp"]["pending"]  # the old queue stays empty
    why = g.check(Move(actor="a", to=(5.0, 24.0))).reason
    assert "retreat with a (-2 CR) or choose stand" in why
    assert rules.advance(g.state, g.ctx) == Choose(option="stand")
    ev = apply(g, Choose(option="stand"), [5, 5])
    assert events_of(ev, "resolution")[0].rule == "SWOMP-CHARGE"


def test_defender_retreats_at_minus_two_and_the_attack_is_lost():
    """SWOMP "Retreating from close combat": the defender's retreat is at -2 CR; on a
    win it moves half its MR at once and the attacker's blow falls on nobody."""
    g = locked()
    apply(g, Fight(actor="a"))
    assert reactions.owed(g.state)["data"]["defender"] == "b" and g.to_act() == "red"
    ev = apply(g, Retreat(actor="b", to=(12.5, 24.0)), [8, 3])
    res = events_of(ev, "resolution")
    assert len(res) == 1 and res[0].outcome == "retreated"
    assert "CR 4 \u2212 retreating 2 + 8 = 10 beats CR 4 + 3 = 7" in res[0].text
    assert not core.engaged(g.state.models["b"])
    b = g.state.models["b"]
    assert b.x > 12.0 - 0.1 and not reactions.owed(g.state)
    assert any("attack is lost" in e.text for e in ev)
    assert g.state.models["b"].hp == 3


def test_failed_defender_retreat_then_the_attack_lands():
    """SWOMP "Retreating from close combat": held, the attack goes on as declared."""
    g = locked()
    apply(g, Fight(actor="a"))
    ev = apply(g, Retreat(actor="b", to=(12.5, 24.0)), [2, 6, 9, 3])
    res = events_of(ev, "resolution")
    assert res[0].outcome == "held" and res[1].rule == "SWOMP-CC" and res[1].outcome == "hit"
    assert core.engaged(g.state.models["b"])


def test_reaction_retreat_is_limited_to_half_mr():
    """SWOMP "Retreating from close combat": half MR (marine MR 4: 2")."""
    g = locked()
    apply(g, Fight(actor="a"))
    why = g.check(Retreat(actor="b", to=(20.0, 24.0))).reason
    assert "half MR" in why
    assert not g.check(Retreat(actor="a", to=(5.0, 24.0))).ok


def test_reaction_retreat_leaves_the_defenders_own_action_alone():
    """A reaction is not the defender's action: after slipping away from a charge, the
    charged model's unit still takes its own action this round."""
    g = make(
        [m("a", "blue", 10, 24, stats={"HP": 3}), m("b", "red", 15, 24, stats={"HP": 3})],
        first="red",
    )
    apply(g, SwompCharge(actor="b", target="a"))
    apply(g, Retreat(actor="a", to=(8.0, 24.0)), [9, 2])
    a = g.state.models["a"]
    assert not core.engaged(a) and not core.act(a)["fought"]
    apply(g, EndActivation())
    assert g.to_act() == "blue" and g.check(Move(actor="a", to=(4.0, 24.0))).ok


def test_retreat_into_a_charge_elsewhere():
    """SWOMP "Retreating from close combat": the retreat may be a charge into a close
    combat with a different model; that charge fights at once."""
    g = locked()
    g.state.models["b"].stats["MR"] = 8
    g.state.models["c"] = g.state.models["a"].__class__.from_dict(
        {
            **g.state.models["a"].to_dict(),
            "id": "c",
            "unit": "c",
            "x": 14.5,
            "y": 24.0,
            "vars": {**g.state.models["a"].vars, "foes": [], "act": dict(core.FRESH_ACT)},
            "status": [],
        }
    )
    g.state.models["c"].vars.pop("foes")
    apply(g, Fight(actor="a"))
    ev = apply(g, Retreat(actor="b", target="c"), [8, 3])
    # the charge into c owes c its own retreat decision before the immediate round
    assert reactions.owed(g.state)["data"]["defender"] == "c"
    ev = apply(g, Choose(option="stand"), [5, 5])
    res = events_of(ev, "resolution")
    assert res[0].actor == "b" and res[0].target == "c" and "charging 1" in res[0].text
