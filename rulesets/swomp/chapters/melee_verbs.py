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

from ..actions import Retreat
from ..state import mv
from . import charging, core, melee, morale, packing, reach, table, vehicle_cc, watch
from .catalog import TERRAIN
from .charging import charge_limit, charge_via, charger_problems
from .fire_verbs import R_JAM
from .movement import EPS, R_BROKEN
from .pending import CONTINUATIONS, offer, open_combat, settle, trigger_overwatch

Point = tuple[float, float]


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
    cont = {
        "kind": "charge_on",
        "target": t.id,
        "chargers": [c.id for c in chargers],
        "follow": [c.id for c in chargers if core.act(c)["follow"] > 0],
        "limits": {c.id: charge_limit(c) for c in chargers},
        "via": {cid: [list(p) for p in pts] for cid, pts in via.items()},
        "start": {c.id: list(c.pos) for c in chargers},
        "location": str(getattr(action, "options", {}).get("location", "")),
        "offered": [],
        "steps": {},
    }
    charge_on(state, ctx, cont)


def charge_on(state: GameState, ctx: Context, cont: dict[str, Any]) -> None:
    """Carry a charge into contact. An enemy watcher that may fire at a charger at a point
    of its way fires there: the chargers stop at that point, the watcher's side decides,
    and the charge runs on from there with what is left of each allowance (SWOMP
    "Shooting: Overwatch", "at any time"; SWOMP-I-OVERWATCH-MOMENTS). Then the
    immediate round of close combat, with the defender's chance to retreat."""
    t = state.models[cont["target"]]
    chargers = [state.models[c] for c in cont["chargers"] if not state.models[c].removed]
    limits = {c.id: float(cont["limits"][c.id]) for c in chargers}
    via = {c.id: [(p[0], p[1]) for p in cont["via"].get(c.id, [])] for c in chargers}
    if t.removed or not chargers:
        if chargers:
            ctx.log.emit("note", f"{t.id} is gone: the charge stops", rule=charging.R_CHARGE)
        return
    if _charge_interrupted(state, ctx, cont, chargers, t, limits, via):
        return
    follow = set(cont["follow"])
    start = {cid: (p[0], p[1]) for cid, p in cont["start"].items()}
    pairs = charging.charge(state, ctx, chargers, t, limits, via)
    for c in chargers:
        a = core.act(c)
        a["moves"] = int(a["moves"]) - int(cont["steps"].get(c.id, 0))
        if cont.get("retreat"):
            continue  # a retreat's charge is not the model's own move (SWOMP-I-RETREAT)
        if c.id in follow:
            a["follow"] = 0.0
            if c.id in pairs:
                mv(c)["charge_bonus"] = True
        else:
            a["moves"] = max(1, int(a["moves"]))
    now = {c: tid for c, tid in pairs.items() if c not in follow}
    moved = [c for c in chargers if c.id in pairs or c.pos != start[c.id]]
    fight: dict[str, Any] = {"kind": "charge_fight", "pairs": now}
    if not cont.get("retreat"):
        fight["location"] = str(cont["location"])
    trigger_overwatch(state, ctx, moved, fight if now else None)


def _charge_interrupted(
    state: GameState,
    ctx: Context,
    cont: dict[str, Any],
    chargers: list[Model],
    t: Model,
    limits: dict[str, float],
    via: dict[str, list[tuple[float, float]]],
) -> bool:
    """Stop the charge where an enemy watcher may first fire at a charger on its way
    (each charger on the way to the spot it is packed into) and owe that side its
    decision; the rest waits as ``cont``. False (nothing moved) if no watcher may."""
    offered = list(cont["offered"])
    if not watch.watchers_of(state, chargers[0].side, offered):
        return False
    plan = packing.plan(state, ctx, t, chargers, limits, via)
    paths = {cid: list(r.path) for cid, r in plan.placed.items() if len(r.path) > 1}
    fresh = bool(cont.get("fresh"))
    shot = watch.first_shot(state, ctx, paths, offered, fresh) if paths else None
    if shot is None:
        return False
    at, fire = shot
    movers = []
    for cid, pts in paths.items():
        c = state.models[cid]
        movers.append(c)
        if at <= 0:
            continue  # fired at where it broke away, before it moves
        now, later = watch.split(pts, at)
        cost = table.path_cost(ctx, now, TERRAIN["difficult"])
        melee.put(c, now[-1], t.pos, cost)
        cont["steps"][cid] = int(cont["steps"].get(cid, 0)) + 1
        cont["limits"][cid] = round(limits[cid] - cost, 2)
        cont["via"][cid] = [list(p) for p in later[1:-1]]
        # it is moving at the rate of its whole charge (SWOMP "Movement bonus")
        whole = float(core.act(c)["moved"]) + table.path_cost(ctx, later, TERRAIN["difficult"])
        mv(c)["moved"] = round(whole, 2)
        ctx.log.emit(
            "move",
            f'{cid} charges {min(at, _length(pts)):.1f}" toward {t.id}, to ({c.x:.2f}, {c.y:.2f})',
            actor=cid,
            target=t.id,
            rule=charging.R_CHARGE,
            data={"to": [c.x, c.y]},
        )
    cont["offered"] = offered + fire
    cont["fresh"] = False
    offer(
        state, ctx, _by_side(state, fire), movers, cont, f' as it charges, {at:.1f}" along its way'
    )
    return True


CONTINUATIONS["charge_on"] = charge_on


def _length(pts: list[tuple[float, float]]) -> float:
    return sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))


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
        if target and target not in mv(m)["foes"] and target not in state.models:
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
        if t.id in mv(m)["foes"]:
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
    if melee.retreat(state, ctx, m, None):
        away(state, ctx, m, action.to if not action.target else None, action.target)


def away(state: GameState, ctx: Context, m: Model, to: Point | None, target: str) -> None:
    """A model that got away moves at once: half MR back toward ``to``, or a charge at
    ``target``. Enemy watchers may fire at it from the moment it breaks away, on its way
    as at its end (SWOMP "Shooting: Overwatch", "at any time"; SWOMP-I-OVERWATCH-MOMENTS)."""
    if target:
        cont = {
            "kind": "charge_on",
            "target": target,
            "chargers": [m.id],
            "follow": [],
            "limits": {m.id: core.mr(m) / 2},
            "via": {},
            "start": {m.id: list(m.pos)},
            "location": "",
            "offered": [],
            "steps": {},
            "fresh": True,
            "retreat": True,
        }
        charge_on(state, ctx, cont)
    elif to is not None:
        retreat_on(state, ctx, {"kind": "retreat_on", "model": m.id, "to": list(to)})


def retreat_on(state: GameState, ctx: Context, cont: dict[str, Any]) -> None:
    """The retreat's move, cut where an enemy watcher may first fire (the model stops
    there, the watcher's side decides, the rest of the move waits as ``cont``)."""
    m = state.models[cont["model"]]
    if m.removed:
        return
    to = (float(cont["to"][0]), float(cont["to"][1]))
    offered = list(cont.get("offered", []))
    if watch.watchers_of(state, m.side, offered):
        melee.sync(state, ctx)
        end = ctx.physics.move(m.id, [to]).end
        path = [m.pos, (end[0], end[1])]
        shot = watch.first_shot(state, ctx, {m.id: path}, offered, "offered" not in cont)
        if shot is not None:
            at, fire = shot
            if at > 0:
                cut = watch.split(path, at)[0][-1]
                melee.put(m, cut, (2 * cut[0] - m.x, 2 * cut[1] - m.y))
                core.act(m)["moves"] = int(core.act(m)["moves"]) - 1
                ctx.log.emit(
                    "move",
                    f'{m.id} falls back {at:.1f}" to ({m.x:.2f}, {m.y:.2f})',
                    actor=m.id,
                    rule=melee.R_RETREAT,
                )
            after = {**cont, "offered": offered + fire}
            offer(state, ctx, _by_side(state, fire), [m], after, f' as it falls back, {at:.1f}"')
            return
    melee.fall_back(state, ctx, m, to)
    trigger_overwatch(state, ctx, [m], None)


CONTINUATIONS["retreat_on"] = retreat_on


def _by_side(state: GameState, fire: list[str]) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {}
    for wid in fire:
        sides.setdefault(state.models[wid].side, []).append(wid)
    return sides
