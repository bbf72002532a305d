"""Room at the end of a move (audit reliability.md D4, gem.md defects 2 and 3).

GEM's movement rules say how far a unit may go; the table says where it may end. A
move, charge, frontage change or change of order is refused when it would leave a base
off the table or overlapping another base by more than ``TOLERANCE`` that it did not
already overlap: the pieces are physical, and two cannot stand in one place.

The ends are worked out without dice, so ``check`` may ask this freely; a block that an
unbeaten skirmisher stops short ends nearer than its path's end, never further.
"""

from __future__ import annotations

import copy
import math

from engine.actions import Action, Charge, Move
from engine.geometry import Footprint
from engine.loader import corners
from engine.ruleset import Context, Reason
from engine.state import GameState, Model

from ..state import is_block, unit_models
from . import blocks

TOLERANCE = 1e-3  # inches, the invariant test's tolerance
NO_ROOM = "no_room"
Spot = tuple[float, float, float]
#: a figure with one of these (as a status or a var) is not standing on the table
_OFF = ("undeployed", "aboard", "driving")


def _standing(m: Model) -> bool:
    """On the table now (not removed, waiting to deploy or riding)."""
    if m.removed:
        return False
    st, v = m.status, m.vars  # a plain loop: asked of every figure for every move checked
    for s in _OFF:
        if s in st or v.get(s):
            return False
    return True


def block_ends(
    state: GameState, unit: str, front: tuple[float, float], facing: float, files: int | None = None
) -> dict[str, Spot]:
    """Where each live figure of a block stands with its front centre at ``front``."""
    return {
        m.id: (round(x, 4), round(y, 4), facing % 360.0)
        for m, (x, y) in blocks.place(state, unit, front, facing, files)
    }


def formed_ends(state: GameState, unit: str) -> dict[str, Spot]:
    """Where peltasts stand once formed into a block (on a copy: the state is untouched)."""
    from .formation import form_block

    trial = copy.deepcopy(state)
    form_block(trial, unit)
    return {m.id: (m.x, m.y, m.facing) for m in unit_models(trial, unit)}


def problems(
    state: GameState, ctx: Context, ends: dict[str, Spot], skip: frozenset[str] = frozenset()
) -> list[str]:
    """Why the figures cannot stand at ``ends`` (empty if there is room); ``skip`` names
    figures left out of the test (skirmishers a block will overrun or stop at)."""
    bf = ctx.battlefield
    movers = [state.models[i] for i in ends if i in state.models]
    for m in movers:
        x, y, f = ends[m.id]
        pts = corners(x, y, f, m.base)
        if any(
            px < -TOLERANCE
            or py < -TOLERANCE
            or px > bf.width + TOLERANCE
            or py > bf.depth + TOLERANCE
            for px, py in pts
        ):
            return [Reason(f"{m.id} would end off the table", NO_ROOM, model=m.id)]
    others = [
        o for o in state.models.values() if _standing(o) and o.id not in ends and o.id not in skip
    ]
    for i, m in enumerate(movers):
        fm = Footprint(*ends[m.id], m.base)
        was = Footprint(m.x, m.y, m.facing, m.base)
        near = others + movers[i + 1 :]
        for o in near:
            e = ends.get(o.id)
            ox, oy = (e[0], e[1]) if e is not None else (o.x, o.y)
            if abs(fm.x - ox) > 6 or abs(fm.y - oy) > 6:
                continue  # far apart: no footprint needed to tell
            fo = Footprint(*e, o.base) if e is not None else Footprint(o.x, o.y, o.facing, o.base)
            if not ctx.table.overlaps(fm, fo, TOLERANCE):
                continue
            before = Footprint(o.x, o.y, o.facing, o.base)
            if ctx.table.overlaps(was, before, TOLERANCE):
                continue  # already overlapping: this action does not make it worse
            return [
                Reason(
                    f"no room: {m.id} would end on top of {o.id}", NO_ROOM, model=m.id, other=o.id
                )
            ]
    return []


def action_problems(
    state: GameState, ctx: Context, a: Action, unit: str, m: Model, target: Model | None = None
) -> list[str]:
    """Room for a move, charge (at ``target``), frontage change or change of order that
    the rules allow."""
    from ..actions import field_of
    from . import melee

    kind = a.KIND
    skip: frozenset[str] = frozenset()
    if isinstance(a, Move):
        if is_block(state, unit):
            rec = blocks.record(state, unit)
            path = [(float(p[0]), float(p[1])) for p in a.waypoints(tuple(rec["front"]))]
            facing = rec["facing"] if a.facing is None else float(a.facing) % 360.0
            ends = block_ends(state, unit, path[-1], facing)
            skip = _overrun(state, unit, path, facing, "")
        else:
            ends = {m.id: _lone_end(state, ctx, m, a)}
    elif isinstance(a, Charge):
        if target is None:
            return []
        _, path, facing, _ = melee.charge_plan(state, ctx, unit, m.id, target)
        if is_block(state, unit):
            ends = block_ends(state, unit, path[-1], facing)
            skip = _overrun(state, unit, path, facing, target.id)
        else:
            ends = {m.id: (path[-1][0], path[-1][1], facing)}
    elif kind == "change_frontage":
        rec = blocks.record(state, unit)
        front = (float(rec["front"][0]), float(rec["front"][1]))
        ends = block_ends(state, unit, front, rec["facing"], int(field_of(a, "files", 0)))
    elif kind == "change_order" and field_of(a, "order", "") == "block":
        ends = formed_ends(state, unit)
    else:
        return []
    return problems(state, ctx, ends, skip)


def _overrun(
    state: GameState, unit: str, path: list[tuple[float, float]], facing: float, target: str
) -> frozenset[str]:
    """Skirmishers in a block's way: overrun and removed, or the block stops short."""
    from .movement import block_corridor, is_skirmisher

    return frozenset(
        o.id
        for o in block_corridor(state, unit, path, facing)
        if is_skirmisher(o) and o.id != target
    )


def _lone_end(state: GameState, ctx: Context, m: Model, a: Move) -> Spot:
    """Where a lone figure ends as ``movement.apply_model_move`` puts it: stopped by the
    physics at contact, then turned (a long cavalry base can swing onto a neighbour)."""
    from . import measure
    from .movement import EPS, _move

    path = [(float(p[0]), float(p[1])) for p in a.waypoints(m.pos)]
    end = _move(ctx, state, m.id, path[1:]).end if len(path) > 1 else m.pos
    facing = m.facing
    if a.facing is not None:
        facing = float(a.facing) % 360.0
    elif len(path) > 1 and math.dist(path[0], path[-1]) > EPS:
        facing = measure.bearing(path[-2], path[-1])
    return (float(end[0]), float(end[1]), facing)
