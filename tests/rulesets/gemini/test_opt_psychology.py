"""Psychology (seeds/003 "Psychological Tests", "Fearless and Dogged Units", "Confusion",
"Hatred", "Frenzy", "Blood Frenzy", "Stupidity", "Fear", "Terror") with forced dice."""

from __future__ import annotations

from engine.dice import Dice
from engine.state import Model
from rulesets.gemini.chapters.options import psychology as P


def dice(*faces: int) -> Dice:
    d = Dice(seed=1)
    d.force(list(faces))
    return d


def model(mid: str = "m", side: str = "a", **stats: object) -> Model:
    base: dict[str, object] = {"Ld": 7, "I": 3, "A": 1}
    return Model(id=mid, side=side, unit=mid, x=0, y=0, stats={**base, **stats})


def test_cool_is_ld_unless_given_and_groups_take_the_lowest():
    """GM-PSYCHOLOGY: tests on Cl, which is Ld unless given; a group on its lowest."""
    assert P.cool(model()) == 7 and P.cool(model(Cl=9)) == 9
    assert P.lowest([8, 6, 7]) == 6


def test_frenzy_value_and_distance():
    m = model(frenzy=[9, 12])
    assert P.frenzy_trait(m) == P.Trait(True, 9, 12.0)
    assert P.frenzy_due_at_start(m, 11.0) and not P.frenzy_due_at_start(m, 13.0)
    assert P.frenzy_test(dice(5, 4), m, "enemy near").passed  # 9 against 9
    assert P.frenzy_test(dice(5, 5), m, "enemy near").failed  # 10: frenzied
    assert "frenzied" in m.status and not P.frenzy_due_on_charge(m)


def test_subject_to_frenzy_without_distance_tests_only_on_charging():
    m = model(frenzy=True, Cl=8)
    assert P.frenzy_due_on_charge(m) and not P.frenzy_due_at_start(m, 1.0)
    assert P.frenzy_test(dice(4, 5), m, "charge").failed  # 9 against Cl 8


def test_frenzied_from_the_start_and_calming_down():
    m = model(frenzied=True)
    P.start_frenzied(m)
    assert P.frenzied_attacks(m, 2) == 4
    t = P.calm_down(dice(3, 3), m)
    assert t is not None and t.passed and m.status == []


def test_blood_frenzy_never_calms():
    """GM-BLOOD-FRENZY: frenzied from the start, never calms down."""
    m = model(blood_frenzy=True)
    P.start_frenzied(m)
    t = P.calm_down(dice(), m)
    assert t is not None and t.failed and "frenzied" in m.status


def test_stupidity_against_ld_forgets_on_4_plus():
    m = model(stupidity=6)
    t = P.stupidity_test(dice(4, 3), m)
    assert t is not None and t.failed and m.status == ["stupid"]
    assert P.forgets_to_attack(dice(4), m).passed and P.forgets_to_attack(dice(3), m).failed
    assert P.stupidity_test(dice(), model()) is None


def test_wander_direction_is_a_sixth_of_a_turn_per_face():
    m = model()
    m.facing = 90.0
    assert P.wander_direction(dice(1), m)[0] == 90.0
    assert P.wander_direction(dice(4), m)[0] == 270.0


def test_fear_against_cl_and_who_is_immune():
    ogre = model("ogre", "b", causes_fear=True)
    m = model(Cl=6)
    t = P.face_fear(dice(4, 3), m, ogre)
    assert t is not None and t.failed and "afraid" in m.status
    assert P.face_fear(dice(), model(fearless=True), ogre) is None
    assert not P.fear_due(model(causes_terror=True), ogre)


def test_terror_once_at_cl_minus_one_failure_routs():
    daemon = model("daemon", "b", causes_terror=True)
    m = model()
    t = P.face_fear(dice(4, 3), m, daemon)  # 7 against Cl 7 − 1
    assert t is not None and t.failed and "routing" in m.status
    # after its one Terror test it only fears the daemon
    t2 = P.face_fear(dice(3, 3), m, daemon)
    assert t2 is not None and t2.rolls[0].rule == "GM-FEAR"


def test_terror_plus_one_against_a_hated_source():
    daemon = model("daemon", "b", causes_terror=True)
    m = model(hatred=True)
    assert P.terror_test(dice(4, 3), m, daemon).passed  # 7 against 7 − 1 + 1


def test_fear_causers_only_fear_terror():
    daemon = model("daemon", "b", causes_terror=True)
    ogre = model("ogre", "a", causes_fear=True)
    t = P.face_fear(dice(3, 3), ogre, daemon)
    assert t is not None and t.rolls[0].rule == "GM-FEAR"


def test_hatred():
    orc, elf = model("orc", "a", hatred=["b"]), model("elf", "b")
    assert P.hates(orc, elf) and not P.hates(elf, orc)
    assert P.rerolls_misses(orc, elf, True) and not P.rerolls_misses(orc, elf, False)
    assert not P.may_run_from(orc, elf)
    assert [m.value for m in P.hatred_ld_mod(orc, elf, "rally")] == [1]
    assert [m.value for m in P.hatred_ld_mod(orc, elf, "break_off")] == [-1]


def test_confusion_tests_ld_not_cl():
    """GM-CONFUSION: on Ld 6 (not Cl 9), 4 + 3 = 7 fails."""
    m = model(Ld=6, Cl=9)
    assert P.confusion_test(dice(4, 3), m).failed and "confused" in m.status


def test_fearless_and_dogged_pass_morale():
    """GM-FEARLESS, GM-DOGGED: morale checks pass."""
    assert P.passes_morale(model(fearless=True)) and P.passes_morale(model(dogged=True))
    assert not P.passes_morale(model())
