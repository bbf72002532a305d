"""Leadership tests (GM-LD) and the recovery phase (GM-RECOVERY).

Why one test function: every switch that tests nerve (GASR morale, broken nerve,
pinning, psychology, bottle tests) rolls the same 2d6 against a value; the snake-eyes
switch (a 2 always passes) and the log's wording then hold for all of them.
"""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Modifier, dice_sum, prob
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import switches
from rulesets.gemini.chapters.wounds import report


def pass_chance(value: int, mod: int, snake_eyes: bool) -> Fraction:
    """The exact chance 2d6 plus ``mod`` scores ``value`` or less (a natural 2 always
    passes with snake eyes)."""
    return prob(dice_sum(2, 6), lambda s: s + mod <= value or (snake_eyes and s == 2))


def ld_test(
    state: GameState,
    ctx: Context,
    m: Model,
    value: int,
    why: str,
    rule: str = "GM-LD",
    mods: tuple[Modifier, ...] = (),
    dice: int = 2,
) -> bool:
    """GM-LD: 2d6 (``dice`` d6: 3 for a skill), passed on ``value`` or less after the
    modifiers. GM-SNAKE-EYES: with the switch, a natural 2 on a 2d6 test always passes.
    A modifier here adds to the dice (a −1 to the value is a +1 here)."""
    snake = bool(switches.of(state).snake_eyes) and dice == 2
    mod = sum(x.value for x in mods)
    p = (
        pass_chance(value, mod, snake)
        if dice == 2
        else prob(dice_sum(dice, 6), lambda s: s + mod <= value)
    )

    def verdict(total: int, faces: tuple[int, ...]) -> str:
        if snake and sum(faces) == 2:
            return "passed (snake eyes)"
        return "passed" if total <= value else "failed"

    r = ctx.dice.roll(6, f"{m.id} {why}", n=dice, modifiers=list(mods), need=f"{value} or less",
                      chance=p, actor=m.id, rule=rule, result=verdict)  # fmt: skip
    report(ctx, r, m.id, rule)
    return str(r.result).startswith("passed")


def recovery(state: GameState, ctx: Context, side: str) -> None:
    """GM-RECOVERY: the side's recovery phase. The core has nothing to recover; the
    switches test here (HOOK gasr_morale / broken_nerve rallies, injuries' down
    results, frozen and pinned wearing off, all-out rout at the turn's start)."""
    return
