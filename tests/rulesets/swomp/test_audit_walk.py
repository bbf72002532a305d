"""The rest of the SWOMP audit's rows (the project audit's swomp.md) that were enforced
but untested, or kept as interpretations, each played with forced dice: the retreat
tie, no return to the fight just left, no shooting then charging, the targeting
refusal's words, waiting, and a rolled shot at exposed crew."""

from engine.actions import EndActivation, Fight, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.actions import Retreat, SwompCharge, Wait
from rulesets.swomp.chapters import core

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def locked():
    """b (red) charged a (blue) and both stood; now it is blue's action."""
    g = make(
        [m("a", "blue", 10, 24, stats={"HP": 3}), m("b", "red", 11.1, 24, stats={"HP": 3})],
        first="red",
    )
    attack(g, SwompCharge(actor="b", target="a"), [2, 9])
    apply(g, EndActivation())
    return g


def test_a_retreating_defender_rolls_as_the_attacker_and_loses_ties():
    """SWOMP-I-RETREAT (audit defect 9, kept): the retreating model always rolls as the
    contest's attacker, so a tie holds it, even when it is the defender of the combat:
    CR 4 - 2 + 6 = 8 against CR 4 + 4 = 8."""
    g = locked()
    apply(g, Fight(actor="a"))
    ev = apply(g, Retreat(actor="b", to=(12.5, 24.0)), [6, 4, 1, 5])
    res = events_of(ev, "resolution")[0]
    assert "CR 4 \u2212 retreating 2 + 6 = 8 does not beat CR 4 + 4 = 8" in res.text
    assert res.outcome == "held" and core.engaged(g.state.models["b"])


def test_a_retreat_may_not_charge_back_into_the_same_fight():
    """SWOMP "Retreating from close combat": the move "cannot be used to leave and then
    return to the same close combat"."""
    g = locked()
    why = g.check(Retreat(actor="a", target="b")).reason
    assert "may not leave and return to the same close combat" in why


def test_a_model_that_shot_may_not_charge():
    """SWOMP "Close Combat": "A model cannot Shoot and move into close combat in the same
    turn" (audit row 49)."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 16, 24), m("c", "red", 40, 40)])
    apply(g, Shoot(actor="a", target="b", weapon="boltgun", options={"then_move": True}), [2, 9])
    why = g.check(SwompCharge(actor="a", target="b")).reason
    assert "cannot shoot and move into close combat in the same turn" in why


def test_the_closest_target_refusal_names_cover_and_speed():
    """SWOMP "Shooting: targeting" (audit defect 10, kept as SWOMP-TARGET): a closer target
    of the same size with no more cover or speed must be taken first; the refusal says
    what "no harder" measures (armour is not counted)."""
    g = make(
        [
            m("s", "blue", 10.0, 24.0),
            m("term", "red", 20.0, 24.0, "terminator", facing=180.0),
            m("guard", "red", 24.0, 26.0, "eldar_guardian", facing=180.0),
        ]
    )
    why = g.check(Shoot(actor="s", target="guard", weapon="boltgun")).reason
    assert "term is closer and no harder to hit: no more cover or speed" in why


def test_wait_ends_the_units_action_without_acting():
    """SWOMP "Actions": Wait: the unit does nothing and play passes to the other side."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 40, 24)])
    ev = apply(g, Wait(actor="a"))
    assert [e.text for e in ev if e.kind == "note"][0] == "a waits"
    assert g.to_act() == "red" and g.state.models["a"].pos == (10.0, 24.0)


def test_a_rolled_crew_hit_uses_the_crews_dr():
    """SWOMP "Exposed crewmen": the location is rolled first; on crew, "use the crew
    member's DR, armor, fields, and the vehicle speed" (audit row 74): a jetbike's
    location d10 7 is its rider, DR 3 + armour 1 + 5 = 9."""
    g = make([m("s", "blue", 10.0, 24.0), m("bike", "red", 20.0, 24.0, "eldar_jetbike")])
    ev = apply(g, Shoot(actor="s", target="bike", weapon="boltgun"), [7, 5, 5])
    text = " ".join(e.text for e in ev)
    assert "crew DR 3 + armour 1 + 5 = 9" in text
