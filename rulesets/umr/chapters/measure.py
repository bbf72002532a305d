"""What UMR measures on the table: base contact, who is locked in which melee, and the
line of fire (the 1/4-3/4 method and the range bands) between two models.

Why a module: check(), apply(), odds() and the AI all ask these same questions; they are
answered here once in UMR's terms, from the engine's table service (``ctx.table``: base
gaps, sight, memoised per battlefield) so that hovering and AI candidate lists stay cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.battlefield import Footprint
from engine.polygons import closest_point, point_in_polygon
from engine.ruleset import NO_SIGHT, OUT_OF_RANGE, Context, Reason
from engine.state import GameState, Model
from engine.table import distance, footprint
from rulesets.umr.chapters.terrain import table
from rulesets.umr.state import mv, remember

T = TypeVar("T")

#: Bases closer than this (inches) are in base contact (UMR-I-CONTACT).
CONTACT = 0.1
#: Range bands (UMR-RANGE): under 12" no penalty, 12" to 24" -1, beyond 24" no shot.
SHORT_RANGE = 12.0
LONG_RANGE = 24.0
#: The 1/4-3/4 method (UMR-BALLISTIC): hidden share up to which a shot is clear / in cover.
CLEAR_HIDDEN = 0.25
COVER_HIDDEN = 0.75


def gap(a: Model, b: Model) -> float:
    """Base edge to base edge (inches)."""
    return distance(a, b)


def same_level(a: Model, b: Model) -> bool:
    """Models up on a tall feature and models on the ground cannot touch (UMR-I-CLIMB)."""
    return abs(float(mv(a).get("elev", 0.0)) - float(mv(b).get("elev", 0.0))) < 1e-6


def in_contact(a: Model, b: Model) -> bool:
    return same_level(a, b) and gap(a, b) <= CONTACT


def swimming(ctx: Context, m: Model) -> bool:
    """On the ground in water (UMR-SWIMMING): such a model makes no attacks."""
    return float(mv(m).get("elev", 0.0)) == 0.0 and table(ctx).in_water(m.pos) is not None


def refresh_status(ctx: Context, m: Model) -> None:
    """Status words the JSON runner and the window show: swimming, climbing, elevated."""
    if m.removed:
        m.status = []
        return
    m.set_status("swimming", swimming(ctx, m))
    m.set_status("climbing", bool(mv(m).get("climb")))
    m.set_status("elevated", float(mv(m).get("elev", 0.0)) > 0 and not mv(m).get("climb"))


def live(state: GameState) -> list[Model]:
    """``state.live()`` (id order), answered once while the state is frozen."""
    return remember(state, ("live",), state.live)


def units(state: GameState, side: str | None = None) -> dict[str, list[Model]]:
    """``state.units(side)`` (live models, id order), answered once while frozen."""
    return remember(state, ("units", side), lambda: state.units(side))


def foes_in_contact(state: GameState, m: Model) -> list[Model]:
    """Live enemies in base contact with ``m`` (id order)."""
    return remember(state, ("contact", m.id), lambda: _contact_scan(state, m))


def engaged(state: GameState) -> frozenset[str]:
    """Ids of the live models in base contact with a live enemy (those for which
    ``foes_in_contact`` is not empty), answered once while frozen. Why: the position
    score asks it of every model, and one pass over the pairs is far cheaper than a
    scan of the table per model (issue 24)."""
    return remember(state, ("engaged",), lambda: _engaged_scan(state))


def _engaged_scan(state: GameState) -> frozenset[str]:
    live = [m for m in state.models.values() if not m.removed]
    out: set[str] = set()
    for i, m in enumerate(live):
        x, y, side = m.x, m.y, m.side
        for o in live[i + 1 :]:
            if (
                o.side != side
                and abs(o.x - x) < 4
                and abs(o.y - y) < 4
                and (m.id not in out or o.id not in out)
                and in_contact(m, o)
            ):
                out.add(m.id)
                out.add(o.id)
    return frozenset(out)


def _contact_scan(state: GameState, m: Model) -> list[Model]:
    """Scan the models unsorted, then sort the few hits: the list a scan of
    ``state.live()`` gives, without sorting every model first."""
    x, y, side = m.x, m.y, m.side
    out = [
        o
        for o in state.models.values()
        if o.side != side
        and not o.removed
        and abs(o.x - x) < 4
        and abs(o.y - y) < 4
        and o.id != m.id
        and in_contact(m, o)
    ]
    return sorted(out, key=lambda o: o.id) if len(out) > 1 else out


def melee_group(state: GameState, m: Model) -> list[Model]:
    """Everyone in the same fight as ``m``: models linked by base contact with enemies."""
    group = {m.id: m}
    todo = [m]
    while todo:
        cur = todo.pop()
        for o in foes_in_contact(state, cur):
            if o.id not in group:
                group[o.id] = o
                todo.append(o)
    return [group[k] for k in sorted(group)]


def break_away(state: GameState, m: Model) -> str:
    """Why ``m`` may not leave its melee, or "" if it may (UMR-BREAK-AWAY).

    Two fighters: either may leave. More: only the side with more fighters may move
    models away, and only while it still outnumbers the other side.
    """
    group = melee_group(state, m)
    if len(group) <= 1:
        return ""
    own = sum(1 for o in group if o.side == m.side)
    other = len(group) - own
    if own == 1 and other == 1:
        return ""
    if own > other:
        return ""
    return (
        f"{m.id} cannot break away from its melee: its side has {own} fighter"
        f"{'s' if own != 1 else ''} against {other}; only the side with more fighters "
        f"may leave, until the numbers are even (UMR-BREAK-AWAY)"
    )


@dataclass(frozen=True)
class Fire:
    """A line of fire: how much of the target is hidden, the range, and the modifiers.

    ``reason`` is why there is no shot ("" when there is one); ``mods`` are
    (value, why, rule) triples for the ballistic roll.
    """

    hidden: float
    distance: float
    cover: bool
    reason: str
    mods: tuple[tuple[int, str, str], ...]
    cover_from: tuple[str, ...] = ()


def eye(ctx: Context, m: Model) -> Footprint:
    """Where a model sees from: its base, or, when it stands up on a wall, building or
    rocks, the nearest point on top of that feature (UMR-BALLISTIC "if a model can see its
    target", UMR-I-CLIMB). Why a point inside the feature: the geometry service lets an
    eye inside a tall feature look out over it, and the model's (x, y) stays at the foot
    of the feature it climbed."""
    fp = footprint(m)
    fid = mv(m).get("on")
    if not fid or float(mv(m).get("elev", 0.0)) <= 0 or mv(m).get("climb"):
        return fp
    try:
        f = ctx.battlefield.feature(fid)
    except KeyError:
        return fp
    if point_in_polygon(m.x, m.y, f.polygon):
        return fp
    q = _nearest_inside(f.polygon, (m.x, m.y))
    return Footprint(q[0], q[1], fp.facing, fp.base)


def _nearest_inside(poly: Any, p: tuple[float, float], inset: float = 0.01) -> tuple[float, float]:
    """The point of the polygon's boundary nearest ``p``, moved ``inset`` inches inward
    (toward the vertices' mean), so that it lies inside the polygon."""
    bq = closest_point(p, poly)
    n = len(poly)
    cx = sum(v[0] for v in poly) / n
    cy = sum(v[1] for v in poly) / n
    d = math.dist(bq, (cx, cy))
    if d < 1e-12:
        return bq
    k = min(inset, d) / d
    return (float(bq[0] + (cx - bq[0]) * k), float(bq[1] + (cy - bq[1]) * k))


def _sight(
    ctx: Context, a: Model, b: Model
) -> tuple[float, float, tuple[str, ...], tuple[str, ...]]:
    """(visible fraction, distance, cover features, blockers) from ``eye(a)`` (memoised
    by the table's geometry, which measures only the cover of a pair it proves in
    view); the distance base to base from where the models stand."""
    fa = eye(ctx, a)
    s = ctx.table.geo.quick_sight(fa, footprint(b))
    dist = s.distance if fa == footprint(a) else gap(a, b)
    return (s.visible, dist, s.soft_cover + s.hard_cover, s.blockers)


def _visible(ctx: Context, a: Model, b: Model) -> tuple[float, float]:
    """(visible fraction, distance) alone, from ``eye(a)`` (the table's memo): the two
    numbers that decide whether there is a shot at all, cheaper than ``_sight``."""
    fa = eye(ctx, a)
    fb = footprint(b)
    visible = ctx.memo("umr.visible").get_or((fa, fb), lambda: _visible_fraction(ctx, fa, fb))
    # the distance base to base from where the models stand (from the eye's own base,
    # the geometry service's distance is this same measure)
    return visible, gap(a, b)


def _visible_fraction(ctx: Context, fa: Footprint, fb: Footprint) -> float:
    """The visible fraction of base ``fb`` from eye ``fa``: 1 when the geometry service
    proves the target wholly in view, 0 when it proves it wholly hidden (a blocked shot
    the random and greedy players ask about often), else the full sight's (the same
    fraction as ``Table.visible``'s; the full answer because a shot found possible is
    measured in full next, for its odds and its apply, and the service keeps it)."""
    geo = ctx.table.geo
    if geo.surely_in_view(fa, fb):
        return 1.0
    if geo.surely_hidden(fa, fb):
        return 0.0
    return geo.sight(fa, fb).visible


def _low_cover(ctx: Context, fid: str) -> bool:
    try:
        return ctx.battlefield.feature(fid).cls in ("line", "area")
    except KeyError:
        return False


def _out_of_range(dist: float) -> str:
    return Reason(
        f'target out of range ({dist:.1f}" > {LONG_RANGE:g}") (UMR-RANGE)',
        OUT_OF_RANGE,
        distance=dist,
        limit=LONG_RANGE,
    )


def no_shot(ctx: Context, shooter: Model, target: Model, sniper: bool) -> str:
    """Why there is no line of fire at all, "" when there is one: the same verdict as
    ``line_of_fire(...).reason`` (same range and 3/4-hidden tests on the same numbers),
    but without naming the blockers and without measuring cover. Why: the AI's candidate
    list only needs the verdict, and this is the costliest question it asks."""
    if not sniper:
        dist = gap(shooter, target)
        if dist > LONG_RANGE:
            return _out_of_range(dist)
    visible, dist = _visible(ctx, shooter, target)
    if max(0.0, 1.0 - visible) > COVER_HIDDEN:
        return Reason(
            f"{target.id} is blocked from view (more than 3/4 hidden: no shot) (UMR-BALLISTIC)",
            NO_SIGHT,
            hidden=max(0.0, 1.0 - visible),
        )
    if dist > LONG_RANGE and not sniper:
        return _out_of_range(dist)
    return ""


def line_of_fire(ctx: Context, shooter: Model, target: Model, sniper: bool) -> Fire:
    """Measure a ballistic attack (UMR-BALLISTIC, UMR-RANGE, UMR-SNIPER).

    Designer's interpretation UMR-I-COVER: a target the geometry service puts in cover
    (behind a hedge, fence or low wall, in or just behind woods) counts as at least a
    quarter hidden even when its base is in full view.
    """
    if not sniper:
        dist = gap(shooter, target)
        if dist > LONG_RANGE:  # out of range whatever the sight: skip measuring it
            return Fire(
                0.0,
                dist,
                False,
                _out_of_range(dist),
                (),
            )
    visible, dist, cover_from, blockers = _sight(ctx, shooter, target)
    hidden = max(0.0, 1.0 - visible)
    # tall terrain is measured exactly by the visible fraction; only low obstacles and
    # woods add the "at least a quarter hidden" reading of UMR-I-COVER
    cover_from = tuple(f for f in cover_from if _low_cover(ctx, f))
    mods: list[tuple[int, str, str]] = []
    pct = f"{round(hidden * 100)}% hidden"
    if hidden > COVER_HIDDEN:
        what = f" by {', '.join(blockers)}" if blockers else ""
        return Fire(
            hidden,
            dist,
            True,
            Reason(
                f"{target.id} is blocked from view ({pct}{what}; more "
                f"than 3/4 hidden: no shot) (UMR-BALLISTIC)",
                NO_SIGHT,
                hidden=hidden,
            ),
            (),
        )
    cover = hidden > CLEAR_HIDDEN or bool(cover_from)
    if dist > LONG_RANGE and not sniper:
        return Fire(
            hidden,
            dist,
            cover,
            _out_of_range(dist),
            (),
        )
    if cover and not sniper:
        why = pct if hidden > CLEAR_HIDDEN else f"behind {', '.join(cover_from)}"
        mods.append((-1, f"cover ({why})", "UMR-BALLISTIC"))
    if dist >= SHORT_RANGE and not sniper:
        mods.append((-1, f'range {dist:.1f}" (12-24")', "UMR-RANGE"))
    return Fire(hidden, dist, cover, "", tuple(mods), cover_from)
