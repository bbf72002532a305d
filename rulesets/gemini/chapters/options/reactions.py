"""``reactions``, ``overwatch`` ("old" and "arap") and ``fast_draw``: shooting out of
turn, and who fires first in a face-off.

Why pure: a reaction is an answer the core offers in the other side's turn; the rules
here say whether a model may react, what its 2d6 against ``Act`` earn, and how many
times each weapon class fires for it, so the offer, the log and the AI agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dice import Dice, Modifier, Roll, die, prob
from engine.state import Model
from rulesets.gemini.state import mv

R_REACT = "GM-REACTIONS"
R_OLD = "GM-OVERWATCH-OLD"
R_ARAP = "GM-OVERWATCH-ARAP"
R_FAST = "GM-FAST-DRAW"
R_CHARGE_REACT = "GM-CHARGE-REACTIONS"

#: no reactions from a model in one of these states
NO_REACTION = frozenset(
    {"in_combat", "suppressed", "pinned", "routing", "pursuing", "running_for_cover"}
)
REACTION_RANGE = 9.0
OVERWATCH_RANGE = 24.0
#: classes that fire like heavy weapons for a reaction (the ammo table's grouping)
HEAVY_LIKE = ("heavy", "slow", "sniper", "bow")


@dataclass
class Reaction:
    """A reaction roll: successes (each die of Act or more) and the rolls."""

    successes: int
    rolls: list[Roll] = field(default_factory=list)


def may_react(m: Model, turn: int, in_combat: bool = False) -> str:
    """Why ``m`` may not react now ("" if it may): one reaction a turn, and none while
    in close combat, suppressed, pinned, routing or pursuing (GM-REACTIONS)."""
    if in_combat:
        return f"{m.id} is in close combat: no reactions ({R_REACT})"
    bad = NO_REACTION & set(m.status)
    if bad:
        return f"{m.id} is {sorted(bad)[0].replace('_', ' ')}: no reactions ({R_REACT})"
    if mv(m).get("reacted") == turn:
        return f"{m.id} has made its reaction this turn ({R_REACT})"
    return ""


def reaction_roll(dice: Dice, m: Model, turn: int) -> Reaction:
    """GM-REACTIONS: 2d6 against the activation number; each die of Act or more is one
    success. The model has then used its reaction for the turn."""
    act = int(m.stats.get("Act", 4))
    p1 = prob(die(6), lambda f: f >= act)
    r = dice.roll(
        6,
        f"{m.id} reacts (Act {act})",
        n=2,
        need=f"{act}+ each",
        chance=1 - (1 - p1) ** 2,
        actor=m.id,
        rule=R_REACT,
        result=lambda _t, f: f"{sum(1 for x in f if x >= act)} successes",
    )
    mv(m)["reacted"] = turn
    return Reaction(sum(1 for x in r.faces if x >= act), [r])


def reaction_shots(weapon_class: str, shots: int, successes: int) -> int:
    """How many times a weapon fires for a shooting reaction: one success — pistols
    once, rapid fire twice, assault as usual, heavy and slow not at all; two — pistols
    twice, heavy and slow as usual, rapid fire and assault as for one."""
    if successes <= 0 or weapon_class == "melee":
        return 0
    if weapon_class == "pistol":
        return 1 if successes == 1 else 2
    if weapon_class == "rapid_fire":
        return 2
    if weapon_class in HEAVY_LIKE:
        return 0 if successes == 1 else shots
    return shots


def overwatch_shots(weapon: dict[str, Any], distance: float) -> int:
    """GM-OVERWATCH-ARAP: counts as two successes; rapid fire twice up to half range
    (the text's 12" for a 24" weapon, GM-I-RAPID-HALF), once beyond."""
    cls = str(weapon.get("class", "assault"))
    shots = int(weapon.get("shots", 1))
    if cls == "rapid_fire":
        rng = float(weapon.get("range", 24))
        return 2 if distance <= rng / 2 + 1e-9 else 1
    return reaction_shots(cls, shots, 2)


def reaction_range(m: Model) -> float:
    """9", or 24" for a model in ARAP overwatch."""
    return OVERWATCH_RANGE if "overwatch" in m.status else REACTION_RANGE


# --- overwatch -------------------------------------------------------------------------------


def old_overwatch_at_turn_end(m: Model, moved: bool, fired: bool) -> bool:
    """GM-OVERWATCH-OLD: a model that neither moved nor fired in its turn is in
    overwatch (or stays in it); True when it is."""
    on = not moved and not fired and "routing" not in m.status
    m.set_status("overwatch", on)
    return on


def cover_mod(target_into_or_between_cover: bool) -> int:
    """GM-OVERWATCH-OLD: −1 to hit a target moving into or between cover."""
    return -1 if target_into_or_between_cover else 0


def lose_overwatch(m: Model, why: str) -> str:
    """Firing, moving, being suppressed, pinned, or in combat ends overwatch."""
    if "overwatch" in m.status:
        m.set_status("overwatch", False)
        return f"{m.id} leaves overwatch: {why}"
    return ""


# --- fast draw ------------------------------------------------------------------------------


def draw_score_mod(weapon_class: str, readied: bool = False) -> int:
    """GM-FAST-DRAW: +1 with a pistol, −1 with a heavy weapon, +1 readied."""
    mod = {"pistol": 1, "heavy": -1}.get(weapon_class, 0)
    return mod + (1 if readied else 0)


def fast_draw(
    dice: Dice,
    a: Model,
    a_class: str,
    b: Model,
    b_class: str,
    a_ready: bool = False,
    b_ready: bool = False,
) -> tuple[str, list[Roll]]:
    """GM-FAST-DRAW: each rolls a d6 + I (+ the weapon's modifier); the higher shoots
    first, equal scores shoot at once. Returns the first model's id or "both"."""
    rolls = []
    scores = []
    for m, cls, ready in ((a, a_class, a_ready), (b, b_class, b_ready)):
        mod = draw_score_mod(cls, ready)
        r = dice.roll(6, f"{m.id} fast draw (I {m.stats.get('I', 3)}{mod:+d})", actor=m.id,
                      rule=R_FAST, modifiers=[Modifier(int(m.stats.get("I", 3)) + mod, "I and weapon", R_FAST)])  # fmt: skip
        rolls.append(r)
        scores.append(r.total)
    if scores[0] == scores[1]:
        return "both", rolls
    return (a.id if scores[0] > scores[1] else b.id), rolls
