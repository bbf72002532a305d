"""Movement (GEM-2.1): MOV and terrain, line obstacles with their carried-over cost,
blocks moving and wheeling as a whole, frontage changes, peltast order changes,
overrunning skirmishers, and charges into contact.

Why costs and not shortened moves: the rulebook halves MOV in difficult terrain and
takes 2" off for an obstacle; charging every inch of difficult ground double and adding
2" per obstacle crossed is the same rule, and it lets a path that mixes clear ground,
woods and a hedge be priced in one sum that the player sees.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.battlefield import Footprint, base_radius_in, base_size_in
from engine.polygons import point_segment_distance
from engine.ruleset import TOO_FAR, Context, Reason
from engine.state import GameState, Model
from engine.whether import only_whether

from ..state import (
    disorganized,
    engage,
    foes_in_melee,
    gs,
    in_block_order,
    in_melee,
    is_block,
    mtype,
    mv,
    roster,
    roster_memo,
    unit_models,
)
from . import blocks, measure
from .measure import space as _phys
from .pricing import _kinds_of, allowance, price
from .tables import terrain, units

if TYPE_CHECKING:  # the physics service (pymunk) is imported only when first used
    from engine.physics import MoveResult

Point = tuple[float, float]
EPS = 1e-6
#: the block's out-of-segment attack on a skirmisher in its way: True if it fell
Overrun = Callable[[GameState, Context, str, Model], bool]


@dataclass
class Plan:
    """A priced move: what it costs, what it may spend, and why it may not be made."""

    cost: float = 0.0
    allowance: float = 0.0
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ends_on_obstacle: str = ""


#: How far (inches) beyond the mover's bounding circle another base may stand from its
#: path and still play a part in ``Physics.move``'s answer, with room to spare: the
#: service only probes the mover's base at poses along the path (its start, the sweep
#: with probes grown by at most half an inch, the 0.01" snapping at the stop and the
#: backing off along the path), so nothing farther can touch a probe. See ``_move``.
_MOVE_REACH = 2.0


def _move(ctx: Context, state: GameState, mover: str, path: list[Point]) -> MoveResult:
    """``Physics.move`` of ``mover`` through the waypoints ``path``, memoised per table on
    the mover's base, the path and every base near that path.

    Why: a blocked move (a general behind his own block) is asked again in every new
    position of the game, where most figures have not moved, and the service's sweep is
    the dearest part of a move check. Its answer depends only on the bases within its
    probes' reach of the path (``_MOVE_REACH``; the terrain and the table are frozen), so
    while those stand where they stood the answer is the one it gave before.
    """
    m = state.models[mover]
    try:
        pts = [(m.x, m.y), *((float(p[0]), float(p[1])) for p in path)]
        reach = base_radius_in(m.base) + _MOVE_REACH
        x0, x1 = min(p[0] for p in pts) - reach, max(p[0] for p in pts) + reach
        y0, y1 = min(p[1] for p in pts) - reach, max(p[1] for p in pts) + reach
        legs = list(zip(pts, pts[1:]))
        near = []
        for o, r in _bases_in_box(state, mover, x0, y0, x1, y1):
            if any(point_segment_distance(o.pos, a, b) <= reach + r for a, b in legs):
                near.append((o.id, o.x, o.y, o.facing, o.base))
        key: Hashable = ("move", mover, m.x, m.y, m.facing, m.base, tuple(pts), tuple(near))
        memo = measure.memo(ctx.battlefield)
        hit = memo.get(key)
    except TypeError:  # a base or points given as lists
        return _phys(ctx, state).move(mover, path)
    if hit is None:
        hit = memo.put(key, _phys(ctx, state).move(mover, path))
    return hit  # frozen: safe to hand out again


def can_move_problems(state: GameState, unit: str, m: Model) -> list[str]:
    out = []
    if mv(m).get("moved_done"):
        out.append(f"{m.id} has already moved this turn")
    if disorganized(m):
        out.append(f"{unit} is disorganized and cannot move this turn (GEM-2.4.5)")
    if mv(m).get("frontage"):
        out.append(f"{unit} changed frontage or order instead of moving (GEM-2.1.3)")
    if is_block(state, unit) and in_melee(state, unit):
        out.append(f"block {unit} cannot move out of a melee (GEM-2.1.2)")
    if mtype(m) == "vehicle":
        out.append(f"{m.id} is a vehicle: use drive (GEM-2.1.6)")
    return out


#: How far (inches) beyond touching everything must stay for ``_surely_clear`` to vouch
#: for a move: five times the physics service's contact tolerance, and far more than any
#: float error in either measure.
_CLEAR_MARGIN = 0.05


def _bases_in_box(
    state: GameState, skip: str, x0: float, y0: float, x1: float, y1: float
) -> Iterator[tuple[Model, float]]:
    """(model, bounding radius) of each live model but ``skip`` whose bounding circle
    reaches into the box (x0, y0)-(x1, y1), in id order. The largest radius on the
    table rules out most figures before their own is looked up."""
    memo = roster_memo(state)
    rmax = memo.get("rmax")
    if rmax is None:
        rmax = memo["rmax"] = max((base_radius_in(o.base) for o in roster(state)), default=0.0)
    for o in roster(state):
        if o.removed or o.id == skip:
            continue
        x, y = o.x, o.y
        if x + rmax < x0 or x - rmax > x1 or y + rmax < y0 or y - rmax > y1:
            continue
        r = base_radius_in(o.base)
        if x + r < x0 or x - r > x1 or y + r < y0 or y - r > y1:
            continue
        yield o, r


def _surely_clear(ctx: Context, state: GameState, m: Model, path: list[Point]) -> bool:
    """True only when nothing can stop ``m`` going through the waypoints ``path``, so
    the physics service's move would report it complete (plan_model needs no more).

    Why: asking the service means syncing every base and sweeping this one, the largest
    cost of most move checks, while most moves the AI weighs cross open ground. A move
    stops only on contact with another base, an impassable feature's outline or a table
    edge; the base lies within its bounding circle (radius R) of its centre's path, so
    when every other base's bounding circle, every impassable feature's bounding box and
    every edge stay more than R + ``_CLEAR_MARGIN`` from that path there is no contact.
    Anything nearer is left to the service, so the answer is always the service's.
    """
    bf = ctx.battlefield
    memo = measure.memo(bf)
    impassable = memo.get("physics impassable")
    if impassable is None:  # what the service stops at: the same for every space it makes
        impassable = memo["physics impassable"] = frozenset(ctx.physics.impassable_kinds)
    pts = [(m.x, m.y), *((float(p[0]), float(p[1])) for p in path)]
    reach = base_radius_in(m.base) + _CLEAR_MARGIN
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0, x1, y1 = min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach
    if x0 <= 0.0 or y0 <= 0.0 or x1 >= bf.width or y1 >= bf.depth:
        return False
    if not measure.clear_of(bf, impassable, x0, y0, x1, y1):
        return False
    legs = list(zip(pts, pts[1:]))
    for o, r in _bases_in_box(state, m.id, x0, y0, x1, y1):
        lim = r + reach
        pos = o.pos
        for a, b in legs:
            if point_segment_distance(pos, a, b) <= lim and (
                _swept_gap(m, a, b, o) <= _CLEAR_MARGIN
            ):
                return False
    return True


def _shape(
    base: float | tuple[float, float], x: float, y: float, facing: float
) -> tuple[list[Point], float, list[Point]]:
    """A base as (corner points, radius, its own axes): a rectangle's 4 corners, radius 0
    and its two edge normals; a round base its centre, its radius and no axes."""
    if not isinstance(base, (tuple, list)):
        return [(x, y)], base_size_in(base)[0] / 2, []
    w, d = base_size_in(base)
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    lx, ly = -uy, ux
    corners = [
        (x + sx * d / 2 * ux + sy * w / 2 * lx, y + sx * d / 2 * uy + sy * w / 2 * ly)
        for sx, sy in ((1, 1), (1, -1), (-1, -1), (-1, 1))
    ]
    return corners, 0.0, [(ux, uy), (lx, ly)]


def _swept_gap(m: Model, a: Point, b: Point, o: Model) -> float:
    """A lower bound (inches) on how near ``m``'s base comes to ``o``'s as its centre
    slides from a to b without turning (what ``Physics.move`` does on one leg).

    The base sweeps the convex hull of itself at a and at b; two convex shapes are at
    least as far apart as their shadows on any line, so the largest gap between the
    shadows on a few lines (the bases' edge normals, the leg's normal, the line from the
    leg to ``o``'s centre) is a lower bound on their distance, exact enough to tell
    neighbours a hair apart from ones in the way.
    """
    pa, rm, axes = _shape(m.base, a[0], a[1], m.facing)
    dx, dy = b[0] - a[0], b[1] - a[1]
    swept = pa + [(x + dx, y + dy) for x, y in pa]
    po, ro, axes_o = _shape(o.base, o.x, o.y, o.facing)
    cands = axes + axes_o
    ll = math.hypot(dx, dy)
    if ll > 0.0:
        cands.append((-dy / ll, dx / ll))
    t = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((o.x - a[0]) * dx + (o.y - a[1]) * dy) / ll**2))
    cx, cy = o.x - (a[0] + t * dx), o.y - (a[1] + t * dy)
    cl = math.hypot(cx, cy)
    if cl > 0.0:
        cands.append((cx / cl, cy / cl))
    best = -math.inf
    for nx, ny in cands:
        s = [x * nx + y * ny for x, y in swept]
        q = [x * nx + y * ny for x, y in po]
        best = max(best, min(q) - max(s), min(s) - max(q))
    return best - rm - ro


# ------------------------------------------------------------------ single figures
def plan_model(
    state: GameState, ctx: Context, m: Model, path: list[Point], rush: bool, charge_target: str = ""
) -> Plan:
    p = Plan()
    p.problems += can_move_problems(state, m.unit, m)
    if p.problems and only_whether():
        return p  # refused already: the path need not be priced (issue 24)
    cost, lines, on = price(ctx, path, m)
    allow, alines = allowance(state, ctx, m, path, rush)
    p.cost, p.allowance, p.lines = cost, allow, alines + lines
    if on:
        p.ends_on_obstacle = on
    if cost > allow + 0.01:
        p.problems.append(
            Reason(
                f'too far: costs {cost:.1f}" but {m.id} may move {allow:g}" (GEM-2.1.1)',
                TOO_FAR,
                distance=cost,
                limit=allow,
            )
        )
    if (
        not charge_target
        and len(path) > 1
        and not p.problems
        and not _surely_clear(ctx, state, m, path[1:])
    ):
        res = _move(ctx, state, m.id, path[1:])
        if not res.complete:
            p.problems.append(
                f"the path is blocked by {res.blocked_by} at ({res.end[0]:.2f}, {res.end[1]:.2f})"
            )
    return p


def apply_model_move(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    facing: float | None,
    plan: Plan,
    rush: bool,
) -> None:
    ph = _phys(ctx, state)
    res = ph.move(m.id, path[1:]) if len(path) > 1 else None
    end = res.end if res else (m.x, m.y)
    m.x, m.y = float(end[0]), float(end[1])
    if facing is not None:
        m.facing = float(facing) % 360.0
    elif len(path) > 1 and math.dist(path[0], path[-1]) > EPS:
        m.facing = measure.bearing(path[-2], path[-1])
    mv(m)["moved"] = round(float(mv(m).get("moved", 0) or 0) + measure.path_length(path), 3)
    mv(m)["moved_done"] = True
    mv(m).pop("obstacle_debt", None)
    m.set_status("crossing", False)
    if rush:
        mv(m)["rushed"] = True
    if plan.ends_on_obstacle:
        mv(m)["obstacle_debt"] = float(units()["terrain"]["obstacle_cost"])
        m.set_status("crossing")
    _leave_melee(state, m.unit)
    ctx.log.emit(
        "move",
        f'{m.id} moves {measure.path_length(path):.1f}" to '
        f"({m.x:.2f}, {m.y:.2f}); "
        + "; ".join(plan.lines)
        + f'; cost {plan.cost:.1f}" of {plan.allowance:g}"',
        actor=m.id,
        rule="GEM-2.1",
        data={"cost": round(plan.cost, 2), "allowance": plan.allowance},
    )


def _leave_melee(state: GameState, unit: str) -> None:
    """A figure that walks away from its foes is no longer in that melee."""
    for foe in foes_in_melee(state, unit):
        touching = any(
            measure.distance(a, b) <= 0.05
            for a in unit_models(state, unit)
            for b in unit_models(state, foe)
        )
        if not touching:
            gs(state)["melee"] = [
                e
                for e in gs(state).get("melee", [])
                if not (unit in e["units"] and foe in e["units"])
            ]


# ------------------------------------------------------------------ blocks
def wheel_cost(state: GameState, unit: str, facing: float, new_facing: float) -> float:
    """GEM-I-WHEEL: the outer corner of the front travels half the frontage times the
    angle turned (in radians)."""
    turn = math.radians(measure.angle_diff(facing, new_facing))
    return turn * blocks.frontage_width(state, unit) / 2


def block_corridor(state: GameState, unit: str, path: list[Point], facing: float) -> list[Model]:
    """Figures not of the block that its front sweeps over along the path or that its
    new position covers, nearest first."""
    half = blocks.frontage_width(state, unit) / 2
    end_slots = [p for _, p in blocks.place(state, unit, path[-1], facing)]
    w, d = blocks.unit_slot(state, unit)
    r_slot = max(w, d) / 2
    legs = list(zip(path, path[1:]))
    # The legs' box: a figure whose reach stays off it is swept by none of them.
    px0, px1 = min(p[0] for p in path), max(p[0] for p in path)
    py0, py1 = min(p[1] for p in path), max(p[1] for p in path)
    # Every end slot lies within ``spread`` of ``mid``, so a figure farther than that
    # plus its reach from ``mid`` is under none of them (the triangle inequality, with a
    # hair to spare for rounding): most of the table is ruled out without a slot loop.
    mid = (
        sum(x for x, _ in end_slots) / max(len(end_slots), 1),
        sum(y for _, y in end_slots) / max(len(end_slots), 1),
    )
    spread = max((math.dist(mid, sl) for sl in end_slots), default=0.0)
    memo = roster_memo(state)
    ro_max = memo.get("half_span")
    if ro_max is None:
        ro_max = memo["half_span"] = max(
            (max(base_size_in(o.base)) / 2 for o in roster(state)), default=0.0
        )
    # With the widest base on the table: a figure outside both reaches is ruled out.
    box_max = half + ro_max - 0.02 + 1e-6
    reach_max = r_slot + ro_max - 0.02 + 1e-9
    hits: list[tuple[float, Model]] = []
    for o in roster(state):
        if o.removed or o.unit == unit:
            continue
        if (
            not (px0 - box_max < o.x < px1 + box_max and py0 - box_max < o.y < py1 + box_max)
            and math.dist(o.pos, mid) - spread >= reach_max
        ):
            continue
        ro = max(base_size_in(o.base)) / 2
        pos = o.pos
        swept = False
        lim = half + ro - 0.02
        box = lim + 1e-6  # the service's segment is a hair (2e-8") wider than the line
        if px0 - box < o.x < px1 + box and py0 - box < o.y < py1 + box:
            for p, q in legs:
                if measure.point_within(pos, p, q, lim) and _ahead(p, q, pos):
                    swept = True
                    break
        reach = r_slot + ro - 0.02
        covered = (
            not swept
            and math.dist(pos, mid) - spread < reach + 1e-9
            and any(math.dist(pos, sl) < reach for sl in end_slots)
        )
        if swept or covered:
            hits.append((math.dist(path[0], pos), o))
    hits.sort(key=lambda x: (x[0], x[1].id))
    return [o for _, o in hits]


def _ahead(p: Point, q: Point, o: Point) -> bool:
    dx, dy = q[0] - p[0], q[1] - p[1]
    return (o[0] - p[0]) * dx + (o[1] - p[1]) * dy > 0


def is_skirmisher(m: Model) -> bool:
    return mtype(m) == "skirmisher" or (mtype(m) == "peltast" and not in_block_order(m))


def figure_paths(state: GameState, unit: str, path: list[Point]) -> list[list[Point]]:
    """Each figure's path when the block's front centre follows ``path``: the same path
    at the figure's offset from the front centre (a wheel is priced apart), so terrain
    under any part of the block is paid for (GEM-I-BLOCK)."""
    x0, y0 = path[0]
    return [[(x + m.x - x0, y + m.y - y0) for x, y in path] for m in blocks.live_order(state, unit)]


def plan_block(
    state: GameState,
    ctx: Context,
    unit: str,
    path: list[Point],
    facing: float,
    rush: bool,
    charge_target: str = "",
) -> Plan:
    """A block moves as a whole: its front centre follows the path (GEM-I-BLOCK)."""
    rec = blocks.record(state, unit)
    lead = blocks.live_order(state, unit)[0]
    p = Plan()
    p.problems += can_move_problems(state, unit, lead)
    if p.problems and only_whether():
        return p  # refused already: the block's paths need not be priced (issue 24)
    cost, lines, on = price(ctx, path)
    files = figure_paths(state, unit, path)
    worst = max((price(ctx, fp)[0] for fp in files), default=cost)
    if worst > cost + 0.005:
        lines.append(f'its slowest figure pays {worst:.1f}" (the whole block, GEM-I-BLOCK)')
        cost = worst
    wc = wheel_cost(state, unit, rec["facing"], facing)
    if wc > 0.005:
        lines.append(
            f"wheel of {measure.angle_diff(rec['facing'], facing):.0f} degrees: "
            f'+{wc:.1f}" (GEM-I-WHEEL)'
        )
    allow, alines = allowance(state, ctx, lead, path, rush, files)
    p.cost, p.allowance, p.lines = cost + wc, allow, alines + lines
    if on:
        p.ends_on_obstacle = on
    if p.cost > allow + 0.01:
        p.problems.append(
            Reason(
                f'too far: costs {p.cost:.1f}" but {unit} may move {allow:g}" (GEM-2.1.1)',
                TOO_FAR,
                distance=p.cost,
                limit=allow,
            )
        )
    bf = ctx.battlefield
    imp = terrain("impassable")
    any_imp = measure.any_of(bf, _kinds_of("impassable"))  # none on most tables: skip
    for m, (x, y) in blocks.place(state, unit, path[-1], facing):
        if not bf.on_table(x, y):
            p.problems.append(f"{m.id} would leave the table at ({x:.1f}, {y:.1f})")
            break
        if any_imp and measure.features_under(bf, Footprint(x, y, facing, m.base), imp):
            p.problems.append(f"{m.id} would stand in impassable terrain at ({x:.1f}, {y:.1f})")
            break
    for o in block_corridor(state, unit, path, facing):
        if o.id == charge_target:
            continue
        if is_skirmisher(o):
            continue  # overrun (GEM-2.1.5)
        p.problems.append(f"the path is blocked by {o.id}")
        break
    return p


def apply_block_move(
    state: GameState,
    ctx: Context,
    unit: str,
    path: list[Point],
    facing: float,
    plan: Plan,
    rush: bool,
    overrun: Overrun,
    charge_target: str = "",
) -> bool:
    """Move the block; overrun skirmishers in its way (``overrun``: melee's attack on
    one, GEM-2.1.5, passed in so this chapter needs not import melee, which imports it).
    False if an overrun stopped it."""

    stopped_at: Point | None = None
    for o in block_corridor(state, unit, path, facing):
        if o.id == charge_target or o.removed or not is_skirmisher(o):
            continue
        if o.side == blocks.live_order(state, unit)[0].side:
            o.removed = True
            o.hp = 0
            o.set_status("overrun")
            gs(state)["strength"][o.unit] = max(0, gs(state)["strength"].get(o.unit, 0) - o.max_hp)
            ctx.log.emit(
                "removed",
                f"friendly skirmisher {o.id} is overrun by {unit} and "
                f"removed from play, no casualty taken (GEM-2.1.5)",
                actor=o.id,
                rule="GEM-2.1.5",
            )
            continue
        if not overrun(state, ctx, unit, o):
            stopped_at = _stop_before(path, o)
            engage(state, unit, o.unit, "front", False)
            break
    end = stopped_at or path[-1]
    travelled = path if stopped_at is None else _cut(path, end)
    blocks.apply_place(state, unit, end, facing)
    dist = measure.path_length(travelled)
    for m in blocks.live_order(state, unit):
        mv(m)["moved"] = round(float(mv(m).get("moved", 0) or 0) + dist, 3)
        mv(m)["moved_done"] = True
        mv(m).pop("obstacle_debt", None)
        m.set_status("crossing", False)
        if rush:
            mv(m)["rushed"] = True
        if plan.ends_on_obstacle and stopped_at is None:
            mv(m)["obstacle_debt"] = float(units()["terrain"]["obstacle_cost"])
            m.set_status("crossing")
    ctx.log.emit(
        "move",
        f"block {unit} moves its front to ({end[0]:.2f}, {end[1]:.2f}) "
        f"facing {facing:g}; "
        + "; ".join(plan.lines)
        + f'; cost {plan.cost:.1f}" of {plan.allowance:g}"'
        + (" (stopped by a skirmisher it could not overrun)" if stopped_at else ""),
        actor=unit,
        rule="GEM-2.1.2",
    )
    return stopped_at is None


def _stop_before(path: list[Point], o: Model) -> Point:
    """The front-centre point on the path just short of the skirmisher."""
    r = max(base_size_in(o.base)) / 2 + 0.01
    best = path[0]
    for p, q in zip(path, path[1:]):
        L = math.dist(p, q)
        if L < EPS:
            continue
        ux, uy = (q[0] - p[0]) / L, (q[1] - p[1]) / L
        t = (o.x - p[0]) * ux + (o.y - p[1]) * uy - r
        if 0 <= t <= L:
            return (p[0] + ux * t, p[1] + uy * t)
        if t > L:
            best = q
    return best


def _cut(path: list[Point], end: Point) -> list[Point]:
    out = [path[0]]
    for p, q in zip(path, path[1:]):
        if measure.point_segment_distance(end, p, q) < 1e-6:
            out.append(end)
            return out
        out.append(q)
    return out
