"""The hit-and-wound switches: ``ammo_rolls``, ``lucky_shots``, ``critical_damage`` and
``extra_wounds``.

Why apart from the core's shooting: each changes one step of the same hit → wound →
save chain, and only when its switch is on; the core calls these at that step and keeps
its own chain unchanged otherwise. Lucky shots and critical damage also serve close
combat without the Combat Score system, as the text allows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from engine.dice import Dice, Roll, die, prob
from engine.state import Model
from rulesets.gemini.chapters.options.common import d6_at_least, tables, wound_need
from rulesets.gemini.state import mv

R_AMMO = "GM-AMMO"
R_LUCKY = "GM-LUCKY"
R_CRIT = "GM-CRITICAL"
R_EXTRA = "GM-EXTRA-WOUNDS"

LUCKY_CHOICES = ("strength", "three")


# --- ammo rolls --------------------------------------------------------------------------


@dataclass
class Ammo:
    """After a to-hit roll: is the weapon useless for the game, are grenades spent."""

    useless: bool = False
    spent: bool = False
    rolls: list[Roll] = field(default_factory=list)


def ammo_need(weapon_class: str) -> int | None:
    """The d6 an Ammo Roll needs for the class (None: no roll — grenades, melee)."""
    v = tables()["ammo"].get(weapon_class)
    return int(v) if v is not None else None


def ammo_roll(dice: Dice, weapon_class: str, hit_faces: list[int], actor: str = "") -> Ammo:
    """GM-AMMO: every natural 6 to hit makes an Ammo Roll (d6 of the class's value or
    more); a failure leaves the weapon useless for the rest of the game. A grenade thrown
    with a 6 to hit was the last of its kind (no roll)."""
    out = Ammo()
    sixes = sum(1 for f in hit_faces if f == 6)
    if not sixes:
        return out
    if weapon_class == "grenade":
        out.spent = True
        return out
    need = ammo_need(weapon_class)
    if need is None:
        return out
    for _ in range(sixes):
        t = d6_at_least(dice, need, f"{actor} ammo roll ({weapon_class})", actor=actor, rule=R_AMMO)
        out.rolls += t.rolls
        if t.failed:
            out.useless = True
            break
    return out


# --- to wound, lucky shots and critical damage ------------------------------------------


@dataclass
class Wounding:
    """The to-wound step for one hit: wounds caused, whether they ignore the save."""

    wounds: int = 0
    critical: bool = False
    rolls: list[Roll] = field(default_factory=list)

    @property
    def no_save(self) -> bool:
        return self.critical


def is_lucky(total: int, need: int) -> bool:
    """GM-LUCKY: the to-hit score beats its target by 2 or more. A need above 6
    (a 6 and then a second roll) cannot be beaten by 2."""
    return need <= 6 and total >= need + 2


def critical_allowed(face: int, need: int, rending: bool = False, used: bool = False) -> bool:
    """GM-CRITICAL: a natural 6 to wound is critical damage unless 6s were needed
    anyway (or it could not wound), the weapon is rending, or this model has already
    caused its one critical in this phase."""
    return face == 6 and need < 6 and not rending and not used


def _wound_roll(dice: Dice, strength: int, toughness: int, actor: str, label: str) -> Roll:
    need = wound_need(strength, toughness)
    return dice.roll(
        6,
        f"{actor} to wound{label} (S{strength} v T{toughness})",
        need=f"{need}+" if need <= 6 else "cannot wound",
        chance=prob(die(6), lambda f: need <= 6 and f >= need),
        actor=actor,
        rule=R_LUCKY if label else "GM-WOUND",
        result=lambda _t, f: "wound" if need <= 6 and f[0] >= need else "no wound",
    )


def to_wound(
    dice: Dice,
    strength: int,
    toughness: int,
    *,
    actor: str = "",
    lucky: str = "",
    critical: bool = False,
    rending: bool = False,
    crit_used: bool = False,
) -> Wounding:
    """The to-wound step with the switches: ``lucky`` is "" (an ordinary hit), "strength"
    (one roll at S+1) or "three" (three rolls at S, at most one wound);
    ``critical`` turns critical damage on (2 wounds, no save) unless ``crit_used``."""
    s = strength + (1 if lucky == "strength" else 0)
    n = 3 if lucky == "three" else 1
    label = {"": "", "strength": " (lucky shot, +1 S)", "three": " (lucky shot)"}[lucky]
    need = wound_need(s, toughness)
    out = Wounding()
    if need > 6:
        return out
    for _ in range(n):
        r = _wound_roll(dice, s, toughness, actor, label)
        out.rolls.append(r)
        if r.result != "wound":
            continue
        out.wounds = 1
        if critical and critical_allowed(r.faces[0], need, rending, crit_used):
            out.wounds, out.critical = 2, True
            break
    return out


def crit_used(m: Model, phase_key: str) -> bool:
    """Whether ``m`` already caused its critical damage in this phase (``phase_key``
    names the phase: turn, side and phase)."""
    return mv(m).get("critical_in") == phase_key


def mark_crit(m: Model, phase_key: str) -> None:
    mv(m)["critical_in"] = phase_key


# --- extra wounds ----------------------------------------------------------------------------


def extra_wounds_dice(value: str) -> int:
    """How many d6 make a model's W: ``"2d6"`` or ``"3d6"``."""
    return {"2d6": 2, "3d6": 3}[value]


def roll_w(dice: Dice, value: str, actor: str = "") -> int:
    """GM-EXTRA-WOUNDS: W rolled on 2d6 or 3d6 at the start of the game."""
    n = extra_wounds_dice(value)
    return dice.roll(6, f"{actor} wounds", n=n, actor=actor, rule=R_EXTRA).total


def hit_damage(dice: Dice, actor: str = "", critical: bool = False) -> int:
    """Each wounding hit does a d6 of wounds (two d6 for critical damage)."""
    n = 2 if critical else 1
    return dice.roll(6, f"{actor} damage", n=n, actor=actor, rule=R_EXTRA).total


def below_half(hp: int, max_hp: int) -> bool:
    """A model below half its wounds hits at −1 (GM-EXTRA-WOUNDS)."""
    return 2 * hp < max_hp


def ammo_test_chance(weapon_class: str) -> Fraction:
    """The chance an Ammo Roll passes (1 for grenades and weapons that never roll)."""
    need = ammo_need(weapon_class)
    return Fraction(1) if need is None else prob(die(6), lambda f: f >= need)
