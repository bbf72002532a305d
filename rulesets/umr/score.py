"""How the computer values a UMR position (``score``): health and models left, the shots
each side has on the other, and the pull toward foes a model out-fights.
"""

from __future__ import annotations

from functools import lru_cache

from engine.closing import pull as closing_pull
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.umr.chapters import attacks, combat, measure
from rulesets.umr.state import frozen, mv

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
    busy = measure.engaged(state)
    free = [m for m in state.live() if m.id not in busy]
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


def _melee_sig(m: Model) -> tuple:
    """Everything ``melee_edge`` reads of a model: the stats, the health, the abilities
    used this round and the leader's gifts (``defence_spec``, ``damage_spec``)."""
    v = mv(m)
    return (
        tuple(sorted(m.stats.items())),
        m.hp,
        tuple(v.get("used", ())),
        tuple(v.get("gifts", ())),
    )


#: melee_edge per pair of ``_melee_sig``s: a pure function of them, so kept for good
#: (a few hundred pairs in a game)
_EDGES: dict[tuple, float] = {}


def closing(state: GameState, side: str) -> float:
    """The pull of models toward foes they out-fight: each free model gains
    ``MELEE_WEIGHT`` of its best melee edge over a foe within its charge reach, fading
    over ``MELEE_SPAN`` inches beyond. Why: the firepower term alone marks a model down
    for every step into the enemy's sight and up only for the shots it gains, so a
    one-step agent's close-combat models (blades, commandos) stayed home all game
    (issue 20); a model that wins the melee it walks into should want to get there.

    The edges are looked up per pair of what they read (``_melee_sig``): every rollout
    step of the search scores the position, and the exact odds of each pair were most
    of its time (issue 24)."""
    busy = measure.engaged(state)
    free = [m for m in state.live(side) if m.id not in busy]
    foes = [e for e in state.live() if e.side != side]
    sig = {m.id: _melee_sig(m) for m in (*free, *foes)}

    def edge(a: Model, b: Model) -> float:
        key = (sig[a.id], sig[b.id])
        got = _EDGES.get(key)
        if got is None:
            if len(_EDGES) > 65536:
                _EDGES.clear()
            got = _EDGES[key] = melee_edge(a, b)
        return got

    return MELEE_WEIGHT * closing_pull(
        free,
        foes,
        reach=lambda m: 6.0 + int(m.stats.get("MOVE", 0)),
        span=MELEE_SPAN,
        gain=edge,
        gap=measure.gap,
    )


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
    if not foes:
        return value
    with frozen(state):  # both terms ask who is in melee: answered once
        if ctx is not None:
            fire = firepower(state, ctx)
            value += FIRE_WEIGHT * (2 * fire.get(side, 0.0) - sum(fire.values()))
        value += closing(state, side)
    return value
