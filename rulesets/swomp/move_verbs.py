"""Moving and turning troopers, a unit moving as one, and a vehicle's drive (SWOMP
"Actions"; "Movement"; SWOMP-I-UNIT-ACTIONS, SWOMP-I-STAND).

Why apart: the verbs only route: limits and the move itself are movement.py's, a
vehicle's drive is driving.py's, and every finished move may raise overwatch fire.
"""

from __future__ import annotations

from engine.actions import Move, Turn

from . import core, driving, vehicles
from .movement import R_ACTIONS, do_move, move_problems, unit_paths
from .pending import trigger_overwatch


def check_move(state, ctx, action: Move, ms, unit) -> list[str]:
    if action.to is None and not action.path:
        return ["a move needs 'to' or 'path'"]
    if action.mode == "charge":
        return ["a charge is its own action, with its combat: use charge (SWOMP-CHARGE)"]
    if action.mode and action.mode != "run":
        return [f"SWOMP moves have no mode '{action.mode}' (only 'run')"]
    if len(ms) == 1:
        return move_problems(state, ctx, ms[0], list(action.waypoints(ms[0].pos)))
    if any(core.is_vehicle(m) for m in ms):
        return [f"{unit} includes vehicles: move its models one by one"]
    out = []
    for m in ms:
        out += move_problems(state, ctx, m, unit_paths(ms, action)[m.id], unit_move=True)
    return out


def apply_move(state, ctx, action: Move, ms, unit) -> None:
    if len(ms) == 1:
        m = ms[0]
        pts = list(action.waypoints(m.pos))
        if core.is_vehicle(m):
            moved = driving.drive(state, ctx, m, pts)
        else:
            do_move(state, ctx, m, pts, action.facing)
            moved = [m]
        trigger_overwatch(state, ctx, moved, None)
        return
    paths = unit_paths(ms, action)
    lead = ms[0]
    end = paths[lead.id][-1]
    ux, uy = end[0] - lead.x, end[1] - lead.y
    for m in sorted(ms, key=lambda m: (-(m.x * ux + m.y * uy), m.id)):
        do_move(state, ctx, m, paths[m.id], action.facing)
    trigger_overwatch(state, ctx, ms, None)


def check_turn(state, ctx, action: Turn, ms, unit) -> list[str]:
    out = []
    for m in ms:
        if core.is_vehicle(m):
            out.append(f"{m.id} is a vehicle: it turns only as it moves ({vehicles.R_MOVE})")
        elif core.engaged(m):
            out.append(f"{m.id} is in close combat")
        elif m.vars.get("overwatch"):
            out.append(f"{m.id} is on overwatch: its arc is set")
    return out


def apply_turn(state, ctx, action: Turn, ms, unit) -> None:
    for m in ms:
        m.facing = float(action.facing) % 360
    ctx.log.emit(
        "move",
        f"{', '.join(m.id for m in ms)} turn to face {action.facing:g}\u00b0",
        actor=action.actor,
        rule=R_ACTIONS,
    )
