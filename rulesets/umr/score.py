"""How the computer values a UMR position (``score``): health and models left, the shots
each side has on the other, and the pull toward foes a model out-fights.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from engine.closing import closeness
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import MEMO_LIMIT, footprint
from rulesets.umr.chapters import attacks, combat, measure
from rulesets.umr.state import frozen, mv

#: weight of the shots each side has on the other (a shot is worth its expected damage;
#: only part of it lands before both sides move again)
FIRE_WEIGHT = 0.4

#: numbers for signatures (``_sig_no``, ``_stats_entry``): never one twice, so a number
#: always means the signature it was given for, whatever threads and clearing do
_NUMBERS = itertools.count()


@lru_cache(maxsize=8192)
def _expected(mod: int, defence: combat.Defence, damage: combat.Damage, hp: int) -> float:
    return float(combat.attack_odds(mod, defence, damage, hp).expected)


def _shot(state: GameState, ctx: Context, a: Model, b: Model) -> float:
    """Expected damage of ``a`` shooting ``b`` as they stand (0 with no shot), from the
    exact attack odds with the line of fire's cover and range modifiers."""
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
    damage (``best_shots``).

    Why this is the position term: in UMR damage is what wins (UMR-I-TURN-LIMIT counts
    health), and a model's worth on the table is the shot it has and the shots it
    offers. A model in cover or out of sight lowers the enemy's sum; one with a clear
    shot raises its own. Models in melee neither shoot nor are shot (UMR-MELEE)."""
    return by_side(state, best_shots(state, ctx))


def by_side(state: GameState, shots: dict[str, float]) -> dict[str, float]:
    """Per side, the sum of its models' values in ``shots`` (every side present, 0 with
    none): ``firepower`` from ``best_shots``, which ``score`` also reads for the gifts."""
    total = dict.fromkeys(state.sides, 0.0)
    for mid, v in shots.items():
        side = state.models[mid].side
        total[side] = total.get(side, 0.0) + v
    return total


#: per stats dict (by its id): a copy of it, its items sorted and a number for them
#: (never given twice). Why: a model's stats are fixed in play (``fixed_stats``) and
#: shared by every copy of a state, so the sort is done once per model instead of in
#: every score; the copy is compared before the answer is used, so a dict changed in
#: place (or a new one at a freed id) is sorted again
_STATS: dict[int, tuple[dict, tuple, int]] = {}
_STATS_NO: dict[tuple, int] = {}


def _stats_entry(stats: dict) -> tuple[dict, tuple, int]:
    got = _STATS.get(id(stats))
    if got is not None and got[0] == stats:
        return got
    if len(_STATS) >= 4096:
        _STATS.clear()
    sig = tuple(sorted(stats.items()))
    no = _STATS_NO.get(sig)
    if no is None:
        no = _STATS_NO.setdefault(sig, next(_NUMBERS))
    got = _STATS[id(stats)] = (dict(stats), sig, no)
    return got


def _stats_sig(stats: dict) -> tuple:
    """``stats``' items sorted (``_STATS``)."""
    return _stats_entry(stats)[1]


class _Shots:
    """A table's memos of shots: ``pairs``, each pair's expected shot keyed by all it
    reads of the two models (``_shot_sig``; most models stand still between two looks);
    ``best``, ``best_shots``' answer per set of free models; ``scores``, ``score``'s per
    position. All are emptied together at ``MEMO_LIMIT`` pairs (and an answer during
    which they were is not kept). Why the last two: a rollout step moves one model or
    none, and the same positions are scored again and again (eight looks in ten hit,
    issue 24)."""

    __slots__ = ("pairs", "best", "scores", "clears")

    def __init__(self) -> None:
        self.pairs: dict[tuple, float] = {}
        self.best: dict[tuple, dict[str, float]] = {}
        self.scores: dict[tuple, float] = {}
        self.clears = 0

    def put(self, key: tuple, v: float) -> float:
        if len(self.pairs) >= MEMO_LIMIT:
            self.pairs.clear()
            self.best.clear()
            self.scores.clear()
            self.clears += 1
        self.pairs[key] = v
        return v


def _shots_memo(ctx: Context) -> _Shots:
    return ctx.memo("umr.shots").get_or("shots", _Shots)


def best_shots(state: GameState, ctx: Context) -> dict[str, float]:
    """Per model free to shoot, its best shot's expected damage (0 with none)."""
    busy = measure.engaged(state)
    return _best_shots(state, ctx, [m for m in state.live() if m.id not in busy])


def _best_shots(state: GameState, ctx: Context, free: list[Model]) -> dict[str, float]:
    looks = [(m.id, m.side, _shot_sig(m), attacks.has(m, "sniper")) for m in free]
    memo = _shots_memo(ctx)
    key = tuple(looks)
    got = memo.best.get(key)
    if got is not None:
        return dict(got)
    clears = memo.clears
    out: dict[str, float] = {}
    pairs = memo.pairs
    for a, (_, side, sa, sniper) in zip(free, looks):
        far = not sniper
        best = 0.0
        ax, ay = a.x, a.y
        todo = []
        for b, (_, bside, sb, _) in zip(free, looks):
            if bside == side or far and (abs(ax - b.x) > 30 or abs(ay - b.y) > 30):
                continue
            pk = (sa, sb)
            v = pairs.get(pk)
            if v is None:
                todo.append((_ceiling(a, b, far), pk, b))
            elif v > best:
                best = v
        # the pairs not yet measured, likeliest best first, each only while it could
        # still beat the best: a shot is never worth more than its ceiling
        todo.sort(key=lambda t: -t[0])
        for ceiling, pk, b in todo:
            if ceiling <= best:
                break
            v = memo.put(pk, _shot(state, ctx, a, b))
            if v > best:
                best = v
        out[a.id] = best
    if memo.clears == clears:
        if len(memo.best) >= MEMO_LIMIT:
            memo.best.clear()
        memo.best[key] = out
    return dict(out)


def _shot_sig(m: Model) -> tuple:
    """Everything ``_shot`` reads of a model, as shooter or target: its footprint,
    health and stats (the stats, not the profile name: a scenario may override a
    profile), the abilities used this round and the gifts held (a sniper's reach, a
    grenadier's die, a commando's second defence die, a tank's counter: ``attacks.has``,
    ``attacks.gift``) and where it stands up on terrain (``measure.eye``)."""
    v = mv(m)
    return (
        footprint(m),
        m.hp,
        _stats_sig(m.stats),
        tuple(v.get("used", ())),
        tuple(v.get("gifts", ())),
        v.get("elev", 0.0),
        v.get("on"),
        bool(v.get("climb")),
    )


def _ceiling(a: Model, b: Model, far: bool) -> float:
    """What ``_shot`` can give at most, without measuring the sight: each modifier of
    the line of fire takes a point off (cover, long range: ``measure.line_of_fire``),
    so the shot in the open at its range band is worth the most; 0 beyond long range
    for a shooter that is not a sniper (``measure.no_shot`` measures the same gap).
    Why: the sight of a pair is what a score pays for a model at a new place (issue
    24), and a model's best shot needs only the pairs that could beat its others."""
    mod = int(a.stats.get("BALLISTIC", 0))
    if far:
        d = measure.gap(a, b)
        if d > measure.LONG_RANGE:
            return 0.0
        if d >= measure.SHORT_RANGE + 0.01:  # surely long range, whoever measures it
            mod -= 1
    return _expected(mod, attacks.defence_spec(b, True), attacks.damage_spec(a, b, True), b.hp)


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


def _melee_sig(m: Model) -> tuple:
    """Everything ``melee_edge`` reads of a model: the stats, the health, the abilities
    used this round and the leader's gifts (``defence_spec``, ``damage_spec``)."""
    v = mv(m)
    return (
        _stats_sig(m.stats),
        m.hp,
        tuple(v.get("used", ())),
        tuple(v.get("gifts", ())),
    )


#: ``_melee_sig``s numbered (never a number twice, so one always means the signature
#: its edges were worked out for, whatever threads and clearing do), and melee_edge per
#: pair of those numbers: a pure function of them, kept for good (a few hundred pairs)
_SIGS: dict[tuple, int] = {}
_EDGES: dict[tuple[int, int], float] = {}
#: ``closing``'s answer per position: the free models' and the foes' signature numbers
#: and footprints, all it reads (a pure function of them, like ``_EDGES``)
_CLOSING: dict[tuple, float] = {}


def _sig_no(m: Model) -> int:
    key = _melee_sig(m)
    got = _SIGS.get(key)
    if got is None:
        got = _SIGS.setdefault(key, next(_NUMBERS))
    return got


def closing(state: GameState, side: str) -> float:
    """The pull of models toward foes they out-fight: each free model gains
    ``MELEE_WEIGHT`` of its best melee edge over a foe within its charge reach, fading
    over ``MELEE_SPAN`` inches beyond. Why: the firepower term alone marks a model down
    for every step into the enemy's sight and up only for the shots it gains, so a
    one-step agent's close-combat models (blades, commandos) stayed home all game
    (issue 20); a model that wins the melee it walks into should want to get there.

    ``engine.closing.pull`` worked out inline, with the edges looked up per pair of
    what they read (``_melee_sig``), and the whole answer per position (``_CLOSING``):
    every rollout step of the search scores the position, and the exact odds of each
    pair, then the loop over the pairs, were most of its time (issue 24)."""
    return _closing(state.live(), measure.engaged(state), side)


def _closing(live: list[Model], busy: frozenset[str], side: str) -> float:
    if len(_SIGS) > 4096:
        _SIGS.clear()
        _EDGES.clear()
        _CLOSING.clear()
    free = [(m, _sig_no(m), footprint(m)) for m in live if m.side == side and m.id not in busy]
    foes = [(e, _sig_no(e), footprint(e)) for e in live if e.side != side]
    key = (tuple((n, fp) for _, n, fp in free), tuple((n, fp) for _, n, fp in foes))
    got = _CLOSING.get(key)
    if got is not None:
        return got
    total = 0.0
    for m, me, _ in free:
        r = 6.0 + int(m.stats.get("MOVE", 0))
        best = 0.0
        for e, ne, _ in foes:
            g = _EDGES.get((me, ne))
            if g is None:
                g = _EDGES[(me, ne)] = melee_edge(m, e)
            if g <= best:
                continue
            near = closeness(measure.gap(m, e) - r, MELEE_SPAN)
            if near * g > best:
                best = near * g
        total += best
    if len(_CLOSING) >= 65536:
        _CLOSING.clear()
    got = _CLOSING[key] = MELEE_WEIGHT * total
    return got


#: what a model part-way up a wall costs its side (health): it must spend its next dice
#: finishing the climb (UMR-CLIMBING), about a shot's expected damage
CLIMB_COST = 1.0


def climbing(state: GameState, side: str) -> float:
    """``CLIMB_COST`` for each of the enemy's models part-way up a wall, less the same
    for ``side``'s own. Why: a one-step agent saw nothing lost by starting a climb (a
    climb under way changes no shot), so where every advance was blocked it started
    one on a tie with ending the activation, and a squad leader then spent the game
    half-way up a ruin (issue 20); a climb now has to buy something to be taken."""
    total = 0.0
    for m in state.live():
        if mv(m).get("climb"):
            total += -CLIMB_COST if m.side == side else CLIMB_COST
    return total


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own health and models left minus the enemy's (a model is worth 5 health); with the
    battlefield at hand, plus FIRE_WEIGHT times the firepower balance (``firepower``),
    and the pull toward foes to fight (``closing``).

    Remembered per position with the table's shots (``_Shots.scores``): everything the
    value reads of each model (``_position``) is its key. Why: the search scores every
    step of every rollout, and most steps leave the position as an earlier one left it
    (a missed shot, a die given back); the score was half of a rollout (issue 24)."""
    if ctx is None or state.over:
        return _score(state, side, ctx)
    memo = _shots_memo(ctx)
    key = _position(state, side)
    got = memo.scores.get(key)
    if got is not None:
        return got
    clears = memo.clears
    value = _score(state, side, ctx)
    if memo.clears == clears:  # every pair it read is still remembered
        if len(memo.scores) >= MEMO_LIMIT:
            memo.scores.clear()
        memo.scores[key] = value
    return value


def _position(state: GameState, side: str) -> tuple:
    """What ``_score`` reads of a position not over: per live model its place, base,
    health, stats, the abilities used and gifts held this round (which shots and
    melees it has, ``attacks.has``, ``attacks.gift``), the dice given it, whether it is
    climbing and where it stands up on terrain (``measure.eye``, ``measure.same_level``)."""
    out = []
    for m in state.live():
        v = m.vars
        b = m.base
        out.append(
            (
                m.id,
                m.side,
                m.x,
                m.y,
                m.facing,
                tuple(b) if isinstance(b, list) else b,
                m.hp,
                _stats_entry(m.stats)[2],
                tuple(v.get("used", ())),
                tuple(v.get("gifts", ())),
                v.get("granted", 0),
                bool(v.get("climb")),
                v.get("elev", 0.0),
                v.get("on"),
            )
        )
    return (side, tuple(state.sides), tuple(out))


def _score(state: GameState, side: str, ctx: Context | None) -> float:
    own = sum(m.hp for m in state.live(side)) + 5 * len(state.live(side))
    foes = [m for m in state.live() if m.side != side]
    other = sum(m.hp for m in foes) + 5 * len(foes)
    if state.over:
        w = state.over.get("winner")
        if w == side:
            return 1000.0 + own - other
        if w is not None:
            return -1000.0 + own - other
    value = float(own - other) + climbing(state, side)
    if not foes:
        return value
    with frozen(state):  # both terms ask who is in melee: answered once
        if ctx is not None:
            shots = best_shots(state, ctx)
            fire = by_side(state, shots)
            value += FIRE_WEIGHT * (2 * fire.get(side, 0.0) - sum(fire.values()))
            value += gifts(state, side, shots)
        value += closing(state, side)
    return value


#: what a die given by the leader is worth to a model with no shot: it can still walk
#: (health; about the pull of a walk's 3.5", ``engine.agents.greedy.ENGAGE_PER_INCH``)
GIFT_FLOOR = 0.5


def gifts(state: GameState, side: str, shots: dict[str, float]) -> float:
    """The leader's action dice given and not yet rolled (UMR-LEADER), each worth its
    holder's best shot as it stands (``best_shots``), at least ``GIFT_FLOOR``,
    ``side``'s less the enemy's. Why: the gift is a die more, free, once a round; a
    score that counts only health and the shots on offer valued it at nothing, so the
    computer gave it only where nothing else was left to weigh (13 gifts in 36 rounds
    of six mirror games against a side that never acts, issue 20)."""
    total = 0.0
    for m in state.live():
        n = int(mv(m).get("granted", 0) or 0)
        if n:
            v = n * max(GIFT_FLOOR, shots.get(m.id, 0.0))
            total += v if m.side == side else -v
    return total
