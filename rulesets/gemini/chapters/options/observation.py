"""``observation``: d10 Initiative tests for noticing and searching.

Why a d10: the text rolls these against I on a d10 rather than the usual d6, so a
model's Initiative weighs more; the margin by which it passes says how much it learns.
"""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Dice
from engine.state import Model
from rulesets.gemini.chapters.options.common import Test

R_OBSERVE = "GM-OBSERVATION"


def search_radius(m: Model) -> float:
    """GM-OBSERVATION: a search covers a radius of half the model's profile M."""
    return float(m.stats.get("M", 4)) / 2


def observe(dice: Dice, m: Model, what: str, mod: int = 0) -> tuple[Test, int]:
    """A d10 of I (plus ``mod``) or less; returns the test and the margin (I − roll)."""
    target = int(m.stats.get("I", 3)) + mod
    r = dice.roll(10, f"{m.id} looks for {what}", need=f"{target} or less",
                  chance=Fraction(max(0, min(10, target)), 10), actor=m.id, rule=R_OBSERVE,
                  result=lambda t, _f: "spotted" if t <= target else "missed")  # fmt: skip
    return Test(r.result == "spotted", [r]), target - r.total
