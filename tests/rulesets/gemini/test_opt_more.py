"""More switches played in a game with forced dice: running on a d6, extra wounds on
3d6, Confusion from a weapon, Fearless and Dogged models breaking off (GM-RUNNING,
GM-EXTRA-WOUNDS, GM-CONFUSION, GM-I-CONFUSED, GM-FEARLESS, GM-DOGGED)."""

from __future__ import annotations

from engine.actions import EndPhase, Move, Shoot
from engine.testing import apply
from tests.rulesets.gemini.helpers import duel, to_phase

KNIFE = {"name": "knife", "class": "melee"}
GAS = {"name": "choke gas", "range": 12, "S": 2, "class": "assault", "confusion": True}


def test_running_on_a_d6_is_m_plus_the_roll():
    """GM-RUNNING (running = "d6"): M 4 plus a d6 (2): the 8" run stops after 6"."""
    g = duel(gap=30.0, options={"running": "d6"})
    assert g.check(Move(actor="b", to=(30.0, 10.0), mode="run")).ok  # up to M + 6
    apply(g, Move(actor="b", to=(30.0, 10.0), mode="run"), dice=[2])
    assert g.state.models["b"].pos == (26.0, 10.0)


def test_running_on_a_d6_six_goes_the_whole_way():
    g = duel(gap=30.0, options={"running": "d6"})
    apply(g, Move(actor="b", to=(30.0, 10.0), mode="run"), dice=[6])
    assert g.state.models["b"].pos == (30.0, 10.0)


def test_extra_wounds_on_3d6():
    """GM-EXTRA-WOUNDS (extra_wounds = "3d6"): each model's W is 3d6 at the start."""
    g = duel(options={"extra_wounds": "3d6"}, setup_dice=[1, 2, 3, 6, 6, 5])
    assert g.state.models["b"].max_hp == 6 and g.state.models["r"].hp == 17


def test_confusion_weapon_hit_tests_ld_and_confuses():
    """GM-CONFUSION: a choke-gas hit (4+: 4) that does not wound (S2 v T3 needs 5+: 2)
    still calls the test on Ld (7), not Cl (3): 4 + 5 = 9 fails: confused."""
    g = duel({"weapons": [GAS]}, {"stats": {"Cl": 3}}, gap=5.0, options={"psychology": True})
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 2, 4, 5])
    assert "confused" in g.state.models["r"].status
    assert [e for e in ev if e.rule == "GM-CONFUSION" and "7 or less" in e.text]


def test_confusion_passed_and_no_test_without_psychology():
    g = duel({"weapons": [GAS]}, gap=5.0, options={"psychology": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[4, 2, 3, 3])
    assert "confused" not in g.state.models["r"].status
    g = duel({"weapons": [GAS]}, gap=5.0)
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 2])
    assert not [e for e in ev if e.rule == "GM-CONFUSION"]


def test_confused_wears_off_at_the_end_of_its_own_turn():
    """GM-I-CONFUSED: red, confused in blue's turn, is clear after its own turn."""
    g = duel({"weapons": [GAS]}, gap=5.0, options={"psychology": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[4, 2, 6, 6])
    for _ in range(6):
        apply(g, EndPhase())
    assert g.state.active == "red" and "confused" in g.state.models["r"].status
    for _ in range(4):
        apply(g, EndPhase())
    assert "confused" not in g.state.models["r"].status


def _contact(blue_stats):
    return duel({"stats": blue_stats, "weapons": [KNIFE]}, {"weapons": [KNIFE]}, gap=1.0,
                options={"breaking_off": True, "psychology": True})  # fmt: skip


def test_fearless_breaks_off_without_an_ld_test_or_a_rout():
    """GM-FEARLESS: never routs from close combat: no Ld test; the parting blow's 3+
    (2) misses, and b gets away in good order."""
    g = _contact({"fearless": True})
    ev = apply(g, Move(actor="b", to=(20.0, 6.5)), dice=[2])
    b = g.state.models["b"]
    assert "routing" not in b.status and b.pos == (20.0, 6.5)
    assert [e for e in ev if e.rule == "GM-FEARLESS"]


def test_dogged_breaks_off_without_a_rout_too():
    """GM-DOGGED: never routs from close combat either."""
    g = _contact({"dogged": True})
    ev = apply(g, Move(actor="b", to=(20.0, 6.5)), dice=[2])
    assert "routing" not in g.state.models["b"].status
    assert [e for e in ev if e.rule == "GM-DOGGED"]


def test_extra_wounds_below_half_shoots_at_minus_one():
    """GM-EXTRA-WOUNDS: a model below half its wounds is −1 to hit: b (W 3 + 4 = 7) at
    3 wounds needs 5+ with BS 3; a 4 misses."""
    rifle = {"name": "rifle", "range": 24, "S": 3, "class": "rapid_fire"}
    g = duel({"weapons": [rifle]}, options={"extra_wounds": "2d6"}, setup_dice=[3, 4, 5, 5])
    g.state.models["b"].hp = 3
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4])
    assert g.state.models["r"].hp == 10
    assert [e for e in ev if "below half its wounds" in e.text and "5+" in e.text]
