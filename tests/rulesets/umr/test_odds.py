"""Exact odds (rulesets/umr/chapters/combat.py) checked against independent brute force: the
attack contest with its defence tricks (UMR-MELEE, UMR-SIX-DEFENSE, UMR-COMMANDO,
UMR-GUARDIAN) and the damage distributions (UMR-SIX-DAMAGE, UMR-TANK, UMR-GRENADIER,
UMR-BRAWLER, UMR-I-ODDS)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesets.umr.chapters import combat
from rulesets.umr.chapters.combat import HIT, MISS, SAVED, Damage, Defence

FACES = range(1, 7)


def brute(att: int, dmod: int, commando=False, guardian=False) -> dict[str, Fraction]:
    """Every face of three dice equally likely; the third die is used only when needed."""
    out = {HIT: Fraction(0), MISS: Fraction(0), SAVED: Fraction(0)}
    for a, d1, d2 in itertools.product(FACES, FACES, FACES):
        if commando:
            res = SAVED if 6 in (d1, d2) else HIT if a + att > max(d1, d2) + dmod else MISS
        elif d1 == 6:
            res = SAVED
        elif a + att <= d1 + dmod:
            res = MISS
        elif guardian:
            res = SAVED if d2 == 6 else HIT if a + att > d2 + dmod else MISS
        else:
            res = HIT
        out[res] += Fraction(1, 216)
    return out


@pytest.mark.parametrize("att", [-2, -1, 0, 1, 2, 3, 5])
@pytest.mark.parametrize("dmod", [0, 1, 2])
@pytest.mark.parametrize("trick", ["", "commando", "guardian"])
def test_contest_matches_brute_force(att, dmod, trick):
    """UMR-MELEE / UMR-SIX-DEFENSE / UMR-COMMANDO / UMR-GUARDIAN: exact hit chances."""
    d = Defence(dmod, extra_die=trick == "commando", reroll=trick == "guardian")
    got = combat.contest(att, d)
    assert got == brute(att, dmod, trick == "commando", trick == "guardian")
    assert sum(got.values()) == 1


def test_plain_contest_numbers():
    """UMR-MELEE: d6 against d6, ties to the defender: 15/36; a defence six: 1/6."""
    c = combat.contest(0, Defence())
    assert c[HIT] == Fraction(15, 36) and c[SAVED] == Fraction(1, 6)
    assert combat.contest(1, Defence())[HIT] == Fraction(20, 36)
    assert combat.contest(10, Defence())[HIT] == Fraction(5, 6)  # only a six saves


def test_exploding_damage_die():
    """UMR-SIX-DAMAGE / UMR-I-ODDS: sixes roll again; cut at 12 sixes, mass kept."""
    d = combat.exploding()
    assert sum(d.values()) == 1
    assert d[1] == d[5] == Fraction(1, 6) and 6 not in d and 12 not in d
    assert d[7] == Fraction(1, 36) and d[13] == Fraction(1, 216)
    assert max(d) == 72 and d[72] == Fraction(1, 6**12) < Fraction(1, 10**9)
    mean = sum(v * p for v, p in d.items())
    assert abs(float(mean) - 4.2) < 1e-6  # E = 3.5 / (1 - 1/6)


def test_damage_with_tank_counter():
    """UMR-TANK: the counter die comes off the damage, never below zero."""
    d = combat.damage_dist(Damage(counter=True))
    assert sum(d.values()) == 1
    # zero damage: a first die x of 1-5 and a counter die of x or more
    assert d[0] == sum(Fraction(1, 6) * Fraction(7 - x, 6) for x in range(1, 6))
    assert d[0] == Fraction(20, 36)
    # 5 damage: (die 6, then 5: 11) minus a counter of 6, or a first die of 6+x ...
    brute_5 = sum(
        p * Fraction(1, 6)
        for x, p in combat.exploding().items()
        for c in FACES
        if max(0, x - c) == 5
    )
    assert d[5] == brute_5


def test_grenadier_and_brawler_damage():
    """UMR-GRENADIER adds a die to the first (bonus once); UMR-BRAWLER: two amounts, bonus
    on each."""
    g = combat.damage_dist(Damage(bonus=2, extra="added"))
    b = combat.damage_dist(Damage(bonus=2, extra="separate"))
    assert sum(g.values()) == 1 and sum(b.values()) == 1
    assert min(g) == 4 and min(b) == 6
    assert g[4] == b[6] == Fraction(1, 36)
    eg = sum(v * p for v, p in g.items())
    eb = sum(v * p for v, p in b.items())
    assert abs(float(eb - eg) - 2) < 1e-6


def test_attack_odds_kill_chance():
    """UMR-HEALTH / UMR-DAMAGE: the chance to remove a target is hit x P(damage >= hp)."""
    o = combat.attack_odds(0, Defence(), Damage(), 3)
    assert o.hit == Fraction(15, 36)
    assert o.kill == Fraction(15, 36) * (1 - Fraction(2, 6))
    assert sum(o.damage.values()) == 1
    assert o.damage[0] == 1 - o.hit
