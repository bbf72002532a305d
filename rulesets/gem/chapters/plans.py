"""Deployment plans (GEM-2.0.4): where each unit of a side will stand, whether a plan keeps
to the deployment zone, and the ready-made plans offered to the AI and to a side that
passes without drawing one.

Why a placement is one anchor per unit: a plan names a point and a facing per unit — a
block's front centre (GEM-I-BLOCK), any other unit's centre (the mean of its figures, which
keep their places around it, turned with it) — so the figures follow from it the same way
whether the plan is being checked, drawn for the AI or carried out on the table.
"""

from __future__ import annotations

import math
from typing import Any

from engine.battlefield import Battlefield, Footprint
from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import is_block, unit_models
from . import blocks, measure
from .tables import setup as setup_table
from .tables import terrain

EDGES = ("south", "north")
Placement = tuple[float, float, float]
Figure = tuple[Model, Footprint]
EPS = 1e-6
#: spacing (inches) the ready-made plans leave between units and inside the zone's lines
SPACING = 1.0
MARGIN = 0.5


def toward(edge: str) -> float:
    """The facing that looks across the table from ``edge`` (at the enemy)."""
    return 90.0 if edge == "south" else 270.0


def zone(bf: Battlefield, edge: str) -> tuple[float, float, float, float]:
    """(x min, y min, x max, y max) of the deployment zone on ``edge`` (GEM-2.0.4)."""
    t = setup_table()
    depth, margin = float(t["zone_depth"]), float(t["end_margin"])
    if edge == "south":
        return margin, 0.0, bf.width - margin, min(depth, bf.depth)
    return margin, max(bf.depth - depth, 0.0), bf.width - margin, bf.depth


def anchor(state: GameState, unit: str) -> Placement:
    """Where the unit stands now, as a placement."""
    if is_block(state, unit):
        rec = blocks.record(state, unit)
        return float(rec["front"][0]), float(rec["front"][1]), float(rec["facing"])
    ms = unit_models(state, unit)
    cx = sum(m.x for m in ms) / len(ms)
    cy = sum(m.y for m in ms) / len(ms)
    return cx, cy, ms[0].facing


def figures(state: GameState, unit: str, place: Placement) -> list[Figure]:
    """Each live figure of ``unit`` and its base once the unit stands at ``place``."""
    x, y, facing = place
    if is_block(state, unit):
        return [
            (m, Footprint(px, py, facing % 360.0, m.base))
            for m, (px, py) in blocks.place(state, unit, (x, y), facing)
        ]
    cx, cy, f0 = anchor(state, unit)
    turn = math.radians(facing - f0)
    c, s = math.cos(turn), math.sin(turn)
    out = []
    for m in unit_models(state, unit):
        dx, dy = m.x - cx, m.y - cy
        fp = Footprint(
            x + dx * c - dy * s, y + dx * s + dy * c, (m.facing + facing - f0) % 360.0, m.base
        )
        out.append((m, fp))
    return out


def parse(raw: Any, edge: str) -> Placement | str:
    """A plan entry [x, y] or [x, y, facing] -> a placement, or what is wrong with it."""
    if not isinstance(raw, (list, tuple)) or len(raw) not in (2, 3):
        return "expected [x, y] or [x, y, facing]"
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw):
        return "expected numbers"
    facing = float(raw[2]) if len(raw) == 3 else toward(edge)
    return float(raw[0]), float(raw[1]), facing % 360.0


def _zone_problem(bf: Battlefield, edge: str, who: str, f: Footprint) -> str:
    x0, y0, x1, y1 = zone(bf, edge)
    xl, yl, xh, yh = measure.bounds(f)
    margin = float(setup_table()["end_margin"])
    depth = float(setup_table()["zone_depth"])
    if xl < -EPS or yl < -EPS or xh > bf.width + EPS or yh > bf.depth + EPS:
        return f"{who} would be off the table"
    if xl < x0 - EPS:
        return (
            f'{who} would stand {xl:.1f}" from the west end; a plan keeps {margin:g}" '
            f"from the ends (GEM-2.0.4)"
        )
    if xh > x1 + EPS:
        return (
            f'{who} would stand {bf.width - xh:.1f}" from the east end; a plan keeps '
            f'{margin:g}" from the ends (GEM-2.0.4)'
        )
    far = yh if edge == "south" else bf.depth - yl
    if far > depth + EPS:
        return (
            f'{who} would reach {far:.1f}" from the {edge} edge; a plan keeps within '
            f'{depth:g}" of its own edge (GEM-2.0.4)'
        )
    return ""


def problems(state: GameState, ctx: Context, side: str, edge: str, placements: Any) -> list[str]:
    """Every reason ``placements`` is not a legal plan for ``side`` on ``edge`` (no dice)."""
    if not isinstance(placements, dict) or not placements:
        return ["a plan gives placements = { unit = [x, y, facing], ... } (GEM-2.0.4)"]
    bf = ctx.battlefield
    units = sorted(state.units(side))
    out = [f"{u} is not a unit of {side}" for u in placements if u not in units]
    missing = [u for u in units if u not in placements]
    if missing:
        out.append(
            f"the plan must place every unit; it leaves out {', '.join(missing)} (GEM-2.0.4)"
        )
    placed: list[tuple[str, Figure]] = []
    impassable = terrain("impassable")
    for u in units:
        if u not in placements:
            continue
        p = parse(placements[u], edge)
        if isinstance(p, str):
            out.append(f"{u}: {p}")
            continue
        for m, f in figures(state, u, p):
            who = f"{m.id} of {u}" if m.id != u else u
            why = _zone_problem(bf, edge, who, f)
            if not why:
                hit = measure.features_under(bf, f, impassable)
                why = f"{who} would stand in {bf.feature(hit[0]).kind} {hit[0]}" if hit else ""
            if why:
                out.append(why)
                break
            placed.append((u, (m, f)))
    for i, (u, (m, f)) in enumerate(placed):
        clash = next(
            (o for v, (o, h) in placed[i + 1 :] if v != u and measure.overlaps(f, h)), None
        )
        if clash is not None:
            out.append(f"{m.id} and {clash.id} would overlap")
            break
    return out


def _shifted(
    state: GameState, plan: dict[str, Placement], bf: Battlefield, edge: str
) -> dict[str, Placement] | None:
    """The plan moved as a whole into the zone (None when it is wider or deeper)."""
    boxes = [measure.bounds(f) for u, p in plan.items() for _, f in figures(state, u, p)]
    xl, yl = min(b[0] for b in boxes), min(b[1] for b in boxes)
    xh, yh = max(b[2] for b in boxes), max(b[3] for b in boxes)
    x0, y0, x1, y1 = zone(bf, edge)
    if xh - xl > x1 - x0 - 2 * MARGIN or yh - yl > y1 - y0 - 2 * MARGIN:
        return None
    dx = max(x0 + MARGIN - xl, 0.0) + min(x1 - MARGIN - xh, 0.0)
    dy = max(y0 + MARGIN - yl, 0.0) + min(y1 - MARGIN - yh, 0.0)
    return {u: (round(x + dx, 2), round(y + dy, 2), f) for u, (x, y, f) in plan.items()}


def kept(state: GameState, ctx: Context, side: str, edge: str) -> dict[str, Placement] | None:
    """The scenario's own layout of the side, turned half round the table if the side set
    out on the other half, then moved as a whole into its zone."""
    bf = ctx.battlefield
    ms = state.live(side)
    far_half = (sum(m.y for m in ms) / len(ms) > bf.depth / 2) == (edge == "south")
    plan = {}
    for u in sorted(state.units(side)):
        x, y, f = anchor(state, u)
        if far_half:
            x, y, f = bf.width - x, bf.depth - y, (f + 180.0) % 360.0
        plan[u] = (x, y, f)
    return _shifted(state, plan, bf, edge)


def line(
    state: GameState, ctx: Context, side: str, edge: str, reverse: bool = False
) -> dict[str, Placement] | None:
    """Units side by side along the front of the zone, facing the enemy, in id order (or
    reversed), a new row behind when one is full."""
    bf = ctx.battlefield
    x0, y0, x1, y1 = zone(bf, edge)
    facing = toward(edge)
    sign = 1.0 if edge == "south" else -1.0
    front = (y1 if edge == "south" else y0) - sign * MARGIN
    cursor, row_back, plan = x0 + MARGIN, front, {}
    for u in sorted(state.units(side), reverse=reverse):
        boxes = [measure.bounds(f) for _, f in figures(state, u, (0.0, 0.0, facing))]
        xl, yl = min(b[0] for b in boxes), min(b[1] for b in boxes)
        xh, yh = max(b[2] for b in boxes), max(b[3] for b in boxes)
        if cursor + (xh - xl) > x1 - MARGIN:
            cursor, front = x0 + MARGIN, row_back - sign * SPACING
        ax = cursor - xl
        ay = front - (yh if edge == "south" else yl)
        plan[u] = (round(ax, 2), round(ay, 2), facing)
        cursor += (xh - xl) + SPACING
        back = ay + (yl if edge == "south" else yh)
        row_back = min(row_back, back) if edge == "south" else max(row_back, back)
    return plan


def ready_made(state: GameState, ctx: Context, side: str, edge: str) -> list[dict[str, list]]:
    """The legal ready-made plans (kept layout, line, reversed line), without repeats."""
    out: list[dict[str, list]] = []
    for plan in (
        kept(state, ctx, side, edge),
        line(state, ctx, side, edge),
        line(state, ctx, side, edge, reverse=True),
    ):
        if plan is None:
            continue
        entry = {u: [x, y, f] for u, (x, y, f) in plan.items()}
        if entry not in out and not problems(state, ctx, side, edge, entry):
            out.append(entry)
    return out
