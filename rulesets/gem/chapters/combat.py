"""The Table 1 attack pipeline (GEM-2.2.3) shared by missile fire, melee, spells and
vehicle damage, with its exact odds.

Why one pipeline: every GEM attack is "ATT d20s, each modified, each against the Table 1
cell of OFF against DEF, naturals first". The same function that judges the dice gives
the chance the window previews and the AI weighs, so the two cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from engine.dice import Dist, Modifier, percent
from engine.ruleset import Context

from .tables import Cell, table1


@dataclass(frozen=True)
class Attack:
    """ATT d20s at OFF against DEF with modifiers (each with reason and rule)."""

    off: int
    dfn: int
    att: int
    modifiers: tuple[Modifier, ...] = field(default_factory=tuple)
    label: str = "attack"

    @property
    def cell(self) -> Cell:
        return table1(self.off, self.dfn)

    @property
    def mod(self) -> int:
        return sum(m.value for m in self.modifiers)

    def p_hit(self) -> Fraction:
        """Chance one die hits."""
        return self.cell.chance(self.mod)

    def dist(self) -> Dist:
        """Exact distribution of the number of hits (binomial over ATT dice)."""
        return binomial(self.att, self.p_hit())

    def p_any(self) -> Fraction:
        return 1 - (1 - self.p_hit()) ** self.att

    def lines(self) -> list[str]:
        out = [f"OFF {self.off} vs DEF {self.dfn} needs {self.cell.text()} (GEM-2.2.3 Table 1)"]
        out += [m.text() for m in self.modifiers]
        out.append(f"{self.att} d20: {percent(self.p_hit())} each to hit")
        return out


def binomial(n: int, p: Fraction) -> Dist:
    out: Dist = {}
    for k in range(n + 1):
        c = Fraction(_comb(n, k)) * p**k * (1 - p) ** (n - k)
        if c:
            out[k] = c
    return out


def _comb(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)


def judge(attack: Attack, faces: Sequence[int]) -> list[bool]:
    return [attack.cell.hits(f, attack.mod) for f in faces]


def roll_attack(
    ctx: Context, attack: Attack, *, actor: str, target: str, rule: str
) -> tuple[int, list[int], str, Fraction]:
    """Roll the attack's dice; returns (hits, faces, explanation, chance of any hit)."""
    if attack.att <= 0:
        return 0, [], f"{attack.label}: no attack dice", Fraction(0)
    chance = attack.p_any()
    cell = attack.cell
    r = ctx.dice.roll(
        20,
        attack.label,
        n=attack.att,
        modifiers=attack.modifiers,
        need=cell.text(),
        chance=chance,
        actor=actor,
        rule=rule,
        result=lambda _t, fs: sum(judge(attack, fs)),
    )
    hits = int(r.result)
    parts = []
    for f, ok in zip(r.faces, judge(attack, r.faces), strict=True):
        if f in (1, 20) or cell.only_natural_20 or cell.only_natural_1_misses:
            note = "natural " + str(f) if f in (1, 20) else str(f)
        else:
            mod = attack.mod
            note = f"{f}{'+' if mod >= 0 else '−'}{abs(mod)}={f + mod}" if mod else str(f)
        parts.append(f"{note} {'hit' if ok else 'miss'}")
    mods = "; ".join(m.text() for m in attack.modifiers)
    text = (
        f"{attack.label}: OFF {attack.off} vs DEF {attack.dfn} needs {cell.text()} "
        f"(GEM-2.2.3 Table 1)"
        + (f"; {mods}" if mods else "")
        + f"; rolled {', '.join(parts)}: {hits} hit{'s' if hits != 1 else ''} "
        f"(chance of a hit {percent(chance)})"
    )
    return hits, list(r.faces), text, chance
