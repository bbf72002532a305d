"""Answering a decision owed mid-action: overwatch fire or a pass, the defender's stand
or retreat, the exposed gunner's jump (SWOMP-I-OVERWATCH, SWOMP-I-RETREAT,
SWOMP-I-VEH-CC).

Why apart: while something is owed only its answers are legal; this module checks and
applies them, then lets the interrupted action's continuations run (pending.py).
"""

from __future__ import annotations

from engine.actions import Action, Choose, Shoot
from engine.ruleset import Context
from engine.state import GameState

from . import charging, core, melee, reactions, shooting, vehicle_cc
from .actions import Retreat
from .fire_verbs import fire, shoot_problems
from .melee_verbs import retreat_problems
from .pending import R_OVERWATCH, pending_done, settle, trigger_overwatch


def pending_problems(state: GameState, action: Action, ctx: Context) -> list[str]:
    p = core.sw(state)["pending"][0]
    k = reactions.kind(p)
    if isinstance(action, Choose):
        if action.option not in reactions.ANSWERS[k]:
            return [f"{reactions.describe(p)}; '{action.option}' is not an answer"]
        if k == "jump" and action.option == "jump_out":
            v, a = state.models[p["vehicle"]], state.models[p["attacker"]]
            if vehicle_cc.jump_spot(state, ctx, v, p["gunner"], a) is None:
                return [f"there is no room beside {a.id} for {v.id}'s {p['gunner']} to land"]
        return []
    if k == "retreat":
        if not isinstance(action, Retreat) or action.actor != p["defender"]:
            return [reactions.describe(p)]
        return retreat_problems(state, ctx, action, state.models[p["defender"]])
    if k == "jump":
        return [reactions.describe(p)]
    if not isinstance(action, Shoot):
        return [
            f"{p['side']} must first answer the overwatch reaction: shoot with "
            f"{', '.join(p['watchers'])} or choose pass ({R_OVERWATCH})"
        ]
    if action.actor not in p["watchers"]:
        return [
            f"{action.actor} is not an overwatching model that may fire now "
            f"(may fire: {', '.join(p['watchers'])}) ({R_OVERWATCH})"
        ]
    m = state.models[action.actor]
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    return shoot_problems(state, ctx, m, t, action.weapon, action.options, overwatch=True)


def apply_pending(state: GameState, action: Action, ctx: Context) -> None:
    p = core.sw(state)["pending"][0]
    k = reactions.kind(p)
    if k == "retreat":
        answer_retreat(state, ctx, action)
        return
    if k == "jump":
        answer_jump(state, ctx, action)
        return
    if isinstance(action, Choose):
        ctx.log.emit("note", f"{p['side']} holds its overwatch fire", rule=R_OVERWATCH)
        p["watchers"] = []
        pending_done(state, ctx)
        return
    assert isinstance(action, Shoot)
    m = state.models[action.actor]
    t = state.models[action.target]
    w = shooting.weapon_of(m, action.weapon)
    assert w is not None
    ctx.log.emit("note", f"{m.id} fires from overwatch", actor=m.id, rule=R_OVERWATCH)
    fire(state, ctx, m, t, w, action.options, "overwatch")
    m.vars.pop("overwatch", None)
    m.set_status("overwatch", False)
    p["watchers"] = [x for x in p["watchers"] if x != m.id and not state.models[x].removed]
    if all(state.models[x].removed for x in p["targets"]):
        p["watchers"] = []
    pending_done(state, ctx)


def answer_retreat(state: GameState, ctx: Context, action: Action) -> None:
    """The defender's answer to being attacked: stand, or retreat at -2 CR (SWOMP
    "Retreating from close combat"); a successful retreat may be a charge elsewhere."""
    p = reactions.drop_first(state)
    if isinstance(action, Choose) or not isinstance(action, Retreat):
        ctx.log.emit(
            "note", f"{p['defender']} stands and fights", actor=p["defender"], rule=melee.R_RETREAT
        )
        settle(state, ctx)
        return
    m = state.models[p["defender"]]
    ok = melee.retreat(state, ctx, m, action.to if not action.target else None, as_defender=True)
    if ok and action.target:
        pairs = charging.charge(
            state, ctx, [m], state.models[action.target], {m.id: core.mr(m) / 2}
        )
        trigger_overwatch(
            state, ctx, [m], {"kind": "charge_fight", "pairs": pairs} if pairs else None
        )
    elif ok:
        trigger_overwatch(state, ctx, [m], None)
    else:
        settle(state, ctx)


def answer_jump(state: GameState, ctx: Context, action: Action) -> None:
    """The vehicle's side decides whether its exposed gunner jumps out (SWOMP "Exposed
    crewmen/riders")."""
    p = reactions.drop_first(state)
    if isinstance(action, Choose) and action.option == "jump_out":
        groups = [c["groups"] for c in reactions.stack(state) if c["kind"] == "strike"]
        vehicle_cc.jump_out(state, ctx, p, groups)
    else:
        ctx.log.emit(
            "note",
            f"{p['vehicle']}'s {p['gunner']} stays in his hatch",
            actor=p["vehicle"],
            rule=vehicle_cc.R_CREW,
        )
    settle(state, ctx)
