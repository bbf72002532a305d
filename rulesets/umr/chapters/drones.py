"""The drones a drone operator brings (UMR-DRONE, UMR-I-DRONES): placed beside him
before the first round when the scenario does not place them.

Why apart: drones join the table at setup, before any round is played.
"""

from __future__ import annotations

import math

from engine.polygons import polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr.build import DRONE_DICE, DRONE_HEALTH, DRONES_PER_OPERATOR
from rulesets.umr.chapters import action_dice
from rulesets.umr.chapters.abilities import DRONE
from rulesets.umr.chapters.terrain import table
from rulesets.umr.state import mv


def _free(state: GameState, ctx: Context, x: float, y: float, r: float) -> bool:
    bf = ctx.battlefield
    if not (r <= x <= bf.width - r and r <= y <= bf.depth - r):
        return False
    idx = table(ctx)
    for f in idx.tall + idx.water:
        if polygon_distance((x, y), f.polygon) < r + 0.05:
            return False
    from engine.battlefield import base_radius_in

    return all(math.dist((x, y), o.pos) >= r + base_radius_in(o.base) + 0.1 for o in state.live())


def place_drones(state: GameState, ctx: Context) -> None:
    """An operator with fewer than two drones in the scenario gets the rest placed beside
    him before the first round (UMR-I-DRONES); the scenario may place them anywhere."""
    from engine.battlefield import base_radius_in

    for op in [m for m in state.live() if m.stats.get("ability") == "drone_operator"]:
        have = [
            d
            for d in state.models.values()
            if d.stats.get("ability") == DRONE and mv(d).get("operator") == op.id
        ]
        for k in range(len(have), DRONES_PER_OPERATOR):
            did = f"{op.id}-drone{k + 1}"
            while did in state.models:
                did += "x"
            r = 25.0 / 25.4 / 2
            spot = None
            for ring in range(1, 8):
                dist = base_radius_in(op.base) + r + 0.25 + (ring - 1) * 1.2
                for step in range(16):
                    ang = math.pi / 2 + step * math.pi / 8
                    x, y = op.x + dist * math.cos(ang), op.y + dist * math.sin(ang)
                    if _free(state, ctx, x, y, r):
                        spot = (round(x, 2), round(y, 2))
                        break
                if spot:
                    break
            if spot is None:
                ctx.log.emit(
                    "note",
                    f"no room to place {op.id}'s drone {k + 1}",
                    actor=op.id,
                    rule="UMR-DRONE",
                )
                continue
            d = Model(
                id=did,
                side=op.side,
                unit=did,
                x=spot[0],
                y=spot[1],
                facing=op.facing,
                base=25.0,
                profile="drone",
                stats={"AD": DRONE_DICE, "ability": DRONE},
                hp=DRONE_HEALTH,
                max_hp=DRONE_HEALTH,
                vars={"operator": op.id},
            )
            action_dice.init_vars(d)
            state.models[did] = d
            ctx.log.emit(
                "status",
                f"{op.id} places {did} at ({spot[0]:g}, {spot[1]:g}): one "
                f"action die, {DRONE_HEALTH} health (UMR-DRONE)",
                actor=op.id,
                target=did,
                rule="UMR-DRONE",
                outcome="drone placed",
            )
