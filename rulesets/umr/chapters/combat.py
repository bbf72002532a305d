"""The UMR roll pipelines and their exact odds: attack die against defence die, damage
dice that keep rolling on sixes, and the once-per-round tricks that change them.

Why one module: the rules roll these dice and the window and the AI preview the same
numbers; both read the distributions defined here, so a preview can never disagree with
what the table does.

Exploding damage is infinite in principle. We truncate at depth ``EXPLODE_DEPTH`` (12
sixes in a row, probability 6^-12 < 1e-9) and put the remaining mass on the last bucket
(6 x 12 = "72 or more"), so every distribution still sums to exactly one (UMR-I-ODDS).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache

from engine.dice import Dist, add, die, expected, shift

SIX = 6
EXPLODE_DEPTH = 12

#: Contest results: the attack got through, failed, or the defender rolled a natural six.
HIT, MISS, SAVED = "hit", "miss", "saved"


@dataclass(frozen=True)
class Defence:
    """How a defender rolls. ``extra_die``: commando, two dice keep the higher;
    ``reroll``: guardian, reroll the die once when it would lose."""

    mod: int = 0
    extra_die: bool = False
    reroll: bool = False


@dataclass(frozen=True)
class Damage:
    """How a successful attack rolls damage. ``extra``: "" one die, "added" (grenadier: a
    second die added to the first), "separate" (brawler: a second amount of its own);
    ``counter``: the target is a tank with its counter die unused this round."""

    bonus: int = 0
    extra: str = ""
    counter: bool = False


@cache
def exploding() -> dict[int, Fraction]:
    """One damage die that keeps rolling while it shows six (UMR-SIX-DAMAGE), truncated."""
    out: dict[int, Fraction] = {}
    p = Fraction(1, SIX)
    for k in range(EXPLODE_DEPTH):
        for r in range(1, SIX):
            out[SIX * k + r] = p
        p /= SIX
    out[SIX * EXPLODE_DEPTH] = p * SIX  # the remaining mass: twelve sixes in a row
    return out


@lru_cache(maxsize=4096)
def contest(attack_mod: int, defence: Defence) -> dict[str, Fraction]:
    """Exact chances of HIT / MISS / SAVED for one attack die against the defence.

    The attack hits only when its total beats the defence total (ties to the defender);
    a natural six on any defence die the defender keeps wins outright (UMR-SIX-DEFENSE).
    """
    out = {HIT: Fraction(0), MISS: Fraction(0), SAVED: Fraction(0)}
    p1 = Fraction(1, SIX)
    for a in range(1, SIX + 1):
        at = a + attack_mod
        for d1 in range(1, SIX + 1):
            if defence.extra_die:
                for d2 in range(1, SIX + 1):
                    w = p1 * p1 * p1
                    if SIX in (d1, d2):
                        out[SAVED] += w
                    elif at > max(d1, d2) + defence.mod:
                        out[HIT] += w
                    else:
                        out[MISS] += w
                continue
            w = p1 * p1
            if d1 == SIX:
                out[SAVED] += w
            elif at <= d1 + defence.mod:
                out[MISS] += w
            elif defence.reroll:
                for d2 in range(1, SIX + 1):
                    if d2 == SIX:
                        out[SAVED] += w * p1
                    elif at > d2 + defence.mod:
                        out[HIT] += w * p1
                    else:
                        out[MISS] += w * p1
            else:
                out[HIT] += w
    return out


def _counter(amount: Dist) -> Dist:
    """The tank's counter die taken off one amount, never below zero (UMR-TANK)."""
    out: Dist = {}
    for x, px in amount.items():
        for c, pc in die(SIX).items():
            v = max(0, x - c)
            out[v] = out.get(v, Fraction(0)) + px * pc
    return out


@lru_cache(maxsize=1024)
def damage_dist(spec: Damage) -> dict[int, Fraction]:
    """Distribution of the total damage one successful attack deals."""
    one = shift(exploding(), spec.bonus)
    if spec.extra == "added":
        amount = shift(add(exploding(), exploding()), spec.bonus)
        return _counter(amount) if spec.counter else amount
    if spec.extra != "separate":
        return _counter(one) if spec.counter else one
    if not spec.counter:
        return add(one, one)
    out: Dist = {}
    cdie = die(SIX)
    for a, pa in one.items():
        for b, pb in one.items():
            hi, lo = max(a, b), min(a, b)
            for c, pc in cdie.items():
                v = max(0, hi - c) + lo
                out[v] = out.get(v, Fraction(0)) + pa * pb * pc
    return out


@dataclass(frozen=True)
class AttackOdds:
    """Everything a preview needs about one attack die."""

    hit: Fraction
    saved: Fraction
    damage: dict[int, Fraction]  # total damage, 0 included (misses and saves)
    kill: Fraction

    @cached_property
    def expected(self) -> Fraction:
        """Expected damage, worked out once: the odds are shared (``attack_odds`` is
        cached) and the AI asks each one's expectation over and over (issue 24)."""
        return expected(self.damage)


@lru_cache(maxsize=4096)
def attack_odds(attack_mod: int, defence: Defence, damage: Damage, hp: int) -> AttackOdds:
    """Hit chance, damage distribution and the chance to remove a target with ``hp``."""
    res = contest(attack_mod, defence)
    dd = damage_dist(damage)
    dist: dict[int, Fraction] = {0: res[MISS] + res[SAVED]}
    for v, p in dd.items():
        dist[v] = dist.get(v, Fraction(0)) + res[HIT] * p
    kill = res[HIT] * sum((p for v, p in dd.items() if v >= hp), Fraction(0))
    return AttackOdds(res[HIT], res[SAVED], {k: v for k, v in dist.items() if v}, kill)


def at_least(d: int, bonus: int) -> Fraction:
    """Chance that one d6 plus ``bonus`` reaches ``d`` or more (a movement roll)."""
    need = d - bonus
    if need <= 1:
        return Fraction(1)
    if need > SIX:
        return Fraction(0)
    return Fraction(SIX - need + 1, SIX)
