"""The SWOMP round: initiative, alternating unit actions, the start and end of a unit's
action, and the end of the round (SWOMP "Game Sequence").

Why this shape: SWOMP's round is "roll a d10 for initiative, then alternate choosing a
unit and playing out one action until every unit has acted", which is
``engine.turns.Alternating``. A unit's action is what its models do between its first
act and ``end_activation``. Reactions owed mid-action (reactions.py) hand the decision
to the side that owes it. With the deployment option, the round is preceded by
deployment (deploy.py).
"""

from __future__ import annotations

from engine.ruleset import (
    ACTIVATING,
    ALREADY_ACTIVATED,
    NOT_YOUR_TURN,
    Context,
    Reason,
    Ruleset,
    load,
)
from engine.state import GameState, Model
from engine.turns import AlternatingFlow, roll_off

from .chapters import core, deploy, driving, morale, reactions, vehicles
from .state import mv
from .victory import check_over, record_home

R_ROUND = "SWOMP-ROUND"


class Rounds(AlternatingFlow):
    """SWOMP "Game Sequence" on the engine's turn structure: the engine ends a round and
    applies the turn limit (``Swomp.at_turn_limit``); a new round is announced and
    initiative rolled again."""

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        ctx.log.emit("turn", f"round {state.turn} begins", rule=R_ROUND)
        new_round(state, ctx)


TURNS = Rounds()


def setup(state: GameState, ctx: Context, first: str | None) -> None:
    core.sw(state)
    morale.setup(state)
    for m in state.models.values():
        core.act(m)  # every record exists from the start: check() must never create state
    record_home(state, ctx)
    if deploy.wanted(state):
        deploy.start(state, ctx, first)
        return
    new_round(state, ctx, first)


def new_round(state: GameState, ctx: Context, first: str | None = None) -> None:
    """Initiative (SWOMP "Game Sequence"): every side rolls a d10, ties reroll, highest
    first; with more than two sides, play goes from highest to lowest."""
    sides = [s for s in state.sides if state.live(s)]
    if first:
        order = [first] + [s for s in sides if s != first]
    else:
        order = roll_off(ctx.dice, sides, 10, rule=R_ROUND, log=ctx.log)
    TURNS.start_round(state, order)
    core.sw(state)["order"] = order
    core.sw(state).pop("joined", None)  # the per-round record of who fought (melee.joined)


def to_act(state: GameState) -> str | None:
    if state.over:
        return None
    if deploy.active(state):
        return deploy.next_side(state)
    return TURNS.to_act(state)  # the engine's flow: a decision owed first


def resolve_actor(state: GameState, actor: str) -> tuple[list[Model], str]:
    """A model id or a unit id -> its live models and its unit."""
    m = state.models.get(actor)
    if m is not None:
        return ([] if m.removed else [m]), m.unit
    ms = state.units().get(actor)
    if ms:
        return ms, actor
    return [], ""


def turn_problem(state: GameState, unit: str, side: str) -> str:
    """Why ``unit`` of ``side`` may not act now ("" if it may); the turn-order reasons
    carry the engine's codes so programs (the script runner, the window) tell them from
    a rule's refusal without reading the words."""
    if state.over:
        return "the game is over"
    owed = reactions.owed(state)
    if owed:
        return str(owed["text"])
    if side != state.active:
        return Reason(f"it is {state.active}'s action, not {side}'s ({R_ROUND})", NOT_YOUR_TURN)
    cur = TURNS.current(state)
    if cur is not None and cur != unit:
        return Reason(f"{cur} is acting: end its action first ({R_ROUND})", ACTIVATING)
    if unit not in TURNS.ready_units(state, side):
        return Reason(f"{unit} has already acted this round ({R_ROUND})", ALREADY_ACTIVATED)
    return ""


def begin(state: GameState, unit: str) -> None:
    """A unit starts its action: the movement bonus of its last action ends, overwatch
    ends, and each model gets a fresh action record."""
    if TURNS.current(state) == unit:
        return
    TURNS.begin(state, unit)
    info = core.unit_info(state, unit)
    info["under_fire"] = bool(info.get("fired_on"))
    info["fired_on"] = False
    for m in core.unit_models(state, unit):
        core.fresh(m)
        if not core.is_vehicle(m):
            mv(m)["moved"] = 0.0
        mv(m).pop("overwatch", None)
        m.set_status("overwatch", False)
        mv(m).pop("left", None)


def finish(state: GameState, ctx: Context) -> None:
    """End the current unit's action (vehicles that have not moved coast on first)."""
    cur = TURNS.current(state)
    if cur is not None:
        for v in core.unit_models(state, cur):
            if core.is_vehicle(v) and not core.act(v)["moves"] and vehicles.speed(v) > 0:
                driving.coast(state, ctx, v)
        for m in core.unit_models(state, cur):
            core.fresh(m)
    TURNS.finish(state)


def after_action(state: GameState, ctx: Context) -> None:
    """Bookkeeping once an action has resolved: break tests, the end of the game, a unit
    wiped out in its own action, the end of the round."""
    morale.break_tests(state, ctx)
    check_over(state, ctx)
    if state.over or state.pending:
        return
    cur = TURNS.current(state)
    if cur is not None and cur not in state.units():
        TURNS.finish(state)
        cur = None
    for m in state.live():
        if m.unit != cur and mv(m).get("act") != core.FRESH_ACT:
            core.fresh(m)  # reactions outside a model's own action leave no trace on it
    if state.active is None:
        end_round(state, ctx)


def end_round(state: GameState, ctx: Context) -> None:
    """Every unit has acted: the engine's round end (turn limit, else a new round)."""
    TURNS.end_round(load("swomp"), state, ctx)
