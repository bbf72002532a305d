"""A stat's tooltip comes from the ruleset's rules reference (issue 23 item 6).

Why exact strings: the two ways a reference defines its stats (a section of its own, a
profile sentence naming several) are read by ``glossary.stat_help``; a reworded
reference must still give every core stat a meaning, and these pin what a player reads.
"""

from __future__ import annotations

import pytest

from engine.ruleset import load
from engine.ui.glossary import stat_help

CORE = {
    "umr": ("AD", "MOVE", "MELEE", "BALLISTIC", "DAMAGE", "DEFENSE", "HEALTH"),
    "swomp": ("MR", "SR", "DR", "CR", "PR", "HP", "AR", "FR"),
    "gem": ("OFF", "DEF", "HIT", "ATT", "MOR", "MAG", "MOV", "SIZ", "ARM", "ACC"),
    "gemini": ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv"),
}


@pytest.mark.parametrize("key_", sorted(CORE))
def test_every_core_stat_has_a_meaning_from_the_reference(key_):
    rs = load(key_)
    for stat in CORE[key_]:
        h = stat_help(rs.reference, stat)
        assert h is not None, stat
        assert h.section in rs.reference.sections and h.text, stat


@pytest.mark.parametrize(
    ("key_", "stat", "section", "text"),
    [
        ("umr", "AD", "UMR-ACTION-DICE", "Each character has two action dice per activation"),
        (
            "swomp",
            "MR",
            "SWOMP-CHARS",
            "MR is inches moved per action and a general measure of speed",
        ),
        ("swomp", "AR", "SWOMP-ARMOUR", "AR: Armour Rating"),
        ("gem", "OFF", "GEM-1.1", "OFF: how well it hurts"),
        ("gemini", "WS", "GM-PROFILE", "WS: Weapon Skill"),
        ("gemini", "A", "GM-PROFILE", "A: Attacks"),
    ],
)
def test_what_a_stat_tooltip_says(key_, stat, section, text):
    h = stat_help(load(key_).reference, stat)
    assert h is not None and (h.section, h.text) == (section, text)
    assert h.title == load(key_).reference.sections[section].title


@pytest.mark.parametrize("key_", ["gemini", "inter_arma"])
def test_every_stat_key_of_gemini_and_inter_arma_has_a_meaning(key_):
    """Psychology and status keys too (causes_fear, blood_frenzy, armored): a chip
    without a meaning reads 'not in the rules reference'."""
    rs = load(key_)
    missing = [k for k in rs.stat_keys if stat_help(rs.reference, k) is None]
    assert not missing


@pytest.mark.parametrize(
    ("key_", "stat", "section"),
    [
        ("gemini", "fear", "GM-FEAR"),  # not GM-FEARLESS, which comes first in the file
        ("gemini", "causes_fear", "GM-CAUSES-FEAR"),
        ("gemini", "blood_frenzy", "GM-BLOOD-FRENZY"),
        ("gemini", "large", "GM-LARGE"),  # not GM-TURN's "in a large game"
        ("gemini", "Sv", "GM-SV"),
        ("inter_arma", "armored", "IA-ARMORED"),
        ("inter_arma", "type", "IA-TYPE"),
    ],
)
def test_a_key_finds_its_own_section(key_, stat, section):
    h = stat_help(load(key_).reference, stat)
    assert h is not None and h.section == section


def test_a_terse_first_sentence_takes_the_next_one_along():
    h = stat_help(load("gemini").reference, "hatred")
    assert h is not None
    assert h.text.startswith("No test. Against a hated foe a model re-rolls missed blows")
