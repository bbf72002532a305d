"""The computer's options: ``candidates``, a short list of checked options, and
``proposals``, the same menu with the moves unchecked.

Why few options: each figure gets a walk and a run towards its nearest enemy (and a
crawl for skirmishers, or into contact), round the building or friend in its way, its
shots at the three nearest enemies, and its clashes; the search agents then choose by
the exact odds and the score.

Why ``proposals`` too: checking every figure's moves (the retreat, the woods, the
formation along each path) was most of a random game's time (issue 24), and the random
agent needs one legal action, the search's rollout policy only the attacks. So the
moves go unchecked (each agent checks what it draws); the shots and clashes are
``candidates``' own, checked, in its order, so the rollout's best attack is the same.
"""

from __future__ import annotations

import math
from itertools import combinations

from engine import actions as act
from engine.geometry import crossings
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.whether import whether
from rulesets.inter_arma import rules
from rulesets.inter_arma.build import foot_type, ranged_weapons
from rulesets.inter_arma.chapters import measure, melee, movement, retreat
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import mv

Point = tuple[float, float]


def nearest(state: GameState, m: Model, k: int = 1, fighting: bool = False) -> list[Model]:
    """The ``k`` enemies nearest ``m``; with ``fighting``, those able to fight first
    (a wounded enemy is lost to its side already, IA-I-END, and finishing it is worth a
    quarter of a figure, so advances and shots go to the enemies still in the fight)."""
    foes = [e for e in state.live() if e.side != m.side]
    order = sorted(foes, key=lambda e: (math.dist(m.pos, e.pos), e.id))
    if fighting:
        order = [e for e in order if "wounded" not in e.status] + [
            e for e in order if "wounded" in e.status
        ]
    return order[:k]


#: inches kept between a base and the corner of the building a route goes round
CLEAR = 0.8


def _along(
    state: GameState, ctx: Context, m: Model, mode: str, base: float, route: list[Point]
) -> act.Move | None:
    """The farthest ``mode`` move along ``route`` that its own allowance reaches. Why
    measured on the move: the allowance along the whole line to the enemy missed the hill
    a move ended on (uphill, IA-MOVE c), every advance was then too far, and the figure
    stood at the foot of the hill for the rest of the game (issue 20). Why each allowance
    the reductions leave is tried, longest first: a run over a low wall that ended on the
    hill behind it lost both (11 cm less 9) and was cut to 1 cm short of the wall, where
    the same run over the wall alone (6 cm) was legal; the legionary crept an inch a turn
    at the wall."""
    amounts: list[float] = []
    tried: set[float] = set()
    allow = base
    for _ in range(8):
        tried.add(allow)
        if T.inches(allow) <= 0.1:
            return None
        pts = [(round(x, 2), round(y, 2)) for x, y in movement.cut(route, T.inches(allow) - 0.05)]
        if len(pts) < 2 or math.dist(pts[0], pts[-1]) < 0.05:
            return None
        red = movement.reductions(state, ctx, m, mode, [m.pos, *pts[1:]])
        if base - sum(r for r, _ in red) >= allow - 1e-9:
            if len(pts) == 2:
                return act.Move(actor=m.id, to=pts[1], mode=mode)
            return act.Move(actor=m.id, path=tuple(pts[1:]), mode=mode)
        amounts += [r for r, _ in red if r not in amounts]
        left = {base - sum(c) for k in range(len(amounts) + 1) for c in combinations(amounts, k)}
        below = [a for a in left if a < allow - 1e-9 and a not in tried]
        if not below:
            return None
        allow = max(below)
    return None


def _in_way(ctx: Context, m: Model, a: Point, b: Point, friends: tuple[Model, ...] = ()) -> str:
    """The first of the ``friends`` whose base stands in the way of a base going from
    ``a`` to ``b``, or else the first building, rock or wall it would run into (its
    centre line and both edges, a little wider, and its reach past ``b``); '' when the
    way is clear."""
    d = math.dist(a, b)
    if d < 1e-6:
        return ""
    r = measure.base_radius(m) + 0.05
    for f in friends:
        if _off_line(f.pos, a, b) < r + measure.base_radius(f):
            return f.id
    ux, uy = (b[0] - a[0]) / d, (b[1] - a[1]) / d
    for side in (0.0, r, -r):
        p = (a[0] - uy * side, a[1] + ux * side)
        q = (b[0] + ux * r - uy * side, b[1] + uy * r + ux * side)
        hit = crossings([p, q], ctx.battlefield, {"tall"})
        if hit:
            return hit[0]
    return ""


def _off_line(p: Point, a: Point, b: Point) -> float:
    """How far ``p`` lies from the segment ``a``-``b``, counted only ahead of ``a`` (a
    friend beside or behind the start is no obstacle)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    if t <= 0:
        return math.inf
    t = min(1.0, t)
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _corners(ctx: Context, fid: str, push: float) -> list[Point]:
    """The corners of feature ``fid`` pushed ``push`` inches out from its middle."""
    poly = ctx.battlefield.feature(fid).polygon
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    out = []
    for vx, vy in poly:
        d = math.dist((vx, vy), (cx, cy)) or 1.0
        p = (vx + (vx - cx) / d * push, vy + (vy - cy) / d * push)
        if ctx.battlefield.on_table(*p):
            out.append(p)
    return out


def _around(ctx: Context, m: Model, obstacle: str, friends: tuple[Model, ...]) -> list[Point]:
    """Where a base may pass ``obstacle``: a building's corners, or six points round a
    friend's base, pushed clear of it."""
    r = measure.base_radius(m) + CLEAR
    f = next((f for f in friends if f.id == obstacle), None)
    if f is None:
        return _corners(ctx, obstacle, r)
    ring = measure.base_radius(f) + r
    pts = [
        (f.x + ring * math.cos(k * math.pi / 3), f.y + ring * math.sin(k * math.pi / 3))
        for k in range(6)
    ]
    return [p for p in pts if ctx.battlefield.on_table(*p)]


def _route(state: GameState, ctx: Context, m: Model, e: Model) -> list[Point]:
    """The way to ``e``: straight, or the shortest way round the building, rocks or
    friend in the line (why: a figure whose line to the nearest enemy ran into the
    mirror field's tower stood behind it all game, and archers walked into the back of
    a rider bound for the same enemy for four turns, issue 20). A figure already against
    a building may first step back from it (the physics stops a base that grazes a
    corner)."""
    # only what this turn's move can meet: farther off, the way is found next turn
    # (and a friend will have moved); it keeps the computer's menu cheap (issue 24)
    r = measure.base_radius(m)
    span = T.inches(max(movement.base_cm(m, k) or 0.0 for k in movement.MODES)) + r
    friends = tuple(
        f for f in state.live(m.side) if f.id != m.id and math.dist(f.pos, m.pos) < span + 1.0
    )
    reach = r + measure.base_radius(e)

    def blocked(a: Point, b: Point) -> str:
        # a leg to the enemy ends where the bases touch
        if b == e.pos:
            d = math.dist(a, b)
            b = (
                (b[0] - (b[0] - a[0]) / d * reach, b[1] - (b[1] - a[1]) / d * reach)
                if d > reach
                else a
            )
        return _in_way(ctx, m, a, b, friends)

    d = math.dist(m.pos, e.pos)
    if d <= reach + measure.CONTACT + 0.05:
        return [m.pos, e.pos]  # in contact already
    near = (
        e.pos if d <= span + reach else (m.x + (e.x - m.x) / d * span, m.y + (e.y - m.y) / d * span)
    )
    way = blocked(m.pos, near)
    if not way:
        return [m.pos, e.pos]
    nodes = [m.pos, m.pos, *_around(ctx, m, way, friends), e.pos]
    if way not in state.models:
        poly = ctx.battlefield.feature(way).polygon
        cx = sum(x for x, _ in poly) / len(poly)
        cy = sum(y for _, y in poly) / len(poly)
        d = math.dist(m.pos, (cx, cy)) or 1.0
        nodes[1] = (m.x + (m.x - cx) / d * CLEAR, m.y + (m.y - cy) / d * CLEAR)
    # Dijkstra over the few nodes; an edge is a leg nothing stands in
    goal = len(nodes) - 1
    dist = {0: 0.0}
    prev: dict[int, int] = {}
    todo = {0}
    done: set[int] = set()
    while todo:
        i = min(todo, key=lambda k: dist[k])
        todo.discard(i)
        done.add(i)
        if i == goal:
            break
        for j in range(1, len(nodes)):
            if j in done or (j == 1 and i != 0):
                continue
            step = dist[i] + math.dist(nodes[i], nodes[j])
            if step < dist.get(j, math.inf) and not blocked(nodes[i], nodes[j]):
                dist[j], prev[j] = step, i
                todo.add(j)
    if goal not in prev:
        return [m.pos, e.pos]
    path = [goal]
    while path[-1] != 0:
        path.append(prev[path[-1]])
    return [nodes[k] for k in reversed(path)]


def _may_crawl(m: Model, e: Model, base: float) -> bool:
    """A crawl is offered to skirmishers, and to others only when it reaches the enemy
    (to strike from hiding, IA-AMBUSH). Why: a legionary that crawled across the field
    covered half a walk and paid 2 cm to get up again (IA-MOVE b), issue 20."""
    return foot_type(m) == "skirmisher" or measure.gap_cm(m, e) <= base


def _targets(state: GameState, m: Model) -> list[Model]:
    """Whom ``m`` advances on: its nearest enemy able to fight, and the nearest such
    enemy already touched by a fighting friend, when that one is within a run and a
    half. Why the second: two on one throw 1.5d6 for the initiative and both strike
    (IA-MELEE-2), an even clash is a coin toss; the figure that only ever walked at its
    own nearest enemy joined a friend's fight by chance (issue 20)."""
    foe = nearest(state, m, fighting=True)
    if not foe:
        return []
    out = [foe[0]]
    reach = T.inches(max(movement.base_cm(m, k) or 0.0 for k in movement.MODES)) * 1.5
    friends = [f for f in state.live(m.side) if f.id != m.id and "wounded" not in f.status]
    engaged = [
        e
        for e in nearest(state, m, len(state.models))
        if "wounded" not in e.status and any(measure.in_contact(f, e) for f in friends)
    ]
    if engaged and engaged[0].id != foe[0].id and math.dist(m.pos, engaged[0].pos) <= reach:
        out.append(engaged[0])
    return out


def _held(state: GameState, m: Model) -> bool:
    """Whether ``m`` stays where it is for its contact: a figure touching an enemy (able
    to fight or wounded) leaves only by a move out of contact, which costs a save for
    missile troops and an army morale test for the rest (IA-BREAK, IA-I-BREAK); light
    cavalry alone leaves freely. Why none is offered: in 20 mirror games against rush
    the computer stepped out of contact 14 times to join another fight, and each test
    could hand over the initiative (a 5-8) or send the warband running (0-4); it lost 11
    army tests to a retreat against rush's 6 (issue 20). It fights where it stands."""
    return not retreat.light_cavalry(m) and bool(measure.enemies_in_contact(state, m))


def _advances(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    """A walk, a run and a crawl (those the figure has) toward each of its ``_targets``,
    round the building in the way, each as far as its allowance reaches; unchecked. None
    for a figure held by its contact (``_held``)."""
    out: list[act.Action] = []
    if mv(m).get("moved") == state.turn or _held(state, m):
        return out  # a figure moves once a turn (IA-SEQUENCE): nothing to offer
    for e in _targets(state, m):
        route = _route(state, ctx, m, e)
        for mode in movement.MODES:
            base = movement.base_cm(m, mode)
            if base is None or (mode == "crawl" and not _may_crawl(m, e, base)):
                continue
            step = _along(state, ctx, m, mode, base, route)
            if step is not None and step not in out:
                out.append(step)
    return out


def _moves(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    """The advances the rules allow (a move in the movement phase is ruled by
    movement.check alone: asked once, verdict only)."""
    out: list[act.Action] = []
    for step in _advances(state, ctx, m):
        with whether():
            legal = not rules.check(state, step, ctx)
        if legal:
            out.append(step)
    return out


def _shots(state: GameState, ctx: Context, m: Model, k: int = 3) -> list[act.Action]:
    """Shots at the ``k`` nearest enemies the figure may shoot (a hidden crawler or an
    enemy out of sight is passed over for the next one, IA-I-SPOT)."""
    out: list[act.Action] = []
    for e in nearest(state, m, len(state.models), fighting=True):
        s = act.Shoot(actor=m.id, target=e.id)
        with whether():
            legal = not rules.check(state, s, ctx)
        if legal:
            out.append(s)
            if len(out) >= k:
                break
    return out


def _fights(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    out: list[act.Action] = []
    for e in measure.enemies_in_contact(state, m):
        f = act.Fight(actor=m.id, target=e.id)
        if not melee.check(state, ctx, f):
            out.append(f)
    return out


def candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    if state.over or state.active != side:
        return []
    out: list[act.Action] = []
    for m in state.live(side):
        if "wounded" in m.status:
            continue
        if state.phase == "movement":
            out += _moves(state, ctx, m)
        elif state.phase == "ranged" and ranged_weapons(m):
            out += _shots(state, ctx, m)
        elif state.phase == "melee":
            out += _fights(state, ctx, m)
    out.append(act.EndPhase())
    return out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[act.Action], list[act.Action]] | None:
    """``candidates``' menu as (actions known legal, actions to check): the shots, clashes
    and the end of the phase checked as ``candidates`` checks them, the moves unchecked
    (an agent checks the one it draws); None when the side has nothing to do, as
    ``candidates`` offers nothing then."""
    if state.over or state.active != side:
        return None
    sure: list[act.Action] = []
    unsure: list[act.Action] = []
    for m in state.live(side):
        if "wounded" in m.status:
            continue
        if state.phase == "movement":
            unsure += _advances(state, ctx, m)
        elif state.phase == "ranged" and ranged_weapons(m):
            sure += _shots(state, ctx, m)
        elif state.phase == "melee":
            sure += _fights(state, ctx, m)
    sure.append(act.EndPhase())
    return sure, unsure
