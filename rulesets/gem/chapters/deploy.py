"""The setup (GEM-2.0.3, GEM-2.0.4): after turn 1's initiative, a d20 roll for the choice of
table edge, secret deployment plans, units placed by the plans (the side with the
initiative first), then the plans revealed and the turn's segments begun. Played only when
the scenario sets ``options = { deployment = true }`` (GEM-I-OPTIONS).

Why decisions the engine holds (``GameState.pending``, ``Ruleset.ask``): each step is a
choice one side owes ("side", "plan", "deploy"), hidden from the other hotseat player by
``view.redact`` until the reveal; the engine hands it to the side it is owed by, allows
only its verbs, and the window, the AI and the scripts answer it with the same
check/apply as any other action. ``state.phase`` names the step for the window.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action, Choose, EndPhase
from engine.ruleset import Context, Legality, load
from engine.state import GameState
from engine.turns import roll_off

from ..actions import Deploy, Plan, field_of
from ..state import gs, is_block, unit_models
from . import blocks, plans
from .tables import setup as setup_table

UNDEPLOYED = "undeployed"
#: what each step of the setup asks of a side, and the verbs that answer it
ASKS = {
    "side": ("chooses a table edge: south or north (GEM-2.0.3)", ("choose", "end_phase")),
    "plan": ("draws its deployment plan (GEM-2.0.4)", ("plan", "end_phase")),
    "deploy": ("places its units by its plan (GEM-2.0.4)", ("deploy", "end_phase")),
}


def _ask(state: GameState, side: str, step: str) -> None:
    """Owe ``side`` the decision of this step (the engine hands it over)."""
    text, verbs = ASKS[step]
    state.phase, state.active = step, side
    load("gem").ask(state, side, step, f"{side} {text}", verbs=verbs)


# ------------------------------------------------------------------ the flow
def start(state: GameState, ctx: Context, order: list[str]) -> bool:
    """Begin the setup once turn 1's initiative is known; False (and a note) when the game
    has not exactly two sides, for GEM's edges are two."""
    if len(state.sides) != 2:
        ctx.log.emit(
            "note",
            "the setup needs exactly two sides; units stay where the "
            "scenario put them (GEM-I-TERRAIN)",
            rule="GEM-I-TERRAIN",
        )
        return False
    die = int(setup_table()["side_die"])
    rolled = roll_off(
        ctx.dice, order, die, rule="GEM-2.0.3", log=ctx.log, purpose="choice of table edge"
    )
    chooser = rolled[0]
    gg = gs(state)
    gg["setup"] = {"order": list(order), "chooser": chooser}
    gg["edges"] = {}
    gg["plans"] = {}
    gg["plans_revealed"] = False
    for m in state.live():
        m.set_status(UNDEPLOYED)
    _ask(state, chooser, "side")
    ctx.log.emit(
        "note",
        f"{chooser} wins the roll and chooses a table edge: south or north (GEM-2.0.3)",
        actor=chooser,
        rule="GEM-2.0.3",
    )
    return True


def _edge(state: GameState, side: str) -> str:
    return str(gs(state).get("edges", {}).get(side, ""))


def _plan(state: GameState, side: str) -> dict | None:
    p = gs(state).get("plans", {}).get(side)
    return p if isinstance(p, dict) else None


def waiting(state: GameState, side: str) -> list[str]:
    """Units of ``side`` not yet placed on the table."""
    return [
        u for u, ms in sorted(state.units(side).items()) if any(UNDEPLOYED in m.status for m in ms)
    ]


def _set_edges(state: GameState, ctx: Context, side: str, edge: str, why: str) -> None:
    other = [s for s in state.sides if s != side][0]
    gs(state)["edges"] = {side: edge, other: plans.EDGES[1 - plans.EDGES.index(edge)]}
    ctx.log.emit(
        "note",
        f"{side} {why} the {edge} edge; {other} takes the "
        f"{gs(state)['edges'][other]} edge (GEM-2.0.3)",
        actor=side,
        rule="GEM-2.0.3",
    )
    _ask(state, gs(state)["setup"]["order"][0], "plan")


def _next_side(state: GameState, ctx: Context, side: str) -> None:
    """``side`` is done with this step: the next side in initiative order, else the next
    step (plans, then placing, each first side first), else the reveal."""
    order = gs(state)["setup"]["order"]
    k = order.index(side) + 1
    if k < len(order):
        _ask(state, order[k], state.phase)
    elif state.phase == "plan":
        _ask(state, order[0], "deploy")
    else:
        _finish(state, ctx)


def _place(state: GameState, ctx: Context, side: str, unit: str, why: str) -> None:
    """Carry out the plan for one unit."""
    place = plans.parse(_plan(state, side)[unit], _edge(state, side))  # type: ignore[index]
    assert not isinstance(place, str)
    if is_block(state, unit):
        blocks.apply_place(state, unit, (place[0], place[1]), place[2])
    else:
        for m, f in plans.figures(state, unit, place):
            m.x, m.y, m.facing = round(f.x, 4), round(f.y, 4), f.facing
    for m in unit_models(state, unit):
        m.set_status(UNDEPLOYED, False)
    ctx.log.emit(
        "move",
        f"{unit} {why} at ({place[0]:.1f}, {place[1]:.1f}) facing {place[2]:g} (GEM-2.0.4)",
        actor=unit,
        rule="GEM-2.0.4",
    )


def _finish(state: GameState, ctx: Context) -> None:
    """GEM-2.0.4: every unit is down; the plans are shown and turn 1's segments begin."""
    gg = gs(state)
    gg["plans_revealed"] = True
    for side in gg["setup"]["order"]:
        shown = "; ".join(
            f"{u} ({p[0]:g}, {p[1]:g})" for u, p in sorted((_plan(state, side) or {}).items())
        )
        ctx.log.emit(
            "note",
            f"the plan of {side} is revealed: {shown}; every unit stands "
            f"where its plan put it (GEM-2.0.4)",
            actor=side,
            rule="GEM-2.0.4",
        )
    gg["setup_done"] = True  # the dispatch (rules.py) then begins turn 1's segments


# ------------------------------------------------------------------ check and apply
def check(state: GameState, a: Action, ctx: Context) -> Legality:
    """A setup verb when no setup decision is owed: the setup is over or not played."""
    return Legality.no(
        f"{a.KIND} belongs to the setup before turn 1, which is over or "
        f"not played in this game (GEM-2.0.4)"
    )


def problems(state: GameState, decision: Mapping[str, Any], a: Action, ctx: Context) -> list[str]:
    """Why ``a`` does not answer the setup ``decision`` (the engine has already kept
    out every verb but the step's own and ``end_phase``)."""
    if isinstance(a, EndPhase):
        return []
    side, step = str(decision["side"]), str(decision["kind"])
    if step == "side":
        if isinstance(a, Choose) and a.option not in plans.EDGES:
            return [f"choose the south or the north edge, not '{a.option}' (GEM-2.0.3)"]
        return []
    if step == "plan" and isinstance(a, Plan):
        return list(plans.problems(state, ctx, side, _edge(state, side), dict(a.placements)))
    if isinstance(a, Deploy):
        return _deploy_problems(state, a, side)
    return []


def _deploy_problems(state: GameState, a: Deploy, side: str) -> list[str]:
    unit = a.actor
    if unit not in waiting(state, side):
        ours = unit in state.units(side)
        return [
            f"{unit} is already on the table"
            if ours
            else f"{unit} is not a unit of {side}, which is deploying"
        ]
    plan = _plan(state, side) or {}
    place = plans.parse(plan.get(unit), _edge(state, side))
    if isinstance(place, str):
        return [f"{side}'s plan does not place {unit}"]
    out = []
    to = field_of(a, "to", None)
    if to is not None and (abs(to[0] - place[0]) > 0.01 or abs(to[1] - place[1]) > 0.01):
        out.append(
            f"the plan puts {unit} at ({place[0]:g}, {place[1]:g}), not "
            f"({to[0]:g}, {to[1]:g}): deployment follows the plan (GEM-2.0.4)"
        )
    if a.facing is not None and abs((a.facing - place[2] + 180) % 360 - 180) > 0.5:
        out.append(f"the plan faces {unit} {place[2]:g}, not {a.facing:g} (GEM-2.0.4)")
    return out


def answer(state: GameState, decision: Mapping[str, Any], a: Action, ctx: Context) -> None:
    """Carry out the answer to a setup decision (the engine took it off ``pending``)."""
    side = str(decision["side"])
    if isinstance(a, EndPhase):
        _end_step(state, ctx, side)
    elif isinstance(a, Choose):
        _set_edges(state, ctx, side, a.option, "chooses")
    elif isinstance(a, Plan):
        gs(state)["plans"][side] = {u: list(v) for u, v in a.placements.items()}
        ctx.log.emit(
            "note",
            f"{side} has drawn its deployment plan (hidden until every unit is placed, GEM-2.0.4)",
            actor=side,
            rule="GEM-2.0.4",
        )
        _next_side(state, ctx, side)
    elif isinstance(a, Deploy):
        _place(state, ctx, side, a.actor, "is placed by the plan")
        if waiting(state, side):
            _ask(state, side, "deploy")
        else:
            _next_side(state, ctx, side)


def _end_step(state: GameState, ctx: Context, side: str) -> None:
    """'End phase' in the setup: the edge nearer the side's units, the first ready-made
    plan, or the units left placed by the plan (GEM-I-DEPLOY)."""
    if state.phase == "side":
        ms = state.live(side)
        south = sum(m.y for m in ms) / len(ms) <= ctx.battlefield.depth / 2
        _set_edges(state, ctx, side, "south" if south else "north", "keeps")
        return
    if state.phase == "plan":
        if _plan(state, side) is None:
            made = plans.ready_made(state, ctx, side, _edge(state, side))
            if made:
                gs(state)["plans"][side] = made[0]
                why = "takes the ready-made plan (GEM-I-DEPLOY)"
            else:
                gs(state)["plans"][side] = {
                    u: list(plans.anchor(state, u)) for u in sorted(state.units(side))
                }
                why = "finds no plan that fits its zone; its units stay where they are"
            ctx.log.emit("note", f"{side} {why}", actor=side, rule="GEM-2.0.4")
        _next_side(state, ctx, side)
        return
    for unit in waiting(state, side):
        _place(state, ctx, side, unit, "is placed where its plan put it")
    _next_side(state, ctx, side)


# ------------------------------------------------------------------ the AI's menu
def replies(state: GameState, decision: Mapping[str, Any], ctx: Context) -> list[Action]:
    """End the step (the defaults above), both edges, the ready-made plans, or one
    deployment per unit waiting; all of them legal."""
    side, step = str(decision["side"]), str(decision["kind"])
    out: list[Action] = [EndPhase()]
    if step == "side":
        out += [Choose(option=e) for e in plans.EDGES]
    elif step == "plan":
        out += [Plan(placements=p) for p in plans.ready_made(state, ctx, side, _edge(state, side))]
    elif step == "deploy":
        out += [Deploy(actor=u) for u in waiting(state, side)]
    return [a for a in out if not problems(state, decision, a, ctx)]
