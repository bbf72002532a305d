"""What the AI may choose from (candidates) and how it values a position (score).

Why a short list: search agents expand every candidate, so we offer a few meaningful
acts per model — each melee foe, each enemy in view, a charge at the nearest enemies, a
move toward the enemy, toward cover and away, the leader's gift — and always the end of
the activation. Every candidate is passed through check() before it is offered.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from engine import actions as act
from engine.battlefield import base_radius_in
from engine.closing import pull as closing_pull
from engine.polygons import polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.umr import attacks, combat, measure, rounds, rules, support
from rulesets.umr.actions import Climb, Jump, Lead
from rulesets.umr.movement import CLIMB_REACH
from rulesets.umr.terrain import table

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
    idx = table(ctx)
    out: list[act.Action] = []
    if float(m.vars.get("elev", 0.0)) > 0:
        return [Climb(actor=m.id, feature=m.vars.get("on", ""), to=m.pos)]
    r = base_radius_in(m.base)
    for (x0, y0, x1, y1), f in ctx.table.pieces(idx.readings.tall):
        if (
            x0 - 1 <= m.x <= x1 + 1
            and y0 - 1 <= m.y <= y1 + 1
            and polygon_distance(m.pos, f.polygon) - r <= CLIMB_REACH
        ):
            out.append(Climb(actor=m.id, feature=f.id))
            break
    if near:
        e = near[0]
        p = _toward(m, e.pos, min(6.0, measure.gap(m, e) - 0.5))
        if p and idx.cost([m.pos, p]) > math.dist(m.pos, p) + 0.01:
            out.append(Jump(actor=m.id, to=p))
    return out


def _model_options(
    state: GameState, ctx: Context, m: Model, foes: list[Model]
) -> Iterator[act.Action]:
    """One model's options, best kinds first, unchecked. A generator: the caller stops
    once its budget of legal options is full, so the later (costlier) ones such as cover
    spots are only worked out when they can still make the list."""
    if m.vars.get("climb"):
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
            yield act.Move(actor=m.id, to=p)
        away = (2 * m.x - e.x, 2 * m.y - e.y)
        p = _toward(m, away, 4.0)
        if p:
            yield act.Move(actor=m.id, to=p)
    for p in _cover_spots(ctx, m):
        yield act.Move(actor=m.id, to=p)
    yield from _climbs_and_jumps(ctx, m, near)
    if support.can_lead(state, m):
        for t in support.lead_targets(state, m)[:2]:
            yield Lead(actor=m.id, target=t.id)


def candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    if state.over or side != state.active:
        return []
    # check() is read-only, so the state is frozen while the list is built: live models,
    # units and base contacts are worked out once instead of in every check
    with measure.frozen(state):
        return _candidates(state, side, ctx)


def _candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    cur = rounds.current(state)
    units = [cur] if cur is not None else rounds.ready(state, side)
    foes = [e for e in measure.live(state) if e.side != side]
    budget = max(4, (LIMIT - len(units)) // max(1, len(units)))
    out: list[act.Action] = []
    for unit in units:
        # checked lazily: only the first ``budget`` legal options are kept, so checking
        # the rest (each shot a sight measurement) would be wasted work
        legal: list[act.Action] = []
        for m in rounds.unit_models(state, unit):
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


#: weight of the shots each side has on the other (a shot is worth its expected damage;
#: only part of it lands before both sides move again)
FIRE_WEIGHT = 0.4


@lru_cache(maxsize=8192)
def _expected(mod: int, defence: combat.Defence, damage: combat.Damage, hp: int) -> float:
    return float(combat.attack_odds(mod, defence, damage, hp).expected)


def _shot_value(state: GameState, ctx: Context, a: Model, b: Model, key: tuple) -> float:
    """Expected damage of ``a`` shooting ``b`` as they stand (0 with no shot), from the
    exact attack odds with the line of fire's cover and range modifiers; cached per
    ``key`` (both models' positions, stats and health) on the table, since most models
    stand still between two looks."""
    return ctx.memo("umr.shot_value").get_or(key, lambda: _shot(state, ctx, a, b))


def _shot(state: GameState, ctx: Context, a: Model, b: Model) -> float:
    sniper = attacks.has(a, "sniper")
    if measure.no_shot(ctx, a, b, sniper):
        v = 0.0
    else:
        mods = attacks.attack_mods(state, ctx, a, b, ranged=True)
        v = _expected(
            sum(x.value for x in mods),
            attacks.defence_spec(b, True),
            attacks.damage_spec(a, b, True),
            b.hp,
        )
    return v


def firepower(state: GameState, ctx: Context) -> dict[str, float]:
    """Per side, the sum over its models free to shoot of their best shot's expected
    damage.

    Why this is the position term: in UMR damage is what wins (UMR-I-TURN-LIMIT counts
    health), and a model's worth on the table is the shot it has and the shots it
    offers. A model in cover or out of sight lowers the enemy's sum; one with a clear
    shot raises its own. Models in melee neither shoot nor are shot (UMR-MELEE)."""
    free = [m for m in state.live() if not measure.foes_in_contact(state, m)]
    # the stats, not the profile name, decide a shot (a scenario may override a profile)
    sig = {m.id: (footprint(m), m.hp, tuple(sorted(m.stats.items()))) for m in free}
    total = dict.fromkeys(state.sides, 0.0)
    for a in free:
        far = not attacks.has(a, "sniper")
        best = 0.0
        sa = sig[a.id]
        for b in free:
            if b.side == a.side or far and (abs(a.x - b.x) > 30 or abs(a.y - b.y) > 30):
                continue
            v = _shot_value(state, ctx, a, b, (sa, sig[b.id]))
            if v > best:
                best = v
        total[a.side] = total.get(a.side, 0.0) + best
    return total


#: share of a melee's expected edge a model is credited with for having a foe it
#: out-fights within its charge reach (6" plus MOVE) ...
MELEE_WEIGHT = 0.5
#: ... less a share per inch beyond that reach, none this far beyond
MELEE_SPAN = 24.0


def melee_edge(a: Model, b: Model) -> float:
    """Expected health ``a`` strikes off ``b`` in one melee attack less what ``b``
    strikes back, from the exact attack odds (UMR-MELEE)."""

    def hit(x: Model, y: Model) -> float:
        return _expected(
            int(x.stats.get("MELEE", 0)),  # the melee attack's one modifier (attack_mods)
            attacks.defence_spec(y, False),
            attacks.damage_spec(x, y, False),
            y.hp,
        )

    return hit(a, b) - hit(b, a)


def closing(state: GameState, side: str) -> float:
    """The pull of models toward foes they out-fight: each free model gains
    ``MELEE_WEIGHT`` of its best melee edge over a foe within its charge reach, fading
    over ``MELEE_SPAN`` inches beyond. Why: the firepower term alone marks a model down
    for every step into the enemy's sight and up only for the shots it gains, so a
    one-step agent's close-combat models (blades, commandos) stayed home all game
    (issue 20); a model that wins the melee it walks into should want to get there."""
    free = [m for m in state.live(side) if not measure.foes_in_contact(state, m)]
    foes = [e for e in state.live() if e.side != side]
    return MELEE_WEIGHT * closing_pull(
        free,
        foes,
        reach=lambda m: 6.0 + int(m.stats.get("MOVE", 0)),
        span=MELEE_SPAN,
        gain=melee_edge,
        gap=measure.gap,
    )


def victory_text(scenario: Any) -> str:
    """What wins a UMR scenario (UMR-END, UMR-I-TURN-LIMIT), for the new-game screen."""
    text = "A side with no model left on the table has lost (UMR-END)."
    if scenario.turn_limit:
        text += (
            f" After {scenario.turn_limit} rounds the side with the most health left wins "
            "(UMR-I-TURN-LIMIT)."
        )
    return text


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own health and models left minus the enemy's (a model is worth 5 health); with the
    battlefield at hand, plus FIRE_WEIGHT times the firepower balance (``firepower``),
    and the pull toward foes to fight (``closing``)."""
    own = sum(m.hp for m in state.live(side)) + 5 * len(state.live(side))
    foes = [m for m in state.live() if m.side != side]
    other = sum(m.hp for m in foes) + 5 * len(foes)
    if state.over:
        w = state.over.get("winner")
        if w == side:
            return 1000.0 + own - other
        if w is not None:
            return -1000.0 + own - other
    value = float(own - other)
    if ctx is not None and foes:
        with measure.frozen(state):
            fire = firepower(state, ctx)
        value += FIRE_WEIGHT * (2 * fire.get(side, 0.0) - sum(fire.values()))
    if foes:
        value += closing(state, side)
    return value
