"""The AI's view of a GEM position (``Ruleset.score``): what wins GEM games, cheaply.

Why these terms:

- Material is the share of its starting points value each side keeps, because that is
  what decides a game at the scenario's turn limit (GEM-I-TURNLIMIT, ``kept_share``);
  it is scaled by the mean starting army so a figure weighs about its points value
  (GEM-4), and a figure riding in a vehicle is no loss. A unit that has lost enough to
  take rout checks (GEM-2.4.2) counts what is left of it at its chance of passing the
  next one (``rout_risk``): the figure that routs a unit is worth the unit.
- An objective decides the game the moment its side holds it at the end of a turn
  (GEM-3.7, ``victory.holds``), so holding one is worth more than most of an army; the
  side that must take it is pulled toward it, and the other side is rewarded for
  keeping a unit on it (one figure inside the radius denies it; a second unit there
  survives a rout or a lost melee) and pulled toward it.
- A charge is only fought in the melee segment, so each melee is valued by the points
  each side should strike off the other there (Table 1 odds with the charge, rank and
  flank modifiers the melee record holds): a one-step agent then charges only where
  the exchange favours it. For the same reason the charges each side could open next
  movement segment count a share, each weighed by the chance its side moves first
  (``charge_race``): the sides move in initiative order (GEM-2, GEM-2.0.1), and the
  charger strikes with Table 3's bonus.
- A one-step agent also needs a reason to close with the enemy before anything dies:
  each figure with a missile weapon gains a little for an enemy within its range
  (fading over ``FIRE_SPAN`` inches short of it). This is worth less than a likely hit
  so it never outweighs real damage.
- Likewise each figure without a missile weapon gains a little for the nearest foe it
  out-fights (``close_pull``), fading over ``CLOSE_SPAN`` inches beyond its charge reach:
  otherwise ``exposure`` alone keeps a one-step agent's hoplites at home all game.

Everything is arithmetic on figure centres: the score sees the figures, not the table.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from engine.closing import closeness, pull
from engine.state import GameState, Model

from .build import def_value
from .chapters import blocks, measure
from .chapters.melee import attack_dice, group_facing, melee_weapon, ranks_of, target_group
from .chapters.morale import check_odds
from .chapters.points import model_value
from .chapters.tables import rout_need, table1, table3
from .flow import PENALTY
from .state import (
    disorganized,
    engagements,
    foes_in_melee,
    gs,
    is_block,
    lost_percent,
    mtype,
    mv,
    on_hand,
    option,
    svars,
    unit_models,
    unit_side,
)

HOLD = 200.0  # holding an objective now: it wins at the end of the turn unless contested
GUARD = (45.0, 25.0)  # the other side's first and second unit inside the radius (deny it)
OBJ_PULL = 25.0  # the nearest unit on the objective, less a share per inch away ...
PULL_SHARES = (1.0, 0.5, 0.25)  # ... and the second and third nearest units, at these shares
OBJ_SPAN = 30.0  # ... none this far beyond the radius
THREAT_SHARE = 0.3  # of the best charge each enemy figure (a block as one) could open
IN_RANGE = 1.0  # per figure with an enemy within its missile range
FIRE_SPAN = 12.0  # ... less a share per inch short, none this far short
CLOSE = 1.0  # per melee figure with a foe it out-fights within its charge reach ...
CLOSE_SPAN = 48.0  # ... less a share per inch beyond, none this far beyond


def objectives(state: GameState) -> list[dict[str, Any]]:
    """The scenario's objectives a side must take (entries with a place and a side)."""
    return [
        o
        for o in svars(state).get("objectives", []) or []
        if isinstance(o, dict) and "x" in o and o.get("side") in state.sides
    ]


def worth(m: Model) -> float:
    """A figure's points value as it stands: its share of HIT left (GEM-4)."""
    return model_value(m) * m.hp / max(1, m.max_hp)


def kept(state: GameState, side: str) -> float:
    """The share of its starting points value the side keeps (as victory.kept_share),
    less what its units' rout checks should take off (``rout_risk``)."""
    ms = [m for m in state.models.values() if m.side == side]
    start = sum(model_value(m) for m in ms)
    now = sum(worth(m) for m in ms if on_hand(m)) - rout_risk(state, side)
    return now / start if start else 0.0


def rout_risk(state: GameState, side: str) -> float:
    """Points value the side's units should lose to their next rout check: each unit
    that has lost the share that calls for one (GEM-2.4.2, GEM-2.4.3) leaves the table
    whole unless it rolls the table's number with its modifiers (GEM-2.4.4). Why: three
    archers are one unit, and the second one struck down takes the third with it 85 times
    in 100 (18+ on a d20) at the next morale segment; counted figure by figure, the
    computer spread its archers where the enemy's block overran them one at a time, and
    never finished off an enemy unit that one more hit would have routed."""
    return sum(
        (1.0 - standing(state, unit)) * sum(worth(m) for m in ms)
        for unit, ms in state.units(side).items()
    )


def standing(state: GameState, unit: str) -> float:
    """The chance the unit is still on the table after its next rout check: 1 for a
    unit whose losses call for none (GEM-2.4.2). A blow on one of its figures is worth
    this share of the figure (``_struck``, ``_threat``): ``rout_risk`` has written the
    rest off already, and a doomed archer counted in full there was worth more alive
    in a melee than struck down."""
    if rout_need(lost_percent(state, unit)) <= 0:
        return 1.0
    return float(check_odds(state, unit, "rout"))


def scale(state: GameState) -> float:
    """The mean starting points value of the sides: one figure then weighs its points."""
    total = sum(model_value(m) for m in state.models.values())
    return total / max(1, len(state.sides))


def objective_value(state: GameState, side: str) -> float:
    """Holding, denying and approaching each objective, from ``side``'s point of view.
    Guards and the pull count units, by each unit's nearest figure: one rout or one
    lost melee then cannot strip the objective bare."""
    value = 0.0
    for o in objectives(state):
        centre = (float(o.get("x", 0)), float(o.get("y", 0)))
        r = float(o.get("radius", 3.0))
        units: dict[str, float] = {}
        for m in state.live(side):
            d = math.dist(m.pos, centre)
            units[m.unit] = min(d, units.get(m.unit, math.inf))
        mine = sorted(units.values())
        theirs = [math.dist(m.pos, centre) for m in state.live() if m.side != side]
        near = min(mine, default=math.inf)
        towards = sum(OBJ_PULL * w * closeness(d - r, OBJ_SPAN) for w, d in zip(PULL_SHARES, mine))
        if o["side"] == side:
            held = near <= r and not any(d <= r for d in theirs)
            value += (HOLD if held else 0.0) + towards
        else:
            taker = [math.dist(m.pos, centre) for m in state.live(o["side"])]
            inside = sum(1 for d in mine if d <= r)
            held = not inside and any(d <= r for d in taker)
            value += sum(GUARD[:inside]) - (HOLD if held else 0.0) + towards
    return value


def fire_pull(state: GameState, side: str) -> float:
    """The small pull toward targets: each figure with a missile weapon and an enemy
    within (or closing on) its range."""
    foes = [e for e in state.live() if e.side != side]
    shooters = [m for m in state.live(side) if missile_range(m) > 0]
    return IN_RANGE * pull(shooters, foes, missile_range, FIRE_SPAN)


def missile_range(m: Model) -> float:
    """The reach of the figure's longest missile weapon (0 without one)."""
    return max((float(w.get("range", 0) or 0) for w in m.weapons), default=0.0)


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
#: the segments of a turn before its movement segment
BEFORE_MOVEMENT = ("magic_offence", "magic_defence")


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
    value = 0.0
    for unit, h in hits.items():
        worth_off = _struck(state, unit, h)
        value += -worth_off if unit_side(state, unit) == side else worth_off
    return value


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


def exposure(state: GameState, side: str) -> float:
    """What the enemy's charges threaten next movement segment, counted at
    ``THREAT_SHARE`` since a charge may not come (``threats``). Why: a one-step agent
    otherwise walks a slinger up to a hero, and each figure lost is a share of the
    turn-limit count."""
    return THREAT_SHARE * threats(state, side)


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


@lru_cache(maxsize=64)
def p_initiative(penalty: int, their_penalty: int) -> float:
    """Chance a side wins the initiative roll-off: d20 less its streak penalty against
    the enemy's d20 less theirs, ties rolled again (GEM-2.0.1). The side that won this
    turn starts next turn's roll 5 down: 0.73 for the other side."""
    wins = losses = 0
    for a in range(1, 21):
        for b in range(1, 21):
            d = (a - penalty) - (b - their_penalty)
            wins += d > 0
            losses += d < 0
    return wins / (wins + losses)


def first_charge(state: GameState, side: str) -> tuple[float, float]:
    """(chance ``side``'s charges come first, chance the enemy's do) in the next
    movement segment that can bring them: this turn's while the enemy has yet to move
    in it (the sides move in initiative order, GEM-2), else next turn's by its
    initiative roll with the streak penalty (GEM-2.0.1), and none after the turn limit
    (GEM-I-TURNLIMIT). Why: an enemy that moves after us this turn charges whatever we
    left in its reach, but a block that steps into mutual reach after the enemy has
    moved strikes first next turn more often than not. Card activation (GEM-2.5)
    interleaves the sides: the enemy's charge is taken as sure, ours as none.

    A side whose movement segment has begun but which has moved nothing yet charges
    first. Why: ending the last segment of a turn rolls the next initiative, and the
    side that won it, to move at once, was priced as if the enemy charged first, so
    ending the movement in a face-off looked 0.3 of a charge worse than it was."""
    if option(state, "cards"):
        return 0.0, 1.0
    order = [s for s in gs(state).get("order") or [] if s in state.sides]
    if side not in order or len(order) < 2:
        return 0.0, 1.0
    ph = state.phase
    if ph in BEFORE_MOVEMENT or ph == "movement":
        done = order.index(state.active) if ph == "movement" and state.active in order else 0
        to_move = order[done:] if ph == "movement" else order
        if to_move and to_move[0] != side:
            return 0.0, 1.0
        if ph != "movement" or state.active != side or not _moved(state, side):
            return 1.0, 0.0  # our move is still to come, or only begins: we charge first
        if len(to_move) > 1:
            return 0.0, 1.0  # we move now; whatever we leave in reach, they charge
    limit = int(svars(state).get("turn_limit", 0) or 0)
    if limit and state.turn >= limit:
        return 0.0, 0.0
    streak = gs(state).get("streak", {})
    mine = int(streak.get(side, 0)) * PENALTY
    theirs = max(int(streak.get(s, 0)) for s in order if s != side) * PENALTY
    p = p_initiative(mine, theirs)
    return p, 1.0 - p


def _moved(state: GameState, side: str) -> bool:
    """Whether a figure of the side has moved, charged or ended its move this turn."""
    return any(
        mv(m).get("moved") or mv(m).get("charged") or mv(m).get("moved_done")
        for m in state.live(side)
    )


def charge_race(state: GameState, side: str) -> float:
    """The charges each side could open next movement segment, each weighed by the
    chance its side moves first (``first_charge``) and counted at ``THREAT_SHARE``:
    ours on the enemy less theirs on us. Why: the charger strikes with Table 3's bonus,
    so between equal blocks what decides a melee is who charges. Counting only the
    enemy's charge, both sides of the mirror stood 13.6" apart all game (every game a
    draw); with the race a block steps into mutual reach when the enemy has moved this
    turn and is likelier to lose next turn's initiative, and keeps out of it when the
    enemy still moves this turn."""
    ours, theirs = first_charge(state, side)
    value = 0.0
    if ours:
        value += ours * sum(threats(state, s) for s in state.sides if s != side)
    if theirs:
        value -= theirs * threats(state, side)
    return THREAT_SHARE * value


def close_pull(state: GameState, side: str) -> float:
    """The small pull of melee figures (no missile weapon) toward the nearest foe they
    out-fight: a charge on it would strike off more than it strikes back (Table 1 with
    the charge bonus, as ``exposure`` values the enemy's charges). Why: without it a
    one-step agent's hoplites see only ``exposure`` and hang back all game, and a battle
    of archers alone is decided by one lucky arrow at the turn limit. A block pulls as its
    front rank, per figure. A figure already in a melee keeps the pull in full when it
    out-fights a foe there (``melee_edge`` values the exchange itself). Why: the pull
    once vanished the moment a block charged, so a charge cost its four figures' pull
    (about 4) and a block in reach of its twin ended the movement rather than charge."""
    charged = int(table3()["charged"])
    engaged = {u for e in engagements(state) for u in e.get("units", [])}
    foes = [
        e
        for e in state.live()
        if e.side != side and mtype(e) != "vehicle" and not mv(e).get("aboard")
    ]
    if not foes:
        return 0.0
    melee = [
        m
        for m in state.live(side)
        if mtype(m) != "vehicle" and not mv(m).get("aboard") and missile_range(m) <= 0
    ]
    chargers = [m for m in melee if m.unit not in engaged]

    def outfights(m: Model, e: Model) -> float:
        mine = charge_blows(m, charge_dice(state, m), e, charged)
        return 1.0 if mine > charge_blows(e, answer_dice(state, e), m, 0) else 0.0

    def reach(m: Model) -> float:
        return float(m.stat("MOV", 4)) + 1.0

    held = 0.0
    for m in melee:
        if m.unit in engaged:
            fought = set(foes_in_melee(state, m.unit))
            held += max((outfights(m, e) for e in foes if e.unit in fought), default=0.0)
    return CLOSE * (held + pull(chargers, foes, reach, CLOSE_SPAN, gain=outfights))


def score(state: GameState, side: str) -> float:
    """Material kept against the enemy's, plus objectives, the melees' expected
    exchange and the pulls toward targets and toward foes to charge."""
    k = scale(state)
    others = [s for s in state.sides if s != side]
    material = kept(state, side) - max((kept(state, s) for s in others), default=0.0)
    return (
        k * material
        + objective_value(state, side)
        + melee_edge(state, side)
        + charge_race(state, side)
        + fire_pull(state, side)
        + close_pull(state, side)
    )
