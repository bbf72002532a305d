"""What the computer may choose from (UMR-ROUND): ``candidates``, a short list of checked
options, and ``proposals``, the same menu unchecked.

Why a short list: search agents expand every candidate, so we offer a few meaningful
acts per model — each melee foe, each enemy in view, a charge at the nearest enemies, a
move toward the enemy, toward cover and away, the leader's gift — and always the end of
the activation. Every candidate is passed through check() before it is offered.

Why ``proposals`` too: ``candidates`` checks options until each unit's budget of legal
ones is full, and a shot's check measures sight (most of a random game's time, issue
24). The random agent needs one legal action and the search's rollout policy only the
attacks, so ``proposals`` hands them every option of the ready units unchecked; each
checks what it draws. The options are ``candidates``' own, in its order (without the
detours, which cost a check to offer).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from engine import actions as act
from engine.battlefield import base_radius_in
from engine.polygons import crossing, point_in_polygon, point_segment_distance, polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr import flow, rules
from rulesets.umr.actions import Climb, Jump, Lead
from rulesets.umr.chapters import leader, measure
from rulesets.umr.chapters.movement import CLIMB_REACH
from rulesets.umr.chapters.terrain import table
from rulesets.umr.state import frozen, mv

LIMIT = 60
STEP = 5.0
#: shots offered per model: the nearest foes (a sniper's far targets stay open to players)
SHOTS = 5
CHARGES = 2


def _toward(m: Model, p: tuple[float, float], run: float) -> tuple[float, float] | None:
    d = math.dist(m.pos, p)
    if d < 1e-6 or run <= 0.2:
        return None
    k = min(run, d) / d
    return (round(m.x + (p[0] - m.x) * k, 2), round(m.y + (p[1] - m.y) * k, 2))


NEAR_COVER = 1.5


def _cover_pieces(ctx: Context) -> list[tuple[tuple[float, float, float, float], tuple]]:
    """Terrain that hides or covers a model, with bounding boxes grown by NEAR_COVER."""
    out = []
    for (x0, y0, x1, y1), f in ctx.table.pieces():
        if f.cls in ("tall", "area", "line"):
            box = (x0 - NEAR_COVER, y0 - NEAR_COVER, x1 + NEAR_COVER, y1 + NEAR_COVER)
            out.append((box, f.polygon))
    return out


def _cover_spots(ctx: Context, m: Model) -> list[tuple[float, float]]:
    """Points a step away that lie next to terrain that blocks sight or gives cover,
    remembered per position on the table (most models stand still between two candidate
    lists, and the terrain never changes)."""
    pieces = ctx.memo("umr.cover").get_or("pieces", lambda: _cover_pieces(ctx))
    return ctx.table.memo("umr.cover_spots", 4096).get_or(m.pos, lambda: _spots(m, pieces))


def _spots(m: Model, pieces: list) -> list[tuple[float, float]]:
    # only the pieces whose (grown) box meets the square the eight points lie in can
    # hold one: the same answer as testing every piece, for a fraction of the boxes
    x0, y0, x1, y1 = m.x - STEP - 0.01, m.y - STEP - 0.01, m.x + STEP + 0.01, m.y + STEP + 0.01
    pieces = [
        bp
        for bp in pieces
        if bp[0][0] <= x1 and bp[0][2] >= x0 and bp[0][1] <= y1 and bp[0][3] >= y0
    ]
    out: list[tuple[float, float]] = []
    if not pieces:
        return out
    for k in range(8):
        ang = k * math.pi / 4
        p = (round(m.x + STEP * math.cos(ang), 2), round(m.y + STEP * math.sin(ang), 2))
        if any(
            b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3] and _within(p, poly, NEAR_COVER)
            for b, poly in pieces
        ):
            out.append(p)
        if len(out) == 2:
            break
    return out


def _within(p: tuple[float, float], poly: Any, reach: float) -> bool:
    """``polygon_distance(p, poly) < reach``, the same sums edge by edge, but stopping at
    the first edge near enough (most cover spots are near one edge of a piece)."""
    x, y = p
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / ll))
        if math.hypot(x - a[0] - t * dx, y - a[1] - t * dy) < reach:
            return True
    return point_in_polygon(x, y, poly)


def _wall_and_leap(
    ctx: Context, m: Model, e: Model | None
) -> tuple[str | None, tuple[float, float] | None]:
    """(the tall feature a model on the ground at ``m``'s place could climb, the point a
    leap toward ``e`` would aim at if water lies on the way): both depend on the two
    bases' places alone, so they are remembered per place (issue 24: most models stand
    still between two menus)."""
    idx = table(ctx)
    wall = None
    r = base_radius_in(m.base)
    for (x0, y0, x1, y1), f in ctx.table.pieces(idx.readings.tall):
        if (
            x0 - 1 <= m.x <= x1 + 1
            and y0 - 1 <= m.y <= y1 + 1
            and polygon_distance(m.pos, f.polygon) - r <= CLIMB_REACH
        ):
            wall = f.id
            break
    leap = None
    if e is not None:
        p = _toward(m, e.pos, min(6.0, measure.gap(m, e) - 0.5))
        if p:
            box = (min(m.x, p[0]), min(m.y, p[1]), max(m.x, p[0]), max(m.y, p[1]))
            wet = not ctx.table.clear_of(idx.readings.water, box)
            if wet and idx.cost([m.pos, p]) > math.dist(m.pos, p) + 0.01:
                leap = p
    return wall, leap


#: degrees off the straight line to the nearest foe of the advances that go round a
#: building in the way (offered only when the straight advance is refused)
DETOURS = (40.0, -40.0, 80.0, -80.0)


def _detours(ctx: Context, m: Model, e: Model, run: float) -> Iterator[act.Action]:
    """Advances at an angle, when the straight one toward ``e`` is refused. Why: a model
    whose straight line to the nearest foe runs into a ruin had no advance at all, so it
    ended its activations there for the rest of the game (issue 20, the mirror battle's
    guardian behind ruin_se)."""
    base = math.atan2(e.y - m.y, e.x - m.x)
    for off in DETOURS:
        a = base + math.radians(off)
        p = (round(m.x + run * math.cos(a), 2), round(m.y + run * math.sin(a), 2))
        if ctx.battlefield.on_table(*p):
            yield act.Move(actor=m.id, to=p)


def _walled(ctx: Context, m: Model, to: tuple[float, float]) -> bool:
    """Whether ``m``'s base meets a wall, building or rocks on the straight way to ``to``
    though its centre line is clear of them (so the advance is legal): the physics
    service stops a base at the first wall it touches (UMR-I-MOVE), and the model went a
    few hundredths of an inch a move. Why: the detours were offered only where the
    advance was refused, so a guardian or a squad leader whose shoulder met a ruin's
    corner spent its whole game against it (issue 20). Remembered per place and end."""
    key = (m.x, m.y, m.base, to)
    return ctx.table.memo("umr.walled", 4096).get_or(key, lambda: _meets_tall(ctx, m, to))


def _meets_tall(ctx: Context, m: Model, to: tuple[float, float]) -> bool:
    r = base_radius_in(m.base) - 0.01  # a base that only touches a wall may slide along it
    a = m.pos
    x0, y0 = min(a[0], to[0]) - r, min(a[1], to[1]) - r
    x1, y1 = max(a[0], to[0]) + r, max(a[1], to[1]) + r
    for (bx0, by0, bx1, by1), f in ctx.table.pieces(table(ctx).readings.tall):
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue
        poly = f.polygon
        if point_in_polygon(a[0], a[1], poly):
            continue  # up on it or inside it: the climbing rules decide
        n = len(poly)
        for i in range(n):
            p, q = poly[i], poly[(i + 1) % n]
            if (
                crossing(a, to, p, q) is not None
                or point_segment_distance(p, a, to) < r
                or point_segment_distance(q, a, to) < r
                or point_segment_distance(to, p, q) < r
            ):
                return True
    return False


#: interned actions that name a model and a target (shots, charges, fights, the
#: leader's gift): immutable, so one instance serves every menu that offers it. Why:
#: building a frozen dataclass is a good part of a menu's cost, and the same few
#: actor-target pairs come back in every menu of a game (issue 24).
_PAIRS: dict[tuple[type, str, str], act.Action] = {}
#: a foe whose centre is this far off (or more) cannot touch: the contact scan
#: (``measure._contact_scan``) only looks at models within 4" on both axes
_NO_CONTACT = 4.0 * math.sqrt(2.0)


def _pair(cls: type, actor: str, target: str) -> act.Action:
    key = (cls, actor, target)
    a = _PAIRS.get(key)
    if a is None:
        if len(_PAIRS) >= 65536:
            _PAIRS.clear()
        a = _PAIRS[key] = cls(actor=actor, target=target) if target else cls(actor=actor)
    return a


def _steps(ctx: Context, m: Model, e: Model) -> tuple[act.Move | None, act.Move | None]:
    """(the advance toward the nearest foe ``e``, the step away from it): they depend on
    the two bases' places and ``m``'s MOVE alone, so they are remembered per place, as
    are the cover spots (issue 24: most models stand still between two menus)."""
    reach = 6 + int(m.stats.get("MOVE", 0))
    key = (m.id, m.x, m.y, m.base, reach, e.x, e.y, e.base)
    memo = ctx.table.memo("umr.steps", 4096)
    got = memo.get(key)  # ``get_or`` inline: asked for every model of every menu
    return memo.put(key, _work_steps(m, e, reach)) if got is None else got


def _work_steps(m: Model, e: Model, reach: int) -> tuple[act.Move | None, act.Move | None]:
    p = _toward(m, (e.x, e.y), min(reach, measure.gap(m, e) - 0.5))
    straight = act.Move(actor=m.id, to=p) if p else None
    q = _toward(m, (2 * m.x - e.x, 2 * m.y - e.y), 4.0)
    return straight, (act.Move(actor=m.id, to=q) if q else None)


def _tail(ctx: Context, m: Model, e: Model | None) -> tuple[act.Action, ...]:
    """A model on the ground: the moves to its cover spots, then the climb of a wall its
    base touches and the leap over water toward ``e``, remembered per place like
    ``_steps``."""
    key = (m.id, m.x, m.y, m.base, e.x if e else None, e.y if e else None, e.base if e else None)
    memo = ctx.table.memo("umr.tail", 4096)
    got = memo.get(key)
    return memo.put(key, _work_tail(ctx, m, e)) if got is None else got


def _work_tail(ctx: Context, m: Model, e: Model | None) -> tuple[act.Action, ...]:
    out: list[act.Action] = [act.Move(actor=m.id, to=p) for p in _cover_spots(ctx, m)]
    wall, leap = _wall_and_leap(ctx, m, e)
    if wall is not None:
        out.append(Climb(actor=m.id, feature=wall))
    if leap is not None:
        out.append(Jump(actor=m.id, to=leap))
    return tuple(out)


def _model_options(
    state: GameState, ctx: Context, m: Model, foes: list[Model], detour: bool = True
) -> Iterator[act.Action]:
    """One model's options, best kinds first, unchecked. A generator: the caller stops
    once its budget of legal options is full, so the later (costlier) ones such as cover
    spots are only worked out when they can still make the list. ``detour``: offer the
    angled advances where the straight one is refused (one more check; the unchecked
    menu of ``proposals`` goes without)."""
    mid = m.id
    if mv(m).get("climb"):
        yield Climb(actor=mid)
        return
    mx, my = m.x, m.y
    dist = math.dist
    here = (mx, my)
    # nearest first (a stable sort: ties keep the foes' id order); the distances are
    # worked out once, then the foes' places sorted by them
    far = [dist(here, (e.x, e.y)) for e in foes]
    near = [foes[i] for i in sorted(range(len(foes)), key=far.__getitem__)]
    if near and dist(here, (near[0].x, near[0].y)) >= _NO_CONTACT:
        touching: list[Model] = []
    else:
        touching = measure.foes_in_contact(state, m)
    if leader.can_lead(state, m):
        yield from _gifts(state, m, near)
    for e in touching:
        yield _pair(act.Fight, mid, e.id)
    if not touching:
        for e in near[:SHOTS]:
            yield _pair(act.Shoot, mid, e.id)
        for e in near[:CHARGES]:
            yield _pair(act.Charge, mid, e.id)
    first = near[0] if near else None
    if first is not None:
        straight, away = _steps(ctx, m, first)
        if straight is not None and straight.to is not None:
            yield straight
            if detour and (
                rules.check(state, straight, ctx, quick=True) or _walled(ctx, m, straight.to)
            ):
                yield from _detours(ctx, m, first, dist(here, straight.to))
        if away is not None:
            yield away
    if float(mv(m).get("elev", 0.0)) > 0:
        # up on a feature: the cover spots, then the climb back down
        for p in _cover_spots(ctx, m):
            yield act.Move(actor=mid, to=p)
        yield Climb(actor=mid, feature=mv(m).get("on", ""), to=here)
    else:
        yield from _tail(ctx, m, first)


def _gifts(state: GameState, m: Model, near: list[Model]) -> Iterator[act.Action]:
    """The leader's gift of an action die (UMR-LEADER), first of his options: to himself
    (he is acting, so he can roll it now) and to the teammate nearest a foe of ``near``,
    the one likeliest to have a shot. Why first: the options of a
    model are cut at the unit's budget, and the gifts, offered last, were cut whenever
    the leader had foes in view; the gift costs nothing and is a die more (issue 20)."""
    yield _pair(Lead, m.id, m.id)
    mates = leader.lead_targets(state, m)
    if mates and near:
        spots = [(e.x, e.y) for e in near]
        t = min(mates, key=lambda t: min(math.dist((t.x, t.y), p) for p in spots))
        yield _pair(Lead, m.id, t.id)


def candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    if state.over or side != state.active:
        return []
    # check() is read-only, so the state is frozen while the list is built: live models,
    # units and base contacts are worked out once instead of in every check
    with frozen(state):
        return _candidates(state, side, ctx)


def _candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    cur = flow.current(state)
    units = [cur] if cur is not None else flow.ready(state, side)
    foes = [e for e in measure.live(state) if e.side != side]
    budget = max(4, (LIMIT - len(units)) // max(1, len(units)))
    out: list[act.Action] = []
    for unit in units:
        # checked lazily: only the first ``budget`` legal options are kept, so checking
        # the rest (each shot a sight measurement) would be wasted work
        legal: list[act.Action] = []
        for m in flow.unit_models(state, unit):
            for a in _model_options(state, ctx, m, foes):
                if not rules.check(state, a, ctx, quick=True):
                    legal.append(a)
                    if len(legal) >= budget:
                        break
            if len(legal) >= budget:
                break
        out += legal
        out.append(act.EndActivation(actor=unit))
    return out[:LIMIT] if len(out) > LIMIT else out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[act.Action], list[act.Action]] | None:
    """(actions known legal, actions to check): every option of each unit that may act
    now, then its "end activation"; None when ``side`` has no decision (``candidates``
    answers that)."""
    if state.over or side != state.active:
        return None
    with frozen(state):
        cur = flow.current(state)
        units = [cur] if cur is not None else flow.ready(state, side)
        foes = [e for e in measure.live(state) if e.side != side]
        groups = measure.units(state)  # what ``flow.unit_models`` reads while frozen
        out: list[act.Action] = []
        for unit in units:
            for m in groups.get(unit, ()):
                out += _model_options(state, ctx, m, foes, detour=False)
            out.append(_end(unit))
    return [], out


def _end(unit: str) -> act.Action:
    """The unit's "end activation", interned like ``_pair``'s actions."""
    return _pair(act.EndActivation, unit, "")
