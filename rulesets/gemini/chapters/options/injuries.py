"""The three injury systems (``injuries = "wound_chart" | "mordheim" | "gasr_table"``)
and ``instant_death``.

Why one module: the three systems share the trigger (a roll per wound once the model is
at 0 W), the status words the window shows (down, reeling, knocked_down, stunned,
dazed) and what each word lets a model do (:func:`limits`); only their tables differ.
Functions roll and return an :class:`Injury`; :func:`apply_injury` writes it on the
model and says whether it is out of action; the turn hooks (:func:`at_turn_start`,
:func:`at_recovery`, :func:`at_turn_end`) move the statuses on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice, Modifier, Roll
from rulesets.gemini.chapters.options.common import tables

R_CHART = "GM-WOUND-CHART"
R_DOWN = "GM-DOWN-RESULT"
R_MORDHEIM = "GM-MORDHEIM"
R_GASR = "GM-GASR-WOUNDS"
R_INSTANT = "GM-INSTANT-DEATH"
R_TRIGGER = "GM-INJURY-ROLLS"

SYSTEMS = ("none", "wound_chart", "mordheim", "gasr_table")
#: every status an injury can leave on a model, most disabling first
STATUSES = ("stunned", "knocked_down", "down", "reeling", "dazed")
#: results that put the model out of the fight
OUT = ("out_of_action", "dead")


@dataclass
class Injury:
    """One injury roll's outcome: the result word, where (GASR), and the rolls."""

    result: str
    location: str = ""
    rolls: list[Roll] = field(default_factory=list)

    @property
    def out(self) -> bool:
        return self.result in OUT


def injury_rolls(hp_before: int, wounds: int) -> int:
    """How many injury rolls ``wounds`` unsaved wounds cause (GM-INJURY-ROLLS): none
    until W reaches 0, then one for the wound that takes it there and one for each
    wound after (a 3 W model rolls first on its third wound)."""
    if wounds <= 0:
        return 0
    if hp_before <= 0:
        return wounds
    return max(0, wounds - hp_before + 1)


def instant_death(strength: int, toughness: int) -> bool:
    """GM-INSTANT-DEATH: a wound of at least twice the Toughness takes every wound
    at once (the injury roll still follows)."""
    return toughness > 0 and strength >= 2 * toughness


def _band(table: dict[str, list[int]], face: int) -> str:
    for word, (lo, hi) in table.items():
        if lo <= face <= hi:
            return word
    raise ValueError(f"no result for {face}")


def chart_for(strength: int, size: str) -> str:
    """Which Wound Damage chart: S7 or more first, then unarmed or small weapons such as
    knives, else the normal one (GM-WOUND-CHART; the S7+ chart wins if both)."""
    if strength >= 7:
        return "strength_7"
    if size in ("unarmed", "small"):
        return "unarmed"
    return "normal"


def _table_roll(
    dice: Dice, table: dict[str, list[int]], purpose: str, actor: str, rule: str
) -> Injury:
    r = dice.roll(6, purpose, actor=actor, rule=rule, result=lambda t, _f: _band(table, t))
    return Injury(str(r.result), rolls=[r])


def wound_chart(dice: Dice, strength: int, size: str = "normal", actor: str = "") -> Injury:
    """A d6 on the Wound Damage chart for the weapon's Strength and size."""
    which = chart_for(strength, size)
    table = tables()["wound_chart"][which]
    label = {"normal": "", "strength_7": " (S7+)", "unarmed": " (unarmed/small)"}[which]
    return _table_roll(dice, table, f"{actor} wound damage{label}", actor, R_CHART)


def down_result(dice: Dice, actor: str = "") -> Injury:
    """A d6 on the Down Result table for a model that is Down or Reeling."""
    return _table_roll(dice, tables()["down_result"], f"{actor} down result", actor, R_DOWN)


def mordheim(dice: Dice, actor: str = "") -> Injury:
    """A d6 on the Mordheim-style injury table (no S or size modifiers)."""
    return _table_roll(dice, tables()["mordheim"], f"{actor} injury", actor, R_MORDHEIM)


def gasr_severity_mod(strength: int, size: str, blunt: bool = False) -> int:
    """+1 for S7 or more, −1 unarmed or a small blunt weapon (GM-GASR-WOUNDS)."""
    mod = 1 if strength >= 7 else 0
    if size == "unarmed" or (size == "small" and blunt):
        mod -= 1
    return mod


def gasr_wound(
    dice: Dice, strength: int, size: str = "normal", actor: str = "", blunt: bool = False
) -> Injury:
    """Two d6 on the GASR Wound Table: location first, then severity (modified; 0 is no
    effect, above 6 reads the 6 column)."""
    t = tables()["gasr"]
    loc_r = dice.roll(
        6,
        f"{actor} hit location",
        actor=actor,
        rule=R_GASR,
        result=lambda v, _f: str(t["locations"][str(v)]),
    )
    location = str(loc_r.result)
    mod = gasr_severity_mod(strength, size, blunt)

    def severity(total: int, _f: tuple[int, ...]) -> str:
        if total <= 0:
            return "none"
        return str(t["severity"][location][min(total, 6) - 1])

    sev_r = dice.roll(
        6,
        f"{actor} wound severity ({location})",
        actor=actor,
        rule=R_GASR,
        modifiers=_sev_mods(mod),
        result=severity,
    )
    return Injury(str(sev_r.result), location, [loc_r, sev_r])


def _sev_mods(mod: int) -> list[Modifier]:
    if mod > 0:
        return [Modifier(mod, "S7 or more", R_GASR)]
    if mod < 0:
        return [Modifier(mod, "unarmed or small blunt", R_GASR)]
    return []


def roll_injury(
    dice: Dice,
    system: str,
    strength: int,
    size: str = "normal",
    actor: str = "",
    blunt: bool = False,
) -> Injury:
    """One injury roll in ``system`` for a wound of ``strength`` from a ``size`` weapon."""
    if system == "wound_chart":
        return wound_chart(dice, strength, size, actor)
    if system == "mordheim":
        return mordheim(dice, actor)
    if system == "gasr_table":
        return gasr_wound(dice, strength, size, actor, blunt)
    return Injury("out_of_action")
