"""Morale (GEM-2.4): fear and rout checks from the share of the unit lost, their
triggers, the leader and hero modifiers, disorganization and routing.

Why checks are whole-unit: GEM applies morale to a block as a whole and to skirmishers
by the losses of the unit they started in, so every check reads the unit's starting
strength (``gs(state)["strength"]``) against what is left.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState

from ..state import (
    foes_in_melee,
    gs,
    lost_percent,
    mtype,
    mv,
    prune_engagements,
    set_disorganized,
    unit_models,
    unit_side,
)
from . import measure
from .spell_effects import morale_bonus
from .tables import d20_at_least, fear_need, morale, rng, rout_need


def mor(state: GameState, unit: str) -> int:
    ms = unit_models(state, unit)
    return max((int(m.stat("MOR", 0)) for m in ms), default=0)


def modifiers(state: GameState, unit: str) -> list[Modifier]:
    """GEM-2.4.4: MOR, no leader in range -4, a hero within 4" +3 (once), and spells."""
    mt = morale()
    out = []
    v = mor(state, unit)
    if v:
        out.append(Modifier(v, "MOR", "GEM-2.4.4"))
    ms = unit_models(state, unit)
    side = unit_side(state, unit)
    friends = [f for f in state.live(side)]
    leaders = [f for f in friends if mtype(f) == "leader"]
    lr = rng("leader_command")
    if not any(measure.distance(a, ld) <= lr + 1e-9 or a.id == ld.id for a in ms for ld in leaders):
        out.append(Modifier(mt["no_leader_in_range"], f'no leader within {lr:g}"', "GEM-2.4.4"))
    heroes = [f for f in friends if mtype(f) == "hero"]
    hr = rng("hero_inspire")
    if any(measure.distance(a, h) <= hr + 1e-9 or a.id == h.id for a in ms for h in heroes):
        out.append(Modifier(mt["hero_within_4"], f'a hero within {hr:g}"', "GEM-3.6"))
    out += morale_bonus(state, unit)
    return out


def check(
    state: GameState,
    ctx: Context,
    unit: str,
    kind: str,
    why: str,
    extra: list[Modifier] | None = None,
) -> bool:
    """Roll a fear or rout check for ``unit``; True if passed. Failing a fear check
    disorganizes (GEM-2.4.5); failing a rout check routs (GEM-2.4.2)."""
    if not unit_models(state, unit):
        return True
    lost = lost_percent(state, unit)
    need = fear_need(lost) if kind == "fear" else rout_need(lost)
    mods = modifiers(state, unit) + list(extra or [])
    total_mod = sum(m.value for m in mods)
    chance = d20_at_least(need, total_mod)
    rule = "GEM-2.4.1" if kind == "fear" else "GEM-2.4.2"
    r = ctx.dice.roll(
        20,
        f"{kind} check for {unit}",
        modifiers=mods,
        need=f"{need}+",
        chance=chance,
        actor=unit,
        rule=rule,
        result=lambda tot, _f: "passed" if tot >= need else "failed",
    )
    ok = r.result == "passed"
    ctx.log.emit(
        "morale",
        f"{kind} check for {unit} ({why}; {lost:.0f}% lost: needs {need}+ "
        f"on the morale table, GEM-2.4.3): " + r.explain(),
        actor=unit,
        rule=rule,
        chance=float(chance),
        rolls=list(r.faces),
        outcome=str(r.result),
        data={"kind": kind, "need": need, "lost_percent": round(lost, 1)},
    )
    if not ok:
        if kind == "fear":
            set_disorganized(state, unit)
            ctx.log.emit(
                "status",
                f"{unit} is disorganized: no move next turn, no missiles, "
                f"half OFF in melee (GEM-2.4.5)",
                actor=unit,
                rule="GEM-2.4.5",
                outcome="disorganized",
            )
        else:
            rout(state, ctx, unit)
    return ok


def check_odds(state: GameState, unit: str, kind: str) -> Fraction:
    lost = lost_percent(state, unit)
    need = fear_need(lost) if kind == "fear" else rout_need(lost)
    return d20_at_least(need, sum(m.value for m in modifiers(state, unit)))


def contact_fear(
    state: GameState, ctx: Context, attacker: str, defender: str, zone: str, routing: bool = False
) -> None:
    """GEM-2.4.1: the fear checks a contact calls for, one check listing every reason."""
    why = []
    if zone in ("flank", "rear"):
        why.append(f"contacted in the {zone}")
    dms = unit_models(state, defender)
    if any("crossing" in m.status for m in dms):
        why.append("contacted while crossing an obstacle")
    if any(mv(m).get("fear") for m in unit_models(state, attacker)):
        why.append(f"contacted by fear-causing {attacker}")
    if routing:
        why.append(f"contacted by routing {attacker}")
    if why and dms:
        check(state, ctx, defender, "fear", ", ".join(why))


def rout(state: GameState, ctx: Context, unit: str) -> None:
    """GEM-2.4.2: half a move back away from the fight, fear checks on those it touches,
    then off the table for good."""
    ms = unit_models(state, unit)
    if not ms:
        return
    side = ms[0].side
    foes = [f for u in foes_in_melee(state, unit) for f in unit_models(state, u)]
    if not foes:
        foes = [f for f in state.live() if f.side != side]
    cx = sum(m.x for m in ms) / len(ms)
    cy = sum(m.y for m in ms) / len(ms)
    if foes:
        nearest = min(foes, key=lambda f: (math.dist((cx, cy), f.pos), f.id))
        away = measure.bearing(nearest.pos, (cx, cy))
    else:
        away = (ms[0].facing + 180.0) % 360.0
    dist = max(float(m.stat("MOV", 4)) for m in ms) / 2
    ux, uy = math.cos(math.radians(away)), math.sin(math.radians(away))
    touched: list[str] = []
    for m in ms:
        end = (m.x + ux * dist, m.y + uy * dist)
        for o in state.live():
            if o.unit == unit or o.unit in touched:
                continue
            if measure.segment_distance(o, m.pos, end) <= max(measure.half_width(m), 0.5):
                touched.append(o.unit)
    for m in ms:
        m.x = round(min(max(m.x + ux * dist, 0.0), ctx.battlefield.width), 4)
        m.y = round(min(max(m.y + uy * dist, 0.0), ctx.battlefield.depth), 4)
        m.removed = True
        m.set_status("routed")
    prune_engagements(state)
    ctx.log.emit(
        "status",
        f'{unit} routs: half a move ({dist:g}") away and off the table (GEM-2.4.2)',
        actor=unit,
        rule="GEM-2.4.2",
        outcome="routed",
    )
    for u in sorted(touched):
        if unit_models(state, u):
            check(state, ctx, u, "fear", f"contacted by routing {unit}")


def segment(state: GameState, ctx: Context) -> None:
    """The morale segment: missile-loss fear checks, then rout checks, side by side in
    the turn's order (GEM-2.4)."""
    mt = morale()
    gg = gs(state)
    order = gg.get("order", state.sides)
    lost_now = gg.get("missile_lost", {})
    for side in order:
        for unit in sorted(state.units(side)):
            if not unit_models(state, unit):
                continue
            start = gg.get("strength", {}).get(unit, 0)
            ml = lost_now.get(unit, 0)
            if start and 100.0 * ml / start > mt["missile_fear_percent"]:
                check(
                    state,
                    ctx,
                    unit,
                    "fear",
                    f"lost {100.0 * ml / start:.0f}% to missile "
                    f"fire this turn (over "
                    f"{mt['missile_fear_percent']}%)",
                )
            if unit_models(state, unit) and lost_percent(state, unit) >= mt["rout_from_percent"]:
                check(
                    state,
                    ctx,
                    unit,
                    "rout",
                    f"{lost_percent(state, unit):.0f}% lost "
                    f"(rout checks from {mt['rout_from_percent']}%)",
                )
    gg["missile_lost"] = {}
