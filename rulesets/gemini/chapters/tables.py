"""The core's charts (GM-SHOOT, GM-WOUND, GM-SAVE, GM-MELEE): to hit from BS, Strength
against Toughness, the armour save and the close-combat hit table from WS, with the
exact chance of each.

Why figures of our own: the rulebook is a page of optional rules for a core it does not
include; the issue fixes the classic Rogue Trader figures as the contract, and
reference.toml records them as designer's interpretations (GM-I-CORE).
"""

from __future__ import annotations

from fractions import Fraction

SIXTH = Fraction(1, 6)

#: the weapon classes a weapon may give (GM-WEAPONS); the switches read them
CLASSES = (
    "pistol",
    "rapid_fire",
    "assault",
    "heavy",
    "slow",
    "sniper",
    "bow",
    "grenade",
    "melee",
)
#: parry values (GM-PARRY); "always" is a shield's
PARRIES = (0, 2, 4, 6, "always")
#: weapon sizes (GM-WEAPONS); the Combat Score reads improvised and unarmed
SIZES = ("unarmed", "small", "improvised", "normal")
#: the profile figures a model has (GM-PROFILE)
PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv")
DEFAULTS: dict[str, int] = {
    "M": 4,
    "WS": 3,
    "BS": 3,
    "S": 3,
    "T": 3,
    "W": 1,
    "I": 3,
    "A": 1,
    "Ld": 7,
    "Sv": 0,
    "Act": 4,
}
#: terrain kinds crossed at half rate (GM-MOVE; GM-I-TERRAIN): an inch costs two
DIFFICULT: dict[str, float] = {
    "woods": 2.0,
    "heavy_woods": 2.0,
    "brush": 2.0,
    "rough": 2.0,
    "rubble": 2.0,
    "water": 2.0,
    "stream": 2.0,
    "river": 2.0,
    "hedge": 2.0,
    "fence": 2.0,
    "low_wall": 2.0,
}


def hit_need(bs: int, mods: int = 0) -> int:
    """GM-SHOOT: the score a d6 needs, 7 − BS less the modifiers' sum, never below 2 (a
    natural 1 always misses). 7, 8 and 9 are a 6 and then 4+, 5+, 6; 10 or more cannot
    hit."""
    return max(2, 7 - bs - mods)


def second_need(need: int) -> int:
    """GM-SHOOT: after a 6, the second die's need for a need of 7, 8 or 9 (4, 5, 6)."""
    return need - 3


def hit_chance(need: int) -> Fraction:
    """GM-SHOOT: the exact chance of a hit for a need (two dice beyond 6)."""
    if need <= 6:
        return Fraction(7 - max(2, need), 6)
    if need <= 9:
        return SIXTH * Fraction(7 - second_need(need), 6)
    return Fraction(0)


def wound_need(s: int, t: int) -> int | None:
    """GM-WOUND: the d6 Strength S needs against Toughness T; None when it cannot wound
    (S ≥ T+2: 2+, T+1: 3+, T: 4+, T−1: 5+, T−2 or T−3: 6+, T−4 or less: none)."""
    d = s - t
    if d >= 2:
        return 2
    if d == 1:
        return 3
    if d == 0:
        return 4
    if d == -1:
        return 5
    if d >= -3:
        return 6
    return None


def save_need(sv: int, save_mod: int) -> int | None:
    """GM-SAVE: the d6 an armour save needs, Sv worsened by the weapon's (negative)
    ``save`` modifier; None without a save (no Sv, or a need beyond 6). A 1 always
    fails, so the need is never below 2."""
    if not sv:
        return None
    need = max(2, sv - save_mod)
    return need if need <= 6 else None


def chance(need: int | None) -> Fraction:
    """The chance a d6 scores ``need`` or more (none for None)."""
    if need is None or need > 6:
        return Fraction(0)
    return Fraction(7 - max(1, need), 6)


def melee_need(ws: int, foe_ws: int) -> int:
    """GM-MELEE: an attack die hits on 3+ if the striker's WS is higher than the foe's,
    5+ if the foe's is more than double the striker's, else 4+."""
    if ws > foe_ws:
        return 3
    if foe_ws > 2 * ws:
        return 5
    return 4
