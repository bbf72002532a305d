"""The computer's options (``options``); its reading of a position is ``score``.

Why few options: each model gets a charge at every foe in reach, a full move towards
its nearest foe and one back towards cover from it, a shot with each weapon at its three
nearest foes (the closest-target rule keeps one) and a fight with each foe in contact;
the greedy and search agents then choose by the exact odds and the score.

Why ``proposals`` too (issue 24): ``candidates`` probes each move through the physics
and checks every option, most of a random game's time; the random agent needs one
legal action and the search's rollouts only the attacks. ``proposals`` is the same
menu unchecked, its moves sketched by arithmetic (``_sketched_moves``): the same
charges, shots and fights, moves to the same bearings that no probe has walked.
"""

from __future__ import annotations

import math

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini import build, flow
from rulesets.gemini.actions import Activate, Overwatch
from rulesets.gemini.chapters import measure, movement
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.arap import ArapFlow, max_dice
from rulesets.gemini.chapters.options import react_hooks, tasks
from rulesets.gemini.state import arap


def nearest(state: GameState, m: Model, k: int = 1) -> list[Model]:
    """The ``k`` live foes nearest ``m`` (centre to centre; equals by id)."""
    x, y, side = m.x, m.y, m.side
    foes = [(math.hypot(e.x - x, e.y - y), e.id, e) for e in state.live() if e.side != side]
    if k == 1:
        return [min(foes)[2]] if foes else []
    return [e for _, _, e in sorted(foes)[:k]]


#: the kinds bases cannot cross (the engine's "tall" class)
WALLS = ("wall", "building", "rocks")

Point = tuple[float, float]
#: how far out from a wall's corner a way round it turns (past a base's half width)
CLEAR = 0.9
#: the half width of the lane a base sweeps (a 25 mm base, a little less: a base pressed
#: to a wall still walks off along it)
HALF = 0.45


def _sign(x: float) -> float:
    return 1.0 if x > 1e-9 else (-1.0 if x < -1e-9 else 0.0)


def route(ctx: Context, a: Point, b: Point) -> tuple[float, tuple[Point, ...]]:
    """The way from ``a`` to ``b`` as (length, corners): straight (no corners) when no
    wall stands between, else round the wall in the way by one corner or two (the two
    ends of a thin wall), each leg clear for a base (``_clear``): enough for the walls
    and ruins of the bundled tables. The length is the allowance the way costs: an inch
    of difficult ground on it counts two (GM-MOVE, GM-I-TERRAIN). Why: measured in
    plain inches, an ork in front of the default scenario's rubble walked 6" of it at 2"
    a turn, as near by the score as the orks beside it that walked 4" a turn in the
    open (issue 20). Kept per table for each pair of points (the terrain stays)."""
    return ctx.table.memo("gemini.route").get_or((a, b), lambda: _costed(ctx, a, b))


def _costed(ctx: Context, a: Point, b: Point) -> tuple[float, tuple[Point, ...]]:
    """``_route``'s way, its length plus the extra inches its difficult ground costs."""
    length, corners = _route(ctx, a, b)
    extra = ctx.table.walk([a, *corners, b], math.inf, T.DIFFICULT).extra
    return length + extra, corners


def _route(ctx: Context, a: Point, b: Point) -> tuple[float, tuple[Point, ...]]:
    """``route`` measured round the walls, in plain inches."""
    straight = math.dist(a, b)
    wall = ctx.table.first_touched([a, b], WALLS)
    if wall is None:
        return straight, ()
    best: tuple[float, tuple[Point, ...]] = (straight + 12.0, ())  # no way found: far round
    xs, ys = [v[0] for v in wall.polygon], [v[1] for v in wall.polygon]
    mid = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    # a step out from each corner on both axes, so a base walking to it clears the wall
    corners = [
        (v[0] + CLEAR * _sign(v[0] - mid[0]), v[1] + CLEAR * _sign(v[1] - mid[1]))
        for v in wall.polygon
    ]
    # one corner: the shortest clear way (corners taken shortest first) ...
    for leg, c in sorted((math.dist(a, c) + math.dist(c, b), c) for c in corners):
        if leg < best[0] and _clear(ctx, a, c) and _clear(ctx, c, b):
            return leg, (c,)
    # ... else two (round the end of a thin wall from against its side)
    for c in corners:
        first = math.dist(a, c)
        if first + math.dist(c, b) >= best[0] or not _clear(ctx, a, c):
            continue
        for c2 in corners:
            leg = first + math.dist(c, c2) + math.dist(c2, b)
            if c2 != c and leg < best[0] and _clear(ctx, c, c2) and _clear(ctx, c2, b):
                best = (leg, (c, c2))
    return best


def _clear(ctx: Context, a: Point, b: Point) -> bool:
    """Whether a base walks from ``a`` to ``b`` past every wall: the centre line and
    the lines ``HALF`` to either side of it touch none."""
    d = math.dist(a, b)
    if d < 1e-9:
        return True
    ox, oy = -(b[1] - a[1]) / d * HALF, (b[0] - a[0]) / d * HALF
    return all(
        ctx.table.first_touched(
            [(a[0] + k * ox, a[1] + k * oy), (b[0] + k * ox, b[1] + k * oy)], WALLS
        )
        is None
        for k in (0.0, 1.0, -1.0)
    )


def nearest_by_way(
    state: GameState, m: Model, ctx: Context | None
) -> tuple[float, Model, tuple[Point, ...]] | None:
    """(gap, foe, corners): the foe nearest ``m`` by the way round the walls, the gap
    base edge to base edge plus the detour, and the corners the way turns at (none:
    straight).
    Why not the straight line to the nearest foe by centre: an ork behind a wall, two
    guardsmen about as far off on either side of it, was pulled along the wall toward the
    one beyond its far end (issue 20). Foes are taken nearest first, and one whose gap is
    no shorter than the best way so far is not measured (a way is never shorter than the
    straight line), so most models measure one way."""
    foes = sorted((math.dist(m.pos, e.pos), e.id, e) for e in state.live() if e.side != m.side)
    best: tuple[float, Model, tuple[Point, ...]] | None = None
    for straight, _, e in foes:
        gap = measure.gap(m, e)
        if best is not None and gap >= best[0]:
            continue
        length, corners = route(ctx, m.pos, e.pos) if ctx is not None else (straight, ())
        if best is None or gap + length - straight < best[0]:
            best = (gap + length - straight, e, corners)
    return best


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


def _round(state: GameState, ctx: Context, m: Model, allow: float) -> list[act.Action]:
    """A move along the way to the foe nearest by it (``nearest_by_way``) when that way
    turns at a wall's corners: by the corners, then on toward the foe, as far as the
    allowance goes and short of the foe's base. Why: an ork pressed against a wall was
    offered moves at angles to the line to its nearest foe by centre, none toward the
    end of the wall it had to round (issue 20)."""
    got = nearest_by_way(state, m, ctx)
    if got is None or not got[2]:
        return []
    e = got[1]
    radii = math.dist(m.pos, e.pos) - measure.gap(m, e)
    points = [m.pos, *got[2]]
    left = allow - 0.05
    path = [m.pos]
    for p, q in zip(points, [*points[1:], e.pos]):
        leg = math.dist(p, q) - (radii + 0.5 if q == e.pos else 0.0)
        if leg <= 0:
            break
        k = min(left, leg) / math.dist(p, q)
        path.append((round(p[0] + (q[0] - p[0]) * k, 2), round(p[1] + (q[1] - p[1]) * k, 2)))
        left -= min(left, leg)
        if left <= 0.05:
            break
    res = movement.physics(state, ctx).move(m.id, path[1:])
    if res.blocked_by is not None:  # stopped by a base or a wall: as far as it gets
        walked, cut = 0.0, [m.pos]
        for p, q in zip(path, path[1:]):
            if walked + math.dist(p, q) >= res.travelled - 1e-6:
                break
            walked += math.dist(p, q)
            cut.append(q)
        path = [*cut, (round(res.end[0], 2), round(res.end[1], 2))]
    if math.dist(path[-1], m.pos) <= 0.2:
        return []
    mv = act.Move(actor=m.id, path=tuple(path))
    return [] if movement.move_problems(state, ctx, mv) else [mv]


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
    out += _round(state, ctx, m, allow)
    back = (2 * m.x - e.x, 2 * m.y - e.y)
    bf = ctx.battlefield
    back = (min(max(back[0], 0.5), bf.width - 0.5), min(max(back[1], 0.5), bf.depth - 0.5))
    to = _towards(ctx, m, back, allow, 0.0)
    if math.dist(to, m.pos) > 0.2:
        out.append(act.Move(actor=m.id, to=to))
    return out


def _sketched_moves(state: GameState, m: Model) -> list[act.Action]:
    """``_moves``' menu drawn by arithmetic alone, for ``proposals``: the same charges,
    and moves of the allowance straight at the nearest foe (stopping short of its base),
    along the detour bearings, the two-leg steps round a wall and back from it, none
    walked over the ground nor swept through the physics (a wall stops the move when it
    is played; ``check`` refuses one too dear across difficult ground)."""
    foes = nearest(state, m, 3)
    if not foes:
        return []
    allow = movement.allowance(state, m)
    out: list[act.Action] = [
        act.Charge(actor=m.id, target=e.id) for e in foes if measure.gap(m, e) <= 2 * allow
    ]
    e = foes[0]
    d = math.dist(m.pos, e.pos)
    if d < 1e-6 or allow <= 0.25:
        return out
    reach = allow - 0.05
    ux, uy = (e.x - m.x) / d, (e.y - m.y) / d
    ahead = min(reach, measure.gap(m, e) - 0.5)  # short of its base, as ``_moves``
    ends = [(ux * ahead, uy * ahead)] if ahead > 0.2 else []
    for off in DETOURS:
        a = math.atan2(uy, ux) + math.radians(off)
        ends.append((reach * math.cos(a), reach * math.sin(a)))
    ends.append((-ux * reach, -uy * reach))
    for dx, dy in ends:
        out.append(act.Move(actor=m.id, to=(round(m.x + dx, 2), round(m.y + dy, 2))))
    for side in (1.0, -1.0):
        for step in (allow / 2, allow * 3 / 4):
            a2 = (round(m.x - uy * side * step, 2), round(m.y + ux * side * step, 2))
            rest = allow - step - 0.05
            b = (round(a2[0] + ux * rest, 2), round(a2[1] + uy * rest, 2))
            out.append(act.Move(actor=m.id, path=(m.pos, a2, b)))
    return out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[act.Action], list[act.Action]] | None:
    """The menu before ``check``, as (actions known legal, actions to check), for an agent
    that needs one legal action, not the checked list (the random agent, the search's
    rollout policy): the flow's own menu with each model's moves sketched
    (``_sketched_moves``); None while a decision is owed (``candidates`` answers it)."""
    fl = flow.flow(state)
    if state.over or state.pending or fl.to_act(state) != side:
        return None
    menu: list[act.Action] = []
    if isinstance(fl, ArapFlow):
        menu.append(act.EndActivation())
        cur = fl.current(state)
        if cur is None:
            for mid in fl.ready(state, side):
                menu += [Activate(actor=mid, count=n) for n in range(1, max_dice(state, mid) + 1)]
        elif int(arap(state)["left"]) > 0:
            menu += options(state, state.models[cur].unit, ctx, sketch=True)
        return [], menu
    menu.append(fl.passing())
    for unit in fl.acting_units(state, side):
        menu += options(state, unit, ctx, sketch=True)
    return [], menu


def options(state: GameState, unit: str, ctx: Context, sketch: bool = False) -> list[act.Action]:
    """Actions the AI may consider for the unit's model in the phase being played
    (``sketch``: the moves drawn without measuring the ground, for ``proposals``)."""
    out: list[act.Action] = []
    phase = state.phase
    for m in [x for x in state.live() if x.unit == unit]:  # the unit's live models
        if phase in ("movement", "activation"):
            out += _sketched_moves(state, m) if sketch else _moves(state, ctx, m)
            out += tasks.options(state, ctx, m)
        if phase == "activation" and not react_hooks.overwatch_problems(state, m):
            out.append(Overwatch(actor=m.id))  # GM-OVERWATCH-ARAP
        if phase in ("shooting", "activation"):
            for w in build.ranged(m):
                for e in nearest(state, m, 3):
                    out.append(act.Shoot(actor=m.id, target=e.id, weapon=str(w.get("name", ""))))
        if phase in ("close_combat", "activation"):
            for e in measure.foes_in_contact(state, m):
                out.append(act.Fight(actor=m.id, target=e.id))
    return out
