"""What UMR measures on the table: base contact, who is locked in which melee, and the
line of fire (the 1/4-3/4 method and the range bands) between two models.

Why a module: check(), apply(), odds() and the AI all ask these same questions; they are
answered here once, from the geometry service (sight) and plain arithmetic (round-base
gaps), and cached per position so that hovering and AI candidate lists stay cheap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.battlefield import Footprint, base_is_round, base_radius_in
from engine.ruleset import Context
from engine.state import GameState, Model

#: Bases closer than this (inches) are in base contact (UMR-I-CONTACT).
CONTACT = 0.1
#: Range bands (UMR-RANGE): under 12" no penalty, 12" to 24" -1, beyond 24" no shot.
SHORT_RANGE = 12.0
LONG_RANGE = 24.0
#: The 1/4-3/4 method (UMR-BALLISTIC): hidden share up to which a shot is clear / in cover.
CLEAR_HIDDEN = 0.25
COVER_HIDDEN = 0.75


def footprint(m: Model) -> Footprint:
    base = m.base if base_is_round(m.base) else tuple(m.base)
    return Footprint(m.x, m.y, m.facing, base)  # type: ignore[arg-type]


def gap(a: Model, b: Model) -> float:
    """Base edge to base edge (inches)."""
    if base_is_round(a.base) and base_is_round(b.base):
        d = math.hypot(a.x - b.x, a.y - b.y) - base_radius_in(a.base) - base_radius_in(b.base)
        return max(d, 0.0)
    from engine.geometry import distance

    return distance(footprint(a), footprint(b))


def same_level(a: Model, b: Model) -> bool:
    """Models up on a tall feature and models on the ground cannot touch (UMR-I-CLIMB)."""
    return abs(float(a.vars.get("elev", 0.0)) - float(b.vars.get("elev", 0.0))) < 1e-6


def in_contact(a: Model, b: Model) -> bool:
    return same_level(a, b) and gap(a, b) <= CONTACT


def foes_in_contact(state: GameState, m: Model) -> list[Model]:
    """Live enemies in base contact with ``m`` (id order)."""
    out = []
    for o in state.live():
        if o.side != m.side and o.id != m.id and abs(o.x - m.x) < 4 and abs(o.y - m.y) < 4 \
                and in_contact(m, o):
            out.append(o)
    return out


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
    return (f"{m.id} cannot break away from its melee: its side has {own} fighter"
            f"{'s' if own != 1 else ''} against {other}; only the side with more fighters "
            f"may leave, until the numbers are even (UMR-BREAK-AWAY)")


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


_SIGHT_CACHE: dict[tuple, tuple[float, float, tuple[str, ...], tuple[str, ...]]] = {}
def geo(ctx: Context):  # noqa: ANN201
    """The geometry service (the engine shares one per battlefield across clones)."""
    return ctx.geo


def physics(ctx: Context):  # noqa: ANN201
    """The physics service (one per battlefield and thread, re-synced before each use)."""
    return ctx.physics


def _sight(ctx: Context, a: Model, b: Model) -> tuple[float, float, tuple[str, ...], tuple[str, ...]]:
    """(visible fraction, distance, cover features, blockers), cached per positions."""
    fa, fb = footprint(a), footprint(b)
    key = (id(ctx.battlefield), fa, fb)
    hit = _SIGHT_CACHE.get(key)
    if hit is None:
        s = geo(ctx).sight(fa, fb)
        hit = (s.visible, s.distance, s.soft_cover + s.hard_cover, s.blockers)
        if len(_SIGHT_CACHE) > 20000:
            _SIGHT_CACHE.clear()
        _SIGHT_CACHE[key] = hit
    return hit


def _low_cover(ctx: Context, fid: str) -> bool:
    try:
        return ctx.battlefield.feature(fid).cls in ("line", "area")
    except KeyError:
        return False


def line_of_fire(ctx: Context, shooter: Model, target: Model, sniper: bool) -> Fire:
    """Measure a ballistic attack (UMR-BALLISTIC, UMR-RANGE, UMR-SNIPER).

    Designer's interpretation UMR-I-COVER: a target the geometry service puts in cover
    (behind a hedge, fence or low wall, in or just behind woods) counts as at least a
    quarter hidden even when its base is in full view.
    """
    if not sniper:
        dist = gap(shooter, target)
        if dist > LONG_RANGE:  # out of range whatever the sight: skip measuring it
            return Fire(0.0, dist, False, f"target out of range ({dist:.1f}\" > "
                                          f"{LONG_RANGE:g}\") (UMR-RANGE)", ())
    visible, dist, cover_from, blockers = _sight(ctx, shooter, target)
    hidden = max(0.0, 1.0 - visible)
    # tall terrain is measured exactly by the visible fraction; only low obstacles and
    # woods add the "at least a quarter hidden" reading of UMR-I-COVER
    cover_from = tuple(f for f in cover_from if _low_cover(ctx, f))
    mods: list[tuple[int, str, str]] = []
    pct = f"{round(hidden * 100)}% hidden"
    if hidden > COVER_HIDDEN:
        what = f" by {', '.join(blockers)}" if blockers else ""
        return Fire(hidden, dist, True, f"{target.id} is blocked from view ({pct}{what}; more "
                                        f"than 3/4 hidden: no shot) (UMR-BALLISTIC)", ())
    cover = hidden > CLEAR_HIDDEN or bool(cover_from)
    if dist > LONG_RANGE and not sniper:
        return Fire(hidden, dist, cover, f"target out of range ({dist:.1f}\" > "
                                         f"{LONG_RANGE:g}\") (UMR-RANGE)", ())
    if cover and not sniper:
        why = pct if hidden > CLEAR_HIDDEN else f"behind {', '.join(cover_from)}"
        mods.append((-1, f"cover ({why})", "UMR-BALLISTIC"))
    if dist >= SHORT_RANGE and not sniper:
        mods.append((-1, f"range {dist:.1f}\" (12-24\")", "UMR-RANGE"))
    return Fire(hidden, dist, cover, "", tuple(mods), cover_from)
