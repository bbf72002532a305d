"""Vehicles on the move: driving a path at a new speed, turning beyond the allowance,
coasting, and ramming whatever is met first (SWOMP "Movement, turning, and
acceleration"; "Ramming and Collisions"; SWOMP-I-TURNS, SWOMP-I-RAM).

Why apart: a vehicle's move is not a trooper's (its length is its new speed, it turns
only as it moves, and the first base it meets is rammed); the move verb, the ram verb
and the end of an action (a vehicle that did not move coasts) all drive through here.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from engine.battlefield import base_radius_in, base_size_in
from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import contest, core, melee, shooting, table, vehicles
from .catalog import TERRAIN

R_RAM = "SWOMP-RAM"


class Met(NamedTuple):
    """Where a skid ends and what it met there (the fields a physics sweep reports)."""

    pose: tuple[float, float, float]
    hit: str | None
    hit_kind: str | None


def poses_along(v: Model, pts: list[tuple[float, float]]) -> list[tuple[float, float, float]]:
    """Poses for the physics sweep: at each waypoint the vehicle turns to the new leg."""
    poses = [(v.x, v.y, v.facing)]
    h = v.facing
    for a, b in zip(pts, pts[1:]):
        if math.dist(a, b) < 1e-9:
            continue
        h = table.bearing(a, b)
        poses.append((a[0], a[1], h))
        poses.append((b[0], b[1], h))
    return poses


class Drive(NamedTuple):
    """A drive under way: its new speed, the poses swept, the last clear pose and what it
    met there (``leg``: the leg of ``poses`` it met it on), and a lost control test's
    result ('' if none)."""

    spd: float
    poses: list[tuple[float, float, float]]
    met: Met
    leg: int
    lost: str


def drive(
    state: GameState, ctx: Context, v: Model, pts: list[tuple[float, float]], why: str = "moves"
) -> list[Model]:
    """Drive a vehicle along a path at the path's length as its new speed; a turn beyond
    the speed's allowance needs a control test; the first model met is rammed, the
    first terrain or table edge stops it (SWOMP "Ramming and Collisions")."""
    d = start(state, ctx, v, pts)
    if d is None:
        return [] if v.removed else [v]
    arrive(state, ctx, v, d, why)
    return [v]


def start(state: GameState, ctx: Context, v: Model, pts: list[tuple[float, float]]) -> Drive | None:
    """Set the drive's speed, test for control if it turns too hard, and sweep its way;
    None if the vehicle does not go anywhere (destroyed, spinning, no way)."""
    spd = round(sum(math.dist(p, q) for p, q in zip(pts, pts[1:])), 2)
    turned = vehicles.heading_change(v.facing, pts)
    allowed = vehicles.turn_allowance(v, spd)
    a = core.act(v)
    a["moves"] = int(a["moves"]) + 1
    mv(v)["speed"] = spd
    mv(v)["moved"] = spd
    a["moved"] = spd
    lost = ""
    if turned > allowed + 0.5:
        lost = vehicles.control_test(
            state,
            ctx,
            v,
            f'turned {turned:.0f}\u00b0, {allowed:g}\u00b0 allowed at {spd:g}"',
            vehicles.control_need(v, turned - allowed),
            shooting.blast,
        )
        if v.removed:
            return None
        if lost in ("skid", "crash", "stall"):
            pts = [pts[0], table.offset(pts[0], v.facing, vehicles.speed(v))]
        elif lost == "spin":
            ctx.log.emit("move", f"{v.id} spins in place", actor=v.id, rule=vehicles.R_CONTROL)
            return None
    return sweep(state, ctx, v, poses_along(v, pts), spd, lost, math.dist(pts[0], pts[-1]))


def sweep(
    state: GameState,
    ctx: Context,
    v: Model,
    poses: list[tuple[float, float, float]],
    spd: float,
    lost: str = "",
    straight: float = 0.0,
) -> Drive | None:
    """Sweep the vehicle through ``poses`` (or skid ``straight`` inches out of control)."""
    melee.sync(state, ctx)
    if len(poses) < 2:
        return None
    res = skid(ctx, v, straight) if lost == "skid" else None
    leg = len(poses) - 1
    if res is None:
        sw = ctx.physics.sweep(v.id, poses)
        res, leg = Met(sw.pose, sw.hit, sw.hit_kind), sw.index
    return Drive(spd, poses, res, leg, lost)


def way(d: Drive) -> list[tuple[float, float]]:
    """The centre's way from the start to the last clear pose (for overwatch)."""
    out: list[tuple[float, float]] = []
    for p in [*d.poses[: max(1, d.leg)], d.met.pose]:
        if not out or math.dist(out[-1], p[:2]) > 1e-9:
            out.append((p[0], p[1]))
    return out


def arrive(state: GameState, ctx: Context, v: Model, d: Drive, why: str) -> None:
    """Set the vehicle down where its sweep ended, and ram what it met there."""
    res, spd, lost = d.met, d.spd, d.lost
    v.x, v.y, v.facing = round(res.pose[0], 2), round(res.pose[1], 2), round(res.pose[2], 2)
    ctx.log.emit(
        "move",
        f'{v.id} {"skids" if lost == "skid" else why} at {spd:g}" to ({v.x:.2f}, {v.y:.2f})'
        + (f", meeting {res.hit}" if res.hit else ""),
        actor=v.id,
        rule=vehicles.R_MOVE,
        data={"to": [v.x, v.y], "speed": spd},
    )
    if res.hit_kind == "model" and res.hit is not None:
        ram(state, ctx, v, state.models[res.hit], spd)
    elif res.hit is not None:
        if res.hit_kind == "terrain":
            ram_terrain(ctx, v, res.hit, spd)
        mv(v)["speed"] = 0.0
        ctx.log.emit(
            "status",
            f"{v.id} hits {res.hit} and stops",
            actor=v.id,
            target=v.id,
            rule=R_RAM,
            outcome="stopped",
        )
        vehicles.control_test(
            state, ctx, v, f"collision with {res.hit}", core.stat(v, "SR"), shooting.blast
        )


def skid(ctx: Context, v: Model, dist: float) -> Met | None:
    """An out-of-control skid straight on, through the physics service: it glances off
    terrain or the table edge met at 30 degrees or less and stops against anything met
    more steeply; the first model it meets, glancing or not, it rams there (SWOMP-I-SKID).
    None if it meets nothing to glance off (the plain sweep answers the same)."""
    res = ctx.physics.skid(v.id, v.facing, dist)
    if not any(glanced for _h, _k, glanced in res.hits):
        return None
    for i, (hid, kind, _glanced) in enumerate(res.hits):
        if kind == "model" or i == len(res.hits) - 1 and res.stopped_by:
            x, y = res.path[i + 1]
            return Met((x, y, v.facing), hid, kind)
    return Met(res.pose, None, None)


def ram(state: GameState, ctx: Context, v: Model, t: Model, spd: float) -> None:
    """The ramming contest: the vehicle's DR plus speed / 10 (rounded to the nearest)
    against the target's DR and modifiers; a win does 1 damage per full 5 points; a trooper who wins dives aside; two
    vehicles end touching and both test for control."""
    att = contest.side(("DR", core.stat(v, "DR")), ("speed", contest.ram_speed_bonus(spd)))
    if core.is_vehicle(t):
        dfn = contest.side(
            ("DR", core.stat(t, "DR")), ("speed", contest.ram_speed_bonus(vehicles.speed(t)))
        )
    else:
        dfn = contest.side(
            ("DR", core.stat(t, "DR")),
            ("armour", core.stat(t, "AR")),
            ("field", core.stat(t, "FR")),
            ("moving", shooting.move_bonus(t)),
        )
    res = contest.roll(ctx, att, dfn, "ramming contest", R_RAM, v.id, t.id)
    dmg = contest.ram_damage(res.margin) if res.won else 0
    ctx.log.emit(
        "resolution",
        f'{v.id} rams {t.id} at {spd:g}": {res.text}: '
        f"{'won by ' + str(max(0, res.margin)) + f', {dmg} damage' if res.won else 'no damage'}",
        actor=v.id,
        target=t.id,
        rule=R_RAM,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome="hit" if res.won else "miss",
        data={"damage": dmg},
    )
    if core.is_vehicle(t):
        if dmg:
            vehicles.damage(state, ctx, t, dmg, None, "rammed", v.id, shooting.blast)
        mv(v)["speed"] = 0.0
        for x in (v, t):
            if not x.removed:
                vehicles.control_test(
                    state, ctx, x, "collision", core.stat(x, "SR"), shooting.blast
                )
        return
    if res.won:
        if dmg:
            core.wound(state, ctx, t, dmg, f"rammed by {v.id}", R_RAM, v.id)
        return
    dive_aside(state, ctx, v, t)


def ram_terrain(ctx: Context, v: Model, fid: str, spd: float) -> None:
    """Ramming a piece of terrain: the vehicle's DR plus its speed bonus against the
    object's DR (SWOMP "Ramming and Collisions": "the defending model or object uses its
    DR"); a win does 1 damage per full 5 points. Terrain has no hit points in a scenario
    and is never removed, so the damage is told, not kept (SWOMP-I-RAM)."""
    kind = next((f.kind for f in ctx.battlefield.terrain if f.id == fid), "")
    table_dr: dict[str, int] = TERRAIN["ram_dr"]
    dr = int(table_dr.get(kind, table_dr["default"]))
    att = contest.side(("DR", core.stat(v, "DR")), ("speed", contest.ram_speed_bonus(spd)))
    res = contest.roll(ctx, att, contest.side((f"{kind} DR", dr)), "ramming contest", R_RAM, v.id)
    dmg = contest.ram_damage(res.margin) if res.won else 0
    ctx.log.emit(
        "resolution",
        f'{v.id} rams {fid} at {spd:g}": {res.text}: '
        + (f"won by {res.margin}, {dmg} damage to the {kind}" if res.won else "no damage"),
        actor=v.id,
        rule=R_RAM,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome="hit" if res.won else "miss",
        data={"damage": dmg, "terrain": fid},
    )


def dive_aside(state: GameState, ctx: Context, v: Model, t: Model) -> None:
    """The trooper jumps to the side of the vehicle's path (SWOMP "Ramming"): to the
    nearer side if the physics service finds the way there free, else to the other
    side; with no room on either he stays where he is (SWOMP-I-DIVE)."""
    h = math.radians(v.facing)
    ux, uy = math.cos(h), math.sin(h)
    side = (t.x - v.x) * -uy + (t.y - v.y) * ux
    near = 1.0 if side >= 0 else -1.0
    half = base_size_in(v.base)[0] / 2 if isinstance(v.base, tuple) else base_radius_in(v.base)
    clear = half + base_radius_in(t.base) + 0.1
    if clear - abs(side) <= 0:
        return
    melee.sync(state, ctx)
    for sgn in (near, -near):
        need = clear - sgn * side
        dest = (t.x - uy * sgn * need, t.y + ux * sgn * need)
        r = ctx.physics.move(t.id, [dest], ignore=[v.id])
        if r.complete:
            t.x, t.y = round(r.end[0], 2), round(r.end[1], 2)
            ctx.log.emit(
                "move", f"{t.id} dives aside to ({t.x:.2f}, {t.y:.2f})", actor=t.id, rule=R_RAM
            )
            return
    ctx.log.emit(
        "move",
        f"{t.id} has no room to dive aside and stays at ({t.x:.2f}, {t.y:.2f}) (SWOMP-I-DIVE)",
        actor=t.id,
        rule=R_RAM,
    )


def coast(state: GameState, ctx: Context, v: Model) -> None:
    """A vehicle that did not move this action slows as hard as it can, straight on."""
    lo, _ = vehicles.speed_range(v)
    if lo <= 0:
        mv(v)["speed"] = 0.0
        mv(v)["moved"] = 0.0
        return
    drive(state, ctx, v, [v.pos, table.offset(v.pos, v.facing, lo)], why="coasts")


def ram_path(v: Model, t: Model, spd: float) -> list[tuple[float, float]]:
    h = table.bearing(v.pos, t.pos)
    return [v.pos, table.offset(v.pos, h, spd)]
