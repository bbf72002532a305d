"""Compulsory moves the switches make: flinching and running for cover, routing to the
table edge, a stupid model's wander.

Why through the physics service: these moves are the rules' and not the player's, so
they go straight along one line and stop at the first base or impassable feature, the
same way a player's move would; the table edge ends a rout.
"""

from __future__ import annotations

import math

from engine.physics import Physics
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters.options.common import say

Point = tuple[float, float]
#: terrain classes that give cover to a model behind or in them (GM-COVER's kinds)
COVER_CLASSES = ("tall", "area", "line")


def _physics(state: GameState, ctx: Context) -> Physics:
    live = state.live()
    key = tuple((m.id, m.x, m.y, m.facing, str(m.base)) for m in live)
    return ctx.table.synced(key, lambda: {m.id: footprint(m) for m in live})


def _nearest_on_segment(p: Point, a: Point, b: Point) -> Point:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / L))
    return (ax + t * dx, ay + t * dy)


def nearest_cover(ctx: Context, p: Point) -> Point | None:
    """The nearest point of the edge of any terrain that gives cover (None: none)."""
    best: tuple[float, Point] | None = None
    for f in ctx.battlefield.terrain:
        if f.cls not in COVER_CLASSES:
            continue
        poly = f.polygon
        for i in range(len(poly)):
            q = _nearest_on_segment(p, poly[i], poly[(i + 1) % len(poly)])
            d = math.dist(p, q)
            if best is None or d < best[0]:
                best = (d, q)
    return None if best is None else best[1]


def nearest_edge(ctx: Context, p: Point, away_from: Point | None = None) -> Point:
    """The point of the nearest table edge that lies away from ``away_from`` (the
    nearest enemy), else of the nearest edge (GM-I-EDGE)."""
    w, h = ctx.battlefield.width, ctx.battlefield.depth
    edges = [(p[0], (0.0, p[1])), (w - p[0], (w, p[1])), (p[1], (p[0], 0.0)), (h - p[1], (p[0], h))]
    if away_from is not None:
        ax, ay = p[0] - away_from[0], p[1] - away_from[1]
        away = [e for e in edges if (e[1][0] - p[0]) * ax + (e[1][1] - p[1]) * ay > 1e-9]
        edges = away or edges
    return min(edges)[1]


def move_toward(
    state: GameState, ctx: Context, m: Model, goal: Point, inches: float, rule: str, why: str
) -> float:
    """Move ``m`` up to ``inches`` straight toward ``goal`` (stopping at bases and
    impassable terrain); the inches travelled."""
    d = math.dist(m.pos, goal)
    if d < 1e-6 or inches <= 0:
        return 0.0
    k = min(1.0, inches / d)
    end = (m.x + (goal[0] - m.x) * k, m.y + (goal[1] - m.y) * k)
    res = _physics(state, ctx).move(m.id, [end])
    if math.dist(res.end, m.pos) > 1e-9:
        m.facing = ctx.table.bearing(m.pos, res.end)
    m.x, m.y = res.end
    ctx.table.unsync()
    say(ctx, f'{m.id} {why} {res.travelled:.1f}"', m.id, rule, "moved")
    return float(res.travelled)


def flee(
    state: GameState, ctx: Context, m: Model, inches: float, rule: str, to_edge: bool = False
) -> bool:
    """Run ``inches`` toward the nearest cover (or the nearest table edge when
    ``to_edge`` or there is no cover); True when the model left the table."""
    cover = None if to_edge else nearest_cover(ctx, m.pos)
    held = measure.foes_in_contact(state, m)
    foes = [e for e in state.live() if e.side != m.side]
    enemy = min(foes, key=lambda x: (measure.gap(m, x), x.id)).pos if foes else None
    goal = cover if cover is not None else nearest_edge(ctx, m.pos, enemy)
    if cover is None and math.dist(m.pos, goal) <= inches:
        m.removed = True
        say(ctx, f"{m.id} leaves the table: out of the game", m.id, rule, "fled")
        return True
    what = "runs for cover" if cover is not None else "runs for the table edge"
    move_toward(state, ctx, m, goal, inches, rule, what)
    offer_pursuit(state, m, held)
    return False


#: the decision a foe left behind by a fleeing model answers (GM-PURSUIT)
PURSUIT_KIND = "gemini_pursuit"


def offer_pursuit(state: GameState, m: Model, held: list[Model]) -> None:
    """GM-PURSUIT: each foe a routing model (or one running for cover) has just left in
    close combat may pursue it; its side is asked (``options.pursuit`` answers)."""
    if not switches.of(state).pursuit or m.removed:
        return
    if not {"routing", "running_for_cover"} & set(m.status):
        return
    for foe in held:
        if foe.removed or measure.in_contact(foe, m) or "pursuing" in foe.status:
            continue
        state.pending.append(
            {
                "side": foe.side,
                "kind": PURSUIT_KIND,
                "text": f"{m.id} flees from {foe.id}: pursue or stay?",
                "options": ["pursue", "stay"],
                "verbs": ["choose"],
                "data": {"pursuer": foe.id, "quarry": m.id},
            }
        )
