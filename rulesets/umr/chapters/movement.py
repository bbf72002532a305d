"""Movement (UMR-MOVEMENT): a move or charge spends one action die, rolled in inches; a
jump or a climb adds several dice into one roll. Rough ground takes one inch off a roll,
water is swum at half speed, a climb covers half the dice, and a model that drops from
high up may be hurt (UMR-FALLING).

How a scripted or clicked move plays (designer's interpretation UMR-I-MOVE): the player
names the path first, then the die is rolled, and the model goes as far along that path
as the roll allows (water inches cost two); the physics service stops it at the first
base or wall it touches. Inches the path does not need are lost. So check() can say
whether the move is possible at all without rolling, and odds() gives the exact chance
of reaching the end of the path.

The shared measures live in walking.py, climbing and falling in climbing.py, jumps in
jumps.py; their names are re-exported here for the dispatcher, the odds and the AI.
"""

from __future__ import annotations

import math

from engine.actions import Charge, Move
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr.chapters import action_dice, common, measure
from rulesets.umr.chapters.climbing import (
    CLIMB_REACH,
    _drop_first,
    _route,
    apply_climb,
    check_climb,
    fall,
    pips_needed,
)
from rulesets.umr.chapters.jumps import apply_jump, check_jump
from rulesets.umr.chapters.terrain import Point, table
from rulesets.umr.chapters.walking import (
    _go,
    _leave_melee,
    _move_text,
    _path_problems,
    _radius,
    _roll_move,
    _six_text,
    _start,
    cost_to_rough,
    move_mods,
    reach_chance,
    rough_allowance,
    sync,
)
from rulesets.umr.state import mv

__all__ = [
    "CLIMB_REACH",
    "_route",
    "apply_charge",
    "apply_climb",
    "apply_jump",
    "apply_move",
    "apply_path_move",
    "charge_path",
    "check_charge",
    "check_climb",
    "check_jump",
    "check_move",
    "cost_to_rough",
    "fall",
    "move_mods",
    "pips_needed",
    "reach_chance",
    "rough_allowance",
    "sync",
]


def check_move(state: GameState, a: Move, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    why = _start(state, m)
    if a.mode not in ("", "walk"):
        why.append(
            f"umr moves have no '{a.mode}' mode: a move is one die; use jump or climb "
            f"to add dice together, charge to close with an enemy (UMR-MOVEMENT)"
        )
    why += _path_problems(ctx, a.waypoints(m.pos))
    return why + _leave_melee(state, m)


def charge_path(m: Model, t: Model, given: tuple[Point, ...] = ()) -> list[Point]:
    """The charge's path: the player's waypoints (if any), then straight at the target to
    where the bases touch (the physics service stops the base at the contact)."""
    pts: list[Point] = [m.pos] + [p for p in given if math.dist(p, m.pos) > 1e-9]
    last = pts[-1]
    d = math.dist(last, t.pos)
    if d < 1e-9:
        return pts
    run = (measure.gap(m, t) if len(pts) == 1 else d - _radius(m) - _radius(t)) + 0.05
    if run > 0.05 + 1e-9 or len(pts) == 1:
        ux, uy = (t.x - last[0]) / d, (t.y - last[1]) / d
        pts.append((last[0] + ux * run, last[1] + uy * run))
    return pts


def check_charge(state: GameState, a: Charge, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    why = _start(state, m)
    t = state.models.get(a.target)
    if t is None or t.removed or t.side == m.side:
        return why + [f"'{a.target}' is not an enemy on the table"]
    if measure.in_contact(m, t):
        return why + [f"{m.id} already touches {t.id}: fight instead (UMR-MELEE)"]
    if float(mv(t).get("elev", 0.0)) > 0:
        # a charger up on a feature drops to the ground first (UMR-I-FALL); a target up
        # on one can only be reached by climbing
        why.append(f"{t.id} is up on {mv(t).get('on')}: it cannot be reached on foot")
    if not why:
        path = charge_path(m, t, a.path)
        off = [p for p in path[1:] if not ctx.battlefield.on_table(*p)]
        if off:
            why.append(f"the path leaves the table at ({off[0][0]:g}, {off[0][1]:g})")
        f = table(ctx).tall_on(path)
        if f is not None:
            why.append(
                f"{f.id} ({f.kind}) stands between {m.id} and {t.id}: no straight "
                f"charge (UMR-CLIMBING)"
            )
    return why + _leave_melee(state, m)


def apply_path_move(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    verb: str,
    facing: float | None = None,
) -> None:
    common.start(state, m)
    if not _drop_first(state, ctx, m):
        return
    idx = table(ctx)
    rough = cost_to_rough(idx, path)
    mods = move_mods(m, None)
    cost = idx.cost(path)
    full = move_mods(m, rough[0].id if rough else None)
    chance = reach_chance(sum(x.value for x in full), cost)
    src = action_dice.spend(m, "move")
    rolled, faces, sixes = _roll_move(
        ctx, m, f"movement ({action_dice.source_name(m, src)})", mods, 1, [src], chance
    )
    allowance, paid = rough_allowance(rolled, rough[1] if rough else None)
    if paid:
        mods = full
    travelled, swum, blocked, reached = _go(state, ctx, m, path, allowance)
    if facing is not None:
        m.facing = float(facing)
    length = sum(math.dist(p, q) for p, q in zip(path, path[1:]))
    txt = _move_text(
        m,
        verb,
        f"movement d6 {faces[0]}{common.mods_text(mods)}",
        allowance,
        length,
        cost,
        travelled,
        swum,
        blocked,
        reached,
        chance,
    )
    ctx.log.emit(
        "move",
        txt + _six_text(m, sixes),
        actor=m.id,
        rule="UMR-MOVEMENT",
        chance=float(chance),
        rolls=faces,
        outcome="reached" if reached else "short",
        data={"to": [m.x, m.y], "inches": round(travelled, 2), "die": src},
    )
    common.after_die_action(state, m)
    measure.refresh_status(ctx, m)


def apply_move(state: GameState, a: Move, ctx: Context) -> None:
    m = state.models[a.actor]
    apply_path_move(state, ctx, m, list(a.waypoints(m.pos)), "moves", a.facing)


def apply_charge(state: GameState, a: Charge, ctx: Context) -> None:
    m = state.models[a.actor]
    t = state.models[a.target]
    apply_path_move(state, ctx, m, charge_path(m, t, a.path), f"charges {t.id}")
    if not m.removed and measure.in_contact(m, t):
        ctx.log.emit(
            "status",
            f"{m.id} is in base contact with {t.id}: it may fight (UMR-MELEE)",
            actor=m.id,
            target=t.id,
            rule="UMR-MELEE",
            outcome="contact",
        )
