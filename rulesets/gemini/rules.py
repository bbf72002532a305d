"""The turn (GM-TURN) and the dispatch of each action to its chapter.

Why three turn structures: the text plays large games in player turns of phases
(``turns = "phases"``: movement, shooting, close combat, recovery, one side after the
other), small ones in Initiative order (``"initiative"``) or with activation dice
(``"arap"``). The switch picks an ``engine.turns`` flow; the flows keep their
bookkeeping in ``state.vars``, so the rules below never ask which one is playing except
to know which verbs the current phase allows.
"""

from __future__ import annotations

from typing import Any

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState
from engine.turn_orders import InitiativeFlow, PlayerTurnFlow
from engine.turns import RollOff
from rulesets.gemini import melee, morale, movement, shooting, switches
from rulesets.gemini.arap import Activate, ArapFlow
from rulesets.gemini.options import draw_hooks, move_hooks, phase_hooks, react_hooks, tasks

PHASES = ("movement", "shooting", "close_combat", "recovery")
#: the phase each verb belongs to in a turn of phases (GM-TURN)
PHASE_OF: dict[type[act.Action], str] = {
    act.Move: "movement",
    act.Charge: "movement",
    act.Shoot: "shooting",
    act.Fight: "close_combat",
    tasks.Search: "movement",
    tasks.Attempt: "movement",
    react_hooks.Overwatch: "shooting",
}
FLOWS: dict[str, Any] = {
    "phases": PlayerTurnFlow(PHASES, RollOff(6, rule="GM-TURN")),
    "initiative": InitiativeFlow("I", RollOff(6, rule="GM-INITIATIVE")),
    "arap": ArapFlow(RollOff(6, rule="GM-TURN")),
}
KEY = "gm"
VERBS = ("move", "charge", "shoot", "fight", "search", "attempt", "overwatch")


def flow(state: GameState) -> Any:
    """The turn structure the ``turns`` switch picks (GM-TURN)."""
    return FLOWS.get(switches.of(state).turns, FLOWS["phases"])


def step_key(state: GameState) -> tuple[Any, ...]:
    """Which phase or activation is being played: a change starts a new one."""
    order = state.vars.get(InitiativeFlow.KEY, {})
    return (state.turn, state.phase, state.active, order.get("i"))


def stepped(state: GameState, ctx: Context, before: tuple[Any, ...]) -> None:
    """After every action: a new phase or activation gets a new ``stamp`` (what a model
    did "this phase" is marked with it); a side entering its recovery phase recovers."""
    if state.over or step_key(state) == before:
        return
    d = state.vars.setdefault(KEY, {})
    d["stamp"] = int(d.get("stamp", 0)) + 1
    if state.phase == "recovery" and state.active:
        morale.recovery(state, ctx, state.active)
    phase_hooks.stepped(state, ctx, before)


def problems(state: GameState, action: act.Action, ctx: Context) -> list[str]:
    """Every reason the rules forbid the action (the flow has checked the turn)."""
    if isinstance(action, Activate):
        return []  # the flow has checked it (GM-ARAP)
    phase = PHASE_OF.get(type(action))
    if phase is None:
        return [f"gemini has no '{action.KIND}' here (verbs: {', '.join(VERBS)})"]
    m = state.models[action.actor]
    if isinstance(action, react_hooks.Overwatch):  # an action die's worth (GM-OVERWATCH-ARAP)
        return react_hooks.overwatch_problems(state, m)
    bonus = isinstance(action, act.Move) and move_hooks.bonus_move(state, m)
    if state.phase in PHASES and state.phase != phase and not bonus:
        return [
            f"{action.KIND} belongs to the {phase.replace('_', ' ')} phase, "
            f"not the {state.phase.replace('_', ' ')} phase (GM-TURN)"
        ]
    arap = switches.of(state).turns == "arap"  # each action die is one more act (GM-ARAP)
    moving = (act.Move, act.Charge, tasks.Search, tasks.Attempt)
    if not arap and isinstance(action, moving) and m.vars.get("shot") == state.turn:
        return [f"{m.id} has shot this turn: it moves before it shoots (GM-TURN)"]
    if isinstance(action, (tasks.Search, tasks.Attempt)):  # in place of its move (GM-I-TASKS)
        why = movement.stuck(state, m)
        return [why] if why else tasks.problems(state, ctx, action)
    if isinstance(action, act.Move):
        return movement.move_problems(state, ctx, action)
    if isinstance(action, act.Charge):
        return movement.charge_problems(state, ctx, action)
    if isinstance(action, act.Shoot):
        if m.vars.get("shot") == state.turn and not arap:
            return [f"{m.id} has already shot this turn (GM-SHOOT)"]
        return shooting.problems(state, ctx, action)
    assert isinstance(action, act.Fight)
    return melee.problems(state, ctx, action)


def resolve(state: GameState, action: act.Action, ctx: Context) -> None:
    if isinstance(action, act.Move):
        movement.resolve_move(state, ctx, action)
    elif isinstance(action, act.Charge):
        movement.resolve_charge(state, ctx, action)
    elif isinstance(action, act.Shoot):
        if not draw_hooks.ask(state, ctx, action):  # GM-FAST-DRAW: a face-off waits
            shooting.resolve(state, ctx, action)
    elif isinstance(action, act.Fight):
        melee.resolve(state, ctx, action)
    elif isinstance(action, react_hooks.Overwatch):
        react_hooks.enter_overwatch(state, ctx, action)
    elif isinstance(action, tasks.Search):
        tasks.search(state, ctx, action)
    elif isinstance(action, tasks.Attempt):
        tasks.attempt(state, ctx, action)


def at_turn_limit(state: GameState) -> None:
    """GM-I-END: at the turn limit the side with the larger share of its starting
    wounds still standing wins; equal shares are a draw. A scenario with hidden things
    and tasks (GM-I-TASKS) first counts the places each side found or did."""
    places = tasks.tally(state)
    if places and len(set(places.values())) > 1:
        most = max(places.values())
        ahead = [s for s, v in places.items() if v == most]
        if len(ahead) == 1:
            text = ", ".join(f"{s} {v}" for s, v in places.items())
            state.over = {"winner": ahead[0], "reason": f"turn limit: places found or done {text} (GM-I-TASKS)"}  # fmt: skip
            return
    share = {}
    for s in state.sides:
        mine = [m for m in state.models.values() if m.side == s]
        total = sum(m.max_hp for m in mine) or 1
        share[s] = sum(max(m.hp, 0) for m in mine if not m.removed) / total
    best = max(share.values())
    top = [s for s, v in share.items() if v == best]
    winner = top[0] if len(top) == 1 else None
    text = ", ".join(f"{s} {v:.0%}" for s, v in share.items())
    state.over = {"winner": winner, "reason": f"turn limit: wounds left {text} (GM-I-END)"}
