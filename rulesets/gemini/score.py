"""The computer's reading of a position (``score``): the wounds each side has left,
its leaders and its standing, a little for closing in (more as the turn limit nears),
and with the table at hand the firepower balance.

Why a closing term: without it greedy play stood off at shooting range and never
charged; every inch nearer its nearest foe (round a wall when one is in the way) counts.
Why the firepower balance (``fire_balance``): greedy play shot from beyond half range
while the random side walked in and hit twice as often; a move is worth the shots it
sets up for the shooting phase that follows.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.gemini import build
from rulesets.gemini.candidates import nearest_by_way, route
from rulesets.gemini.chapters import measure, melee, switches, wounds
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import fire_hooks
from rulesets.gemini.chapters.shooting import NO_FIRE
from rulesets.gemini.state import mv, stamp


def value(m: Model) -> float:
    """What a model is worth to the AI: its wounds, more for a leader, little when down."""
    v = max(m.hp, 0) + 0.5 * int(m.stat("WS")) / 3 + 0.5 * int(m.stat("BS")) / 3
    if m.stats.get("leader"):
        v *= 1.5
    if any(s in m.status for s in ("down", "stunned", "knocked_down")):
        v *= 0.3
    return v


#: inches over which the closing term rises (past it, no pull; GM tables are 36-48")
CLOSING_SPAN = 60.0
#: weight of the closing term against one wound (small: a wound always weighs more)
CLOSING_WEIGHT = 0.3
#: how much the closing weight has grown by the turn limit: (1 + CLOSING_LATE) times
CLOSING_LATE = 5.0


def closing_weight(state: GameState) -> float:
    """The closing term's weight: CLOSING_WEIGHT on turn 0, growing evenly with the
    share of the scenario's turns played to (1 + CLOSING_LATE) times it at the turn
    limit; without a limit it stays CLOSING_WEIGHT. Why: with the wounds left counted
    at the turn limit (GM-I-END), an inch not closed costs more the fewer turns are
    left to use it. Greedy orks 36" from the guards' lasguns (default scenario, against
    random) won 40 of 60 games at a flat 0.3, 52 of 60 growing 6-fold."""
    limit = state.turn_limit
    if limit <= 0:
        return CLOSING_WEIGHT
    share = min(max(state.turn, 0), limit) / limit
    return CLOSING_WEIGHT * (1.0 + CLOSING_LATE * share)


def way(ctx: Context | None, a: tuple[float, float], b: tuple[float, float]) -> float:
    """The length of the way from ``a`` to ``b``: straight when no wall stands between,
    else round the wall in the way (``candidates.route``)."""
    if ctx is None:
        return math.dist(a, b)
    return route(ctx, a, b)[0]


def closing(state: GameState, side: str, ctx: Context | None = None) -> float:
    """How near the side's models stand to their nearest foes: each adds 1 − d / 60"
    (d the gap to its nearest foe by the way round the walls, ``reach``), so every inch
    closer counts, to base contact. Why
    not capped near: a term flat inside 12" left greedy play standing off at 12" and
    never charging (the passive baseline was beaten 40% of the time). Kept per table
    for the bases where they stand (a rollout scores the same stance again and again)."""
    if ctx is None:
        return _closing(state, side, None)
    stance = tuple((m.id, m.side, m.x, m.y, _hashable(m.base)) for m in state.live())
    return float(
        ctx.table.memo("gemini.closing").get_or((side, stance), lambda: _closing(state, side, ctx))
    )


def _hashable(base: object) -> object:
    return tuple(base) if isinstance(base, list) else base


def _closing(state: GameState, side: str, ctx: Context | None) -> float:
    """``closing`` measured."""
    near = 0.0
    for m in state.live(side):
        d = reach(state, m, ctx)
        if d is not None:
            near += 1.0 - min(d, CLOSING_SPAN) / CLOSING_SPAN
    return near


def reach(state: GameState, m: Model, ctx: Context | None) -> float | None:
    """The gap from ``m`` to the foe nearest it by the way round the walls
    (``candidates.nearest_by_way``), None without foes."""
    got = nearest_by_way(state, m, ctx)
    return got[0] if got else None


def free_strikes(state: GameState, side: str) -> float:
    """GM-I-FIGHT: a model strikes once a phase, so in the close combat phase of the side
    to act a foe in contact that has already struck answers no more blows: the side's
    models still free to strike at it will, each at its likeliest victim (the expected
    wounds, priced at the foe's value a wound). Why: read one fight at a time, the
    first fight against a stronger model is a bad trade and the second, a free blow,
    never came (two orks charged a sergeant and neither fought, issue 20)."""
    acting = state.active
    if state.phase != "close_combat" or acting is None or switches.of(state).combat_score:
        return 0.0
    now = stamp(state)
    total = 0.0
    for m in state.live(acting):
        spent = [e for e in measure.foes_in_contact(state, m) if mv(e).get("struck") == now]
        if not spent or not melee.can_strike(state, m):
            continue
        w = build.melee_weapon(m)
        s, save = int(w.get("S", m.stat("S"))), int(w.get("save", 0))
        blows = max(1, int(m.stat("A", 1)))
        total += max(
            float(T.chance(T.melee_need(int(m.stat("WS")), int(e.stat("WS")))))
            * float(wounds.p_wound_and_unsaved(s, save, e))
            * blows
            * value(e)
            / max(e.hp, 1)
            for e in spent
        )
    return total if acting == side else -total


def blows(m: Model, e: Model) -> float:
    """The wounds ``m``'s blows are expected to take off ``e`` in one fight (GM-MELEE:
    A dice on the WS chart, then wound and save), at ``e``'s ``value`` a wound."""
    w = build.melee_weapon(m)
    s, save = int(w.get("S", m.stat("S"))), int(w.get("save", 0))
    hit = float(T.chance(T.melee_need(int(m.stat("WS")), int(e.stat("WS")))))
    return hit * float(wounds.p_wound_and_unsaved(s, save, e)) * max(1, int(m.stat("A", 1)))


def fights_next(state: GameState, side: str) -> float:
    """The fights the side to act has still to fight this turn (its movement, shooting or
    close combat phase, before the enemy moves), each of its models in contact and free
    to strike against its best foe: its blows, less the foe's blows back (from a foe
    that strikes first, or with it, in full; after it, if the foe lives). Each foe
    answers one of them (GM-I-FIGHT); ``free_strikes`` counts the rest once it has.
    Why: a charge was worth only the shot it gave up, so greedy play never charged, not
    even a sergeant with a chainsword (2 attacks, S 4) beside a guardsman (issue 20)."""
    acting = state.active
    if acting is None or switches.of(state).combat_score:
        return 0.0
    if state.phase not in ("movement", "shooting", "close_combat"):
        return 0.0
    now = stamp(state)
    total, answered = 0.0, set()
    for m in state.live(acting):
        # a foe that has struck this phase is ``free_strikes``' to count
        foes = [e for e in measure.foes_in_contact(state, m) if mv(e).get("struck") != now]
        if not foes or not melee.can_strike(state, m):
            continue
        best = None
        for e in foes:
            mine = blows(m, e) * value(e) / max(e.hp, 1)
            back = 0.0
            if e.id not in answered and melee.can_strike(state, e):
                first = melee.order(state, m, e)[0]
                live = 1.0 if e in first else max(0.0, 1.0 - blows(m, e) / max(e.hp, 1))
                back = live * blows(e, m) * value(m) / max(m.hp, 1)
            if best is None or mine - back > best[0]:
                best = (mine - back, e.id)
        if best is not None:
            total += best[0]
            answered.add(best[1])
    return total if acting == side else -total


#: weight of a model's best shot as the table stands while it is still to be taken in
#: its side's shooting phase this turn (sure to come before the enemy moves): in full
FIRE_NEXT = 1.0
#: ... and once it is not (the enemy moves first, and may kill the shooter or step out
#: of its sight): nothing. Why not a share: at 0.5 the enemy's shots at a model that
#: steps out of cover outweighed every inch it closed, and orks behind a wall waited
#: there all game against a side that never shot (default scenario, orks against
#: passive: 3 of 5 won before, 0 of 10 at 0.5, 4 of 5 at 0)
FIRE_WEIGHT = 0.0


def fires_next(state: GameState, m: Model) -> bool:
    """Will ``m`` shoot before the enemy moves? Its side is playing its movement or
    shooting phase (GM-TURN: movement, then shooting, one side after the other) and it
    has not shot, run or charged this turn (GM-SHOOT, GM-I-RUN, GM-CHARGE)."""
    if state.active != m.side or state.phase not in ("movement", "shooting"):
        return False
    t = state.turn
    return mv(m).get("shot") != t and mv(m).get("ran") != t and mv(m).get("charged") != t


def fire_balance(state: GameState, side: str, ctx: Context) -> float:
    """The side's weighted firepower less the enemy's: each model's best shot
    (``shots``) at FIRE_NEXT when it ``fires_next``, else at FIRE_WEIGHT: the shots a
    move sets up for the shooting phase that follows. Why per model and not per phase:
    ending the movement phase must not look like losing the shots the shooting phase
    is about to take."""
    if not FIRE_WEIGHT and not any(fires_next(state, m) for m in state.live()):
        return 0.0  # no shot counts: none measured (a close combat, the recovery)
    total = 0.0
    for mid, v in shots(state, ctx).items():
        m = state.models[mid]
        w = FIRE_NEXT if fires_next(state, m) else FIRE_WEIGHT
        total += w * v if m.side == side else -w * v
    return total


def firepower(state: GameState, ctx: Context) -> dict[str, float]:
    """Per side, the sum over its models able to shoot of their best expected shot as the
    table stands: the wounds it should take off a target the rules let it aim at
    (within range, at least a quarter visible, the closest such foe: GM-SHOOT,
    GM-COVER, GM-TARGET), at the foe's ``value`` a wound.

    Why (issue 20): greedy play shot from beyond half range at 33% while the random
    side walked in and hit at 50%; a position is worth the shots it offers and the shots
    it gives. Why batched: the visible shares of every shooter against every target
    (72 pairs in a six-a-side battle) come from one ``visible_matrix`` call, and the
    whole answer is kept in the table's memo for the models as they stand. Cover is
    read from the visible share alone (a quarter or more hidden: -1), not the kind of
    terrain: close enough for a score, and a sight per pair would cost ten times more."""
    total = dict.fromkeys(state.sides, 0.0)
    for mid, v in shots(state, ctx).items():
        side = state.models[mid].side
        total[side] = total.get(side, 0.0) + v
    return total


def shots(state: GameState, ctx: Context) -> dict[str, float]:
    """Each model's best expected shot (``firepower``), by id, kept in the table's memo
    for the models as they stand."""
    sw = switches.of(state)
    key = (sw.gasr_targeting, sw.injuries, sw.extra_wounds) + tuple(
        (m.id, m.side, m.x, m.y, _hashable(m.base), m.hp, tuple(m.status), _spent(m))
        for m in state.live()
    )
    return dict(ctx.table.memo("gemini.fire").get_or(key, lambda: _shots(state, ctx)))


def _spent(m: Model) -> tuple[str, ...]:
    return tuple(mv(m).get("spent", []))


def _shots(state: GameState, ctx: Context) -> dict[str, float]:
    """``shots`` measured: the pairs within range first, their sight in one batch."""
    live = state.live()
    locked = {t.id: {f.side for f in measure.foes_in_contact(state, t)} for t in live}
    aims: list[tuple[Model, dict, list[tuple[float, str, Model]]]] = []
    for m in live:
        if locked[m.id] or any(s in m.status for s in NO_FIRE):
            continue
        for w in build.ranged(m):
            rng = float(w.get("range", 0)) + 1e-9
            near = [(measure.gap(m, t), t.id, t) for t in live if t.side != m.side]
            aims.append(
                (m, w, sorted(x for x in near if x[0] <= rng and m.side not in locked[x[1]]))
            )
    pairs = {(m.id, t.id): (m, t) for m, _, near in aims for _, _, t in near}
    seen = dict(zip(pairs, visible(ctx, list(pairs.values()))))
    best: dict[str, float] = {}
    for m, w, near in aims:
        # GM-TARGET: the closest foe it can shoot at (at least a quarter visible)
        t = next(((g, t) for g, _, t in near if seen[m.id, t.id] >= measure.HIDDEN), None)
        if t is not None:
            v = shot_worth(state, m, w, t[1], t[0], seen[m.id, t[1].id])
            best[m.id] = max(best.get(m.id, 0.0), v)
    return best


def visible(ctx: Context, pairs: list[tuple[Model, Model]]) -> list[float]:
    """The visible share of each (observer, target) pair (GM-COVER), remembered per pair
    of footprints; the pairs not yet known measured in one batched call: a moved
    model's row and column at once (``visible_cross``, the usual case: a candidate
    moves one model), else the matrix of the observers and targets involved."""
    memo = ctx.table.memo("gemini.seen")
    keys = [(footprint(a), footprint(b)) for a, b in pairs]
    got = {k: memo[k] for k in keys if k in memo}
    missing = [k for k in keys if k not in got]
    if missing:
        common = set.intersection(*({a, b} for a, b in missing))
        if len(common) == 1:
            new = common.pop()
            others = sorted({a if b == new else b for a, b in missing} - {new})
            row, col = ctx.table.visible_cross(new, others)
            for o, r, c in zip(others, row, col):
                got[new, o], got[o, new] = float(r), float(c)
        else:
            obs = sorted({a for a, _ in missing})
            tgs = sorted({b for _, b in missing})
            mat = ctx.table.visible_matrix(obs, tgs)
            for i, a in enumerate(obs):
                for j, b in enumerate(tgs):
                    got[a, b] = float(mat[i, j])
        for k in missing:
            memo.put(k, got[k])
    return [got[k] for k in keys]


def shot_worth(state: GameState, m: Model, w: dict, t: Model, gap: float, visible: float) -> float:
    """The expected ``value`` one shot of ``w`` takes off ``t`` (GM-SHOOT, GM-WOUND,
    GM-SAVE): beyond half range -1, a quarter or more hidden -1, large +1."""
    mods = -1 if gap > float(w.get("range", 0)) / 2 + 1e-9 else 0
    mods -= 1 if visible < 1.0 - measure.COVERED + 1e-9 else 0
    mods += 1 if t.stats.get("large") else 0
    mods += sum(x.value for x in fire_hooks.to_hit_mods(state, m))
    per = per_shot(
        int(m.stat("BS")),
        mods,
        int(w.get("S", 3)),
        int(w.get("save", 0)),
        int(t.stat("T")),
        int(t.stat("Sv", 0)),
    )
    return per * int(w.get("shots", 1)) * value(t) / max(t.hp, 1)


@lru_cache(maxsize=4096)
def per_shot(bs: int, mods: int, s: int, save: int, toughness: int, sv: int) -> float:
    """The chance one shot wounds (GM-SHOOT, GM-WOUND, GM-SAVE), as a float, cached."""
    hit = T.hit_chance(T.hit_need(bs, mods))
    wound = T.chance(T.wound_need(s, toughness))
    saved = T.chance(T.save_need(sv, save))
    return float(hit * wound * (1 - saved))


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own strength minus the enemy's, the blows a spent foe can no longer answer, and a
    little for closing in, so greedy play advances, charges and fights instead of
    waiting; with the table at hand, the firepower balance (``fire_balance``)."""
    total = 0.0
    for m in state.live():
        total += value(m) if m.side == side else -value(m)
    total += free_strikes(state, side) + closing_weight(state) * closing(state, side, ctx)
    total += fights_next(state, side)
    if ctx is not None and not state.over:
        total += fire_balance(state, side, ctx)
    return total
