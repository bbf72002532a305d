"""``skills``: specialist skills bought with points and tested on 3d6 (from GURPS Lite).

Why a level and a cost: a skill's level is Ld plus an offset the points buy, by how hard
the skill is for the character; the roll is 3d6 of the level or less, and an unskilled
attempt rolls against Ld−2, −3 or −4.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice import Dice, Modifier, dice_sum, prob
from rulesets.gemini.chapters.options.common import Test, tables

R_SKILLS = "GM-SKILLS"
DIFFICULTIES = ("easy", "average", "hard")


def cost(difficulty: str, offset: int) -> int | None:
    """The points a skill at Ld + ``offset`` costs (None: not available)."""
    t = tables()["skills"]
    if offset > 3:
        base = cost(difficulty, 3)
        return None if base is None else base + int(t["extra_level"]) * (offset - 3)
    c = t["cost"][difficulty].get(str(offset))
    return None if c is None or int(c) < 0 else int(c)


def level_for(ld: int, difficulty: str, points: int) -> int | None:
    """The highest level ``points`` buy (None: not even the cheapest)."""
    best = None
    for off in range(-1, 20):
        c = cost(difficulty, off)
        if c is None:
            continue
        if c > points:
            break
        best = ld + off
    return best


def unskilled_level(ld: int, difficulty: str) -> int:
    """An unskilled attempt: Ld−2 easy, Ld−3 average, Ld−4 hard."""
    return ld + int(tables()["skills"]["unskilled"][difficulty])


def skill_test(
    dice: Dice, level: int, purpose: str, *, actor: str = "", mods: Iterable[Modifier] = ()
) -> Test:
    """GM-SKILLS: 3d6 of the level (after modifiers) or less."""
    ms = list(mods)
    target = level + sum(m.value for m in ms)
    shown = f"{level}" + "".join(f", {m.text()}" for m in ms) + (f" = {target}" if ms else "")
    r = dice.roll(6, purpose, n=3, need=f"{shown} or less",
                  chance=prob(dice_sum(3, 6), lambda t: t <= target), actor=actor,
                  rule=R_SKILLS, result=lambda _t, f: "passed" if sum(f) <= target else "failed")  # fmt: skip
    return Test(r.result == "passed", [r])
