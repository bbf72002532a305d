"""The turn (IA-SEQUENCE, IA-INITIATIVE): who acts, the phases, the end of a turn.

Why phases: the text moves every side first, then shoots, then fights ("Combat happens
after movement is finished on every side"), each phase played by the sides in initiative
order; the order is rolled once, in turn 1, and changes only by a morale result.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState
from engine.turns import roll_off
from rulesets.inter_arma import victory
from rulesets.inter_arma.chapters import morale, spotting
from rulesets.inter_arma.state import gs

PHASES = ("movement", "ranged", "melee")
KEY = "ia"


def start(state: GameState, ctx: Context, first: str | None) -> None:
    """IA-INITIATIVE: a d6 per side, highest first, ties reroll; or the scenario's side."""
    if first:
        order = [first] + [s for s in state.sides if s != first]
        ctx.log.emit(
            "initiative",
            f"{first} has the initiative, as the scenario says (IA-INITIATIVE c)",
            actor=first,
            rule="IA-INITIATIVE",
        )
    else:
        order = roll_off(ctx.dice, state.sides, 6, rule="IA-INITIATIVE", log=ctx.log)
        ctx.log.emit(
            "initiative",
            f"{order[0]} has the initiative (IA-INITIATIVE a)",
            actor=order[0],
            rule="IA-INITIATIVE",
        )
    gs(state)["ia"] = {"order": order, "i": 0}
    gs(state).setdefault("losses", {s: 0 for s in state.sides})
    state.turn = 1
    state.phase = PHASES[0]
    state.active = order[0]


def end_phase(state: GameState, ctx: Context) -> None:
    d = gs(state)["ia"]
    ctx.log.emit(
        "status",
        f"{state.active} ends its {state.phase} phase (IA-SEQUENCE)",
        actor=state.active or "",
        rule="IA-SEQUENCE",
    )
    d["i"] += 1
    if d["i"] < len(d["order"]):
        state.active = d["order"][d["i"]]
        return
    d["i"] = 0
    k = PHASES.index(state.phase) + 1
    if state.phase == "movement":
        spotting.look(state, ctx)
    if k < len(PHASES):
        state.phase = PHASES[k]
        state.active = d["order"][0]
        return
    end_turn(state, ctx)


def end_turn(state: GameState, ctx: Context) -> None:
    """IA-SEQUENCE: the turn ends after melee; the game ends at the scenario's turn limit."""
    morale.end_of_turn(state, ctx)
    victory.settle(state, ctx)
    if state.over:
        return
    limit = state.turn_limit
    if limit and state.turn >= limit:
        victory.finish_on_losses(state, ctx, f"turn limit ({limit}) reached")
        return
    state.turn += 1
    state.phase = PHASES[0]
    state.active = gs(state)["ia"]["order"][0]
    ctx.log.emit(
        "status",
        f"turn {state.turn} begins; {state.active} moves first (IA-SEQUENCE)",
        rule="IA-SEQUENCE",
    )


def advance(state: GameState) -> act.Action | None:
    """What moves play on: the acting side ends its phase (IA-SEQUENCE)."""
    return None if state.over or state.active is None else act.EndPhase()
