"""Ammo rolls, lucky shots, critical damage and extra wounds (seeds/003 "Ammo Rolls",
"Lucky Shots", "Critical Damage", "GASR Wounding Rules") with forced dice."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.state import Model
from rulesets.gemini.chapters.options import shooting_extras as X


def dice(*faces: int) -> Dice:
    d = Dice(seed=1)
    d.force(list(faces))
    return d


@pytest.mark.parametrize(
    ("cls", "need"),
    [
        ("pistol", 4),
        ("rapid_fire", 4),
        ("assault", 5),
        ("heavy", 6),
        ("slow", 6),
        ("sniper", 6),
        ("bow", 6),
    ],
)
def test_ammo_table(cls, need):
    assert X.ammo_need(cls) == need
    assert not X.ammo_roll(dice(need), cls, [6]).useless
    assert X.ammo_roll(dice(need - 1), cls, [6]).useless


def test_ammo_roll_only_on_natural_sixes_one_roll_each():
    assert X.ammo_roll(dice(), "pistol", [5, 4]).rolls == []
    a = X.ammo_roll(dice(4, 5), "pistol", [6, 3, 6])
    assert len(a.rolls) == 2 and not a.useless


def test_grenades_are_spent_on_a_six_without_a_roll():
    a = X.ammo_roll(dice(), "grenade", [6])
    assert a.spent and not a.useless and a.rolls == []


def test_lucky_shot_beats_the_need_by_two():
    assert X.is_lucky(6, 4) and X.is_lucky(5, 3)
    assert not X.is_lucky(5, 4)
    assert not X.is_lucky(9, 7)  # a two-roll need cannot be beaten by 2


def test_lucky_plus_one_strength():
    # S3 v T4 needs 5+; lucky S4 needs 4+: a 4 wounds
    w = X.to_wound(dice(4), 3, 4, lucky="strength")
    assert w.wounds == 1 and len(w.rolls) == 1
    assert X.to_wound(dice(4), 3, 4).wounds == 0


def test_lucky_three_rolls_cause_one_wound_at_most():
    w = X.to_wound(dice(5, 6, 5), 3, 4, lucky="three")
    assert w.wounds == 1 and len(w.rolls) == 3


def test_critical_damage_natural_six_two_wounds_no_save():
    w = X.to_wound(dice(6), 4, 4, critical=True)
    assert (w.wounds, w.no_save) == (2, True)


def test_no_critical_when_sixes_were_needed_or_already_used_or_rending():
    assert X.to_wound(dice(6), 3, 5, critical=True).wounds == 1  # needed 6s
    assert X.to_wound(dice(6), 4, 4, critical=True, crit_used=True).wounds == 1
    assert X.to_wound(dice(6), 4, 4, critical=True, rending=True).wounds == 1


def test_lucky_shot_can_be_critical():
    w = X.to_wound(dice(2, 6), 3, 4, lucky="three", critical=True)
    assert w.critical and w.wounds == 2 and len(w.rolls) == 2


def test_one_critical_per_model_per_phase():
    m = Model(id="m", side="a", unit="m", x=0, y=0)
    assert not X.crit_used(m, "1:blue:shooting")
    X.mark_crit(m, "1:blue:shooting")
    assert X.crit_used(m, "1:blue:shooting") and not X.crit_used(m, "1:red:shooting")


def test_extra_wounds():
    assert X.roll_w(dice(3, 4), "2d6") == 7
    assert X.roll_w(dice(1, 2, 3), "3d6") == 6
    assert X.hit_damage(dice(5)) == 5
    assert X.below_half(4, 9) and not X.below_half(5, 10)
