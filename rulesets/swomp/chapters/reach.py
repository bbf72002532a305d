"""The path of a charge: where the charger ends in base contact, whether the way there
is open, and what it costs (SWOMP "Charging"; "Terrain ... may also affect movement";
SWOMP-I-CHARGE, SWOMP-I-TERRAIN).

Why apart: a charge is a move, so it pays for difficult ground like any move and is
stopped by what stops any move; the legality check and the charge itself must measure
it the same way, or a charge the window offered could fail when taken. Both call
``reach`` here. The contact spot comes from the physics service's packing, the path
from the charger's centre through any waypoints it gave to that spot, swept by the
physics service (impassable terrain, the table edge and bases other than the target and
fellow chargers stop it), and the cost from ``table.path_cost`` (difficult ground
double).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from engine.battlefield import base_radius_in
from engine.polygons import lerp, path_prefix
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint

from . import table
from .catalog import TERRAIN

R_CHARGE = "SWOMP-CHARGE"
Point = tuple[float, float]


@dataclass(frozen=True)
class Reach:
    """A charger's way into contact: ``why`` is empty when it gets there."""

    spot: Point | None
    path: tuple[Point, ...]
    cost: float
    why: str = ""

    @property
    def ok(self) -> bool:
        return self.spot is not None and not self.why


def slack(t: Model) -> float:
    """Sliding round the target's base to a free contact spot may take the charger a
    little beyond the edge gap it measured: up to a quarter of the target's base width
    (SWOMP-I-CHARGE)."""
    return 0.5 * base_radius_in(t.base) + 0.02


def short_by(gap: float) -> str:
    """The shortfall as a tape measure reads it: a hair's breadth still shows."""
    return f"{gap:.2f}" if gap < 0.05 else f"{gap:.1f}"


def sync(state: GameState, ctx: Context) -> None:
    ctx.physics.sync({m.id: footprint(m) for m in state.live()})


def contact_spot(
    state: GameState, ctx: Context, c: Model, t: Model, via: Sequence[Point] = ()
) -> Point | None:
    """Where ``c`` alone would touch ``t``: the free contact spot nearest to the last
    point it comes from."""
    sync(state, ctx)
    came = (via[-1][0], via[-1][1]) if via else c.pos
    return ctx.physics.place_in_contact(t.id, [c.id], {c.id: came}).get(c.id)


def reach(
    state: GameState,
    ctx: Context,
    c: Model,
    t: Model,
    limit: float,
    via: Sequence[Point] = (),
    spot: Point | None = None,
    movers: Sequence[str] = (),
) -> Reach:
    """Measure ``c``'s charge at ``t`` with ``limit`` inches to spend. Read-only on the
    game state (the physics service only proposes), so ``check`` may call it."""
    if spot is None:
        spot = contact_spot(state, ctx, c, t, via)
    else:
        sync(state, ctx)
    if spot is None:
        return Reach(None, (), 0.0, f"there is no room for {c.id} in base contact with {t.id}")
    pts = (c.pos, *[(p[0], p[1]) for p in via], (round(spot[0], 2), round(spot[1], 2)))
    r = ctx.physics.move(c.id, pts[1:], ignore=[t.id, *movers])
    if not r.complete and math.dist(r.end, pts[-1]) > 0.05:
        return Reach(
            spot,
            pts,
            0.0,
            f"{c.id}'s charge at {t.id} is blocked by {r.blocked_by} after "
            f'{r.travelled:.1f}": it cannot reach base contact (give a path round it) '
            f"({R_CHARGE})",
        )
    cost = table.path_cost(ctx, list(pts), TERRAIN["difficult"])
    room = limit + slack(t)
    if cost > room + 1e-6:
        return Reach(
            spot,
            pts,
            cost,
            f'{c.id} cannot reach {t.id}: the way into contact costs {cost:.1f}" '
            f'(difficult ground counts double) and it may charge {limit:g}": '
            f'{short_by(cost - room)}" short ({R_CHARGE})',
        )
    return Reach(spot, pts, cost)


def within(ctx: Context, pts: Sequence[Point], budget: float) -> list[Point]:
    """The start of the path ``pts`` that costs at most ``budget`` inches (difficult
    ground double, as ``table.path_cost`` counts it): how far a charger that cannot
    reach its spot gets on its way there (SWOMP-I-CHARGE)."""
    diff = TERRAIN["difficult"]
    out = [(pts[0][0], pts[0][1])]
    spent = 0.0
    for a, b in zip(pts, pts[1:]):
        leg = table.path_cost(ctx, [a, b], diff)
        if spent + leg <= budget + 1e-9:
            out.append((b[0], b[1]))
            spent += leg
            continue
        lo, hi = 0.0, 1.0
        for _ in range(24):
            mid = (lo + hi) / 2
            if spent + table.path_cost(ctx, [a, lerp(a, b, mid)], diff) <= budget + 1e-9:
                lo = mid
            else:
                hi = mid
        q = lerp(a, b, lo)
        out.append((round(q[0], 2), round(q[1], 2)))
        break
    return out


prefix = path_prefix
