"""What every UMR move shares (UMR-MOVEMENT): the move modifiers, the cost of a path up
to its rough ground, the die roll and its natural sixes, and walking a model along a
path through the physics service.

Why apart from movement.py: moves, charges, jumps and climbs all use these, and the
climbing and jumping modules must reach them without importing each other.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.battlefield import TerrainFeature
from engine.dice import Modifier, percent
from engine.polygons import crossing, path_prefix, point_in_polygon
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr.chapters import action_dice, combat, common, measure
from rulesets.umr.chapters.terrain import Point, TerrainIndex, table
from rulesets.umr.state import mv


def sync(state: GameState, ctx: Context) -> None:
    ctx.physics.sync_models(state.live())


def move_mods(m: Model, rough_id: str | None) -> list[Modifier]:
    mods = []
    k = int(m.stats.get("MOVE", 0))
    if k:
        mods.append(Modifier(k, "MOVE", "UMR-PERSONALITY"))
    if rough_id:
        mods.append(Modifier(-1, f"rough ground ({rough_id})", "UMR-ROUGH"))
    return mods


def cost_to_rough(idx: TerrainIndex, path: list[Point]) -> tuple[TerrainFeature, float] | None:
    """The first rough ground the path's centre line meets, and the allowance spent
    before reaching it (water counted double); None when the path stays clear.

    Why: UMR-ROUGH takes an inch off the roll of a model moving *through* rough ground,
    so a roll that runs out before the rough ground pays nothing for it."""
    f = idx.rough_on(path)
    if f is None:
        return None
    if point_in_polygon(path[0][0], path[0][1], f.polygon):
        return f, 0.0
    at, run = math.inf, 0.0
    poly = f.polygon
    for a, b in zip(path, path[1:]):
        seg = math.dist(a, b)
        for i in range(len(poly)):
            t = crossing(a, b, poly[i], poly[(i + 1) % len(poly)], clamp_end=False)
            if t is not None:
                at = min(at, run + t * seg)
        if at < math.inf:
            break
        run += seg
    return f, idx.cost(path_prefix(path, at if at < math.inf else 0.0, slack=0.0))


def rough_allowance(rolled: int, before: float | None) -> tuple[float, bool]:
    """The inches a roll gives on a path whose rough ground starts ``before`` inches in:
    the full roll if it runs out first; otherwise one inch less, but never short of the
    rough ground's edge (the lost inch is paid inside it). Returns (allowance, paid)."""
    if before is None or rolled <= before + 1e-9:
        return float(rolled), False
    return max(before, rolled - 1.0), True


def reach_chance(bonus: int, cost: float) -> Fraction:
    """Chance that one movement die (+bonus) covers ``cost`` inches."""
    return combat.at_least(math.ceil(cost - 1e-9), bonus)


def _path_problems(ctx: Context, path: tuple[Point, ...] | list[Point]) -> list[str]:
    why = []
    if len(path) < 2 or all(math.dist(p, path[0]) < 1e-9 for p in path[1:]):
        return ["the move goes nowhere: give `to` or `path`"]
    bf = ctx.battlefield
    for p in path[1:]:
        if not bf.on_table(*p):
            why.append(f"the path leaves the table at ({p[0]:g}, {p[1]:g})")
            break
    f = table(ctx).tall_on(list(path))
    if f is not None:
        why.append(
            f"the path runs into {f.id} ({f.kind}): walls, buildings and rocks "
            f"cannot be walked through, only climbed (UMR-CLIMBING)"
        )
    return why


def _leave_melee(state: GameState, m: Model) -> list[str]:
    if measure.foes_in_contact(state, m):
        why = measure.break_away(state, m)
        return [why] if why else []
    return []


def _start(state: GameState, m: Model, group: str = "move", n: int = 1) -> list[str]:
    return common.climbing(m) + common.need_die(state, m, group, n)


def _spend_n(m: Model, n: int) -> list[str]:
    return [action_dice.spend(m, "move") for _ in range(n)]


def _go(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    allowance: float,
    airborne: bool = False,
) -> tuple[float, float, str | None, bool]:
    """Walk ``path`` with ``allowance`` inches; returns (travelled, swum, blocked_by,
    reached_end)."""
    idx = table(ctx)
    if airborne:
        total = math.dist(path[0], path[-1])
        run = min(total, allowance)
        end = (
            path[-1]
            if run >= total
            else (
                path[0][0] + (path[-1][0] - path[0][0]) * run / total,
                path[0][1] + (path[-1][1] - path[0][1]) * run / total,
            )
        )
        pts, swum, complete = [path[0], end], 0.0, run >= total - 1e-9
    else:
        w = idx.walk(path, allowance)
        pts = [path[0]] + [leg.b for leg in w.legs]
        swum, complete = w.extra, w.complete
    if len(pts) < 2 or math.dist(pts[0], pts[-1]) < 1e-9:
        return 0.0, 0.0, None, False
    sync(state, ctx)
    res = ctx.physics.move(m.id, pts[1:])
    m.x, m.y = res.end
    mv(m)["moved"] = round(float(mv(m).get("moved", 0.0)) + res.travelled, 2)
    return (
        res.travelled,
        (swum if res.complete else min(swum, res.travelled)),
        res.blocked_by,
        complete and res.complete,
    )


def _move_text(
    m: Model,
    verb: str,
    roll_txt: str,
    allowance: float,
    length: float,
    cost: float,
    travelled: float,
    swum: float,
    blocked: str | None,
    reached: bool,
    chance: Fraction,
) -> str:
    s = f'{m.id} {verb}: {roll_txt} = {allowance:g}"; goes {travelled:.1f}"'
    if swum > 0:
        s += f' ({swum:.1f}" of it swimming at half speed, UMR-SWIMMING)'
    if blocked:
        s += f", stopped by {blocked}"
    elif reached:
        s += " and reaches the end of its path"
        if allowance - cost > 0.05:
            s += " (the inches left over are lost, UMR-ACTION-DICE)"
    else:
        s += f' of a {length:.1f}" path'
        if cost > length + 0.05:
            s += f' that costs {cost:.1f}" with the water'
        s += ": the roll runs out"
    return s + f" (chance to reach the end {percent(chance)}, UMR-MOVEMENT)"


def _roll_move(
    ctx: Context,
    m: Model,
    purpose: str,
    mods: list[Modifier],
    n: int,
    srcs: list[str],
    chance: Fraction | None,
) -> tuple[int, list[int], list[str]]:
    r = ctx.dice.roll(
        6, purpose, n=n, modifiers=mods, actor=m.id, rule="UMR-MOVEMENT", chance=chance
    )
    sixes = [
        rule for f, s in zip(r.faces, srcs, strict=True) if (rule := action_dice.six_bonus(m, f, s))
    ]
    return max(0, r.total), list(r.faces), sixes


def _six_text(m: Model, sixes: list[str]) -> str:
    if not sixes:
        return ""
    n = len(sixes)
    what = "a bonus action die" if n == 1 else f"{n} bonus action dice"
    return (
        f"; {'a natural six earns' if n == 1 else f'{n} natural sixes earn'} {m.id} "
        f"{what} to use at once ({sixes[0]})"
    )


def _radius(m: Model) -> float:
    from engine.battlefield import base_radius_in

    return base_radius_in(m.base)
