"""A trooper's move: how far it may go this action, what stops it, and moving it with
the physics service (SWOMP "Actions"; "Heavy weapons"; "Movement"; SWOMP-I-TERRAIN,
SWOMP-I-COHERENCY, SWOMP-I-BROKEN).

Why apart: the move verb, the AI's list of choices and the shooting check all ask the
same questions (how far may this model still move, how far may it have moved and
still shoot); a vehicle's speed rules are checked here too so one ``move_problems``
answers for any model, while its driving lives in driving.py.
"""

from __future__ import annotations

import math

from engine.actions import Move
from engine.battlefield import base_radius_in, base_size_in
from engine.ruleset import TOO_FAR, TOO_SHORT, Context, Reason
from engine.state import GameState, Model

from ..state import mv
from . import core, hatch, melee, morale, table, vehicles
from .catalog import TERRAIN

R_ACTIONS = "SWOMP-ACTIONS"
R_HEAVY = "SWOMP-HEAVY"
R_OVERWATCH = "SWOMP-OVERWATCH"
R_BROKEN = "SWOMP-BROKEN"
EPS = 1e-6
#: A move stopped this close to its end (inches) counts as complete: it ends touching.
BLOCK_SLACK = 0.05


def allowance(m: Model) -> tuple[float, str]:
    """How far a trooper may still move this action, and why (SWOMP "Actions")."""
    a = core.act(m)
    base = core.mr(m)
    if a["follow"] > 0:
        return float(a["follow"]), "follow-up move, half MR"
    if a["clearing"] and not a["shot"]:
        # "the model may make a normal move" while clearing a jam: a heavy weapon's
        # normal move is its MR (it does not shoot), as a trooper's after acting
        return base, "clearing a jam: a normal move, 1 x MR"
    if a["shot"]:
        if core.heavy(m):
            return base / 2, "heavy weapon after shooting, half MR"
        return base, "after shooting, 1 x MR"
    if core.heavy(m):
        return base, "heavy weapon, Move only: 1 x MR"
    return 2 * base, "Move only: 2 x MR (no shooting after more than 1 x MR)"


def shoot_limit(m: Model) -> float:
    """The farthest a trooper may have moved and still shoot this action."""
    return core.mr(m) / 2 if core.heavy(m) else core.mr(m)


def nearest_enemy(state: GameState, m: Model, at: tuple[float, float] | None = None) -> float:
    ghost = m if at is None else Model.from_dict({**m.to_dict(), "x": at[0], "y": at[1]})
    ds = [table.distance(ghost, e) for e in state.live() if e.side != m.side]
    return min(ds) if ds else math.inf


def move_problems(
    state: GameState,
    ctx: Context,
    m: Model,
    pts: list[tuple[float, float]],
    unit_move: bool = False,
) -> list[str]:
    a = core.act(m)
    if core.is_vehicle(m):
        return vehicle_move_problems(state, ctx, m, pts)
    if core.engaged(m):
        return [f"{m.id} is in close combat: it may fight or retreat ({melee.R_CC})"]
    if mv(m).get("overwatch"):
        return [f"{m.id} is on overwatch and may not move ({R_OVERWATCH})"]
    r: list[str] = []
    if a["follow"] <= 0:
        if a["moves"]:
            r.append(f"{m.id} has already moved this action")
        if a["stood"]:
            r.append(
                f"{m.id} stood still to shoot (+1 PR): it may not move this action ({R_ACTIONS})"
            )
        if a["fought"]:
            r.append(f"{m.id} fought this action")
    if r:
        return r
    cost = table.path_cost(ctx, pts, TERRAIN["difficult"])
    lim, why = allowance(m)
    if cost > lim + EPS:
        r.append(
            Reason(
                f'{m.id} may move {lim:g}" ({why}), not {cost:.1f}" '
                f"({R_HEAVY if core.heavy(m) else R_ACTIONS})",
                TOO_FAR,
                distance=cost,
                limit=lim,
            )
        )
    end = pts[-1]
    if not ctx.battlefield.on_table(*end):
        r.append(f"({end[0]:g}, {end[1]:g}) is off the table")
    foe = foe_on_path(state, m, pts)
    if foe is not None:
        r.append(
            f"the move would end in base contact with {foe.id}: moving into contact is a "
            f"charge, with its combat: use charge (SWOMP-CHARGE)"
        )
    if foe is None and not r:
        r += path_blocked(state, ctx, m, pts, unit_move)
    if (
        morale.broken(state, m.unit)
        and nearest_enemy(state, m, end) < nearest_enemy(state, m) - EPS
    ):
        r.append(f"{m.unit} is broken: it may not move closer to the enemy ({R_BROKEN})")
    if not unit_move and not r:
        why_not = morale.coherency_problem(state, m, end)
        if why_not:
            r.append(why_not)
    return r


def foe_on_path(state: GameState, m: Model, pts: list[tuple[float, float]]) -> Model | None:
    """The first enemy the moving base would touch on its path (the physics service stops
    a base at its first contact), or None. Why: "when a model moves into base-to-base
    contact with another model, this is called charging" (SWOMP "Close Combat"), so a
    plain move may not end there."""
    best: tuple[float, Model] | None = None
    rad = _reach(m)
    foes = [
        e
        for e in state.live()
        if e.side != m.side and e.id != m.id and table.distance(m, e) > melee.CONTACT
    ]
    run = 0.0
    for a, b in zip(pts, pts[1:]):
        seg = math.dist(a, b)
        if seg < 1e-9:
            continue
        for e in foes:
            t = ((e.x - a[0]) * (b[0] - a[0]) + (e.y - a[1]) * (b[1] - a[1])) / (seg * seg)
            t = max(0.0, min(1.0, t))
            q = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
            if math.dist(q, e.pos) > rad + _reach(e) + melee.CONTACT:
                continue
            ghost = Model.from_dict({**m.to_dict(), "x": q[0], "y": q[1]})
            if table.distance(ghost, e) <= melee.CONTACT:
                at = run + t * seg
                if best is None or at < best[0]:
                    best = (at, e)
        if best is not None:
            return best[1]
        run += seg
    return None


def path_blocked(
    state: GameState, ctx: Context, m: Model, pts: list[tuple[float, float]], unit_move: bool
) -> list[str]:
    """Refuse a move the physics service would stop short: the check asks the same swept
    move that apply makes, so what is allowed goes the whole way (SWOMP-I-PATH). A unit
    moving as one ignores its own models, which move with it, front first. A gunner
    out of his hatch may walk up to his own vehicle: touching it, he climbs back in."""
    if len(pts) < 2:
        return []
    melee.sync(state, ctx)
    mates = [o.id for o in state.live() if unit_move and o.unit == m.unit and o.id != m.id]
    res = ctx.physics.move(m.id, pts[1:], ignore=mates)
    full = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    if res.complete or full - res.travelled <= BLOCK_SLACK:
        return []
    if res.blocked_by == mv(m).get("crew_of"):
        return []
    return [
        f'{m.id}\'s path meets {res.blocked_by} after {res.travelled:.1f}" of {full:.1f}": '
        f"go round it (SWOMP-I-PATH)"
    ]


def _reach(e: Model) -> float:
    """Centre to farthest base edge, inches (a box's half-diagonal)."""
    if isinstance(e.base, (tuple, list)):
        w, d = base_size_in(e.base)
        return math.hypot(w, d) / 2
    return base_radius_in(e.base)


def vehicle_move_problems(
    state: GameState, ctx: Context, v: Model, pts: list[tuple[float, float]]
) -> list[str]:
    a = core.act(v)
    if a["moves"]:
        return [f"{v.id} has already moved this action"]
    if "crew_out" in mv(v).get("effects", []):
        return [f"{v.id}'s crew is out of action: it coasts ({vehicles.R_DAMAGE})"]
    lo, hi = vehicles.speed_range(v)
    length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    r: list[str] = []
    if length < lo - 0.05 or length > hi + 0.05:
        r.append(
            Reason(
                f'{v.id} is moving at {vehicles.speed(v):g}": this action it must move '
                f'{lo:g}" to {hi:g}" (speed changes by its acceleration), not {length:.1f}" '
                f"({vehicles.R_MOVE})",
                TOO_FAR if length > hi + 0.05 else TOO_SHORT,
                distance=length,
                limit=hi,
                least=lo,
            )
        )
    if not ctx.battlefield.on_table(*pts[-1]):
        r.append(f"({pts[-1][0]:g}, {pts[-1][1]:g}) is off the table")
    return r


def do_move(
    state: GameState,
    ctx: Context,
    m: Model,
    pts: list[tuple[float, float]],
    facing: float | None,
    part: bool = False,
) -> None:
    """Move along the path with the physics service: the base stops at its first
    contact; the inches spent (difficult ground counted twice) are what it moved.
    ``part``: the rest of a move overwatch fire interrupted, not a new move."""
    melee.sync(state, ctx)
    r = ctx.physics.move(m.id, pts[1:])
    full = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    cost = table.path_cost(ctx, pts, TERRAIN["difficult"])
    spent = cost * (r.travelled / full) if full > 0 else 0.0
    start = m.pos
    m.x, m.y = round(r.end[0], 2), round(r.end[1], 2)
    if facing is not None:
        m.facing = float(facing) % 360
    elif math.dist(start, m.pos) > 1e-6:
        m.facing = round(table.bearing(pts[-2] if len(pts) > 1 else start, pts[-1]), 1)
    a = core.act(m)
    if part:
        pass
    elif a["follow"] > 0:
        a["follow"] = 0.0
    else:
        a["moves"] = int(a["moves"]) + 1
    a["moved"] = round(float(a["moved"]) + spent, 2)
    mv(m)["moved"] = a["moved"]
    stop = "" if r.complete else f", stopped by {r.blocked_by}"
    ctx.log.emit(
        "move",
        f'{m.id} moves {r.travelled:.1f}" to ({m.x:.2f}, {m.y:.2f}){stop}',
        actor=m.id,
        rule=R_ACTIONS,
        data={"to": [m.x, m.y], "moved": a["moved"]},
    )
    if "crew_of" in mv(m):
        hatch.climb_back(state, ctx, m)


def unit_paths(ms: list[Model], action: Move) -> dict[str, list[tuple[float, float]]]:
    """A unit moving as one: every model follows the leader's path at its own offset."""
    lead = ms[0]
    lp = list(action.waypoints(lead.pos))
    out = {}
    for m in ms:
        dx, dy = m.x - lead.x, m.y - lead.y
        out[m.id] = [(round(x + dx, 2), round(y + dy, 2)) for x, y in lp]
    out[lead.id][0] = lead.pos
    return out
