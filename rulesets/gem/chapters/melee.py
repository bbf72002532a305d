"""Charges and melee (GEM-2.3): contact, flank and rear zones taken where the charger
started, Table 3 from the measured table, spears and pikes, and overruns (GEM-2.1.5).

Why the zone is stored on the melee: GEM decides flank and rear by where the attacker
stood when it began its move, which the table no longer shows once the bases touch; the
charge records it so the fight that follows (and the fear check at contact) can read it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from engine.dice import Modifier
from engine.ruleset import TOO_FAR, Context, Reason
from engine.state import GameState, Model
from engine.whether import only_whether

from ..build import def_value
from ..state import disorganized, engage, engagement, is_block, mtype, mv, unit_models
from . import blocks, measure
from .combat import Attack, roll_attack
from .damage import apply_hits
from .movement import Plan, apply_block_move, plan_block, plan_model
from .spell_effects import def_bonus, off_bonus
from .tables import table3, terrain

Point = tuple[float, float]


def melee_weapon(m: Model) -> dict[str, Any]:
    for w in m.weapons:
        if not float(w.get("range", 0) or 0):
            return w
    return {"name": "hand-to-hand", "OFF": m.stat("OFF", 1), "ATT": m.stat("ATT", 1)}


def target_group(state: GameState, t: Model) -> list[Model]:
    return blocks.live_order(state, t.unit) if is_block(state, t.unit) else [t]


def group_facing(state: GameState, t: Model) -> float:
    return blocks.record(state, t.unit)["facing"] if is_block(state, t.unit) else t.facing


def attackers_of(state: GameState, unit: str, actor: str) -> list[Model]:
    if is_block(state, unit):
        return blocks.live_order(state, unit)
    return [state.models[actor]] if actor in state.models else unit_models(state, unit)


# ------------------------------------------------------------------ charges
def charge_plan(
    state: GameState, ctx: Context, unit: str, actor: str, t: Model
) -> tuple[Plan, list[Point], float, str]:
    """(plan, path, facing, zone) of a charge at ``t`` (no dice)."""
    zone = measure.zone_of(
        target_group(state, t), attackers_of(state, unit, actor), group_facing(state, t)
    )
    if is_block(state, unit):
        rec = blocks.record(state, unit)
        f = (rec["front"][0], rec["front"][1])
        facing = measure.bearing(f, t.pos)
        ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
        lo, _ = measure.extent_along(t, t.x, t.y, ux, uy)
        end = (t.x + ux * (lo - 0.01), t.y + uy * (lo - 0.01))
        path = [f, end]
        plan = plan_block(state, ctx, unit, path, facing, False, charge_target=t.id)
        _ignore_target_unit(state, ctx, unit, path, facing, t, plan)
        return plan, path, facing, zone
    m = state.models[actor]
    from .movement import _move, allowance, can_move_problems

    allow, _ = allowance(state, ctx, m, [m.pos, t.pos], False)
    gap = measure.distance(m, t)
    early = can_move_problems(state, unit, m)
    if early or gap > allow + 0.01:
        plan = Plan(
            cost=gap,
            allowance=allow,
            problems=early
            or [
                Reason(
                    f'{t.id} is {gap:.1f}" away but {m.id} may move {allow:g}" (GEM-2.1.1)',
                    TOO_FAR,
                    distance=gap,
                    limit=allow,
                )
            ],
        )
        return plan, [m.pos, t.pos], measure.bearing(m.pos, t.pos), zone
    res = _move(ctx, state, m.id, [t.pos])
    path = [m.pos, res.end]
    plan = plan_model(state, ctx, m, path, False, charge_target=t.id)
    hit = res.blocked_by
    if hit is None or hit not in state.models or state.models[hit].unit != t.unit:
        plan.problems.append(
            f"{m.id} cannot reach {t.id}: " + (f"blocked by {hit}" if hit else "no contact")
        )
    return plan, path, measure.bearing(m.pos, t.pos), zone


def _ignore_target_unit(
    state: GameState,
    ctx: Context,
    unit: str,
    path: list[Point],
    facing: float,
    t: Model,
    plan: Plan,
) -> None:
    plan.problems = [
        p
        for p in plan.problems
        if not any(p.endswith(f"blocked by {o.id}") for o in unit_models(state, t.unit))
    ]


def charge_problems(state: GameState, ctx: Context, unit: str, actor: str, t: Model) -> list[str]:
    if t.removed or t.side == unit_models(state, unit)[0].side:
        return [f"{t.id} is not an enemy on the table"]
    if engagement(state, unit, t.unit):
        return [f"{unit} is already fighting {t.unit}"]
    if only_whether():  # a unit that may not move may not charge: no path to measure
        from .movement import can_move_problems

        mover = blocks.live_order(state, unit)[0] if is_block(state, unit) else state.models[actor]
        early = can_move_problems(state, unit, mover)
        if early:
            return early
    plan, *_ = charge_plan(state, ctx, unit, actor, t)
    return plan.problems


def charge(state: GameState, ctx: Context, unit: str, actor: str, t: Model) -> None:
    plan, path, facing, zone = charge_plan(state, ctx, unit, actor, t)
    if is_block(state, unit):
        reached = apply_block_move(state, ctx, unit, path, facing, plan, False, overrun, t.id)
        if not reached:
            return
    else:
        m = state.models[actor]
        m.x, m.y = path[-1]
        m.facing = facing
        mv(m)["moved"] = round(float(mv(m).get("moved", 0) or 0) + measure.path_length(path), 3)
        mv(m)["moved_done"] = True
        ctx.log.emit(
            "move",
            f'{m.id} charges {measure.path_length(path):.1f}" into contact '
            f"with {t.id}; "
            + "; ".join(plan.lines)
            + f'; cost {plan.cost:.1f}" of {plan.allowance:g}"',
            actor=m.id,
            target=t.id,
            rule="GEM-2.3",
        )
    for m in attackers_of(state, unit, actor):
        mv(m)["charged"] = True
    engage(state, unit, t.unit, zone, True)
    ctx.log.emit(
        "status",
        f"{unit} charges {t.unit}: attacking from its {zone if zone != 'none' else 'front'}"
        f" (GEM-2.3.3: the zone is where the charge began)",
        actor=unit,
        target=t.unit,
        rule="GEM-2.3.3",
        data={"zone": zone},
    )
    from .morale import contact_fear

    contact_fear(state, ctx, attacker=unit, defender=t.unit, zone=zone)


# ------------------------------------------------------------------ fighting
def ranks_of(state: GameState, unit: str) -> int:
    """GEM-2.1.4 for blocks; anything else counts as one rank (GEM-I-RANKS)."""
    return blocks.ranks(state, unit) if is_block(state, unit) else 1


def attack_dice(state: GameState, unit: str, actor: str) -> tuple[int, list[str]]:
    """How many d20s: a block's front rank, plus half its second rank for spears, and a
    quarter of its third for pikes (GEM-2.3.2); a single figure its ATT."""
    if not is_block(state, unit):
        m = state.models[actor]
        return int(melee_weapon(m).get("ATT", m.stat("ATT", 1))), [f"ATT {m.stat('ATT', 1)}"]
    front = blocks.front_rank(state, unit)
    n = sum(int(melee_weapon(m).get("ATT", m.stat("ATT", 1))) for m in front)
    lines = [f"front rank of {len(front)}: {n} attacks"]
    w = melee_weapon(front[0])
    second = len(blocks.rank_models(state, unit, 1))
    third = len(blocks.rank_models(state, unit, 2))
    if w.get("spear") or w.get("pike"):
        extra = second // 2
        n += extra
        lines.append(
            f"{'pikes' if w.get('pike') else 'spears'}: half the second rank "
            f"({second}) +{extra} (GEM-2.3.2)"
        )
    if w.get("pike"):
        extra = third // 4
        n += extra
        lines.append(f"pikes: a quarter of the third rank ({third}) +{extra} (GEM-2.3.2)")
    return n, lines


def table3_mods(
    state: GameState, ctx: Context, unit: str, attacker: Model, t: Model
) -> list[Modifier]:
    """Table 3 (GEM-2.3.1), each modifier measured or read from the melee record."""
    t3 = table3()
    out: list[Modifier] = []
    e = engagement(state, unit, t.unit) or {"charged": [], "zone": {}}
    if unit in e["charged"] and mv(attacker).get("charged"):
        out.append(Modifier(t3["charged"], "charged into combat this turn", "GEM-2.3.1"))
    deeper = ranks_of(state, unit) - ranks_of(state, t.unit)
    if deeper > 0:
        out.append(
            Modifier(
                t3["per_rank_deeper"] * deeper,
                f"{deeper} rank{'s' if deeper > 1 else ''} deeper than the enemy",
                "GEM-2.3.1",
            )
        )
    bf = ctx.battlefield
    if measure.elevation_at(ctx, attacker.pos) > measure.elevation_at(ctx, t.pos) + 1e-9:
        out.append(Modifier(t3["higher_ground"], "higher ground", "GEM-2.3.1"))
    kinds = terrain("obstacle")
    on = set(measure.features_at(bf, attacker.pos, kinds))
    for fid in measure.crossed(bf, [attacker.pos, t.pos], kinds):
        if fid not in on:
            kind = bf.feature(fid).kind
            out.append(
                Modifier(t3["enemy_behind_obstacle"], f"enemy behind {kind} {fid}", "GEM-2.3.1")
            )
            break
    zone = e["zone"].get(unit, "front")
    if zone == "flank":
        out.append(Modifier(t3["flank"], "flank attack", "GEM-2.3.3"))
    elif zone == "rear":
        out.append(Modifier(t3["rear"], "rear attack", "GEM-2.3.3"))
    return out


def melee_attack(
    state: GameState,
    ctx: Context,
    unit: str,
    actor: str,
    t: Model,
    mods: bool = True,
    label: str = "",
) -> Attack:
    lead = blocks.front_rank(state, unit)[0] if is_block(state, unit) else state.models[actor]
    w = melee_weapon(lead)
    off = int(w.get("OFF", lead.stat("OFF", 1)))
    off = max(1, min(10, off + off_bonus(state, unit)))
    notes = []
    if disorganized(lead):
        off = max(1, off // 2)
        notes.append(Modifier(0, f"disorganized: OFF halved to {off}", "GEM-2.4.5"))
    n, _ = attack_dice(state, unit, actor)
    dfn = max(1, min(10, def_value(t, "") + def_bonus(state, t.unit)))
    ms = table3_mods(state, ctx, unit, lead, t) if mods else []
    return Attack(off, dfn, n, tuple(notes + ms), label or f"{unit} fights {t.id}")


def fight_problems(state: GameState, unit: str, actor: str, t: Model) -> list[str]:
    out = []
    if t.removed:
        return [f"{t.id} is no longer on the table"]
    own = state.models.get(actor)
    if t.unit == unit or (own is not None and own.side == t.side):
        return [f"{t.id} is not an enemy: a unit fights the foes it is in melee with (GEM-2.3)"]
    if engagement(state, unit, t.unit) is None:
        out.append(f"{unit} is not in a melee with {t.unit}")
    fighter = (
        blocks.front_rank(state, unit)[0] if is_block(state, unit) else state.models.get(actor)
    )
    if fighter is None:
        return out + [f"no figure {actor}"]
    if mv(fighter).get("fought"):
        out.append(f"{unit if is_block(state, unit) else actor} has already fought this turn")
    if mtype(fighter) == "vehicle":
        w = melee_weapon(fighter)
        if w in fighter.weapons:
            from .vehicles import weapon_problem

            why = weapon_problem(fighter, w)
            if why:
                out.append(why)
    if not is_block(state, unit) and not is_block(state, t.unit):
        if measure.distance(fighter, t) > 0.05 and not any(
            measure.distance(fighter, o) <= 0.05 for o in unit_models(state, t.unit)
        ):
            out.append(f"{actor} is not in base contact with {t.unit}")
    return out


def fight(state: GameState, ctx: Context, unit: str, actor: str, t: Model) -> None:
    a = melee_attack(state, ctx, unit, actor, t)
    fighters = blocks.live_order(state, unit) if is_block(state, unit) else [state.models[actor]]
    for m in fighters:
        mv(m)["fought"] = True
    arm = melee_weapon(fighters[0]).get("side") if mtype(fighters[0]) == "vehicle" else None
    if arm:
        from .vehicles import may_act

        if not may_act(state, ctx, fighters[0], f"use its {arm} arm"):
            return  # GEM-3.3: a jammed main body stalls the arm (GEM-I-ARMS)
    _, lines = attack_dice(state, unit, actor)
    hits, faces, text, chance = roll_attack(ctx, a, actor=actor, target=t.id, rule="GEM-2.3")
    ctx.log.emit(
        "resolution",
        text + ("; " + "; ".join(lines) if is_block(state, unit) else ""),
        actor=actor,
        target=t.id,
        rule="GEM-2.3",
        chance=float(chance),
        rolls=faces,
        outcome="hit" if hits else "miss",
        data={"hits": hits, "need": a.cell.need, "modifier": a.mod},
    )
    apply_hits(state, ctx, t, hits, off=a.off, rule="GEM-2.3")


def fight_odds(
    state: GameState, ctx: Context, unit: str, actor: str, t: Model
) -> tuple[Fraction, dict[int, Fraction], list[str]]:
    a = melee_attack(state, ctx, unit, actor, t)
    return a.p_any(), a.dist(), a.lines() + attack_dice(state, unit, actor)[1]


def overrun(state: GameState, ctx: Context, unit: str, o: Model) -> bool:
    """GEM-2.1.5: the block strikes the skirmisher in its path with its full force, out of
    segment; the skirmisher strikes back whether or not it falls. True if it fell."""
    lead = blocks.live_order(state, unit)[0]
    a = melee_attack(state, ctx, unit, lead.id, o, mods=False, label=f"{unit} overruns {o.id}")
    hits, faces, text, chance = roll_attack(ctx, a, actor=unit, target=o.id, rule="GEM-2.1.5")
    ctx.log.emit(
        "resolution",
        text + " (out-of-segment overrun attack, GEM-2.1.5)",
        actor=unit,
        target=o.id,
        rule="GEM-2.1.5",
        chance=float(chance),
        rolls=faces,
        outcome="hit" if hits else "miss",
        data={"hits": hits},
    )
    w = melee_weapon(o)
    # the strike back is hand-to-hand: spells and disorganization count (GEM-2.4.5: a
    # disorganized unit fights at half its OFF "for all hand-to-hand weapons")
    off_back = max(1, min(10, int(w.get("OFF", o.stat("OFF", 1))) + off_bonus(state, o.unit)))
    notes = []
    if disorganized(o):
        off_back = max(1, off_back // 2)
        notes.append(Modifier(0, f"disorganized: OFF halved to {off_back}", "GEM-2.4.5"))
    back = Attack(
        off_back,
        def_value(lead, ""),
        int(w.get("ATT", o.stat("ATT", 1))),
        tuple(notes),
        f"{o.id} strikes back at {unit}",
    )
    apply_hits(state, ctx, o, hits, off=a.off, rule="GEM-2.1.5")
    h2, f2, t2, c2 = roll_attack(ctx, back, actor=o.id, target=unit, rule="GEM-2.1.5")
    ctx.log.emit(
        "resolution",
        t2 + " (out-of-segment attack back, GEM-2.1.5)",
        actor=o.id,
        target=lead.id,
        rule="GEM-2.1.5",
        chance=float(c2),
        rolls=f2,
        outcome="hit" if h2 else "miss",
        data={"hits": h2},
    )
    rear = blocks.rear_model(state, unit)
    if rear is not None:
        apply_hits(state, ctx, rear, h2, off=int(back.off), rule="GEM-2.1.5")
    for m in blocks.live_order(state, unit):
        mv(m)["overrun_done"] = True
    return o.removed
