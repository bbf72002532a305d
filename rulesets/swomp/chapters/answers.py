"""Answering a decision owed mid-action: overwatch fire or a pass, the defender's stand
or retreat, the exposed gunner's jump (SWOMP-I-OVERWATCH, SWOMP-I-RETREAT,
SWOMP-I-VEH-CC).

Why apart: while something is owed the engine's flow lets only its verbs through
(``GameState.pending``); this module checks the rest of an answer and applies it, then
lets the interrupted action's continuations run (pending.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Choose, Shoot
from engine.ruleset import Context
from engine.state import GameState

from ..actions import Retreat
from ..state import mv
from . import melee, reactions, shooting, vehicle_cc
from .fire_verbs import fire, shoot_problems
from .melee_verbs import away, retreat_problems
from .pending import R_OVERWATCH, pending_done, settle


def answer_problems(
    state: GameState, p: Mapping[str, Any], action: Action, ctx: Context
) -> list[str]:
    """Why ``action`` does not answer the decision ``p`` (its verb is already one of
    the decision's: the engine checked)."""
    k, about = reactions.kind(dict(p)), p["data"]
    if isinstance(action, Choose):
        if action.option not in reactions.ANSWERS[k]:
            return [f"{p['text']}; '{action.option}' is not an answer"]
        if k == "jump" and action.option == "jump_out":
            v, a = state.models[about["vehicle"]], state.models[about["attacker"]]
            if vehicle_cc.jump_spot(state, ctx, v, about["gunner"], a) is None:
                return [f"there is no room beside {a.id} for {v.id}'s {about['gunner']} to land"]
        return []
    if k == "retreat":
        if not isinstance(action, Retreat) or action.actor != about["defender"]:
            return [str(p["text"])]
        return retreat_problems(state, ctx, action, state.models[about["defender"]])
    if k == "jump" or not isinstance(action, Shoot):
        return [str(p["text"])]
    if action.actor not in about["watchers"]:
        return [
            f"{action.actor} is not an overwatching model that may fire now "
            f"(may fire: {', '.join(about['watchers'])}) ({R_OVERWATCH})"
        ]
    m = state.models[action.actor]
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    return shoot_problems(state, ctx, m, t, action.weapon, action.options, overwatch=True)


def answer(state: GameState, p: dict[str, Any], action: Action, ctx: Context) -> None:
    """Carry out the answer to ``p``, already taken off ``state.pending``."""
    k = reactions.kind(p)
    if k == "retreat":
        answer_retreat(state, ctx, reactions.data(p), action)
    elif k == "jump":
        answer_jump(state, ctx, reactions.data(p), action)
    else:
        answer_overwatch(state, ctx, p, action)


def answer_overwatch(state: GameState, ctx: Context, p: dict[str, Any], action: Action) -> None:
    """A watcher fires (the others may still fire), or the side holds its fire."""
    reactions.push(state, [p])  # owed while watchers are left (pending_done)
    about = reactions.data(p)
    if isinstance(action, Choose):
        ctx.log.emit("note", f"{p['side']} holds its overwatch fire", rule=R_OVERWATCH)
        about["watchers"] = []
        pending_done(state, ctx)
        return
    assert isinstance(action, Shoot)
    m = state.models[action.actor]
    t = state.models[action.target]
    w = shooting.weapon_of(m, action.weapon)
    assert w is not None
    ctx.log.emit("note", f"{m.id} fires from overwatch", actor=m.id, rule=R_OVERWATCH)
    fire(state, ctx, m, t, w, action.options, "overwatch")
    mv(m).pop("overwatch", None)
    m.set_status("overwatch", False)
    about["watchers"] = [x for x in about["watchers"] if x != m.id and not state.models[x].removed]
    if all(state.models[x].removed for x in about["targets"]):
        about["watchers"] = []
    if about["watchers"]:
        reactions.retell(p)
    pending_done(state, ctx)


def answer_retreat(state: GameState, ctx: Context, p: dict[str, Any], action: Action) -> None:
    """The defender's answer to being attacked: stand, or retreat at -2 CR (SWOMP
    "Retreating from close combat"); a successful retreat may be a charge elsewhere."""
    if isinstance(action, Choose) or not isinstance(action, Retreat):
        ctx.log.emit(
            "note", f"{p['defender']} stands and fights", actor=p["defender"], rule=melee.R_RETREAT
        )
        settle(state, ctx)
        return
    m = state.models[p["defender"]]
    if melee.retreat(state, ctx, m, None, as_defender=True):
        away(state, ctx, m, action.to if not action.target else None, action.target)
    else:
        settle(state, ctx)


def answer_jump(state: GameState, ctx: Context, p: dict[str, Any], action: Action) -> None:
    """The vehicle's side decides whether its exposed gunner jumps out (SWOMP "Exposed
    crewmen/riders")."""
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
