"""The dispatch of each action to its chapter (GM-TURN for the phase a verb belongs to).

Why a table of phases: the flow (``flow``) says whose turn and which phase it is; the
rules below only ask it which verbs the current phase allows, then hand the action to
the chapter that plays it.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState
from rulesets.gemini.actions import Activate, Attempt, Overwatch, Search
from rulesets.gemini.chapters import melee, movement, shooting, switches
from rulesets.gemini.chapters.options import draw_hooks, move_hooks, react_hooks, tasks
from rulesets.gemini.flow import PHASES
from rulesets.gemini.state import mv

#: the phase each verb belongs to in a turn of phases (GM-TURN)
PHASE_OF: dict[type[act.Action], str] = {
    act.Move: "movement",
    act.Charge: "movement",
    act.Shoot: "shooting",
    act.Fight: "close_combat",
    Search: "movement",
    Attempt: "movement",
    Overwatch: "shooting",
}
VERBS = ("move", "charge", "shoot", "fight", "search", "attempt", "overwatch")


def problems(state: GameState, action: act.Action, ctx: Context) -> list[str]:
    """Every reason the rules forbid the action (the flow has checked the turn)."""
    if isinstance(action, Activate):
        return []  # the flow has checked it (GM-ARAP)
    phase = PHASE_OF.get(type(action))
    if phase is None:
        return [f"gemini has no '{action.KIND}' here (verbs: {', '.join(VERBS)})"]
    m = state.models[action.actor]
    if isinstance(action, Overwatch):  # an action die's worth (GM-OVERWATCH-ARAP)
        return react_hooks.overwatch_problems(state, m)
    bonus = isinstance(action, act.Move) and move_hooks.bonus_move(state, m)
    if state.phase in PHASES and state.phase != phase and not bonus:
        return [
            f"{action.KIND} belongs to the {phase.replace('_', ' ')} phase, "
            f"not the {state.phase.replace('_', ' ')} phase (GM-TURN)"
        ]
    arap = switches.of(state).turns == "arap"  # each action die is one more act (GM-ARAP)
    moving = (act.Move, act.Charge, Search, Attempt)
    if not arap and isinstance(action, moving) and mv(m).get("shot") == state.turn:
        return [f"{m.id} has shot this turn: it moves before it shoots (GM-TURN)"]
    if isinstance(action, (Search, Attempt)):  # in place of its move (GM-I-TASKS)
        why = movement.stuck(state, m)
        return [why] if why else tasks.problems(state, ctx, action)
    if isinstance(action, act.Move):
        return movement.move_problems(state, ctx, action)
    if isinstance(action, act.Charge):
        return movement.charge_problems(state, ctx, action)
    if isinstance(action, act.Shoot):
        if mv(m).get("shot") == state.turn and not arap:
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
    elif isinstance(action, Overwatch):
        react_hooks.enter_overwatch(state, ctx, action)
    elif isinstance(action, Search):
        tasks.search(state, ctx, action)
    elif isinstance(action, Attempt):
        tasks.attempt(state, ctx, action)
