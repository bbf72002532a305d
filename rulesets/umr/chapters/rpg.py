"""The optional RPG tests (UMR-RPG-STATS, UMR-RPG-ABILITIES): a free d6 + the stat's
point against the difficulty the game master sets, a second die for the matching ability.

Why apart from movement and combat: a test spends no action die and harms no one.
"""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Modifier, add, die, percent, prob, shift
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr.actions import RpgTest
from rulesets.umr.build import RPG_STATS
from rulesets.umr.chapters import common
from rulesets.umr.chapters.abilities import ability_of


def rpg_stat(name: str) -> str | None:
    s = name.strip().upper()
    return s if s in RPG_STATS else None


def rpg_dist(m: Model, stat: str) -> tuple[dict[int, Fraction], list[Modifier], int]:
    pts = int(m.stats.get(stat, 0))
    abil = ability_of(m.stats)
    n = 2 if abil is not None and abil.rpg_stat == stat else 1
    d = die(6) if n == 1 else add(die(6), die(6))
    mods = [Modifier(pts, stat, "UMR-RPG-STATS")] if pts else []
    return shift(d, pts), mods, n


def check_rpg(state: GameState, a: RpgTest, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    if rpg_stat(a.stat) is None:
        return [f"'{a.stat}' is not an RPG stat (diplomacy, perception, mechanics) (UMR-RPG-STATS)"]
    if not 1 <= a.need <= 30:
        return [f"a test needs a difficulty from 1 to 30, not {a.need}"]
    return []


def rpg_chance(m: Model, a: RpgTest) -> Fraction:
    stat = rpg_stat(a.stat)
    assert stat is not None
    d, _, _ = rpg_dist(m, stat)
    return prob(d, lambda v: v >= a.need)


def apply_rpg(state: GameState, a: RpgTest, ctx: Context) -> None:
    """A free test during the model's activation: d6 + the stat's point, a second die
    added for the matching RPG ability; success on the difficulty or more (UMR-I-RPG)."""
    m = state.models[a.actor]
    common.start(state, m)
    stat = rpg_stat(a.stat)
    assert stat is not None
    _, mods, n = rpg_dist(m, stat)
    chance = rpg_chance(m, a)
    r = ctx.dice.roll(
        6,
        f"{stat.lower()} test",
        n=n,
        modifiers=mods,
        actor=m.id,
        rule="UMR-RPG-STATS",
        need=f"{a.need}+",
        chance=chance,
    )
    ok = r.total >= a.need
    ability = ability_of(m.stats)
    extra = (
        f" (an extra die for the {ability.name.lower()}, UMR-RPG-ABILITIES)"
        if n == 2 and ability is not None
        else ""
    )
    ctx.log.emit(
        "resolution",
        f"{m.id} {stat.lower()} test: {n}d6 "
        f"{' + '.join(map(str, r.faces))}{common.mods_text(mods)} = "
        f"{r.total}{extra} against {a.need}: "
        f"{'success' if ok else 'failure'} (chance {percent(chance)}, "
        f"UMR-RPG-STATS)",
        actor=m.id,
        rule="UMR-RPG-STATS",
        chance=float(chance),
        rolls=list(r.faces),
        outcome="success" if ok else "failure",
    )
