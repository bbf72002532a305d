"""The answers that move models out of their turn: the charge reactions (run from the
charge, stand and fire, hold), the reaction move (GM-REACTIONS), and the dispatch of
the other decisions (fast draw, pursuit).

Why here and not in ``options.react_hooks``: these answers end in a move of the charger
or of the reactor, which the movement chapter makes; the hooks only put the questions
and fire the shots, so the movement chapter can call them without a cycle.
"""

from __future__ import annotations

import math
from typing import Any

from engine.actions import Action, Choose, Move
from engine.polygons import path_prefix
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import movement
from rulesets.gemini.chapters.options import draw_hooks, move_hooks, pursuit, react_hooks
from rulesets.gemini.chapters.options import reactions as R
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.chapters.options.moving import move_toward

#: far enough to point a run "directly away" past any table edge
AWAY = 1000.0


def answers(decision: dict[str, Any]) -> bool:
    kinds = (react_hooks.CHARGE_KIND, react_hooks.KIND, draw_hooks.KIND)
    return decision.get("kind") in kinds or pursuit.answers(decision)


def answer(state: GameState, ctx: Context, decision: dict[str, Any], action: Action) -> None:
    """A charge reaction, a reaction move, or (else) a reaction's fire or hold."""
    if pursuit.answers(decision):
        pursuit.answer(state, ctx, decision, action)
    elif draw_hooks.answers(decision):
        draw_hooks.answer(state, ctx, decision, action)
    elif decision.get("kind") == react_hooks.CHARGE_KIND:
        answer_charge(state, ctx, decision["data"], action)
    elif isinstance(action, Move):
        m = state.models[decision["data"]["reactor"]]
        reaction_move(state, ctx, m, action)
        react_hooks.late_done(m, decision["data"])
    else:
        react_hooks.answer(state, ctx, decision, action)
        if decision["data"].get("then") == "charge":  # GM-OVERWATCH-ARAP fired: charge on
            d = decision["data"]
            charge_on(state, ctx, state.models[d["target"]], state.models[d["charged"]])


def charge_on(state: GameState, ctx: Context, m: Model, t: Model) -> None:
    """After the overwatch fire at a charger: the charged model's own reaction, else the
    charge goes in (unless the charger fell or may no longer charge)."""
    if m.removed:
        return
    if react_hooks.ask_charge_reaction(state, ctx, m, t):
        return
    answer_charge(state, ctx, {"charger": m.id, "target": t.id}, Choose(option="hold"))


def answer_charge(state: GameState, ctx: Context, d: dict[str, Any], action: Action) -> None:
    """GM-CHARGE-REACTIONS (GM-I-CHARGE-REACT): the charged model stands and fires at
    the charger where it stands (a shooting reaction), or runs its M for each success
    directly away from it, or holds; then the charge goes in, unless the charger fell,
    or may no longer charge (frozen, pinned, broken by the fire)."""
    m, t = state.models[d["charger"]], state.models[d["target"]]
    option = action.option if isinstance(action, Choose) else "hold"
    if option == "stand_and_fire" and not t.removed:
        react_hooks.fire_reaction(state, ctx, t, m, "reaction")
    elif option == "run" and not t.removed:
        roll = R.reaction_roll(ctx.dice, t, state.turn)
        report_all(ctx, roll.rolls, t.id, m.id)
        inches = roll.successes * movement.allowance(state, t)
        d_ = math.dist(t.pos, m.pos) or 1.0
        goal = (t.x + (t.x - m.x) / d_ * AWAY, t.y + (t.y - m.y) / d_ * AWAY)
        if inches > 0:
            move_toward(state, ctx, t, goal, inches, R.R_CHARGE_REACT, f"runs from {m.id}'s charge")
        else:
            say(ctx, f"{t.id} fails to run from the charge", t.id, R.R_CHARGE_REACT, "held")
    if m.removed:
        return
    why = move_hooks.charge_problem(state, m) or _still(m)
    if why:
        say(ctx, f"the charge does not go in: {why}", m.id, R.R_CHARGE_REACT, "halted", t.id)
        return
    movement.complete_charge(state, ctx, m, t)


def _still(m: Model) -> str:
    bad = [s for s in movement.STILL if s in m.status]
    return f"{m.id} is {bad[0]}" if bad else ""


def reaction_move(state: GameState, ctx: Context, m: Model, a: Move) -> None:
    """GM-I-REACT-MOVE: the reactor rolls its 2d6 against Act and moves along its path
    up to its M for each success, stopping at bases (never into contact: no charge)."""
    roll = R.reaction_roll(ctx.dice, m, state.turn)
    report_all(ctx, roll.rolls, m.id)
    inches = roll.successes * movement.allowance(state, m)
    path = path_prefix(list(a.waypoints(m.pos)), inches)
    if inches <= 0 or len(path) < 2:
        say(ctx, f"{m.id} fails to react", m.id, R.R_REACT, "held")
        return
    res = movement.physics(state, ctx).move(m.id, path[1:])
    if math.dist(res.end, m.pos) > 1e-9:
        m.facing = ctx.table.bearing(m.pos, res.end)
    m.x, m.y = res.end
    ctx.table.unsync()
    ctx.log.emit("move", f'{m.id} reacts: moves {res.travelled:.1f}" ({R.R_REACT})',
                 actor=m.id, rule=R.R_REACT, data={"inches": round(res.travelled, 2)})  # fmt: skip


def answer_problems(
    state: GameState, ctx: Context, decision: dict[str, Any], action: Action
) -> list[str]:
    """A reaction move: by the reactor, on the table, within twice its M (two
    successes at most) and not into contact with an enemy."""
    if not isinstance(action, Move) or decision.get("kind") != react_hooks.KIND:
        return []
    m = state.models[decision["data"]["reactor"]]
    if action.actor != m.id:
        return [f"only {m.id} may react to this"]
    path = list(action.waypoints(m.pos))
    if any(not ctx.battlefield.on_table(x, y) for x, y in path):
        return ["the path leaves the table"]
    limit = 2 * movement.allowance(state, m)
    far = movement.cost(ctx, path)
    if far > limit + 1e-6:
        return [f'too far for a reaction move ({far:.1f}" > 2 × M = {limit:g}") ({R.R_REACT})']
    if len(path) > 1:
        res = movement.physics(state, ctx).move(m.id, path[1:])
        foe = state.models.get(res.blocked_by or "")
        if foe is not None and foe.side != m.side:
            return [f"a reaction move may not end against {foe.id} ({R.R_REACT})"]
    return []
