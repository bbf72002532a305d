"""Points (GEM-4.1, GEM-4.2.2, GEM-4.2.3, GEM-4.3) and army lists."""

from pathlib import Path

import pytest

from engine.data import DataError
from rulesets.gem.chapters.points import missile_off, points_report, value, width_mod

ARMIES = Path(__file__).resolve().parents[3] / "rulesets" / "gem" / "armies"


def test_base_value_of_a_plain_figure():
    """GEM-4.1: (DEFxHIT + OFFxATT + OFFxATTxDEFxHIT/16 + SIZ/18) x morale x width x type
    x MAG x MOV factors; a 20 mm heavy infantryman with the defaults."""
    stats = {"OFF": 4, "DEF": 4, "HIT": 1, "ATT": 1, "MOR": 0, "MAG": 2, "MOV": 4, "SIZ": 0}
    base = 4 + 4 + 16 / 16
    assert value(stats, [], "heavy", 20.0) == pytest.approx(base * 1.0 * 1.0 * 1.0 * 1.0 * 1.0)
    stats["MOR"] = 5
    assert value(stats, [], "cavalry", 25.0) == pytest.approx(base * 1.1 * 0.9 * 1.5)


def test_width_table():
    """GEM-4.1: 20 mm 1.0, 25 mm 0.9, 30 mm 0.8, 40/50 mm 0.75, huge 0.65."""
    assert [width_mod(w) for w in (20, 25, 30, 40, 50, 60)] == [1.0, 0.9, 0.8, 0.75, 0.75, 0.65]
    assert width_mod([25.0, 50.0]) == 0.9


def test_missile_modified_off():
    """GEM-4.2.2: OFF x ATT x range x radius mod / fire mod; heavy x0.9."""
    assert missile_off({"OFF": 4, "ATT": 1, "range": 24}) == pytest.approx(24.0)
    assert missile_off({"OFF": 4, "ATT": 1, "range": 24, "reload": 2}) == pytest.approx(12.0)
    assert missile_off({"OFF": 5, "range": 18, "radius": 1.5}) == pytest.approx(5 * 18 * 2 / 4)
    assert missile_off({"OFF": 8, "ATT": 2, "range": 36, "heavy": True}) == pytest.approx(
        8 * 2 * 36 / 4 * 0.9
    )


def test_best_combination_of_attacks():
    """GEM-4.2.3 "the highest possible combination of attacks during a single turn"
    (GEM-I-COMBO, audit D9): a figure fires one weapon a turn and not while in melee, so
    a bow archer counts its bow (4 x 1 x 24 / 4 = 24), not 24 + its hand-to-hand 3."""
    stats = {"OFF": 3, "DEF": 3, "HIT": 1, "ATT": 1, "SIZ": 0}
    bow = {"name": "bow", "OFF": 4, "ATT": 1, "range": 24}
    oa = 24
    expected = (3 + oa + oa * 3 / 16) * 0.8
    assert value(stats, [bow], "skirmisher", 20.0) == pytest.approx(expected)
    sword = {"name": "sword", "OFF": 8, "ATT": 4}  # 32 hand to hand beats the bow's 24
    oa = 32
    expected = (3 + oa + oa * 3 / 16) * 0.8
    assert value(stats, [bow, sword], "skirmisher", 20.0) == pytest.approx(expected)


def test_a_vehicle_counts_its_best_gun_alone():
    """GEM-4.3 and GEM-I-COMBO (audit D9): a vehicle fires one gun a turn ("has already
    fired this turn"), so OFFxATT = speed/2 x HIT + its best gun, not every gun summed."""
    stats = {"OFF": 1, "DEF": 5, "ARM": 6, "HIT": 2, "MOV": 12, "ACC": 4}
    big = {"name": "big", "OFF": 9, "ATT": 1, "range": 36}
    small = {"name": "small", "OFF": 4, "ATT": 1, "range": 24}
    one = value(stats, [big], "vehicle", 20.0, crew=4)
    assert value(stats, [big, small], "vehicle", 20.0, crew=4) == pytest.approx(one)


def test_vehicle_value():
    """GEM-4.3: OFFxATT = speed/2 x HIT + missiles; 1.3 DEFxHIT; /12; capacity/9."""
    stats = {"OFF": 1, "DEF": 5, "ARM": 6, "HIT": 2, "MOV": 12, "ACC": 4}
    oa = 12 / 2 * 2
    dh = 6 * 2
    base = 1.3 * dh + oa + oa * dh / 12 + 4 / 9
    assert value(stats, [], "vehicle", 20.0, crew=4) == pytest.approx(base * 1.0 * 1.4)


def test_army_reports():
    """Army lists are totalled and checked against their limits."""
    text = points_report(ARMIES / "greeks.toml")
    assert "hoplites" in text and "total" in text and text.endswith("ok")


def test_army_over_limit_and_formation_minimum(tmp_path):
    """GEM-I-MINFORM: ancients lists need every formation; over the limit is reported."""
    f = tmp_path / "a.toml"
    f.write_text(
        'name = "all blocks"\nera = "ancients"\npoints_limit = 10\n'
        '[[units]]\nprofile = "hoplite"\ncount = 16\n'
    )
    text = points_report(f)
    assert "over the points limit" in text and "skirmish formations" in text


def test_bad_army_raises_data_error(tmp_path):
    f = tmp_path / "b.toml"
    f.write_text('[[units]]\nprofile = "nobody"\n')
    with pytest.raises(DataError):
        points_report(f)
