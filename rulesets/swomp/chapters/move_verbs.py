"""Moving and turning troopers, a unit moving as one, and a vehicle's drive (SWOMP
"Actions"; "Movement"; SWOMP-I-UNIT-ACTIONS, SWOMP-I-STAND).

Why apart: the verbs only route: limits and the move itself are movement.py's, a
vehicle's drive is driving.py's, and every finished move may raise overwatch fire.
"""

from __future__ import annotations

import math

from engine.actions import Move, Turn

from ..state import mv
from . import core, driving, table, vehicles, watch
from .movement import R_ACTIONS, TERRAIN, do_move, move_problems, unit_paths
from .pending import CONTINUATIONS, offer, trigger_overwatch


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
    if len(ms) == 1 and core.is_vehicle(ms[0]):
        drive_watched(state, ctx, ms[0], list(action.waypoints(ms[0].pos)))
        return
    if len(ms) == 1:
        paths = {ms[0].id: list(action.waypoints(ms[0].pos))}
    else:
        paths = unit_paths(ms, action)
    lead = ms[0]
    end = paths[lead.id][-1]
    ux, uy = end[0] - lead.x, end[1] - lead.y
    order = sorted(ms, key=lambda m: (-(m.x * ux + m.y * uy), m.id))
    moves = [[m.id, [list(p) for p in paths[m.id]]] for m in order]
    move_on(state, ctx, {"kind": "move_on", "moves": moves, "facing": action.facing})


def move_on(state, ctx, cont: dict) -> None:
    """Walk troopers along their paths (front model first in a unit move). An enemy
    watcher that could not fire at them where they started but may at a point of the
    way fires there: the move stops at that point, its side decides, and the rest of
    the move waits on the answer (SWOMP "Shooting: Overwatch", "at any time";
    SWOMP-I-OVERWATCH-MOMENTS). The end of the move is offered as before."""
    moves = [(mid, [tuple(p) for p in pts]) for mid, pts in cont["moves"]]
    part, offered = bool(cont.get("part")), list(cont.get("offered", []))
    moves = [
        (mid, p) for mid, p in moves if not state.models[mid].removed and (len(p) > 1 or not part)
    ]
    shot = watch.first_shot(state, ctx, dict(moves), offered)
    if shot is None:
        for mid, pts in moves:
            do_move(state, ctx, state.models[mid], pts, cont.get("facing"), part)
        trigger_overwatch(state, ctx, [state.models[mid] for mid, _ in moves], None)
        return
    at, fire = shot
    rest = []
    for mid, pts in moves:
        now, later = watch.split(pts, at)
        m = state.models[mid]
        do_move(state, ctx, m, now, None, part)
        if math.dist(m.pos, now[-1]) < 0.01:  # a base stopped short ends its move there
            rest.append([mid, [list(p) for p in later]])
            # it is moving at the rate of its whole move (SWOMP "Movement bonus")
            whole = float(core.act(m)["moved"]) + table.path_cost(ctx, later, TERRAIN["difficult"])
            mv(m)["moved"] = round(whole, 2)
    movers = [state.models[mid] for mid, _ in moves]
    after = {"kind": "move_on", "moves": rest, "facing": cont.get("facing"), "part": True}
    after["offered"] = offered + fire
    sides: dict[str, list[str]] = {}
    for wid in fire:
        sides.setdefault(state.models[wid].side, []).append(wid)
    offer(state, ctx, sides, movers, after, f' as it moves, {at:.1f}" along its way')


CONTINUATIONS["move_on"] = move_on


def drive_watched(state, ctx, v, pts: list[tuple[float, float]], why: str = "moves") -> None:
    """A vehicle's drive, open to overwatch fire at any point of its way (SWOMP
    "Shooting: Overwatch"; SWOMP-I-OVERWATCH-MOMENTS), then at its end."""
    d = driving.start(state, ctx, v, pts)
    if d is None:
        trigger_overwatch(state, ctx, [] if v.removed else [v], None)
        return
    cont = {"kind": "drive_on", "vehicle": v.id, "spd": d.spd, "why": why, "offered": []}
    drive_on(state, ctx, cont, d)


def drive_on(state, ctx, cont: dict, d: driving.Drive | None = None) -> None:
    """Drive on to the first point where an enemy watcher that could not fire at the
    vehicle before may: it stops there, the watcher's side decides, and the rest of the
    drive (its poses from there, swept again) waits as ``cont``. An out-of-control skid
    is not cut."""
    v = state.models[cont["vehicle"]]
    if v.removed:
        return
    spd = float(cont["spd"])
    if d is None:
        d = driving.sweep(state, ctx, v, [tuple(p) for p in cont["poses"]], spd)
        if d is None:
            trigger_overwatch(state, ctx, [v], None)
            return
    offered = list(cont["offered"])
    path = driving.way(d)
    shot = None
    if not d.lost and watch.watchers_of(state, v.side, offered):
        shot = watch.first_shot(state, ctx, {v.id: path}, offered)
    if shot is None:
        driving.arrive(state, ctx, v, d, str(cont["why"]))
        trigger_overwatch(state, ctx, [v], None)
        return
    at, fire = shot
    cut = watch.split(path, at)[0][-1]
    v.x, v.y = round(cut[0], 2), round(cut[1], 2)
    v.facing = round(watch.heading_at(path, at, v.facing), 2)
    ctx.log.emit(
        "move",
        f'{v.id} {cont["why"]} at {spd:g}": {at:.1f}" of its way, to ({v.x:.2f}, {v.y:.2f})',
        actor=v.id,
        rule=vehicles.R_MOVE,
        data={"to": [v.x, v.y], "speed": spd},
    )
    rest = [[v.x, v.y, v.facing], *[list(p) for p in _poses_after(d.poses, at)]]
    after = {**cont, "poses": rest, "offered": offered + fire}
    sides: dict[str, list[str]] = {}
    for wid in fire:
        sides.setdefault(state.models[wid].side, []).append(wid)
    offer(state, ctx, sides, [v], after, f' as it drives, {at:.1f}" along its way')


CONTINUATIONS["drive_on"] = drive_on


def _poses_after(poses: list[tuple[float, float, float]], s: float) -> list[tuple]:
    """The poses of a drive that lie beyond distance ``s`` along its way."""
    out, walked = [], 0.0
    for a, b in zip(poses, poses[1:]):
        walked += math.dist(a[:2], b[:2])
        if walked > s + 1e-9:
            out.append(b)
    return out


def check_turn(state, ctx, action: Turn, ms, unit) -> list[str]:
    out = []
    for m in ms:
        if core.is_vehicle(m):
            out.append(f"{m.id} is a vehicle: it turns only as it moves ({vehicles.R_MOVE})")
        elif core.engaged(m):
            out.append(f"{m.id} is in close combat")
        elif mv(m).get("overwatch"):
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
