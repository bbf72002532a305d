"""What a move costs and what a figure may spend (GEM-2.1.1): MOV with its spells, the
road bonus, difficult ground counted double and line obstacles with their carried-over
cost.

Why apart from movement.py: every mover (a figure, a block, a charge, troops leaving a
vehicle) asks the same two questions of the same frozen terrain, memoised per table;
movement.py then decides where bases may go.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence

from engine.battlefield import Battlefield
from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import measure
from .spell_effects import mov_bonus
from .tables import terrain, units

Point = tuple[float, float]


def mov(state: GameState, m: Model) -> float:
    """MOV with this turn's spells (GEM-3.5.4: Haste adds, Sloth takes away)."""
    return max(0.0, float(m.stat("MOV", 4)) + mov_bonus(state, m.unit))


def allowance(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    rush: bool,
    also: Sequence[list[Point]] = (),
) -> tuple[float, list[str]]:
    """GEM-2.1.1: what the figure may spend this move; a block is "all on a road" only if
    every figure's path (``also``) is (GEM-I-BLOCK)."""
    base = mov(state, m)
    lines = [f'MOV {base:g}"']
    if rush:
        base *= 2
        lines.append(f'rush: twice MOV = {base:g}" (GEM-I-RUSH)')
    if all(_all_on_road(ctx.battlefield, p) for p in (path, *also)):
        base = float(math.ceil(base * float(units()["terrain"]["road_factor"])))
        lines.append(f'all on a road: x1.5 rounded up = {base:g}" (GEM-2.1.1)')
    debt = float(mv(m).get("obstacle_debt", 0) or 0)
    if debt:
        base -= debt
        lines.append(f'still crossing an obstacle: -{debt:g}" (GEM-2.1.1)')
    return max(0.0, base), lines


_KINDS: dict[str, frozenset[str]] = {}


def _kinds_of(cls: str) -> frozenset[str]:
    """``terrain(cls)`` as a set, read once (units.toml does not change while running)."""
    hit = _KINDS.get(cls)
    if hit is None:
        hit = _KINDS[cls] = frozenset(terrain(cls))
    return hit


def _all_on_road(bf: Battlefield, path: list[Point]) -> bool:
    """GEM-2.1.1: does every leg of the path run along a road (within 0.05")? Memoised
    per table like ``price``: it depends on the path and the terrain alone."""
    roads = _kinds_of("road")
    if not measure.any_of(bf, roads):
        return False  # no road on this table
    memo = measure.memo(bf)
    try:
        key: Hashable = ("road", tuple(path))
        hit = memo.get(key)
    except TypeError:  # points given as lists
        key, hit = None, None
    if hit is None:
        hit = bool(
            measure.features(bf, roads)
            and len(path) > 1
            and all(
                measure.path_in(bf, [p, q], roads) >= math.dist(p, q) - 0.05
                for p, q in zip(path, path[1:])
            )
        )
        if key is not None:
            memo.put(key, hit)
    return hit


def price(ctx: Context, path: list[Point], m: Model | None = None) -> tuple[float, list[str], str]:
    """GEM-2.1.1: cost of a path: 1 per inch, 2 per inch of difficult terrain, 2 per line
    obstacle crossed; a path that ends on an obstacle pays what it has left and carries
    the rest over (returns the obstacle id).

    The price depends on the path and the (frozen) terrain only, so it is memoised per
    battlefield: the AI prices the same moves again in every clone it applies them in."""
    memo = measure.memo(ctx.battlefield)
    try:
        key: Hashable = ("price", tuple(path))
        hit = memo.get(key)
    except TypeError:  # points given as lists
        return _price(ctx, path)
    if hit is None:
        hit = memo.put(key, _price(ctx, path))
    cost, lines, on = hit
    return cost, list(lines), on


def _price(ctx: Context, path: list[Point]) -> tuple[float, list[str], str]:
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
