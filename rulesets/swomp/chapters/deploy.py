"""Deployment (SWOMP "Deployment"), played when the scenario asks for it with
``options = { deployment = true }``: each side sets up within 12" of its own table
edge, units lowest SR first, ties alternating starting with the side that placed a unit
least recently; then the first round begins with its initiative roll.

Why model by model: a unit goes down as one step of the order, but its models are
placed one at a time with a ``deploy`` action (``to``, ``facing``), so each placement
can be refused with its own reason (outside the zone, overlapping a model or a building,
out of the unit's coherency) and the window and the AI place figures the way players do.
Until placed, a model stands where the scenario put it, marked ``undeployed``: nothing
but deployment can happen before everyone is down. SWOMP-I-DEPLOY gives the details.

Options (all optional): ``edges = { blue = "south", red = "north" }`` (default: the edge
nearest each side's models in the scenario), ``inset`` (inches the players agreed to
keep clear of the side edges, default 0).
"""

from __future__ import annotations

import math
from typing import Any

from engine import geometry
from engine.battlefield import Footprint, base_is_round, base_size_in
from engine.ruleset import Context
from engine.state import GameState, Model

from ..actions import Deploy
from ..state import gv, mv
from . import core, morale

R_DEPLOY = "SWOMP-DEPLOY"
DEPTH = 12.0
EDGES = ("south", "north", "west", "east")
FACE = {"south": 90.0, "north": 270.0, "west": 0.0, "east": 180.0}
IMPASSABLE = ("wall", "building", "rocks")


# --- the phase ---------------------------------------------------------------------------


def wanted(state: GameState) -> bool:
    return bool(gv(state).get("options", {}).get("deployment"))


def data(state: GameState) -> dict[str, Any]:
    return core.sw(state).get("deploy") or {}


def active(state: GameState) -> bool:
    d = data(state)
    return bool(d) and not d.get("done")


def start(state: GameState, ctx: Context, first: str | None) -> None:
    """Mark every model undeployed and hand the first placement to its side."""
    opts = gv(state).get("options", {})
    edges = dict(opts.get("edges", {}) or {})
    for side in state.sides:
        edges.setdefault(side, nearest_edge(ctx, state.live(side)))
    core.sw(state)["deploy"] = {
        "edges": edges,
        "inset": float(opts.get("inset", 0) or 0),
        "unit": None,
        "last": {},
        "count": 0,
        "first": first,
        "done": False,
    }
    for m in state.live():
        mv(m)["undeployed"] = True
        m.set_status("undeployed")
    state.phase = "deployment"
    state.active = next_side(state)
    zones = ", ".join(f'{s} within {DEPTH:g}" of the {e} edge' for s, e in edges.items())
    ctx.log.emit("note", f"deployment: {zones}; units go down lowest SR first", rule=R_DEPLOY)


def nearest_edge(ctx: Context, ms: list[Model]) -> str:
    """The table edge nearest a side's models as the scenario set them out."""
    if not ms:
        return "south"
    bf = ctx.battlefield
    x = sum(m.x for m in ms) / len(ms)
    y = sum(m.y for m in ms) / len(ms)
    gaps = {"south": y, "north": bf.depth - y, "west": x, "east": bf.width - x}
    return min(EDGES, key=lambda e: (gaps[e], EDGES.index(e)))


def unit_sr(state: GameState, unit: str) -> int:
    """A unit's rank in the order: the SR of its highest-ranked model (its commander)."""
    return max(core.stat(m, "SR") for m in state.units(live=False)[unit])


def waiting(state: GameState) -> dict[str, list[Model]]:
    """Units with models still to place -> those models."""
    out: dict[str, list[Model]] = {}
    for m in state.live():
        if mv(m).get("undeployed"):
            out.setdefault(m.unit, []).append(m)
    return out


def side_of(state: GameState, unit: str) -> str:
    return state.units(live=False)[unit][0].side


def next_side(state: GameState) -> str | None:
    """Whose placement it is: the side of the unit being placed, else of the lowest-SR
    unit left; on a tie, the side that placed a unit least recently (never counts as
    longest ago, then the scenario's order of sides)."""
    d = data(state)
    if d.get("unit"):
        return side_of(state, d["unit"])
    left = waiting(state)
    if not left:
        return None
    low = min(unit_sr(state, u) for u in left)
    sides = {side_of(state, u) for u in left if unit_sr(state, u) == low}
    return min(sides, key=lambda s: (d["last"].get(s, -1), state.sides.index(s)))


def ready_units(state: GameState) -> list[str]:
    """The units the side to place may place from now."""
    d = data(state)
    if d.get("unit"):
        return [d["unit"]]
    side = next_side(state)
    left = waiting(state)
    if side is None:
        return []
    low = min(unit_sr(state, u) for u in left)
    return sorted(u for u in left if unit_sr(state, u) == low and side_of(state, u) == side)


# --- where a model may go ----------------------------------------------------------------


def corners(fp: Footprint) -> list[tuple[float, float]]:
    """The extreme points of a base along the table's axes (a round base's four poles)."""
    if base_is_round(fp.base):
        r = base_size_in(fp.base)[0] / 2
        return [(fp.x - r, fp.y), (fp.x + r, fp.y), (fp.x, fp.y - r), (fp.x, fp.y + r)]
    w, dd = base_size_in(fp.base)
    f = math.radians(fp.facing)
    ux, uy = math.cos(f), math.sin(f)
    vx, vy = -uy, ux
    return [
        (fp.x + a * dd / 2 * ux + b * w / 2 * vx, fp.y + a * dd / 2 * uy + b * w / 2 * vy)
        for a in (-1, 1)
        for b in (-1, 1)
    ]


def reach_into(ctx: Context, edge: str, pts: list[tuple[float, float]]) -> float:
    """How far onto the table from ``edge`` the base reaches (its farthest point)."""
    bf = ctx.battlefield
    far = {
        "south": lambda p: p[1],
        "north": lambda p: bf.depth - p[1],
        "west": lambda p: p[0],
        "east": lambda p: bf.width - p[0],
    }[edge]
    return max(far(p) for p in pts)


def along(ctx: Context, edge: str, pts: list[tuple[float, float]]) -> tuple[float, float]:
    """The base's span along its edge (for the agreed side-edge inset)."""
    bf = ctx.battlefield
    if edge in ("south", "north"):
        xs = [p[0] for p in pts]
        return min(xs), bf.width - max(xs)
    ys = [p[1] for p in pts]
    return min(ys), bf.depth - max(ys)


def spot_problems(
    state: GameState, ctx: Context, m: Model, to: tuple[float, float], facing: float
) -> list[str]:
    d = data(state)
    edge = d["edges"][m.side]
    fp = Footprint(float(to[0]), float(to[1]), float(facing), m.base)
    pts = corners(fp)
    bf = ctx.battlefield
    if not all(bf.on_table(x, y) for x, y in pts):
        return [f"({to[0]:g}, {to[1]:g}) puts {m.id}'s base off the table"]
    r: list[str] = []
    deep = reach_into(ctx, edge, pts)
    if deep > DEPTH + 1e-6:
        r.append(
            f"{m.id}'s base would reach {deep:.1f}\" from the {edge} edge: {m.side} deploys "
            f'within {DEPTH:g}" of it ({R_DEPLOY})'
        )
    inset = float(d.get("inset", 0))
    if inset and min(along(ctx, edge, pts)) < inset - 1e-6:
        r.append(
            f'{m.id} would be within the {inset:g}" the players agreed to keep clear of '
            f"the side edges ({R_DEPLOY})"
        )
    for o in state.live():
        if o.id != m.id and not mv(o).get("undeployed") and geometry.overlaps(fp, fpm(o)):
            r.append(f"{m.id}'s base would overlap {o.id}")
            break
    feats = {f.id: f for f in bf.terrain}
    for fid in geometry.features_under(fp, bf):
        if feats[fid].kind in IMPASSABLE:
            r.append(f"{m.id}'s base would stand in {fid} ({feats[fid].kind}): impassable")
            break
    if not r:
        r += coherency_problems(state, m, fp)
    return r


def fpm(m: Model) -> Footprint:
    b = m.base
    return Footprint(m.x, m.y, m.facing, tuple(b) if isinstance(b, list) else b)


def coherency_problems(state: GameState, m: Model, fp: Footprint) -> list[str]:
    """A unit starts in coherency: each model goes down within the coherency distance of
    a model of its unit already placed (SWOMP-I-DEPLOY)."""
    mates = [
        o for o in core.unit_models(state, m.unit) if o.id != m.id and not mv(o).get("undeployed")
    ]
    if not mates:
        return []
    gap = min(geometry.distance(fp, fpm(o)) for o in mates)
    limit = morale.coherency(state, m.unit)
    if gap > limit + 1e-6:
        return [
            f'{m.id} would be {gap:.1f}" from the nearest placed model of {m.unit}, '
            f'beyond its {limit:g}" coherency ({morale.R_COHERENCY})'
        ]
    return []


# --- check and apply ---------------------------------------------------------------------


def problems(state: GameState, ctx: Context, action: Deploy) -> list[str]:
    m = state.models.get(action.actor)
    if m is None or m.removed:
        return [f"no model '{action.actor}' to deploy"]
    if not mv(m).get("undeployed"):
        return [f"{m.id} is already deployed"]
    side = next_side(state)
    if m.side != side:
        return [f"it is {side}'s turn to deploy ({R_DEPLOY})"]
    ready = ready_units(state)
    if m.unit not in ready:
        return [
            f"{m.unit} (SR {unit_sr(state, m.unit)}) is not next: units deploy lowest SR "
            f"first; {side} places {' or '.join(ready)} now ({R_DEPLOY})"
        ]
    if action.to is None:
        return ["a deployment needs 'to' (where the model goes)"]
    return spot_problems(state, ctx, m, action.to, facing_of(state, m, action))


def facing_of(state: GameState, m: Model, action: Deploy) -> float:
    if action.facing is not None:
        return float(action.facing) % 360
    return FACE[data(state)["edges"][m.side]]


def apply(state: GameState, ctx: Context, action: Deploy) -> bool:
    """Place the model; True once everyone is down (the caller starts round 1)."""
    d = data(state)
    m = state.models[action.actor]
    assert action.to is not None
    m.x, m.y = round(float(action.to[0]), 2), round(float(action.to[1]), 2)
    m.facing = facing_of(state, m, action)
    mv(m).pop("undeployed", None)
    m.set_status("undeployed", False)
    if d.get("unit") != m.unit:
        d["last"][m.side] = d["count"]
        d["count"] = int(d["count"]) + 1
    d["unit"] = m.unit if m.unit in waiting(state) else None
    ctx.log.emit(
        "move",
        f"{m.id} deploys at ({m.x:.2f}, {m.y:.2f}) facing {m.facing:g}\u00b0",
        actor=m.id,
        rule=R_DEPLOY,
        data={"to": [m.x, m.y]},
    )
    if waiting(state):
        state.active = next_side(state)
        return False
    d["done"] = True
    ctx.log.emit("note", "deployment is complete: the first round begins", rule=R_DEPLOY)
    return True


# --- choices -----------------------------------------------------------------------------


def spots(state: GameState, ctx: Context, m: Model) -> list[tuple[float, float]]:
    """Places to try for ``m``, best first: where the scenario set it, round its placed
    unit-mates, then a sweep of its zone."""
    d = data(state)
    edge = d["edges"][m.side]
    out = [m.pos]
    mates = [
        o for o in core.unit_models(state, m.unit) if o.id != m.id and not mv(o).get("undeployed")
    ]
    step = max(base_size_in(m.base)) + 0.2
    for o in mates[-2:]:
        for k in range(8):
            a = math.radians(45 * k)
            out.append((round(o.x + step * math.cos(a), 2), round(o.y + step * math.sin(a), 2)))
    bf = ctx.battlefield
    depth = max(0.5, DEPTH - step)
    for frac in (0.5, 0.25, 0.75, 0.1, 0.9):
        for inward in (depth / 2, step / 2 + 0.1, depth):
            if edge in ("south", "north"):
                x = bf.width * frac
                y = inward if edge == "south" else bf.depth - inward
            else:
                y = bf.depth * frac
                x = inward if edge == "west" else bf.width - inward
            out.append((round(x, 2), round(y, 2)))
    return out


def legal_spots(
    state: GameState, ctx: Context, m: Model, limit: int = 3
) -> list[tuple[float, float]]:
    face = FACE[data(state)["edges"][m.side]]
    got: list[tuple[float, float]] = []
    for p in spots(state, ctx, m):
        if p not in got and not spot_problems(state, ctx, m, p, face):
            got.append(p)
            if len(got) >= limit:
                return got
    if not got:
        got += sweep(state, ctx, m, face)
    return got


def sweep(state: GameState, ctx: Context, m: Model, face: float) -> list[tuple[float, float]]:
    """Last resort: the first legal spot on a 1" grid over the whole zone."""
    bf = ctx.battlefield
    for gx in range(1, int(bf.width)):
        for gy in range(1, int(bf.depth)):
            p = (float(gx), float(gy))
            if not spot_problems(state, ctx, m, p, face):
                return [p]
    return []


def candidates(state: GameState, ctx: Context) -> list[Deploy]:
    """A few legal placements for the next models to go down."""
    out: list[Deploy] = []
    ready = ready_units(state)
    left = waiting(state)
    for unit in ready[:2]:
        for m in left[unit][:2]:
            out += [Deploy(actor=m.id, to=p) for p in legal_spots(state, ctx, m)]
    return out
