"""Where overwatch may fire: the overwatched area (a working weapon's fire arc out to its
range, with sight and the targeting rules), the first point of an enemy move inside it,
and the enemy models already standing in it when their unit begins an action (SWOMP
"Shooting: Overwatch": "The overwatching unit may then shoot at any time up until its
next turn"; SWOMP-I-OVERWATCH-MOMENTS).

Why apart: the moments overwatch is offered are geometry (the swept path of a move
against each watcher's arc, then sight point by point); the decision they raise and what
the interrupted action still owes are pending.py's.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from engine.battlefield import base_radius_in
from engine.geometry import arc_entry, point_along
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint

from ..state import mv
from . import core, shooting, table
from .catalog import COVER_BONUS

Point = tuple[float, float]


def watchers_of(state: GameState, side: str, skip: Iterable[str] = ()) -> list[Model]:
    """The enemy models of ``side`` on overwatch and free to fire (not in close combat)."""
    gone = set(skip)
    return [
        w
        for w in state.live()
        if w.side != side and mv(w).get("overwatch") and not core.engaged(w) and w.id not in gone
    ]


def usable(w: Model) -> list[dict]:
    """The weapons an overwatching model watches with: its working ranged weapons."""
    return [x for x in core.ranged(w) if x["name"] not in mv(w).get("jammed", [])]


def in_area(state: GameState, ctx: Context, w: Model, targets: list[Model]) -> bool:
    """One of ``targets`` stands in ``w``'s overwatched area: "the weapon's fire arc,
    out to maximum range", sighted, and a legal target by the targeting rules."""
    for wpn in usable(w):
        rng = float(wpn.get("range", 0))
        near = [t for t in targets if table.distance(w, t) <= rng]
        if near and may_aim_at_any(state, ctx, w, near, wpn):
            return True
    return False


def may_aim_at_any(
    state: GameState, ctx: Context, shooter: Model, targets: list[Model], weapon: dict
) -> bool:
    """Is any of ``targets`` one the weapon may be aimed at (``target_problem`` is '')?

    Why not ``any(target_problem ...)``: the targets (a moving unit) are tried nearest
    first, and one already found in view rules out a farther one of its size class by
    the targeting rule when it is no harder to hit than the farther one is at the least
    (with only its standing cover and its speed), without measuring the farther one's
    sight. Same answer, fewer of the dearest measures (issue 24)."""
    found: list[shooting.Seen] = []
    for d, _, t in sorted((table.distance(shooter, t), t.id, t) for t in targets):
        size = mv(t).get("size", "medium")
        if any(c.size == size and c.evasion <= least_evasion(t, weapon) for c in found):
            continue
        if shooting.target_problem(state, ctx, shooter, t, weapon) == "":
            return True
        s = shooting.seen_one(state, ctx, shooter, t, weapon, d)
        if s is not None:
            found.append(s)
    return False


def least_evasion(t: Model, weapon: dict) -> int:
    """The least evasion ``sighted`` can give the target against this weapon: its speed,
    and the cover it stands in (none against a radar sight)."""
    standing = table.NONE if weapon.get("radar") else mv(t).get("cover", table.NONE)
    return COVER_BONUS.get(standing, 0) + shooting.move_bonus(t)


def arcs(w: Model) -> list[tuple[float, float]]:
    """Each working weapon's fire arc and range: the area it overwatches."""
    return [(float(x.get("arc", 360)), float(x.get("range", 0))) for x in usable(w)]


def first_shot(
    state: GameState,
    ctx: Context,
    paths: dict[str, list[Point]],
    skip: Iterable[str] = (),
    from_start: bool = False,
) -> tuple[float, list[str]] | None:
    """The first distance along the moving models' (parallel) paths at which an enemy
    watcher that could not fire at them where they started may fire at one of them, and
    the watchers that may; None if the move passes no such point before its end (the end
    of a move is offered as before, pending.trigger_overwatch). ``from_start``: the
    movers were not offered where they start (a model that has just broken away from a
    close combat), so every watcher counts, from the first step.

    The swept path of each base is cut against each watcher's arc out to range
    (``engine.geometry.arc_entry``); only the stretch inside is read for sight and targeting, every
    ``table.SAMPLE`` inches, as fine as a tape measure."""
    movers = [state.models[mid] for mid in paths]
    if not movers:
        return None
    ws = [
        w
        for w in watchers_of(state, movers[0].side, skip)
        if from_start or not in_area(state, ctx, w, movers)
    ]
    length = max(
        (sum(math.dist(p, q) for p, q in zip(pts, pts[1:])) for pts in paths.values()),
        default=0.0,
    )
    if not ws or length <= table.SAMPLE:
        return None
    entry = length
    for m in movers:
        reach = base_radius_in(m.base)
        for w in ws:
            s = arc_entry(paths[m.id], reach, footprint(w), arcs(w))
            if s is not None:
                entry = min(entry, s)
    first = 0.0 if from_start else table.SAMPLE
    return _sample_from(state, ctx, paths, ws, entry, length, first)


def _sample_from(
    state: GameState,
    ctx: Context,
    paths: dict[str, list[Point]],
    ws: list[Model],
    entry: float,
    length: float,
    first: float = table.SAMPLE,
) -> tuple[float, list[str]] | None:
    """Walk the stretch from ``entry`` to just short of the end, reading sight with the
    movers set down at each sample (a vehicle turned along the leg it drives), put back
    where they stood afterwards."""
    movers = [state.models[mid] for mid in paths]
    home = {m.id: (m.x, m.y, m.facing) for m in movers}
    s = max(first, math.floor(entry / table.SAMPLE) * table.SAMPLE)
    try:
        while s < length - 1e-6:
            for m in movers:
                m.x, m.y = point_along(paths[m.id], s)
                if core.is_vehicle(m):
                    m.facing = heading_at(paths[m.id], s, home[m.id][2])
            fire = [w.id for w in ws if in_area(state, ctx, w, movers)]
            if fire:
                return round(s, 2), fire
            s += table.SAMPLE
        return None
    finally:
        for m in movers:
            m.x, m.y, m.facing = home[m.id]


def heading_at(path: Sequence[Point], s: float, facing: float) -> float:
    """The heading of the leg of ``path`` that distance ``s`` falls on (a vehicle faces
    the way it drives); ``facing`` if the path has no length."""
    walked = 0.0
    for a, b in zip(path, path[1:]):
        leg = math.dist(a, b)
        if leg < 1e-9:
            continue
        facing = table.bearing(a, b)
        if walked + leg >= s:
            return facing
        walked += leg
    return facing


def split(path: Sequence[Point], s: float) -> tuple[list[Point], list[Point]]:
    """The path up to distance ``s`` and the rest from there."""
    cut = point_along(path, s)
    pts = [(float(p[0]), float(p[1])) for p in path]
    done = [pts[0]]
    walked = 0.0
    for i in range(1, len(pts)):
        leg = math.dist(pts[i - 1], pts[i])
        if walked + leg < s - 1e-9:
            done.append(pts[i])
            walked += leg
            continue
        rest = [cut] + [p for p in pts[i:] if p != cut]
        return done + [cut], rest
    return done, [cut]


def standing(state: GameState, ctx: Context, targets: list[Model]) -> dict[str, list[str]]:
    """Side -> its watchers that may fire at one of ``targets`` where they stand."""
    out: dict[str, list[str]] = {}
    live = [t for t in targets if not t.removed]
    if not live:
        return out
    for w in watchers_of(state, live[0].side):
        if in_area(state, ctx, w, live):
            out.setdefault(w.side, []).append(w.id)
    return out
