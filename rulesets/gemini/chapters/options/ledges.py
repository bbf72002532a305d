"""Ledges (GM-LEDGE, GM-I-LEDGE): where a model stands near the edge of a raised hill,
and the fall off it.

Why its own module: two rules throw a model off a ledge — a heavy hit near one
(``frozen_pinned``, from the shooting) and going down, knocked down or stunned near one
(the injury charts, from the wounds) — and both need the same edge and the same drop.
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import switches
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options.common import report_all, say

#: inches from a ledge within which a heavy hit may throw a model off (GM-FROZEN-PINNED)
LEDGE_REACH = 1.0
#: inches from the top of a ledge within which a model going down may fall (GM-LEDGE)
DOWN_REACH = 2.0
#: how far outside the ledge a fallen model lands (clear of the hill's edge)
LEDGE_DROP = 0.1
#: the injury statuses whose gaining near a ledge calls the test (GM-LEDGE)
DOWNED = ("down", "knocked_down", "stunned")


def radius(m: Model) -> float:
    b = m.base
    size = max(b) if isinstance(b, (list, tuple)) else float(b)
    return size / 25.4 / 2


def ledge_edge(ctx: Context, m: Model, reach: float = LEDGE_REACH) -> tuple[float, float] | None:
    """The nearest point of the ledge ``m`` stands within ``reach`` of: the edge of a
    hill with a height that it stands on (GM-I-LEDGE). None: no ledge near."""
    from rulesets.gemini.chapters.options.moving import _nearest_on_segment

    hill = ctx.table.feature_at(m.pos, ("hill",))
    if hill is None or hill.height <= 0:
        return None
    poly = hill.polygon
    edges = [
        _nearest_on_segment(m.pos, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))
    ]
    q = min(edges, key=lambda p: math.dist(p, m.pos))
    return q if math.dist(q, m.pos) - radius(m) <= reach + 1e-9 else None


def drop(ctx: Context, m: Model, edge: tuple[float, float]) -> None:
    """Set ``m`` down just outside the ledge, beyond the edge point nearest it."""
    d = math.dist(m.pos, edge) or 1.0
    out = radius(m) + LEDGE_DROP
    m.x, m.y = edge[0] + (edge[0] - m.x) / d * out, edge[1] + (edge[1] - m.y) / d * out
    ctx.table.unsync()


def downed_fall(state: GameState, ctx: Context, t: Model, before: set[str]) -> bool:
    """GM-LEDGE (GM-I-LEDGE): a model that has just gone down, knocked down or stunned
    within 2" of the top of a ledge passes a d6 Initiative test or falls off, staying as
    it is at the bottom (no hit for the fall: it is already at 0 W). True when it fell."""
    if switches.of(state).injuries == "none" or t.removed:
        return False
    if not any(s in t.status and s not in before for s in DOWNED):
        return False
    edge = ledge_edge(ctx, t, DOWN_REACH)
    if edge is None:
        return False
    test = N.ledge_test(ctx.dice, t)
    report_all(ctx, test.rolls, t.id)
    if test.passed:
        return False
    drop(ctx, t, edge)
    state_word = next(s for s in DOWNED if s in t.status).replace("_", " ")
    say(ctx, f"{t.id} falls off the ledge, {state_word} at its foot", t.id, N.R_LEDGE, "fell")
    return True
