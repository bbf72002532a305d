"""Exact odds of an action before it is taken, for the window's preview and the AI.

Why separate from the rules: odds() never rolls and never changes the state; it reads
the same distributions (rulesets/umr/combat.py) that the rolls follow.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from engine import actions as act
from engine.dice import Dist, dice_sum, percent, prob, shift
from engine.ruleset import DISTANCE, Context, Odds
from engine.state import GameState
from rulesets.umr.actions import Climb, Jump, RpgTest
from rulesets.umr.chapters import attacks, common, movement, rpg
from rulesets.umr.chapters.terrain import table
from rulesets.umr.state import mv


def _clip(d: Dist) -> Dist:
    out: Dist = {}
    for v, p in d.items():
        out[max(0, v)] = out.get(max(0, v), Fraction(0)) + p
    return out


@lru_cache(maxsize=256)
def _inches(n: int, bonus: int) -> tuple[Dist, Fraction]:
    """The inches ``n`` movement dice + ``bonus`` give (never below 0) and their mean,
    worked out once per (n, bonus): the AI asks a move's odds for every move it weighs.
    Callers copy the distribution before handing it out."""
    dist = _clip(shift(dice_sum(n, 6), bonus))
    return dist, sum((v * p for v, p in dist.items()), Fraction(0))


def odds(state: GameState, a: act.Action, ctx: Context) -> Odds | None:
    m = state.models.get(a.actor)
    if m is None or m.removed:
        return None
    if isinstance(a, (act.Shoot, act.Fight)):
        ranged = isinstance(a, act.Shoot)
        t = state.models.get(a.target) if a.target else None
        if t is None and isinstance(a, act.Fight):
            try:
                t = attacks.melee_target(state, a)
            except IndexError:
                return None
        if t is None or t.removed or t.side == m.side:
            return None
        if isinstance(a, act.Shoot) and attacks.check_shoot(state, a, ctx):  # no line of fire
            return None
        mods = attacks.attack_mods(state, ctx, m, t, ranged)
        o = attacks.odds_with(mods, m, t, ranged)
        kind = "ballistic" if ranged else "melee"
        dmod = int(t.stats.get("DEFENSE", 0))
        lines = [
            f"{kind} d6{common.mods_text(mods)} against defence d6"
            + (f" +{dmod} DEFENSE" if dmod else ""),
            f"hit: {percent(o.hit)}; a defence six ends the activation: {percent(o.saved)}",
            f"expected damage {float(o.expected):.2f}; removes {t.id} ({t.hp} health): "
            f"{percent(o.kill)}",
        ]
        return Odds(o.hit, dict(o.damage), lines, o.expected)
    if isinstance(a, (act.Move, act.Charge)):
        path = list(a.waypoints(m.pos)) if isinstance(a, act.Move) else None
        if isinstance(a, act.Charge):
            t = state.models.get(a.target)
            if t is None:
                return None
            path = movement.charge_path(m, t, a.path)
        assert path is not None
        idx = table(ctx)
        rough = idx.rough_on(path)
        mods = movement.move_mods(m, rough.id if rough else None)
        bonus = sum(x.value for x in mods)
        cost = idx.cost(path) if not isinstance(a, act.Charge) else idx.cost(path) - 0.05
        chance = movement.reach_chance(bonus, cost)
        dist, mean = _inches(1, bonus)
        return Odds(
            chance,
            dict(dist),
            [
                f'movement d6{common.mods_text(mods)}: needs {cost:.1f}" '
                f"to reach the end: {percent(chance)}"
            ],
            mean,
            DISTANCE,
        )
    if isinstance(a, (Jump, Climb)):
        n = a.count or common.dice_for(state, m, "move")
        if n < 1:
            return None
        bonus = int(m.stats.get("MOVE", 0))
        if isinstance(a, Jump):
            if a.to is None:
                return None
            rough = table(ctx).in_rough(m.pos)
            bonus -= 1 if rough else 0
            need = math.dist(m.pos, a.to)
            what = f'leap {need:.1f}"'
        else:
            cur = mv(m).get("climb")
            if cur:
                legs = [(str(k), float(v)) for k, v in cur["legs"]]
                need = movement.pips_needed(legs, float(cur["done"]))
            else:
                if not table(ctx).tall_feature(a.feature):
                    return None
                legs, _ = movement._route(ctx, m, a.feature, a.to)
                need = movement.pips_needed(legs)
            what = f"climb: {need:g} pips (half the dice up or down, full across the top)"
        dist, mean = _inches(n, bonus)
        need_i = math.ceil(need - 1e-9)
        chance = prob(dist, lambda v: v >= need_i)
        return Odds(
            chance,
            dict(dist),
            [f"{n}d6{'+' if bonus >= 0 else ''}{bonus}: {what}: {percent(chance)}"],
            mean,
            DISTANCE,
        )
    if isinstance(a, RpgTest):
        if rpg.rpg_stat(a.stat) is None:
            return None
        c = rpg.rpg_chance(m, a)
        return Odds(c, {}, [f"{a.stat.lower()} test against {a.need}: {percent(c)}"])
    return None
