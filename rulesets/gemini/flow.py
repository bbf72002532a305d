"""The turn (GM-TURN): setup, who acts, and the seams between phases and activations.

Why three turn structures: the text plays large games in player turns of phases
(``turns = "phases"``: movement, shooting, close combat, recovery, one side after the
other), small ones in Initiative order (``"initiative"``) or with activation dice
(``"arap"``). The switch picks an ``engine.turns`` flow; the flows keep their
bookkeeping in ``state.vars``, so the rules never ask which one is playing except to
know which verbs the current phase allows.
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import Context, Ruleset
from engine.state import GameState
from engine.turn_orders import InitiativeFlow, PlayerTurnFlow
from engine.turns import RollOff
from rulesets.gemini.chapters import morale, switches
from rulesets.gemini.chapters.arap import ArapFlow
from rulesets.gemini.chapters.options import phase_hooks
from rulesets.gemini.state import init_gs, initiative_order, stamp_up

PHASES = ("movement", "shooting", "close_combat", "recovery")
FLOWS: dict[str, Any] = {
    "phases": PlayerTurnFlow(PHASES, RollOff(6, rule="GM-TURN")),
    "initiative": InitiativeFlow("I", RollOff(6, rule="GM-INITIATIVE")),
    "arap": ArapFlow(RollOff(6, rule="GM-TURN")),
}


def flow(state: GameState) -> Any:
    """The turn structure the ``turns`` switch picks (GM-TURN)."""
    return FLOWS.get(switches.of(state).turns, FLOWS["phases"])


def step_key(state: GameState) -> tuple[Any, ...]:
    """Which phase or activation is being played: a change starts a new one."""
    order = initiative_order(state)
    return (state.turn, state.phase, state.active, order.get("i"))


def stepped(state: GameState, ctx: Context, before: tuple[Any, ...]) -> None:
    """After every action: a new phase or activation gets a new ``stamp`` (what a model
    did "this phase" is marked with it); a side entering its recovery phase recovers."""
    if state.over or step_key(state) == before:
        return
    stamp_up(state)
    if state.phase == "recovery" and state.active:
        morale.recovery(state, ctx, state.active)
    phase_hooks.stepped(state, ctx, before)


def setup(rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
    """Before turn 1: the ruleset's record, the flow's order, the switches' setup."""
    init_gs(state)
    flow(state).setup(rs, state, ctx, first)
    phase_hooks.setup(state, ctx)
