"""The close combat verbs: charge, fight and retreat (SWOMP "Close Combat";
SWOMP-I-CHARGE, SWOMP-I-RETREAT, SWOMP-I-VEH-CC).

Why apart: each verb checks who may take part and then hands the contest to melee.py
and the placing to charging.py; the defender's answers (answers.py) reuse the retreat's
legality here.
"""

from __future__ import annotations

import math
from typing import Any

from engine.actions import Charge, Fight
from engine.ruleset import Context
from engine.state import GameState, Model

from . import charging, core, melee, morale, packing, reach, table, vehicle_cc
from .actions import Retreat
from .charging import charge_limit, charge_via, charger_problems
from .fire_verbs import R_JAM
from .movement import EPS, R_BROKEN
from .pending import open_combat, settle, trigger_overwatch


def check_charge(state, ctx, action: Charge, ms, unit) -> list[str]:
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    if t.side == ms[0].side:
        return [f"{t.id} is on your side"]
    if morale.broken(state, unit):
        return [f"{unit} is broken and may not charge ({R_BROKEN})"]
    via = charge_via(ms, action.path)
    ok = [c for c in ms if not charger_problems(state, ctx, c, t, via.get(c.id, []))]
    if not ok:
        return charger_problems(state, ctx, ms[0], t, via.get(ms[0].id, []))
    why = charging.charge_problem(state, ok, t)
    if why:
        return [why]
    if len(ok) > 1:
        # measured as the charge will be made: each to the spot it is packed into
        plan = packing.plan(state, ctx, t, ok, {c.id: charge_limit(c) for c in ok}, via)
        if not plan.placed:
            return [
                f"packed round {t.id}, no model of {unit} reaches its place: "
                + "; ".join(r.why for r in plan.short.values())
            ]
    return vehicle_option_problems(state, getattr(action, "options", {}), ok, t.id)


def apply_charge(state, ctx, action: Charge, ms, unit) -> None:
    t = state.models[action.target]
    via = charge_via(ms, action.path)
    chargers = [c for c in ms if not charger_problems(state, ctx, c, t, via.get(c.id, []))]
    follow = {c.id for c in chargers if core.act(c)["follow"] > 0}
    limits = {c.id: charge_limit(c) for c in chargers}
    start = {c.id: c.pos for c in chargers}
    pairs = charging.charge(state, ctx, chargers, t, limits, via)
    for c in chargers:
        a = core.act(c)
        if c.id in follow:
            a["follow"] = 0.0
            if c.id in pairs:
                c.vars["charge_bonus"] = True
        else:
            a["moves"] = max(1, int(a["moves"]))
    now = {c: tid for c, tid in pairs.items() if c not in follow}
    moved = [c for c in chargers if c.id in pairs or c.pos != start[c.id]]
    loc = str(getattr(action, "options", {}).get("location", ""))
    trigger_overwatch(
        state, ctx, moved, {"kind": "charge_fight", "pairs": now, "location": loc} if now else None
    )


def check_fight(state, ctx, action: Fight, ms, unit) -> list[str]:
    able = [m for m in ms if fight_problem(state, m, action.target) == ""]
    if not able:
        return [fight_problem(state, ms[0], action.target)]
    return vehicle_option_problems(state, action.options, able, action.target)


def vehicle_option_problems(
    state: GameState, options: dict[str, Any], ms: list[Model], target: str
) -> list[str]:
    """Close combat options: only ``location``, only against a vehicle, and one each
    attacker may go for (SWOMP "Close combat with vehicles")."""
    bad = [k for k in options if k != "location"]
    if bad:
        return [f"unknown close combat option '{bad[0]}' (options: location)"]
    loc = str(options.get("location", ""))
    if not loc:
        return []
    v = state.models.get(target)
    if v is None or not core.is_vehicle(v):
        return ["a location is picked only when attacking a vehicle"]
    why = [vehicle_cc.location_problem(m, v, loc) for m in ms]
    return [w for w in why if w][:1]


def fight_problem(state: GameState, m: Model, target: str) -> str:
    a = core.act(m)
    if a["fought"]:
        return f"{m.id} has already fought this action"
    if melee.fought_this_round(state, m):
        return f"{m.id} has already fought this round, beside another unit ({melee.R_MULTI})"
    if a["clearing"]:
        return f"{m.id} is clearing a jam and may not fight ({R_JAM})"
    if core.engaged(m):
        if target and target not in m.vars["foes"] and target not in state.models:
            return f"no model '{target}'"
        return ""
    t = state.models.get(target)
    if (
        t is not None
        and not t.removed
        and core.is_vehicle(t)
        and t.side != m.side
        and table.distance(m, t) <= melee.CONTACT
    ):
        return ""
    return f"{m.id} is not in close combat"


def apply_fight(state, ctx, action: Fight, ms, unit) -> None:
    """Plan who strikes whom, give each defender its chance to retreat, then strike."""
    planned: set[str] = set()
    groups = []
    for m in ms:
        if m.removed or fight_problem(state, m, action.target):
            continue
        g = melee.plan_fight(state, m, action.target, unit, planned)
        if g is not None:
            if core.is_vehicle(state.models[g["defender"]]):
                g["location"] = str(action.options.get("location", ""))
            groups.append(g)
    open_combat(state, ctx, groups)
    settle(state, ctx)


def check_retreat(state, ctx, action: Retreat, ms, unit) -> list[str]:
    if len(ms) != 1:
        return ["a retreat is made model by model"]
    m = ms[0]
    if core.engaged(m) and core.act(m)["fought"]:
        return [f"{m.id} has already fought this action"]
    return retreat_problems(state, ctx, action, m)


def retreat_problems(state: GameState, ctx: Context, action: Retreat, m: Model) -> list[str]:
    """Where a retreat may go: half MR in any direction, or a charge at a model outside
    the fight just left (SWOMP "Retreating from close combat")."""
    if not core.engaged(m):
        return [f"{m.id} is not in close combat"]
    lim = core.mr(m) / 2
    if action.target:
        t = state.models.get(action.target)
        if t is None or t.removed or t.side == m.side:
            return [f"no enemy '{action.target}' to charge"]
        if t.id in m.vars["foes"]:
            return [f"{m.id} may not leave and return to the same close combat ({melee.R_RETREAT})"]
        d = table.distance(m, t)
        if d > lim + EPS:
            return [f'{t.id} is {d:.1f}" away: a retreat moves {lim:g}" (half MR)']
        way = reach.reach(state, ctx, m, t, lim)
        return [] if way.ok else [way.why]
    if action.to is None:
        return ["a retreat needs 'to' (where to fall back) or 'target' (whom to charge)"]
    d = math.dist(m.pos, action.to)
    if d > lim + EPS:
        return [f'a retreat moves up to {lim:g}" (half MR), not {d:.2f}" ({melee.R_RETREAT})']
    if not ctx.battlefield.on_table(*action.to):
        return ["off the table"]
    return []


def apply_retreat(state, ctx, action: Retreat, ms, unit) -> None:
    m = ms[0]
    ok = melee.retreat(state, ctx, m, action.to if not action.target else None)
    if not ok:
        return
    if action.target:
        t = state.models[action.target]
        pairs = charging.charge(state, ctx, [m], t, {m.id: core.mr(m) / 2})
        trigger_overwatch(state, ctx, [m], {"kind": "charge_fight", "pairs": pairs})
    else:
        trigger_overwatch(state, ctx, [m], None)
