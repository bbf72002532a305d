"""Objectives and victory (GEM-3.7): last survivor, objectives taken by a turn, and the
scenario's turn limit.

Why a share and not a count at the turn limit: GEM leaves open-ended games to the
players; when the scenario's ``turn_limit`` runs out we compare what each side keeps of
its starting points value (designer's interpretation GEM-I-TURNLIMIT), so a side that
fielded fewer, dearer figures is not punished for it.
"""

from __future__ import annotations

import math
from typing import Any

from engine.ruleset import Context
from engine.state import GameState

from .state import on_hand, svars


def finish(state: GameState, ctx: Context, winner: str | None, reason: str) -> None:
    state.over = {"winner": winner, "reason": reason}
    state.active = None
    ctx.log.emit(
        "game_over",
        f"game over: {winner or 'draw'} ({reason})",
        rule="GEM-3.7",
        outcome=winner or "draw",
    )


def check(state: GameState, ctx: Context) -> None:
    """Last survivor: a side with nothing left on the table has lost."""
    if state.over:
        return
    alive = [s for s in state.sides if state.live(s)]
    if len(alive) <= 1:
        finish(
            state,
            ctx,
            alive[0] if alive else None,
            "last survivor" if alive else "no one left standing",
        )


def objectives(state: GameState) -> list[dict[str, Any]]:
    return list(svars(state).get("objectives", []) or [])


def holds(state: GameState, obj: dict[str, Any], side: str) -> bool:
    x, y = float(obj.get("x", 0)), float(obj.get("y", 0))
    r = float(obj.get("radius", 3.0))
    mine = any(math.dist(m.pos, (x, y)) <= r for m in state.live(side))
    theirs = any(math.dist(m.pos, (x, y)) <= r for m in state.live() if m.side != side)
    return mine and not theirs


def end_of_turn(state: GameState, ctx: Context) -> None:
    """The turn's end before the turn limit: the last survivor, then the objectives
    taken or missed by their turn (GEM-3.7, GEM-I-OBJECTIVES: counted here, after the
    morale segment, and the first turn to end with one held wins). The engine's turn
    structure applies the turn limit after this (``turn_limit``)."""
    check(state, ctx)
    if state.over:
        return
    for obj in objectives(state):
        side = obj.get("side")
        if side not in state.sides:
            continue
        by = int(obj.get("by_turn", 0) or 0)
        name = obj.get("id", obj.get("name", "the objective"))
        if holds(state, obj, side):
            finish(state, ctx, side, f"{side} took {name} by turn {state.turn}")
            return
        if by and state.turn >= by:
            others = [s for s in state.sides if s != side]
            finish(
                state,
                ctx,
                others[0] if len(others) == 1 else None,
                f"{side} did not take {name} by turn {by}",
            )
            return


def turn_limit(state: GameState, ctx: Context) -> None:
    """The scenario's turn limit is reached: the side keeping the larger share of its
    starting points wins (GEM-I-TURNLIMIT)."""
    limit = state.turn_limit
    shares = {s: kept_share(state, s) for s in state.sides}
    best = max(shares.values())
    top = [s for s, v in shares.items() if abs(v - best) < 1e-9]
    text = ", ".join(f"{s} keeps {v:.0%}" for s, v in shares.items())
    finish(
        state,
        ctx,
        top[0] if len(top) == 1 else None,
        f"turn limit {limit} reached: {text} of its points (GEM-I-TURNLIMIT)",
    )


def kept_share(state: GameState, side: str) -> float:
    from .chapters.points import model_value

    start = sum(model_value(m, full=True) for m in state.models.values() if m.side == side)
    now = sum(
        model_value(m) * (m.hp / max(1, m.max_hp))
        for m in state.models.values()
        if m.side == side and on_hand(m)
    )
    return now / start if start else 0.0


def victory_text(scenario: Any) -> str:
    """What wins a GEM scenario (GEM-3.7, GEM-I-TURNLIMIT), for the new-game screen:
    its objectives, the last survivor, and the share of points kept at the turn limit."""
    out = []
    for o in scenario.objectives or []:
        who, what = o.get("side", "?"), o.get("id", "the objective")
        radius = float(o.get("radius", 3.0))
        late = (
            f"; if they have not by turn {o['by_turn']}, their enemy wins"
            if o.get("by_turn")
            else ""
        )
        out.append(
            f'{who} win by holding {what} (radius {radius:g}") at the end of a turn with no '
            f"enemy figure inside it{late}."
        )
    out.append("A side with no figure left on the table has lost.")
    if scenario.turn_limit:
        out.append(
            f"After {scenario.turn_limit} turns the side keeping the larger share of its "
            "starting points value wins (GEM-I-TURNLIMIT)."
        )
    return " ".join(out)
