"""Injury switches (seeds/003 "Wound Damage Chart", "Down Result Table", "Mordheim/
Warhammer Skirmish Injury System", "GASR Wound Table", "Instant Death") with forced dice."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.state import Model
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import injuries as I


def dice(*faces: int) -> Dice:
    d = Dice(seed=1)
    d.force(list(faces))
    return d


def model(**stats: int) -> Model:
    base = {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7}
    return Model(id="m", side="a", unit="m", x=0, y=0, stats={**base, **stats})


@pytest.mark.parametrize(
    ("face", "strength", "size", "result"),
    [
        (1, 4, "normal", "flesh_wound"),
        (2, 4, "normal", "down"),
        (5, 4, "normal", "down"),
        (6, 4, "normal", "out_of_action"),
        (4, 7, "normal", "down"),  # S7+ chart: 2-4 down
        (5, 7, "normal", "out_of_action"),  # S7+ chart: 5-6 out
        (2, 3, "unarmed", "flesh_wound"),  # unarmed chart: 1-2 flesh wound
        (2, 3, "small", "flesh_wound"),  # knives use the unarmed chart
        (6, 3, "unarmed", "out_of_action"),
    ],
)
def test_wound_damage_chart(face, strength, size, result):
    assert I.wound_chart(dice(face), strength, size).result == result


def test_down_result_table():
    assert [I.down_result(dice(f)).result for f in (1, 2, 5, 6)] == [
        "flesh_wound",
        "reeling",
        "reeling",
        "out_of_action",
    ]


def test_mordheim_table():
    got = [I.mordheim(dice(f)).result for f in range(1, 7)]
    assert got == ["knocked_down"] * 2 + ["stunned"] * 2 + ["out_of_action"] * 2


@pytest.mark.parametrize(
    ("loc", "sev", "strength", "size", "location", "result"),
    [
        (1, 5, 4, "normal", "head", "dead"),
        (1, 1, 4, "normal", "head", "flesh_wound"),
        (2, 3, 4, "normal", "chest", "dazed"),
        (3, 2, 4, "normal", "right arm", "arm_wound"),
        (4, 6, 4, "normal", "left arm", "stunned"),
        (5, 5, 4, "normal", "belly", "stunned"),
        (6, 2, 4, "normal", "legs", "dazed_leg_wound"),
        (2, 5, 8, "normal", "chest", "dead"),  # S7+ adds 1: 6 column
        (2, 6, 8, "normal", "chest", "dead"),  # 7 reads the 6 column
        (1, 1, 3, "unarmed", "head", "none"),  # unarmed -1: 0 is no effect
        (1, 5, 3, "unarmed", "head", "stunned"),
    ],
)
def test_gasr_wound_table_location_then_severity(loc, sev, strength, size, location, result):
    inj = I.gasr_wound(dice(loc, sev), strength, size)
    assert (inj.location, inj.result) == (location, result)
    assert [r.faces[0] for r in inj.rolls] == [loc, sev]


def test_small_blunt_weapon_is_minus_one_on_gasr_severity():
    assert I.gasr_wound(dice(1, 1), 3, "small", blunt=True).result == "none"
    assert I.gasr_wound(dice(1, 1), 3, "small").result == "flesh_wound"


def test_injury_rolls_start_when_wounds_reach_zero():
    """GM-INJURY-ROLLS: the rolls begin with the wound that takes the last W."""
    # "a character with 3 wounds ... doesn't start rolling until wounded the third time"
    assert I.injury_rolls(3, 1) == 0
    assert I.injury_rolls(3, 3) == 1
    assert I.injury_rolls(1, 1) == 1
    assert I.injury_rolls(1, 2) == 2
    assert I.injury_rolls(0, 2) == 2


def test_instant_death_is_double_toughness():
    assert I.instant_death(8, 4) and I.instant_death(6, 3)
    assert not I.instant_death(7, 4)


def test_flesh_wounds_add_up_and_zero_ws_or_bs_is_out():
    """GM-FLESH-WOUND (GM-I-FLESH-ZERO): −1 WS and BS each; at 0 the model is out."""
    m = model(WS=2, BS=3)
    assert not C.apply_injury(m, I.Injury("flesh_wound"))
    assert (m.stats["WS"], m.stats["BS"]) == (1, 2)
    assert C.apply_injury(m, I.Injury("flesh_wound"))


def test_multiple_down_results_are_ignored_but_flesh_wounds_count():
    m = model()
    C.apply_injury(m, I.Injury("down"))
    C.at_turn_end(m, own=False)
    C.resolve_down(dice(3), m)
    assert m.status == ["reeling"]
    C.apply_injury(m, I.Injury("down"))
    assert m.status == ["reeling"]
    C.apply_injury(m, I.Injury("flesh_wound"))
    assert m.status == ["reeling"] and m.stats["WS"] == 2


def test_down_result_flesh_wound_gets_the_model_up():
    m = model()
    C.apply_injury(m, I.Injury("down"))
    assert not C.down_roll_due(m)  # not in the turn it went down
    C.at_turn_end(m, own=True)
    assert C.down_roll_due(m)
    inj, out = C.resolve_down(dice(1), m)
    assert not out and m.status == [] and m.stats["BS"] == 2
    assert C.resolve_down(dice(6), model())[1]


def test_down_limits_defend_at_ws_1():
    m = model()
    C.apply_injury(m, I.Injury("down"))
    lim = C.limits(m, "wound_chart")
    assert (lim.move, lim.shoot, lim.fight, lim.defend_ws) == ("none", False, False, 1)


def test_mordheim_knocked_down_stands_up_dazed_then_recovers():
    m = model()
    C.apply_injury(m, I.Injury("knocked_down"))
    assert C.limits(m, "mordheim").move == "crawl"
    C.at_turn_start(m)
    lim = C.limits(m, "mordheim")
    assert m.status == ["dazed"] and lim.move == "half" and lim.shoot and not lim.charge
    assert lim.strikes_last
    C.at_turn_end(m, own=True)
    assert m.status == []


def test_stunned_comes_round_in_recovery_as_knocked_down():
    m = model()
    C.apply_injury(m, I.Injury("stunned"))
    lim = C.limits(m, "gasr_table", combat_score=True)
    assert lim.move == "none" and lim.defend_ws == 0
    assert C.limits(m, "gasr_table").defend_ws == 1
    C.at_recovery(m)
    assert m.status == ["knocked_down"]
    C.apply_injury(m, I.Injury("dazed"))  # lighter: ignored
    assert m.status == ["knocked_down"]


def test_gasr_dazed_lasts_through_the_models_next_turn():
    m = model()
    C.apply_injury(m, I.Injury("dazed"))  # in the enemy's turn
    C.at_turn_end(m, own=True)  # e.g. dazed in its own close combat phase
    assert m.status == ["dazed"]
    C.at_turn_start(m)
    assert not C.limits(m, "gasr_table").shoot
    C.at_turn_end(m, own=True)
    assert m.status == []


def test_gasr_arm_and_leg_wounds():
    m = model()
    C.apply_injury(m, I.Injury("arm_wound"))
    assert C.to_hit_penalty(m) == -1 and m.stats["WS"] == 2
    C.apply_injury(m, I.Injury("dazed_leg_wound"))
    assert m.stats["M"] == 3 and m.status == ["dazed"] and m.stats["WS"] == 1


def test_roll_injury_dispatch_none_is_out():
    assert I.roll_injury(dice(), "none", 3).out
    assert I.roll_injury(dice(6), "wound_chart", 3).out
