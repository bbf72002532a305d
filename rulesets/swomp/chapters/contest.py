"""The contest: the one roll SWOMP resolves everything with, and its exact odds.

Why one module: shooting, blasts, close combat, retreats, ramming and vehicle hits are
all the same two-sided roll (SWOMP "Terms"): each side adds a d10 to its value, a 1
always loses, a 10 always wins, and a tie (including both sides rolling 1, or both 10)
goes to the defender. The preview, the AI and the rules read the same numbers here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.dice import Modifier, percent
from engine.ruleset import Context

D10 = 10
_P = Fraction(1, 100)


def attacker_wins(a_face: int, d_face: int, a_total: int, d_total: int) -> bool:
    """Who wins one contest, given both faces and both totals (SWOMP "Terms").

    Order matters for the corner cases: an attacker's 1 loses even against the
    defender's 1 (a tie, and ties go to the defender); a defender's 10 wins even
    against the attacker's 10 (the rulebook's own Eldar example).
    """
    if a_face == 1 or d_face == D10:
        return False
    if a_face == D10 or d_face == 1:
        return True
    return a_total > d_total


def outcomes(a_value: int, d_value: int) -> list[tuple[Fraction, bool, int]]:
    """All 100 face pairs as (chance, attacker wins, margin = attacker - defender total)."""
    out = []
    for a in range(1, D10 + 1):
        for d in range(1, D10 + 1):
            at, dt = a_value + a, d_value + d
            out.append((_P, attacker_wins(a, d, at, dt), at - dt))
    return out


def p_win(a_value: int, d_value: int) -> Fraction:
    """Exact chance that the attacker wins a contest of values A against D."""
    return sum((p for p, won, _ in outcomes(a_value, d_value) if won), Fraction(0))


def margin_dist(a_value: int, d_value: int) -> dict[int, Fraction]:
    """Distribution of the winning margin; losing is margin -1 (a won contest with a
    lower total, through a natural 10 or the defender's 1, counts as margin 0)."""
    out: dict[int, Fraction] = {}
    for p, won, m in outcomes(a_value, d_value):
        k = max(0, m) if won else -1
        out[k] = out.get(k, Fraction(0)) + p
    return out


def melee_damage(margin: int) -> int:
    """HP lost by the loser of a close combat contest (SWOMP "Winning a contest by 5 or
    more"): 1, 2 when won by 5 or more, 3 when won by 10 or more."""
    return 3 if margin >= 10 else 2 if margin >= 5 else 1


def ram_damage(margin: int) -> int:
    """Damage of a won ram (SWOMP "Ramming and Collisions"): "one point of damage ... for
    every 5 points the contest was won by", so a ram won by less than 5 does none."""
    return max(0, margin) // 5


def ram_speed_bonus(inches: float) -> int:
    """A ramming vehicle's speed bonus: its speed divided by ten "and rounded to the
    nearest whole number" (SWOMP "Ramming and Collisions"; halves round up: 15" is +2).
    Unlike the movement bonus no example contradicts the prose here (SWOMP-I-ROUND)."""
    return int(math.floor(max(0.0, float(inches)) / 10 + 0.5))


def speed_bonus(inches: float) -> int:
    """The movement/speed bonus: inches moved divided by ten, rounded down.

    The prose says "rounded to the nearest", but both worked examples truncate (12" is
    +1, 18" is +1); we follow the examples (SWOMP-I-ROUND).
    """
    return int(max(0.0, float(inches)) // 10)


@dataclass(frozen=True)
class Side:
    """One side of a contest: the terms of its value (each a Modifier with its reason)."""

    terms: tuple[Modifier, ...]

    @property
    def value(self) -> int:
        return sum(t.value for t in self.terms)

    def text(self, face: int) -> str:
        parts = []
        for i, t in enumerate(self.terms):
            if i == 0:
                parts.append(f"{t.reason} {t.value}")
            else:
                sign = "+" if t.value >= 0 else "\u2212"
                parts.append(f"{sign} {t.reason} {abs(t.value)}")
        return " ".join(parts) + f" + {face} = {self.value + face}"


def side(*terms: tuple[str, int] | Modifier, rule: str = "") -> Side:
    """Build a Side from (reason, value) pairs, dropping zero terms after the first."""
    out: list[Modifier] = []
    for t in terms:
        m = t if isinstance(t, Modifier) else Modifier(int(t[1]), t[0], rule)
        if out and m.value == 0:
            continue
        out.append(m)
    return Side(tuple(out))


@dataclass(frozen=True)
class Result:
    """A rolled contest: faces, totals, who won, by how much, and its explanation."""

    a_face: int
    d_face: int
    a_total: int
    d_total: int
    won: bool
    chance: Fraction
    text: str

    @property
    def margin(self) -> int:
        return self.a_total - self.d_total

    @property
    def rolls(self) -> list[int]:
        return [self.a_face, self.d_face]


def explain(att: Side, dfn: Side, a: int, d: int, won: bool, chance: Fraction) -> str:
    verb = "beats" if won else "does not beat"
    why = ""
    if a == 1:
        why = " (a 1 always loses)"
    elif d == D10:
        why = " (the defender's 10 always wins; a double 10 is a tie)"
    elif a == D10:
        why = " (a 10 always wins)"
    elif d == 1:
        why = " (a 1 always loses)"
    elif a + att.value == d + dfn.value:
        why = " (ties go to the defender)"
    return f"{att.text(a)} {verb} {dfn.text(d)}{why} (chance {percent(chance)})"


def roll(
    ctx: Context,
    att: Side,
    dfn: Side,
    purpose: str,
    rule: str,
    actor: str = "",
    target: str = "",
    a_face: int | None = None,
) -> Result:
    """Roll a contest: the attacker's die first, then the defender's (the order forced
    dice follow). ``a_face`` reuses one attacker roll against several defenders (a
    blast: one Blast Rating roll for every model under the marker)."""
    chance = p_win(att.value, dfn.value)
    if a_face is None:
        a_face = ctx.dice.roll(
            D10, f"{purpose} (attacker)", modifiers=att.terms, actor=actor, rule=rule, chance=chance
        ).faces[0]
    d_face = ctx.dice.roll(
        D10, f"{purpose} (defender)", modifiers=dfn.terms, actor=target, rule=rule
    ).faces[0]
    at, dt = att.value + a_face, dfn.value + d_face
    won = attacker_wins(a_face, d_face, at, dt)
    return Result(
        a_face, d_face, at, dt, won, chance, explain(att, dfn, a_face, d_face, won, chance)
    )


def d10_under(need: int) -> Fraction:
    """Chance a d10 rolls ``need`` or less (jams, explosions, systems, break tests)."""
    return Fraction(max(0, min(D10, need)), D10)


def under_word(need: int, yes: str, no: str) -> Callable[[int, tuple[int, ...]], str]:
    """The outcome word of a d10 that must roll ``need`` or less (``Dice.roll``'s result)."""
    return lambda _total, faces: yes if faces[0] <= need else no


def best_terms(values: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """Multiple attackers (SWOMP "Multiple attackers"): the highest value counts in full,
    each other adds half its own, rounded down. Returns the terms, highest first."""
    ordered = sorted(values, key=lambda t: (-t[1], t[0]))
    if not ordered:
        return []
    out = [ordered[0]]
    out += [(f"half of {name}", v // 2) for name, v in ordered[1:]]
    return out
