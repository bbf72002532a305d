"""What every optional rule shares: the 2d6 Ld test (with snake eyes), d6 tests, the
Strength-against-Toughness need, and the tables file.

Why here and not in the core: the switches are pure functions over dice and plain
values, so their tests run without a game; they need the same few rolls the core makes,
written once with the rule each roll cites. Every function takes the engine's
:class:`~engine.dice.Dice` and returns the :class:`~engine.dice.Roll` records it made,
so the caller logs them in the order they were rolled (the forced-dice order).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from engine.dice import Dice, Modifier, Roll, dice_sum, die, prob
from engine.ruleset import Context

TABLES = Path(__file__).with_name("tables.toml")

R_SNAKE = "GM-SNAKE-EYES"


@cache
def tables() -> dict[str, Any]:
    """The switches' tables (numbers and short result words), read once."""
    with TABLES.open("rb") as fh:
        return tomllib.load(fh)


@dataclass
class Test:
    """A pass/fail test and the rolls it took (one roll, or none when automatic)."""

    passed: bool
    rolls: list[Roll] = field(default_factory=list)
    why: str = ""

    @property
    def failed(self) -> bool:
        return not self.passed


def ld_chance(target: int, snake_eyes: bool = False) -> Fraction:
    """The chance of 2d6 ≤ ``target`` (a double 1 always passes with snake eyes)."""
    p = prob(dice_sum(2, 6), lambda t: t <= target)
    if snake_eyes and target < 2:
        p += Fraction(1, 36)
    return p


def ld_test(
    dice: Dice,
    target: int,
    purpose: str,
    *,
    actor: str = "",
    rule: str = "",
    mods: Sequence[Modifier] = (),
    snake_eyes: bool = False,
) -> Test:
    """2d6 against ``target`` (Ld, Cl or a value a rule gives) after ``mods``: pass on
    the target or less. With snake eyes (GM-SNAKE-EYES) a roll of 2 passes whatever
    the modifiers."""
    eff = target + sum(m.value for m in mods)
    shown = f"{target}" + "".join(f", {m.text()}" for m in mods) + (f" = {eff}" if mods else "")

    def verdict(_total: int, faces: tuple[int, ...]) -> str:
        if snake_eyes and sum(faces) == 2:
            return "passed (snake eyes)"
        return "passed" if sum(faces) <= eff else "failed"

    r = dice.roll(
        6,
        purpose,
        n=2,
        need=f"{shown} or less",
        chance=ld_chance(eff, snake_eyes),
        actor=actor,
        rule=rule,
        result=verdict,
    )
    # the modifiers move the target, not the dice: shown in the need, kept off the total
    return Test(str(r.result).startswith("passed"), [r])


def d6_at_most(dice: Dice, target: int, purpose: str, *, actor: str = "", rule: str = "") -> Test:
    """A d6 of ``target`` or less (Initiative tests, movement saves)."""
    r = dice.roll(
        6,
        purpose,
        need=f"{target} or less",
        chance=prob(die(6), lambda f: f <= target),
        actor=actor,
        rule=rule,
        result=lambda t, _f: "passed" if t <= target else "failed",
    )
    return Test(r.result == "passed", [r])


def d6_at_least(dice: Dice, need: int, purpose: str, *, actor: str = "", rule: str = "") -> Test:
    """A d6 of ``need`` or more."""
    r = dice.roll(
        6,
        purpose,
        need=f"{need}+",
        chance=prob(die(6), lambda f: f >= need),
        actor=actor,
        rule=rule,
        result=lambda t, _f: "passed" if t >= need else "failed",
    )
    return Test(r.result == "passed", [r])


def wound_need(strength: int, toughness: int) -> int:
    """The d6 needed to wound (the core's chart): S ≥ T+2 2+, T+1 3+, T 4+, T−1 5+,
    T−2 or T−3 6+; 7 means it cannot wound (T−4 or less)."""
    diff = strength - toughness
    if diff >= 2:
        return 2
    if diff >= -1:
        return 4 - diff
    return 6 if diff >= -3 else 7


def report(ctx: Context, r: Roll, actor: str, rule: str = "", target: str = "") -> None:
    """One roll to the log, in the shape the core's rolls take (explanation, faces,
    outcome, chance), citing the roll's own rule unless another is named."""
    ctx.log.emit(
        "resolution",
        r.explain(),
        actor=actor,
        target=target,
        rule=rule or r.rule,
        chance=None if r.chance is None else float(r.chance),
        rolls=list(r.faces),
        outcome=str(r.result),
    )


def report_all(ctx: Context, rolls: Sequence[Roll], actor: str, target: str = "") -> None:
    for r in rolls:
        report(ctx, r, actor, target=target)


def say(
    ctx: Context, text: str, actor: str, rule: str, outcome: str = "", target: str = ""
) -> None:
    """A status line for the log (a model goes down, freezes, routs...)."""
    ctx.log.emit(
        "status", f"{text} ({rule})", actor=actor, target=target, rule=rule, outcome=outcome
    )
