"""Jumping (UMR-MOVEMENT, UMR-I-JUMP): several dice added into one straight leap over
water and rough ground.
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState
from rulesets.umr.actions import Jump
from rulesets.umr.chapters import common, measure
from rulesets.umr.chapters.climbing import _drop_first
from rulesets.umr.chapters.terrain import table
from rulesets.umr.chapters.walking import (
    _go,
    _leave_melee,
    _path_problems,
    _roll_move,
    _six_text,
    _spend_n,
    _start,
    move_mods,
)


def check_jump(state: GameState, a: Jump, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    n = a.count or common.dice_for(state, m, "move")
    if a.count < 0:
        return why + ["a jump adds 1 or more dice"]
    why = _start(state, m, n=max(1, n))
    if a.to is None:
        return why + ["a jump needs `to`: where the model leaps"]
    why += _path_problems(ctx, [m.pos, a.to])
    return why + _leave_melee(state, m)


def apply_jump(state: GameState, a: Jump, ctx: Context) -> None:
    """Jump (UMR-MOVEMENT, UMR-I-JUMP): the dice are added, +MOVE once, -1 when taking
    off from rough ground; the model leaps in a straight line over water and rough ground
    and lands where the total runs out (in the water if it falls short of the far bank)."""
    m = state.models[a.actor]
    common.start(state, m)
    if not _drop_first(state, ctx, m):
        return
    assert a.to is not None
    n = a.count or common.dice_for(state, m, "move")
    idx = table(ctx)
    rough = idx.in_rough(m.pos)
    mods = move_mods(m, rough.id if rough else None)
    dist = math.dist(m.pos, a.to)
    srcs = _spend_n(m, n)
    total, faces, sixes = _roll_move(ctx, m, f"jump ({n} dice added)", mods, n, srcs, None)
    travelled, _, blocked, reached = _go(state, ctx, m, [m.pos, a.to], total, airborne=True)
    txt = (
        f"{m.id} jumps: {n}d6 {' + '.join(map(str, faces))}{common.mods_text(mods)} = "
        f'{total}" toward a {dist:.1f}" leap; goes {travelled:.1f}"'
    )
    if blocked:
        txt += f", stopped by {blocked}"
    elif reached:
        txt += " and lands on the spot"
    else:
        txt += " and falls short"
        if measure.swimming(ctx, m):
            txt += " into the water, swimming (UMR-SWIMMING)"
    ctx.log.emit(
        "move",
        txt + f"; UMR-MOVEMENT{_six_text(m, sixes)}",
        actor=m.id,
        rule="UMR-MOVEMENT",
        rolls=faces,
        outcome="reached" if reached else "short",
        data={"to": [m.x, m.y], "inches": round(travelled, 2), "dice": n},
    )
    common.after_die_action(state, m)
    measure.refresh_status(ctx, m)
