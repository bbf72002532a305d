"""The computer's reading of a position (``score``): the wounds each side has left,
its leaders and its standing, and a little for closing in.

Why a closing term: without it greedy play stood off at shooting range and never
charged; every inch nearer its nearest foe (round a wall when one is in the way) counts.
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini import build
from rulesets.gemini.candidates import nearest
from rulesets.gemini.chapters import measure, melee, switches, wounds
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.state import mv, stamp


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
    if ctx is None:
        return math.dist(a, b)
    return float(ctx.table.memo("gemini.way").get_or((a, b), lambda: _way(ctx, a, b)))


def _way(ctx: Context, a: tuple[float, float], b: tuple[float, float]) -> float:
    """``way`` measured (the table keeps it per pair of points: the terrain stays)."""
    straight = math.dist(a, b)
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
    never charging (the passive baseline was beaten 40% of the time). Kept per table
    for the bases where they stand (a rollout scores the same stance again and again)."""
    if ctx is None:
        return _closing(state, side, None)
    stance = tuple((m.id, m.side, m.x, m.y, _hashable(m.base)) for m in state.live())
    return float(
        ctx.table.memo("gemini.closing").get_or((side, stance), lambda: _closing(state, side, ctx))
    )


def _hashable(base: object) -> object:
    return tuple(base) if isinstance(base, list) else base


def _closing(state: GameState, side: str, ctx: Context | None) -> float:
    """``closing`` measured."""
    near = 0.0
    for m in state.live(side):
        foe = nearest(state, m)
        if foe:
            d = measure.gap(m, foe[0]) + way(ctx, m.pos, foe[0].pos) - math.dist(m.pos, foe[0].pos)
            near += 1.0 - min(d, CLOSING_SPAN) / CLOSING_SPAN
    return near


def free_strikes(state: GameState, side: str) -> float:
    """GM-I-FIGHT: a model strikes once a phase, so in the close combat phase of the side
    to act a foe in contact that has already struck answers no more blows: the side's
    models still free to strike at it will, each at its likeliest victim (the expected
    wounds, priced at the foe's value a wound). Why: read one fight at a time, the
    first fight against a stronger model is a bad trade and the second, a free blow,
    never came (two orks charged a sergeant and neither fought, issue 20)."""
    acting = state.active
    if state.phase != "close_combat" or acting is None or switches.of(state).combat_score:
        return 0.0
    now = stamp(state)
    total = 0.0
    for m in state.live(acting):
        spent = [e for e in measure.foes_in_contact(state, m) if mv(e).get("struck") == now]
        if not spent or not melee.can_strike(state, m):
            continue
        w = build.melee_weapon(m)
        s, save = int(w.get("S", m.stat("S"))), int(w.get("save", 0))
        blows = max(1, int(m.stat("A", 1)))
        total += max(
            float(T.chance(T.melee_need(int(m.stat("WS")), int(e.stat("WS")))))
            * float(wounds.p_wound_and_unsaved(s, save, e))
            * blows
            * value(e)
            / max(e.hp, 1)
            for e in spent
        )
    return total if acting == side else -total


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own strength minus the enemy's, the blows a spent foe can no longer answer, and a
    little for closing in, so greedy play advances, charges and fights instead of
    waiting."""
    total = 0.0
    for m in state.live():
        total += value(m) if m.side == side else -value(m)
    return total + free_strikes(state, side) + CLOSING_WEIGHT * closing(state, side, ctx)
