"""The computer's options and its reading of a position (``options``, ``score``).

Why few options: each model gets a charge at every foe in reach, a full move towards
its nearest foe and one back towards cover from it, a shot with each weapon at its three
nearest foes (the closest-target rule keeps one) and a fight with each foe in contact;
the greedy and search agents then choose by the exact odds and the score.
"""

from __future__ import annotations

import math

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini import build, measure, movement
from rulesets.gemini import tables as T
from rulesets.gemini.options import react_hooks, tasks


def nearest(state: GameState, m: Model, k: int = 1) -> list[Model]:
    foes = [e for e in state.live() if e.side != m.side]
    return sorted(foes, key=lambda e: (math.dist(m.pos, e.pos), e.id))[:k]


def _towards(
    ctx: Context, m: Model, goal: tuple[float, float], inches: float, stop: float
) -> tuple[float, float]:
    """The point a move of ``inches`` allowance reaches going straight at ``goal``,
    ending ``stop`` inches short of it (difficult ground counted)."""
    d = math.dist(m.pos, goal)
    if d <= stop + 0.05:
        return m.pos
    k = (d - stop) / d
    aim = (m.x + (goal[0] - m.x) * k, m.y + (goal[1] - m.y) * k)
    end = ctx.table.walk([m.pos, aim], max(0.0, inches - 0.05), T.DIFFICULT).end
    return (round(end[0], 2), round(end[1], 2))


#: bearings (degrees off the straight line) of the moves that go round a wall or a base
DETOURS = (35.0, -35.0, 90.0, -90.0)


def _around(m: Model, goal: tuple[float, float]) -> list[tuple[float, float]]:
    """The foe's position and points a move's length off to either side of the line to
    it: a straight move stopped by a wall gets nowhere, a detour goes round it."""
    d = math.dist(m.pos, goal)
    if d < 1e-6:
        return [goal]
    base = math.atan2(goal[1] - m.y, goal[0] - m.x)
    out = [goal]
    for off in DETOURS:
        a = base + math.radians(off)
        out.append((m.x + d * math.cos(a), m.y + d * math.sin(a)))
    return out


def _dogleg(
    state: GameState, ctx: Context, m: Model, goal: tuple[float, float], allow: float
) -> list[act.Action]:
    """Two-leg moves: a step to either side, then on toward the foe, so a model behind
    a wall steps round its end (the straight and angled moves stop against it)."""
    d = math.dist(m.pos, goal)
    if d < 1e-6:
        return []
    ux, uy = (goal[0] - m.x) / d, (goal[1] - m.y) / d
    out: list[act.Action] = []
    for side in (1.0, -1.0):
        for step in (allow / 2, allow * 3 / 4):
            a = (round(m.x - uy * side * step, 2), round(m.y + ux * side * step, 2))
            rest = allow - step - 0.05
            b = (round(a[0] + ux * rest, 2), round(a[1] + uy * rest, 2))
            mv = act.Move(actor=m.id, path=(m.pos, a, b))
            if not movement.move_problems(state, ctx, mv):
                res = movement.physics(state, ctx).move(m.id, [a, b])
                if res.blocked_by is None:
                    out.append(mv)
    return out


def _moves(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    out: list[act.Action] = []
    foes = nearest(state, m, 3)
    if not foes:
        return out
    limit = 2 * movement.allowance(state, m)
    for e in foes:
        if measure.gap(m, e) <= limit:
            out.append(act.Charge(actor=m.id, target=e.id))
    allow = movement.allowance(state, m)
    e = foes[0]
    stop = (measure.gap(m, e) - math.dist(m.pos, e.pos)) * -1 + 0.5
    for goal in _around(m, e.pos):  # straight at it, and round what stands in the way
        to = _towards(ctx, m, goal, allow, stop if goal == e.pos else 0.0)
        if math.dist(to, m.pos) <= 0.2:
            continue
        end = movement.physics(state, ctx).move(m.id, [to]).end  # where a wall stops it
        if math.dist(end, m.pos) > 0.2:
            out.append(act.Move(actor=m.id, to=(round(end[0], 2), round(end[1], 2))))
    out += _dogleg(state, ctx, m, e.pos, allow)
    back = (2 * m.x - e.x, 2 * m.y - e.y)
    bf = ctx.battlefield
    back = (min(max(back[0], 0.5), bf.width - 0.5), min(max(back[1], 0.5), bf.depth - 0.5))
    to = _towards(ctx, m, back, allow, 0.0)
    if math.dist(to, m.pos) > 0.2:
        out.append(act.Move(actor=m.id, to=to))
    return out


def options(state: GameState, unit: str, ctx: Context) -> list[act.Action]:
    """Actions the AI may consider for the unit's model in the phase being played."""
    out: list[act.Action] = []
    phase = state.phase
    for m in state.units().get(unit, []):
        if phase in ("movement", "activation"):
            out += _moves(state, ctx, m)
            out += tasks.options(state, ctx, m)
        if phase == "activation" and not react_hooks.overwatch_problems(state, m):
            out.append(react_hooks.Overwatch(actor=m.id))  # GM-OVERWATCH-ARAP
        if phase in ("shooting", "activation"):
            for w in build.ranged(m):
                for e in nearest(state, m, 3):
                    out.append(act.Shoot(actor=m.id, target=e.id, weapon=str(w.get("name", ""))))
        if phase in ("close_combat", "activation"):
            for e in measure.foes_in_contact(state, m):
                out.append(act.Fight(actor=m.id, target=e.id))
    return out


def value(m: Model) -> float:
    """What a model is worth to the AI: its wounds, more for a leader, little when down."""
    v = max(m.hp, 0) + 0.5 * int(m.stat("WS")) / 3 + 0.5 * int(m.stat("BS")) / 3
    if m.stats.get("leader"):
        v *= 1.5
    if any(s in m.status for s in ("down", "stunned", "knocked_down")):
        v *= 0.3
    return v


#: inches over which the closing term rises (past it, no pull; GM tables are 36-48")
CLOSING_SPAN = 60.0
#: weight of the closing term against one wound (small: a wound always weighs more)
CLOSING_WEIGHT = 0.3


#: the kinds bases cannot cross (the engine's "tall" class)
WALLS = ("wall", "building", "rocks")


def way(ctx: Context | None, a: tuple[float, float], b: tuple[float, float]) -> float:
    """The length of the way from ``a`` to ``b``: straight when no wall stands between,
    else round the nearest corner of the wall in the way (one corner: enough for the
    walls and ruins of the bundled tables)."""
    straight = math.dist(a, b)
    if ctx is None:
        return straight
    wall = ctx.table.first_touched([a, b], WALLS)
    if wall is None:
        return straight
    best = straight + 12.0  # no clear corner: a long way round
    for v in wall.polygon:
        cx, cy = v[0] + 0.8 * (1 if v[0] >= a[0] else -1), v[1]
        leg = math.dist(a, (cx, cy)) + math.dist((cx, cy), b)
        if leg < best and ctx.table.first_touched([a, (cx, cy)], WALLS) is None:
            best = leg
    return best


def closing(state: GameState, side: str, ctx: Context | None = None) -> float:
    """How near the side's models stand to their nearest foes: each adds 1 − d / 60"
    (d the gap to its nearest foe), so every inch closer counts, to base contact. Why
    not capped near: a term flat inside 12" left greedy play standing off at 12" and
    never charging (the passive baseline was beaten 40% of the time)."""
    near = 0.0
    for m in state.live(side):
        foe = nearest(state, m)
        if foe:
            d = measure.gap(m, foe[0]) + way(ctx, m.pos, foe[0].pos) - math.dist(m.pos, foe[0].pos)
            near += 1.0 - min(d, CLOSING_SPAN) / CLOSING_SPAN
    return near


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own strength minus the enemy's, and a little for closing in, so greedy play
    advances, charges and fights instead of waiting."""
    total = 0.0
    for m in state.live():
        total += value(m) if m.side == side else -value(m)
    return total + CLOSING_WEIGHT * closing(state, side, ctx)
