"""The dispatch: check and apply route each action to its verb, once the round, a
pending reaction or deployment has had its say (SWOMP "Game Sequence"; "Actions").

Why this shape: a unit's action is what its models do between its first act and
``end_activation``; each model may move and shoot within the limits of its action,
fight or retreat, go on overwatch, or wait. Before any verb, ``problems`` asks whether
the game is over, deployment is running, a reaction is owed (answers.py) or the unit
may act now (flow.py); then the verb's own check runs. ``apply`` mirrors it, and after
every action the flow does its bookkeeping (break tests, the end of the game or the
round). Verbs live by job: move_verbs, fire_verbs, melee_verbs, vehicle_verbs,
unit_verbs.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import (
    Action,
    Charge,
    Choose,
    Concede,
    EndActivation,
    EndPhase,
    EndTurn,
    Fight,
    Move,
    Shoot,
    Turn,
    from_dict,
)
from engine.ruleset import Context, Legality, load
from engine.state import GameState

from . import flow
from .actions import ClearJam, Deploy, Man, Overwatch, Rally, Ram, Retreat, SwompCharge, Wait
from .chapters import answers, core, deploy, reactions
from .chapters import fire_verbs as fv
from .chapters import melee_verbs as mv
from .chapters import move_verbs as mov
from .chapters import unit_verbs as uv
from .chapters import vehicle_verbs as vv
from .chapters.movement import R_ACTIONS, allowance, shoot_limit
from .chapters.pending import CONTINUATIONS, offer
from .chapters.watch import standing
from .flow import TURNS, after_action, begin, finish, new_round, resolve_actor, setup, to_act
from .odds import odds
from .victory import casualty_points, concede

__all__ = [
    "TURNS",
    "advance",
    "allowance",
    "apply",
    "casualty_points",
    "check",
    "odds",
    "setup",
    "shoot_limit",
    "to_act",
]

#: each verb's check (state, ctx, action, models, unit) -> refusals, and its apply
CHECKS: dict[type[Action], Callable[..., list[str]]] = {
    Move: mov.check_move,
    Turn: mov.check_turn,
    Shoot: fv.check_shoot,
    Charge: mv.check_charge,
    SwompCharge: mv.check_charge,
    Fight: mv.check_fight,
    Retreat: mv.check_retreat,
    Overwatch: fv.check_overwatch,
    ClearJam: fv.check_clear,
    Rally: uv.check_rally,
    Ram: vv.check_ram,
    Man: vv.check_man,
}

APPLY: dict[type[Action], Callable[..., None]] = {
    Move: mov.apply_move,
    Turn: mov.apply_turn,
    Shoot: fv.apply_shoot,
    Charge: mv.apply_charge,
    SwompCharge: mv.apply_charge,
    Fight: mv.apply_fight,
    Retreat: mv.apply_retreat,
    Overwatch: fv.apply_overwatch,
    ClearJam: fv.apply_clear,
    Rally: uv.apply_rally,
    Ram: vv.apply_ram,
    Man: vv.apply_man,
}


def check(state: GameState, action: Action, ctx: Context) -> Legality:
    why = problems(state, action, ctx)
    return Legality.no(*why) if why else Legality.yes()


def problems(state: GameState, action: Action, ctx: Context) -> list[str]:
    if state.over:
        return ["the game is over"]
    if isinstance(action, (EndTurn, EndPhase)):
        return ["SWOMP plays unit by unit: end the unit's action (end_activation)"]
    if isinstance(action, Concede):
        return []
    if deploy.active(state):
        if isinstance(action, Deploy):
            return deploy.problems(state, ctx, action)
        return [
            f"deployment comes first: {deploy.next_side(state)} places "
            f"{' or '.join(deploy.ready_units(state))} with deploy ({deploy.R_DEPLOY})"
        ]
    if isinstance(action, Deploy):
        return ["deployment is over (or this scenario sets its models out: no deployment phase)"]
    if state.pending:  # the engine lets only the decision's verbs through
        return list(TURNS.check(load("swomp"), state, action, ctx).reasons)
    if isinstance(action, (EndActivation, Wait)):
        if not action.actor:
            return []
        ms, unit = resolve_actor(state, action.actor)
        if not ms:
            return [f"no model or unit '{action.actor}' on the table"]
        why = flow.turn_problem(state, unit, ms[0].side)
        return [why] if why else []
    if isinstance(action, Choose):
        return ["there is no decision to answer now"]
    ms, unit = resolve_actor(state, action.actor)
    if not ms:
        return [f"no model or unit '{action.actor}' on the table"]
    why = flow.turn_problem(state, unit, ms[0].side)
    if why:
        return [why]
    fn = CHECKS.get(type(action))
    if fn is None:
        return [f"SWOMP has no '{action.KIND}' action"]
    return fn(state, ctx, action, ms, unit)


def apply(state: GameState, action: Action, ctx: Context) -> None:
    if isinstance(action, Concede):
        concede(state, ctx, to_act(state))
        return
    if isinstance(action, Deploy):
        if deploy.apply(state, ctx, action):
            new_round(state, ctx, deploy.data(state).get("first"))
        return
    if state.pending:
        answers.answer(state, state.pending.pop(0), action, ctx)
        after_action(state, ctx)
        return
    if isinstance(action, (EndActivation, Wait)):
        unit = TURNS.current(state)
        if unit is None:
            if action.actor:
                unit = resolve_actor(state, action.actor)[1]
            else:
                assert state.active is not None, "check() refuses a pass with no side to act"
                unit = TURNS.ready_units(state, state.active)[0]
            begin(state, unit)
            ctx.log.emit("note", f"{unit} waits", actor=unit, rule=R_ACTIONS)
            if watched(state, ctx, unit, action):
                after_action(state, ctx)
                return
        finish(state, ctx)
        after_action(state, ctx)
        return
    ms, unit = resolve_actor(state, action.actor)
    if TURNS.current(state) != unit:
        begin(state, unit)
        if watched(state, ctx, unit, action):
            after_action(state, ctx)
            return
    APPLY[type(action)](state, ctx, action, ms, unit)
    after_action(state, ctx)


def watched(state: GameState, ctx: Context, unit: str, action: Action) -> bool:
    """A unit begins its action where enemy watchers may fire at it: they may, before
    it acts ("at any time up until its next turn", SWOMP "Shooting: Overwatch";
    SWOMP-I-OVERWATCH-MOMENTS), and the action waits on their answer."""
    ms = core.unit_models(state, unit)
    sides = standing(state, ctx, ms)
    if not sides:
        return False
    after = {"kind": "resume", "action": action.to_dict()}
    offer(state, ctx, sides, ms, after, f" before {unit} acts")
    return True


def resume(state: GameState, ctx: Context, cont: dict) -> None:
    """The action the overwatch fire waited on, if it is still legal (its models may be
    dead, its way changed); else it is lost, as a player's would be."""
    action = from_dict(dict(cont["action"]), "swomp")
    why = problems(state, action, ctx)
    if why:
        ctx.log.emit("note", f"{action.describe()} is no longer possible: {why[0]}", rule=R_ACTIONS)
        return
    if isinstance(action, (EndActivation, Wait)):
        finish(state, ctx)
        return
    ms, unit = resolve_actor(state, action.actor)
    APPLY[type(action)](state, ctx, action, ms, unit)


CONTINUATIONS["resume"] = resume


def advance(state: GameState, ctx: Context) -> Action | None:
    if state.over:
        return None
    if deploy.active(state):
        return None  # nothing to end: every model must be placed with its own deploy
    owed = reactions.owed(state)
    if owed:
        return Choose(option=reactions.DECLINE[reactions.kind(owed)])
    return EndActivation()
