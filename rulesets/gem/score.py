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

from .chapters import blocks, measure, movement
from .chapters.melee_value import (
    answer_dice,
    charge_blows,
    charge_dice,
    melee_edge,
    melee_hits,
    standing,
    threats,
)
from .chapters.points import model_value
from .chapters.tables import table3
from .flow import PENALTY
from .state import (
    engagements,
    foes_in_melee,
    gs,
    is_block,
    mtype,
    mv,
    on_hand,
    option,
    svars,
    unit_models,
)

HOLD = 200.0  # holding an objective now: it wins at the end of the turn unless contested
GUARD = 70.0  # the other side's guard on the objective, at most: its HIT against ...
GUARD_HIT = 4.0  # ... the enemy's HIT near the objective, and never fewer than these
NEAR = 6.0  # ... "near": within this many inches beyond the radius (a move and a charge)
OBJ_PULL = 25.0  # the nearest unit on the objective, less a share per inch away ...
PULL_SHARES = (1.0, 0.5, 0.25)  # ... and the second and third nearest units, at these shares
OBJ_SPAN = 30.0  # ... none this far beyond the radius
GUARD_PULL = 150.0  # the denying side's pull: each unit at its share of the side's HIT
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


def scale(state: GameState) -> float:
    """The mean starting points value of the sides: one figure then weighs its points."""
    total = sum(model_value(m) for m in state.models.values())
    return total / max(1, len(state.sides))


def objective_value(state: GameState, side: str) -> float:
    """Holding, denying and approaching each objective, from ``side``'s point of view.
    Guards and the pull count units, by each unit's nearest figure: one rout or one
    lost melee then cannot strip the objective bare. The side that denies it pulls by
    strength instead (``guard_pull``)."""
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
        if o["side"] == side:
            towards = sum(
                OBJ_PULL * w * closeness(d - r, OBJ_SPAN) for w, d in zip(PULL_SHARES, mine)
            )
            held = near <= r and not any(d <= r for d in theirs)
            value += (HOLD if held else 0.0) + towards
        else:
            taker = [math.dist(m.pos, centre) for m in state.live(o["side"])]
            inside = {u for u, d in units.items() if d <= r}
            held = not inside and any(d <= r for d in taker)
            value += guard(state, side, inside, centre, r) - (HOLD if held else 0.0)
            if inside and any(d <= r for d in taker):
                value -= HOLD * swept(state, side, inside, centre, r)
            value += guard_pull(state, side, units, centre, r)
    return value


def swept(
    state: GameState, side: str, inside: set[str], centre: tuple[float, float], r: float
) -> float:
    """The chance the next melee segment strikes down every figure the side has inside
    an objective's radius, the enemy inside it too (GEM-3.7: the enemy then holds it
    at the turn's end). Each unit falls when its expected hits (``melee_hits``, a
    Poisson count) reach the HIT it has there; a block loses its rear ranks first
    (GEM-2.1.4), so all its HIT count. Why: a slinger alone on the hill beside the enemy
    horse was a guard worth keeping, and the game was lost in that melee."""
    hits = melee_hits(state, side)
    p = 1.0
    for u in inside:
        h = hits.get(u, 0.0)
        if h <= 0:
            return 0.0
        ms = unit_models(state, u)
        if not is_block(state, u):
            ms = [m for m in ms if math.dist(m.pos, centre) <= r]
        need = sum(m.hp for m in ms)
        p *= 1.0 - sum(math.exp(-h) * h**k / math.factorial(k) for k in range(need))
    return p


def guard_pull(
    state: GameState, side: str, units: dict[str, float], centre: tuple[float, float], r: float
) -> float:
    """The pull of the denying side's units toward the objective, each at its share of
    the side's HIT and by the ground it must still cover (``approach``). Why by HIT: the
    three nearest units took the whole pull, so the horse and the general ran onto the
    hill and died there while the legion, fourth nearest, had none and was caught in
    melee by the enemy's block 5" short of it."""
    hit: dict[str, int] = {}
    for m in state.live(side):
        hit[m.unit] = hit.get(m.unit, 0) + m.hp
    total = max(1, sum(hit.values()))
    return sum(
        GUARD_PULL * hit[u] / total * closeness(approach(state, u, d, centre, r) - r, OBJ_SPAN)
        for u, d in units.items()
    )


def approach(
    state: GameState, unit: str, near: float, centre: tuple[float, float], r: float
) -> float:
    """The ground ``unit`` must cover to reach the objective: its nearest figure's
    distance (``near``), but a block outside the radius counts its front's distance plus
    the wheel to face it (GEM-I-WHEEL). Why: by the nearest figure a block gained most by
    marching straight on, its corner edging closer while the block passed 6" beside the
    hill, where a 40-degree wheel at the start would have brought its front onto it."""
    if near <= r or not is_block(state, unit):
        return near
    rec = blocks.record(state, unit)
    front = (float(rec["front"][0]), float(rec["front"][1]))
    turn = movement.wheel_cost(state, unit, rec["facing"], measure.bearing(front, centre))
    return max(near, math.dist(front, centre) + turn)


def guard(
    state: GameState, side: str, inside: set[str], centre: tuple[float, float], r: float
) -> float:
    """What the side's units inside an objective's radius are worth as its guard: the
    HIT they hold against the enemy's HIT near it (``NEAR``), up to ``GUARD``. One
    figure inside denies the objective at the turn's end (GEM-3.7), so the guard is
    worth only as much as its chance of still standing there then: the enemy strikes
    at what is on the hill (GEM-2.3). Why not a count of units: two horse archers and a
    general were each worth a block's 45, so the computer's legion stood back while the
    enemy's block swept the lone guards off the hill and took it."""
    if not inside:
        return 0.0
    held = float(sum(m.hp for m in state.live(side) if m.unit in inside))
    reach = r + NEAR
    theirs = float(
        sum(m.hp for m in state.live() if m.side != side and math.dist(m.pos, centre) <= reach)
    )
    return GUARD * held / (held + max(GUARD_HIT, theirs))


def fire_pull(state: GameState, side: str) -> float:
    """The small pull toward targets: each figure with a missile weapon and an enemy
    within (or closing on) its range; of a block only its front rank, the one rank that
    may fire (GEM-2.2.2). Why: the legion's twelve pila pulled at it three times over,
    more than the objective did, and it marched past the hill toward the enemy."""
    foes = [e for e in state.live() if e.side != side]
    shooters = [m for m in state.live(side) if missile_range(m) > 0]
    fronts: dict[str, set[str]] = {}
    for m in shooters:
        if is_block(state, m.unit) and m.unit not in fronts:
            fronts[m.unit] = {f.id for f in blocks.front_rank(state, m.unit)}
    shooters = [m for m in shooters if m.unit not in fronts or m.id in fronts[m.unit]]
    return IN_RANGE * pull(shooters, foes, missile_range, FIRE_SPAN)


def missile_range(m: Model) -> float:
    """The reach of the figure's longest missile weapon (0 without one)."""
    return max((float(w.get("range", 0) or 0) for w in m.weapons), default=0.0)


#: the segments of a turn before its movement segment
BEFORE_MOVEMENT = ("magic_offence", "magic_defence")


def exposure(state: GameState, side: str) -> float:
    """What the enemy's charges threaten next movement segment, counted at
    ``THREAT_SHARE`` since a charge may not come (``threats``). Why: a one-step agent
    otherwise walks a slinger up to a hero, and each figure lost is a share of the
    turn-limit count."""
    return THREAT_SHARE * threats(state, side)


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
    limit = state.turn_limit
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
