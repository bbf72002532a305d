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
    to = _towards(ctx, m, e.pos, allow, stop)
    if math.dist(to, m.pos) > 0.2:
        out.append(act.Move(actor=m.id, to=to))
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


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own strength minus the enemy's, and a little for closing in, so greedy play
    advances instead of waiting."""
    total = 0.0
    for m in state.live():
        total += value(m) if m.side == side else -value(m)
    near = 0.0
    for m in state.live(side):
        foe = nearest(state, m)
        if foe:
            near += min(1.0, 12.0 / max(1.0, math.dist(m.pos, foe[0].pos)))
    return total + 0.02 * near
