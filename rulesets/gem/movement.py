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
from dataclasses import dataclass, field

from engine.battlefield import Footprint, base_size_in
from engine.ruleset import Context
from engine.state import GameState, Model

from . import blocks, measure
from .build import in_block_order, mtype
from .gstate import (
    disorganized,
    engage,
    foes_in_melee,
    g,
    in_melee,
    is_block,
    unit_models,
)
from .tables import terrain, units

Point = tuple[float, float]
EPS = 1e-6


@dataclass
class Plan:
    """A priced move: what it costs, what it may spend, and why it may not be made."""

    cost: float = 0.0
    allowance: float = 0.0
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    ends_on_obstacle: str = ""


def mov(state: GameState, m: Model) -> float:
    """MOV with this turn's spells (GEM-3.5.4: Haste adds, Sloth takes away)."""
    from .magic import mov_bonus

    return max(0.0, float(m.stat("MOV", 4)) + mov_bonus(state, m.unit))


def allowance(
    state: GameState, ctx: Context, m: Model, path: list[Point], rush: bool
) -> tuple[float, list[str]]:
    """GEM-2.1.1: what the figure may spend this move."""
    base = mov(state, m)
    lines = [f'MOV {base:g}"']
    if rush:
        base *= 2
        lines.append(f'rush: twice MOV = {base:g}" (GEM-I-RUSH)')
    bf, roads = ctx.battlefield, terrain("road")
    if (
        measure.features(bf, roads)
        and len(path) > 1
        and all(
            measure.path_in(bf, [p, q], roads) >= math.dist(p, q) - 0.05
            for p, q in zip(path, path[1:])
        )
    ):
        base = float(math.ceil(base * float(units()["terrain"]["road_factor"])))
        lines.append(f'all on a road: x1.5 rounded up = {base:g}" (GEM-2.1.1)')
    debt = float(m.vars.get("obstacle_debt", 0) or 0)
    if debt:
        base -= debt
        lines.append(f'still crossing an obstacle: -{debt:g}" (GEM-2.1.1)')
    return max(0.0, base), lines


def price(ctx: Context, path: list[Point], m: Model | None = None) -> tuple[float, list[str], str]:
    """GEM-2.1.1: cost of a path: 1 per inch, 2 per inch of difficult terrain, 2 per line
    obstacle crossed; a path that ends on an obstacle pays what it has left and carries
    the rest over (returns the obstacle id)."""
    bf = ctx.battlefield
    length = measure.path_length(path)
    diff = measure.path_in(bf, path, terrain("difficult"))
    cost = length + diff
    lines = [f'{length:.1f}" of ground']
    if diff > 0.005:
        lines.append(f'{diff:.1f}" of it difficult: counts double (GEM-2.1.1)')
    on = ""
    obstacle_cost = float(units()["terrain"]["obstacle_cost"])
    kinds = terrain("obstacle")
    start_on = set(measure.features_at(bf, path[0], kinds))
    end_on = set(measure.features_at(bf, path[-1], kinds))
    crossing = set(measure.crossed(bf, path, kinds))
    for f in measure.features(bf, kinds):
        if f.id in start_on:
            continue  # the cost was paid (or carried over) when it got onto it
        if f.id in end_on:
            on = f.id
            continue
        if f.id in crossing:
            cost += obstacle_cost
            lines.append(f'crosses {f.kind} {f.id}: +{obstacle_cost:g}" (GEM-2.1.1)')
    return cost, lines, on


def _phys(ctx: Context, state: GameState, lift: set[str] = frozenset()):  # type: ignore[assignment]
    ph = ctx.physics
    fps = {m.id: Footprint(m.x, m.y, m.facing, m.base) for m in state.live() if m.id not in lift}
    sig = tuple(fps.items())
    if getattr(ph, "_gem_sig", None) != sig:
        ph.sync(fps)
        ph._gem_sig = sig  # type: ignore[attr-defined]
    return ph


def can_move_problems(state: GameState, unit: str, m: Model) -> list[str]:
    out = []
    if m.vars.get("moved_done"):
        out.append(f"{m.id} has already moved this turn")
    if disorganized(m):
        out.append(f"{unit} is disorganized and cannot move this turn (GEM-2.4.5)")
    if m.vars.get("frontage"):
        out.append(f"{unit} changed frontage or order instead of moving (GEM-2.1.3)")
    if is_block(state, unit) and in_melee(state, unit):
        out.append(f"block {unit} cannot move out of a melee (GEM-2.1.2)")
    if mtype(m) == "vehicle":
        out.append(f"{m.id} is a vehicle: use drive (GEM-2.1.6)")
    return out


# ------------------------------------------------------------------ single figures
def plan_model(
    state: GameState, ctx: Context, m: Model, path: list[Point], rush: bool, charge_target: str = ""
) -> Plan:
    p = Plan()
    p.problems += can_move_problems(state, m.unit, m)
    cost, lines, on = price(ctx, path, m)
    allow, alines = allowance(state, ctx, m, path, rush)
    p.cost, p.allowance, p.lines = cost, allow, alines + lines
    if on:
        p.ends_on_obstacle = on
    if cost > allow + 0.01:
        p.problems.append(f'too far: costs {cost:.1f}" but {m.id} may move {allow:g}" (GEM-2.1.1)')
    if not charge_target and len(path) > 1 and not p.problems:
        ph = _phys(ctx, state)
        res = ph.move(m.id, path[1:])
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
    m.vars["moved"] = round(float(m.vars.get("moved", 0) or 0) + measure.path_length(path), 3)
    m.vars["moved_done"] = True
    m.vars.pop("obstacle_debt", None)
    m.set_status("crossing", False)
    if rush:
        m.vars["rushed"] = True
    if plan.ends_on_obstacle:
        m.vars["obstacle_debt"] = float(units()["terrain"]["obstacle_cost"])
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
            g(state)["melee"] = [
                e
                for e in g(state).get("melee", [])
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
    w, d = blocks.slot_size(unit_models(state, unit, live=False))
    r_slot = max(w, d) / 2
    hits: list[tuple[float, Model]] = []
    for o in state.live():
        if o.unit == unit:
            continue
        ro = max(base_size_in(o.base)) / 2
        swept = any(
            measure.point_segment_distance(o.pos, p, q) < half + ro - 0.02 and _ahead(p, q, o.pos)
            for p, q in zip(path, path[1:])
        )
        covered = any(math.dist(o.pos, s) < r_slot + ro - 0.02 for s in end_slots)
        if swept or covered:
            hits.append((math.dist(path[0], o.pos), o))
    hits.sort(key=lambda x: (x[0], x[1].id))
    return [o for _, o in hits]


def _ahead(p: Point, q: Point, o: Point) -> bool:
    dx, dy = q[0] - p[0], q[1] - p[1]
    return (o[0] - p[0]) * dx + (o[1] - p[1]) * dy > 0


def is_skirmisher(m: Model) -> bool:
    return mtype(m) == "skirmisher" or (mtype(m) == "peltast" and not in_block_order(m))


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
    cost, lines, on = price(ctx, path)
    wc = wheel_cost(state, unit, rec["facing"], facing)
    if wc > 0.005:
        lines.append(
            f"wheel of {measure.angle_diff(rec['facing'], facing):.0f} degrees: "
            f'+{wc:.1f}" (GEM-I-WHEEL)'
        )
    allow, alines = allowance(state, ctx, lead, path, rush)
    p.cost, p.allowance, p.lines = cost + wc, allow, alines + lines
    if on:
        p.ends_on_obstacle = on
    if p.cost > allow + 0.01:
        p.problems.append(
            f'too far: costs {p.cost:.1f}" but {unit} may move {allow:g}" (GEM-2.1.1)'
        )
    bf = ctx.battlefield
    imp = terrain("impassable")
    for m, (x, y) in blocks.place(state, unit, path[-1], facing):
        if not bf.on_table(x, y):
            p.problems.append(f"{m.id} would leave the table at ({x:.1f}, {y:.1f})")
            break
        if measure.features_under(bf, Footprint(x, y, facing, m.base), imp):
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
    charge_target: str = "",
) -> bool:
    """Move the block; overrun skirmishers in its way. False if an overrun stopped it."""
    from .melee import overrun

    stopped_at: Point | None = None
    for o in block_corridor(state, unit, path, facing):
        if o.id == charge_target or o.removed or not is_skirmisher(o):
            continue
        if o.side == blocks.live_order(state, unit)[0].side:
            o.removed = True
            o.hp = 0
            o.set_status("overrun")
            g(state)["strength"][o.unit] = max(0, g(state)["strength"].get(o.unit, 0) - o.max_hp)
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
        m.vars["moved"] = round(float(m.vars.get("moved", 0) or 0) + dist, 3)
        m.vars["moved_done"] = True
        m.vars.pop("obstacle_debt", None)
        m.set_status("crossing", False)
        if rush:
            m.vars["rushed"] = True
        if plan.ends_on_obstacle and stopped_at is None:
            m.vars["obstacle_debt"] = float(units()["terrain"]["obstacle_cost"])
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


# ------------------------------------------------------------------ frontage and order
def frontage_problems(state: GameState, unit: str, files: int) -> list[str]:
    """GEM-2.1.3: up to two figures more or fewer on each side, instead of moving."""
    out = []
    if not is_block(state, unit):
        return [f"{unit} is not a block"]
    lead = blocks.live_order(state, unit)[0]
    out += [p for p in can_move_problems(state, unit, lead)]
    rec = blocks.record(state, unit)
    if files == rec["files"]:
        out.append(f"{unit} already has {files} files")
    if abs(files - rec["files"]) > 4:
        out.append(
            f"frontage changes by up to two figures on each side: {rec['files']} "
            f"files can become {max(1, rec['files'] - 4)} to {rec['files'] + 4} "
            f"(GEM-2.1.3)"
        )
    why = blocks.shape_problem(len(blocks.live_order(state, unit)), files)
    if why:
        out.append(why + " (GEM-2.1.2)")
    return out


def change_frontage(state: GameState, ctx: Context, unit: str, files: int) -> None:
    rec = blocks.record(state, unit)
    old = rec["files"]
    front = (float(rec["front"][0]), float(rec["front"][1]))
    blocks.apply_place(state, unit, front, rec["facing"], files)
    for m in blocks.live_order(state, unit):
        m.vars["frontage"] = True
        m.vars["moved_done"] = True
    ctx.log.emit(
        "status",
        f"{unit} changes frontage from {old} to {files} files instead of moving (GEM-2.1.3)",
        actor=unit,
        rule="GEM-2.1.3",
    )


def order_problems(state: GameState, unit: str, order: str) -> list[str]:
    """GEM-2.3.4: peltasts switch between block and skirmish order instead of moving."""
    ms = unit_models(state, unit)
    if not ms or any(mtype(m) != "peltast" for m in ms):
        return ["only peltasts change order (GEM-2.3.4)"]
    out = [p for p in can_move_problems(state, unit, ms[0]) if "block" not in p or "melee" not in p]
    if in_melee(state, unit):
        out.append(f"{unit} is in a melee")
    if order not in ("block", "skirmish"):
        out.append("order is 'block' or 'skirmish'")
    elif all(m.vars.get("order") == order for m in ms):
        out.append(f"{unit} is already in {order} order")
    elif order == "block":
        files = max(2, math.ceil(math.sqrt(len(ms))))
        why = blocks.shape_problem(len(ms), files)
        if why:
            out.append(why + " (GEM-2.1.2)")
    return out


def change_order(state: GameState, ctx: Context, unit: str, order: str) -> None:
    ms = unit_models(state, unit)
    if order == "block":
        files = max(2, math.ceil(math.sqrt(len(ms))))
        lead = ms[0]
        ux, uy = math.cos(math.radians(lead.facing)), math.sin(math.radians(lead.facing))
        cx = sum(m.x for m in ms) / len(ms)
        cy = sum(m.y for m in ms) / len(ms)
        w, d = blocks.slot_size(ms)
        depth = (len(ms) // files) * d
        front = (cx + ux * depth / 2, cy + uy * depth / 2)
        for m in ms:
            m.vars["order"] = "block"
        g(state).setdefault("blocks", {})[unit] = {
            "files": files,
            "formed": len(ms),
            "order": [m.id for m in ms],
            "front": [front[0], front[1]],
            "facing": lead.facing,
        }
        blocks.apply_place(state, unit, front, lead.facing)
    else:
        for m in ms:
            m.vars["order"] = "skirmish"
        g(state).get("blocks", {}).pop(unit, None)
    for m in ms:
        m.vars["frontage"] = True
        m.vars["moved_done"] = True
    ctx.log.emit(
        "status",
        f"peltasts {unit} change to {order} order instead of moving (GEM-2.3.4)",
        actor=unit,
        rule="GEM-2.3.4",
    )
