"""The verbs about vehicles: ramming, and another model taking the turret gunner's
place (SWOMP "Ramming and Collisions"; "Exposed crewmen/riders"; SWOMP-I-RAM,
SWOMP-I-MAN).

Why apart: a ram is a drive aimed at a model (the check measures the drive like any
vehicle move, driving.py does it); manning a hatch is hatch.py's bookkeeping.
"""

from __future__ import annotations

from ..actions import Man, Ram
from . import core, hatch, table, vehicles
from .driving import R_RAM, ram_path
from .move_verbs import drive_watched
from .movement import EPS, vehicle_move_problems


def check_ram(state, ctx, action: Ram, ms, unit) -> list[str]:
    if len(ms) != 1 or not core.is_vehicle(ms[0]):
        return ["only a vehicle rams"]
    v = ms[0]
    t = state.models.get(action.target)
    if t is None or t.removed or t.id == v.id:
        return [f"no target '{action.target}' on the table"]
    lo, hi = vehicles.speed_range(v)
    spd = hi if action.speed is None else float(action.speed)
    r = vehicle_move_problems(state, ctx, v, ram_path(v, t, spd))
    if not r:
        d = table.distance(v, t)
        if d > spd + EPS:
            r.append(f'{t.id} is {d:.1f}" away, beyond {spd:g}" this action ({R_RAM})')
    return r


def apply_ram(state, ctx, action: Ram, ms, unit) -> None:
    v = ms[0]
    t = state.models[action.target]
    _, hi = vehicles.speed_range(v)
    spd = hi if action.speed is None else float(action.speed)
    drive_watched(state, ctx, v, ram_path(v, t, spd), why=f"drives at {t.id}")


def check_man(state, ctx, action: Man, ms, unit) -> list[str]:
    if len(ms) != 1:
        return ["one model takes the gunner's place: name the model, not its unit"]
    return hatch.man_problems(state, ms[0], state.models.get(action.target), action.location)


def apply_man(state, ctx, action: Man, ms, unit) -> None:
    m, v = ms[0], state.models[action.target]
    crew = action.location or hatch.open_hatches(v)[0]
    hatch.board(state, ctx, m, v, crew, "takes the gunner's place in")
