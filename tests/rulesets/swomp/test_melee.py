"""Close combat with forced dice; each test names the SWOMP section it checks."""

from engine.actions import Charge, EndActivation, Fight
from engine.testing import apply, events_of
from rulesets.swomp.actions import Retreat
from rulesets.swomp.chapters import core

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def test_charge_fights_at_once_with_plus_one():
    """SWOMP "Charging": into base contact, the first round at once, +1 CR."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 15, 24, stats={"HP": 3})])
    ev = attack(g, Charge(actor="a", target="b"), [5, 5])
    res = events_of(ev, "resolution")[0]
    assert "CR 4 + charging 1 + 5 = 10" in res.text
    assert core.engaged(g.state.models["a"]) and g.state.models["a"].vars["foes"] == ["b"]


def test_winning_by_five_and_ten():
    """SWOMP "Winning a contest by 5 or more"."""
    for roll, hp in ((2, 2), (6, 1), (10, 0)):
        g = make(
            [
                m("a", "blue", 10, 24, stats={"CR": 9}),
                m("b", "red", 15, 24, stats={"HP": 3, "AR": 0}),
            ]
        )
        attack(g, Charge(actor="a", target="b"), [roll, 5], exact=False)
        # CR 9 + 1 + roll against DR 4 + 5 = 9: margins 3, 7, 11
        assert g.state.models["b"].hp == hp or (hp == 0 and g.state.models["b"].removed)


def test_parrying_weapon_helps_the_defender():
    """SWOMP "Parrying": +1 when defending."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 15, 24, weapons=["power sword"])])
    ev = attack(g, Charge(actor="a", target="b"), [5, 5])
    assert "parry 1" in events_of(ev, "resolution")[0].text


def test_outnumbered_model_strikes_one_at_minus_one():
    """SWOMP "Multiple attackers": the outnumbered model picks one opponent, -1 CR."""
    g = make(
        [
            m("a", "blue", 10, 24, stats={"HP": 3}),
            m("x", "red", 12, 25, unit="pair"),
            m("y", "red", 12, 23, unit="pair"),
        ],
        first="red",
    )
    attack(g, Charge(actor="pair", target="a"), [2, 9])
    apply(g, EndActivation())
    ev = attack(g, Fight(actor="a", target="y"), [5, 5])
    res = events_of(ev, "resolution")[0]
    assert res.target == "y" and "outnumbered 1" in res.text


def test_pairing_off_forbids_multiple_attacker_and_defender():
    """SWOMP "The gang fight": a model already ganged up on cannot also join a gang."""
    g = make(
        [
            m("a", "blue", 10, 24),
            m("c", "blue", 20, 30),
            m("x", "red", 12, 25, unit="pair"),
            m("y", "red", 12, 23, unit="pair"),
        ],
        first="red",
    )
    attack(g, Charge(actor="pair", target="a"), [2, 9])
    # x and y both fight a (a is a multiple defender); c charging x would make x a
    # multiple defender while it is a multiple attacker: only "get them off me" allows it
    st = g.state
    assert core.star_ok(st)
    assert not core.star_ok(st, [("c", "x")])
    assert core.star_ok(st, [("c", "x")], drop=[("x", "a")])


def test_get_them_off_me():
    """SWOMP "Get them off me!": c pulls x off a; x does not count as retreating."""
    g = make(
        [
            m("a", "blue", 10, 24, stats={"HP": 3}),
            m("c", "blue", 13, 28),
            m("x", "red", 12, 25, unit="pair"),
            m("y", "red", 12, 23, unit="pair"),
        ],
        first="red",
    )
    attack(g, Charge(actor="pair", target="a"), [2, 9])
    apply(g, EndActivation())
    ev = attack(g, Charge(actor="c", target="x"), [5, 5])
    assert any(e.rule == "SWOMP-OFF-ME" for e in ev)
    assert g.state.models["x"].vars["foes"] == ["c"]
    assert g.state.models["a"].vars["foes"] == ["y"]


def test_follow_up_move_after_killing_all_opponents():
    """SWOMP "Follow-up moves": half MR, may charge; that combat waits for next turn."""
    g = make(
        [
            m("a", "blue", 10, 24, stats={"MR": 6}),
            m("b", "red", 15, 24),
            m("c", "red", 17.5, 24.5, stats={"HP": 3}),
        ]
    )
    attack(g, Charge(actor="a", target="b"), [9, 2])
    a = g.state.models["a"]
    assert g.state.models["b"].removed and core.act(a)["follow"] == 3.0
    assert g.check(Charge(actor="a", target="c")).ok
    ev = attack(g, Charge(actor="a", target="c"), [])
    assert not events_of(ev, "resolution") and a.vars.get("charge_bonus")


def test_retreat_contest_and_half_mr_move():
    """SWOMP "Retreating from close combat": -1 CR as the acting model, then half MR."""
    g = make(
        [m("a", "blue", 10, 24, stats={"HP": 3}), m("b", "red", 11.1, 24, stats={"HP": 3})],
        first="red",
    )
    attack(g, Charge(actor="b", target="a"), [2, 9])
    apply(g, EndActivation())
    ev = apply(g, Retreat(actor="a", to=(8.0, 24.0)), [7, 3])
    res = events_of(ev, "resolution")[0]
    assert "retreating 1" in res.text and res.outcome == "retreated"
    assert not core.engaged(g.state.models["a"]) and g.state.models["a"].x < 9.5
