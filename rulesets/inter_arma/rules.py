"""Check and apply per action kind (IA-SEQUENCE): the phase each belongs to, then the
chapter that rules it (movement, ranged, melee).

Why the phase first: a move in the ranged phase is refused for the phase, not for its
distance, so a player reads the one reason that matters.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import NOT_YOUR_TURN, Context, Reason
from engine.state import GameState
from rulesets.inter_arma import flow, victory
from rulesets.inter_arma.actions import PHASE_OF
from rulesets.inter_arma.chapters import melee, movement, ranged, spotting


def check(state: GameState, a: act.Action, ctx: Context) -> list[str]:
    if state.over:
        return [Reason("the game is over", "game_over")]
    if isinstance(a, (act.EndPhase, act.Concede)):
        return []
    if isinstance(a, act.EndTurn):
        return ["end_phase ends each phase in turn (IA-SEQUENCE)"]
    m = state.models.get(a.actor)
    if m is None or m.removed:
        return [Reason(f"no figure '{a.actor}' on the table", "no_such_model")]
    if m.side != state.active:
        return [
            Reason(
                f"{m.id} is {m.side}'s, and it is {state.active}'s {state.phase} phase (IA-SEQUENCE)",
                NOT_YOUR_TURN,
            )
        ]
    for cls, phase in PHASE_OF.items():
        if isinstance(a, cls):
            if state.phase != phase:
                return [
                    f"{a.KIND} belongs to the {phase} phase, not the {state.phase} phase (IA-SEQUENCE)"
                ]
            if isinstance(a, act.Move):
                return movement.check(state, ctx, a)
            if isinstance(a, act.Shoot):
                return ranged.check(state, ctx, a)
            if isinstance(a, act.Fight):
                return melee.check(state, ctx, a)
    return [f"inter_arma has no '{a.KIND}' action (verbs: move, shoot, fight, end_phase, concede)"]


def apply(state: GameState, a: act.Action, ctx: Context) -> None:
    if isinstance(a, act.Concede):
        side = state.active or ""
        winner = next((s for s in state.sides if s != side), None)
        ctx.log.emit("status", f"{side} concedes", actor=side, outcome="concede")
        state.over = {"winner": winner, "reason": f"{side} conceded"}
        state.active = None
        victory.after_battle(state, ctx)
        return
    if isinstance(a, act.EndPhase):
        flow.end_phase(state, ctx)
        return
    if isinstance(a, (act.Shoot, act.Fight)):
        t = state.models[a.target]
        for side in (t.side, state.models[a.actor].side):
            spotting.raise_alarm(state, ctx, side, f"{a.actor} attacks {a.target}")
    if isinstance(a, act.Move):
        movement.apply(state, ctx, a)
    elif isinstance(a, act.Shoot):
        ranged.apply(state, ctx, a)
    elif isinstance(a, act.Fight):
        melee.apply(state, ctx, a)
    victory.settle(state, ctx)
