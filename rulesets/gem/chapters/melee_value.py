"""The computer's view of the melee chapter (GEM-2.3): what a melee under way and the
charges each side could open are worth, in points value struck off less struck back.

Why a module of its own: ``score.py`` weighs the whole position; these are the Table 1
and Table 3 sums it asks of every melee and every charge in reach (``melee_edge``,
``threats``), and the rout odds that discount a blow on a shaken unit (``standing``).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.state import GameState, Model

from ..build import def_value
from ..state import (
    disorganized,
    engagements,
    gs,
    is_block,
    lost_percent,
    mtype,
    mv,
    unit_models,
    unit_side,
)
from . import blocks, measure
from .melee import attack_dice, group_facing, melee_weapon, ranks_of, target_group
from .morale import check_odds
from .points import model_value
from .tables import rout_need, table1, table3


def standing(state: GameState, unit: str) -> float:
    """The chance the unit is still on the table after its next rout check: 1 for a
    unit whose losses call for none (GEM-2.4.2). A blow on one of its figures is worth
    this share of the figure (``_struck``, ``_threat``): ``rout_risk`` has written the
    rest off already, and a doomed archer counted in full there was worth more alive
    in a melee than struck down."""
    if rout_need(lost_percent(state, unit)) <= 0:
        return 1.0
    return float(check_odds(state, unit, "rout"))


@lru_cache(maxsize=4096)
def p_hit(off: int, dfn: int, mod: int) -> float:
    """Chance one d20 hits on Table 1 (GEM-2.2.3), naturals included."""
    return float(table1(off, dfn).chance(mod))


def _in_contact(a: Model, foes: list[Model]) -> bool:
    return any(measure.distance(a, f) <= 0.05 for f in foes)


def strikes(
    state: GameState, e: dict[str, Any], a: str, b: str, fighters: list[Model] | None = None
) -> float:
    """Expected HIT ``a`` strikes off ``b`` in one melee segment, before any cap: its
    attack dice (GEM-2.3.2) at its OFF against the DEF of ``b``'s figure at the front,
    with the Table 3 modifiers the melee record holds (charged, ranks deeper, flank or
    rear, GEM-2.3.1). ``fighters``: the loose figures of ``a`` that strike (by default
    those in contact with ``b``)."""
    ours, theirs = unit_models(state, a), unit_models(state, b)
    if not ours or not theirs:
        return 0.0
    t3 = table3()
    if is_block(state, a):
        lead = blocks.front_rank(state, a)[0]
        dice = attack_dice(state, a, lead.id)[0]
    else:
        if fighters is None:
            fighters = [m for m in ours if _in_contact(m, theirs)] or ours[:1]
        if not fighters:
            return 0.0
        lead = fighters[0]
        dice = sum(int(melee_weapon(m).get("ATT", m.stat("ATT", 1))) for m in fighters)
    target = _front(state, b)
    off = int(melee_weapon(lead).get("OFF", lead.stat("OFF", 1)))
    if disorganized(lead):
        off = max(1, off // 2)
    mod = 0
    if a in e.get("charged", []) and mv(lead).get("charged"):
        mod += int(t3["charged"])
    deeper = ranks_of(state, a) - ranks_of(state, b)
    if deeper > 0:
        mod += int(t3["per_rank_deeper"]) * deeper
    zone = e.get("zone", {}).get(a, "front")
    if zone in ("flank", "rear"):
        mod += int(t3[zone])
    return dice * p_hit(off, def_value(target, ""), mod)


def _front(state: GameState, unit: str) -> Model:
    """The figure of a unit the blows fall on: a block's front rank, else its first."""
    return (
        blocks.front_rank(state, unit)[0] if is_block(state, unit) else unit_models(state, unit)[0]
    )


@lru_cache(maxsize=4096)
def capped_hits(hits: float, cap: int) -> float:
    """The HIT expected struck off a unit that has ``cap`` left, when ``hits`` are
    expected: the mean of a Poisson count of hits, each past ``cap`` wasted. Why not
    ``min(hits, cap)``: two archers facing two expected hits were priced as sure to die
    both, so a block overrunning one of them (GEM-2.1.5, removed at once) looked free."""
    if hits <= 0 or cap <= 0:
        return 0.0
    if cap > hits + 8.0 * math.sqrt(hits) + 8.0:
        return hits  # the cap is out of reach: nothing is wasted
    p = math.exp(-hits)
    at_least = 1.0 - p  # P(X >= 1)
    total = 0.0
    for k in range(1, cap + 1):
        total += at_least
        p *= hits / k  # P(X == k)
        at_least -= p
    return total


def _struck(state: GameState, unit: str, hits: float) -> float:
    """Points value of ``hits`` expected HIT on ``unit``: each at its front figure's
    worth per HIT, no more than the HIT the unit has left (``capped_hits``)."""
    ms = unit_models(state, unit)
    if not ms:
        return 0.0
    target = _front(state, unit)
    taken = capped_hits(hits, sum(m.hp for m in ms))
    return taken * model_value(target) / max(1, target.max_hp) * standing(state, unit)


def blows(state: GameState, e: dict[str, Any], a: str, b: str) -> float:
    """Expected points value ``a`` strikes off ``b`` in one melee segment (``strikes``,
    each hit taking one HIT of ``b``'s figure at the front, no more than ``b`` has)."""
    return _struck(state, b, strikes(state, e, a, b))


#: the segments of a turn before its melee segment: a melee opened in one is fought this
#: turn, in this turn's initiative order (GEM-2.0.1)
BEFORE_MELEE = ("magic_offence", "magic_defence", "movement", "missile", "cards")


def _given(state: GameState, engs: list[dict[str, Any]], u: str) -> dict[str, float]:
    """Expected HIT unit ``u`` strikes on each foe unit in the next melee segment. Each
    figure fights once a turn (GEM-2.3, ``fight_problems``): a block at the best of its
    melees, each loose figure at the best foe it touches. Why: a general in two melees
    was counted striking in both, and charged a block it could not survive."""
    opts = [(e, v) for e in engs if u in e["units"] for v in e["units"] if v != u]
    if not opts:
        return {}

    def worth_of(o: tuple[dict[str, Any], str], fighters: list[Model] | None = None) -> float:
        return _struck(state, o[1], strikes(state, o[0], u, o[1], fighters))

    if is_block(state, u) or len(opts) == 1:
        e, v = max(opts, key=worth_of)
        return {v: strikes(state, e, u, v)}
    out: dict[str, float] = {}
    for m in unit_models(state, u):
        touch = [
            o for o in opts if is_block(state, o[1]) or _in_contact(m, unit_models(state, o[1]))
        ]
        if touch:
            e, v = max(touch, key=lambda o: worth_of(o, [m]))
            out[v] = out.get(v, 0.0) + strikes(state, e, u, v, [m])
    if not out:
        e, v = max(opts, key=worth_of)
        out[v] = strikes(state, e, u, v)
    return out


def _keeps(state: GameState, unit: str, hits: float) -> float:
    """The share of its blows ``unit`` still strikes after taking ``hits`` expected HIT
    first: a lone figure only if it lives (Poisson odds of fewer hits than its HIT), a
    unit of several in proportion to the HIT it keeps."""
    ms = unit_models(state, unit)
    if not ms or hits <= 0:
        return 1.0
    if len(ms) == 1:
        return sum(math.exp(-hits) * hits**k / math.factorial(k) for k in range(ms[0].hp))
    return max(0.0, 1.0 - hits / max(1, sum(m.hp for m in ms)))


def melee_edge(state: GameState, side: str) -> float:
    """What the side's melees should win it in the next melee segment less what they
    should cost it: the one-step agent's view of a charge before it is fought.

    Why summed per unit struck: a unit fought by two enemies (a block in front and a
    general in the flank) loses no more than the HIT it has. Capped per melee instead,
    each melee counted the whole unit, so striking a figure down now lowered the edge
    by twice its worth and the agent waited rather than fight (ending the segment).

    Why the initiative: the sides fight this turn's melee segment in initiative order
    (GEM-2.0.1), and a figure struck down first strikes nothing back. Before that
    segment the side that fights second keeps only what survives the first side's
    blows (``_keeps``); a charge into a foe that strikes first is worth that much less."""
    value = 0.0
    for unit, h in melee_hits(state, side).items():
        worth_off = _struck(state, unit, h)
        value += -worth_off if unit_side(state, unit) == side else worth_off
    return value


def melee_hits(state: GameState, side: str) -> dict[str, float]:
    """Expected HIT each unit in the side's melees takes in the next melee segment, the
    side that fights second striking with what survives (``melee_edge``)."""
    engs = [
        e
        for e in engagements(state)
        if len(e.get("units", [])) == 2
        and side in (unit_side(state, e["units"][0]), unit_side(state, e["units"][1]))
    ]
    units = sorted({u for e in engs for u in e["units"]})
    given = {u: _given(state, engs, u) for u in units}
    order = gs(state).get("order") or []
    if order and state.phase in BEFORE_MELEE:
        first = order[0]
        taken: dict[str, float] = {}
        for u in units:
            if unit_side(state, u) == first:
                for v, h in given[u].items():
                    taken[v] = taken.get(v, 0.0) + h
        for u in units:
            if unit_side(state, u) != first:
                k = _keeps(state, u, taken.get(u, 0.0))
                given[u] = {v: h * k for v, h in given[u].items()}
    hits: dict[str, float] = {}
    for u in units:
        for v, h in given[u].items():
            hits[v] = hits.get(v, 0.0) + h
    return hits


def charge_blows(a: Model, dice: int, t: Model, mod: int) -> float:
    """Expected points value ``a`` strikes off the figure ``t`` in a melee it charged
    into: no more than the HIT ``t`` has left."""
    off = int(melee_weapon(a).get("OFF", a.stat("OFF", 1)))
    if disorganized(a):
        off = max(1, off // 2)
    hits = min(float(t.hp), dice * p_hit(off, def_value(t, ""), mod))
    return hits * model_value(t) / max(1, t.max_hp)


def charge_dice(state: GameState, m: Model) -> int:
    """Attack dice of a charge led by ``m``: a block's front rank strikes together, with
    half its second rank for spears (``attack_dice``), a lone figure with its weapon's
    ATT (GEM-2.3.2). Why the spears: the block charged strikes back with them, and
    without them on the charger's side a hoplite block's charge on its twin looked a
    loss, so neither block of the mirror ever stepped into the other's reach."""
    if is_block(state, m.unit):
        return attack_dice(state, m.unit, blocks.front_rank(state, m.unit)[0].id)[0]
    return int(melee_weapon(m).get("ATT", m.stat("ATT", 1)))


def answer_dice(state: GameState, m: Model) -> int:
    """Dice ``m`` strikes back with at the charged figure: a block's one figure there, a
    lone figure its weapon's ATT."""
    return 1 if is_block(state, m.unit) else int(melee_weapon(m).get("ATT", m.stat("ATT", 1)))


def _threat(state: GameState, e: Model, dice: int, t: Model, charged: int) -> float:
    """The exchange ``e`` (a block's front figure, ``dice`` its charge's dice) would open
    by charging ``t`` from where it stands: its blows with the charge bonus and the
    flank or rear bonus of the zone it starts in (GEM-2.3.3), each hit taking a HIT of
    the figure struck, up to the whole unit's for a block, less the blows struck back
    (a block with its front rank's dice and its ranks deeper, GEM-2.3.2, GEM-2.3.1).
    Why the zone and the whole block: a general behind a hoplite block strikes at +12
    and kills two figures, which the figure-by-figure view, capped at one, missed."""
    t3 = table3()
    group = target_group(state, t)
    zone = measure.zone_of(group, [e], group_facing(state, t))
    mod = charged + (int(t3[zone]) if zone in ("flank", "rear") else 0)
    if is_block(state, t.unit):
        front = _front(state, t.unit)
        cap = float(sum(m.hp for m in group))
        back = attack_dice(state, t.unit, front.id)[0]
        deeper = ranks_of(state, t.unit) - ranks_of(state, e.unit)
        back_mod = int(t3["per_rank_deeper"]) * deeper if deeper > 0 else 0
    else:
        front, cap, back, back_mod = t, float(t.hp), answer_dice(state, t), 0
    off = int(melee_weapon(e).get("OFF", e.stat("OFF", 1)))
    if disorganized(e):
        off = max(1, off // 2)
    hits = min(cap, dice * p_hit(off, def_value(front, ""), mod))
    mine = hits * model_value(front) / max(1, front.max_hp) * standing(state, t.unit)
    return mine - charge_blows(front, back, e, back_mod) * standing(state, e.unit)


def threats(state: GameState, side: str) -> float:
    """For each enemy figure free to charge, the best exchange it could open
    (``_threat``) on one of the side's figures within its move (GEM-2.1.1, GEM-2.3),
    whether or not that figure is in a melee already: a charge may join one (the rules
    refuse only a charge on a unit the charger already fights, ``charge_problems``),
    and a general sent in after an archer was counted safe there and lost to the block
    beside it. An enemy already in a melee is left to ``melee_edge``."""
    charged = int(table3()["charged"])
    engaged = {u for e in engagements(state) for u in e.get("units", [])}
    ours = [m for m in state.live(side) if not mv(m).get("aboard")]
    value = 0.0
    seen: set[str] = set()
    for e in state.live():
        if (
            e.side == side
            or e.unit in engaged
            or mtype(e) == "vehicle"
            or "routed" in e.status
            or e.unit in seen
        ):
            continue
        if is_block(state, e.unit):
            seen.add(e.unit)  # a block charges as one, led by its front rank
            e = blocks.front_rank(state, e.unit)[0]
        reach = float(e.stat("MOV", 4)) + 1.0
        dice = charge_dice(state, e)
        best = 0.0
        struck: set[str] = set()
        for m in ours:
            if math.dist(m.pos, e.pos) > reach or m.unit in struck:
                continue
            if is_block(state, m.unit):
                struck.add(m.unit)  # a block is charged as one
            best = max(best, _threat(state, e, dice, m, charged))
        value += best
    return value
