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

from engine import actions as act
from engine.battlefield import base_radius_in
from engine.polygons import polygon_distance
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
    out = []
    for k in range(8):
        ang = k * math.pi / 4
        p = (round(m.x + STEP * math.cos(ang), 2), round(m.y + STEP * math.sin(ang), 2))
        if any(
            b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3] and polygon_distance(p, poly) < NEAR_COVER
            for b, poly in pieces
        ):
            out.append(p)
        if len(out) == 2:
            break
    return out


def _climbs_and_jumps(ctx: Context, m: Model, near: list[Model]) -> list[act.Action]:
    """Climb a wall the base touches (or climb back down), leap water toward the enemy."""
    if float(mv(m).get("elev", 0.0)) > 0:
        return [Climb(actor=m.id, feature=mv(m).get("on", ""), to=m.pos)]
    e = near[0] if near else None
    key = (m.pos, m.base, e.pos if e else None, e.base if e else None)
    wall, leap = ctx.table.memo("umr.climbs_and_jumps", 4096).get_or(
        key, lambda: _wall_and_leap(ctx, m, e)
    )
    out: list[act.Action] = []
    if wall is not None:
        out.append(Climb(actor=m.id, feature=wall))
    if leap is not None:
        out.append(Jump(actor=m.id, to=leap))
    return out


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


def _model_options(
    state: GameState, ctx: Context, m: Model, foes: list[Model], detour: bool = True
) -> Iterator[act.Action]:
    """One model's options, best kinds first, unchecked. A generator: the caller stops
    once its budget of legal options is full, so the later (costlier) ones such as cover
    spots are only worked out when they can still make the list. ``detour``: offer the
    angled advances where the straight one is refused (one more check; the unchecked
    menu of ``proposals`` goes without)."""
    if mv(m).get("climb"):
        yield Climb(actor=m.id)
        return
    near = sorted(foes, key=lambda e: math.dist(m.pos, e.pos))
    touching = measure.foes_in_contact(state, m)
    for e in touching:
        yield act.Fight(actor=m.id, target=e.id)
    if not touching:
        for e in near[:SHOTS]:
            yield act.Shoot(actor=m.id, target=e.id)
        for e in near[:CHARGES]:
            yield act.Charge(actor=m.id, target=e.id)
    reach = 6 + int(m.stats.get("MOVE", 0))
    if near:
        e = near[0]
        p = _toward(m, e.pos, min(reach, measure.gap(m, e) - 0.5))
        if p:
            straight = act.Move(actor=m.id, to=p)
            yield straight
            if detour and rules.check(state, straight, ctx, quick=True):
                yield from _detours(ctx, m, e, math.dist(m.pos, p))
        away = (2 * m.x - e.x, 2 * m.y - e.y)
        p = _toward(m, away, 4.0)
        if p:
            yield act.Move(actor=m.id, to=p)
    for p in _cover_spots(ctx, m):
        yield act.Move(actor=m.id, to=p)
    yield from _climbs_and_jumps(ctx, m, near)
    if leader.can_lead(state, m):
        for t in leader.lead_targets(state, m)[:2]:
            yield Lead(actor=m.id, target=t.id)


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
        out: list[act.Action] = []
        for unit in units:
            for m in flow.unit_models(state, unit):
                out += _model_options(state, ctx, m, foes, detour=False)
            out.append(act.EndActivation(actor=unit))
    return [], out
