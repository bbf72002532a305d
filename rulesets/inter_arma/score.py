"""The computer's reading of a position (score): fighting strength weighed by class, the
melee each contact promises, the shots the ranged phase promises, and a little for
closing in.

Why the contacts: a one-step reader sees nothing of the melee phase while it moves, so
it walked figures into clashes that lose as gladly as into two on one, where the group
throws 1.5d6 or 2d6 for the initiative and every member strikes (IA-MELEE-2, -3). Each
contact is now worth the exact expected result of its next clash (``clash``): the side
that opens the melee phase takes the clashes that gain it (IA-INITIATIVE, IA-I-CLASH),
the other side then those left that gain it, and a contact whose clash is done or
declined this turn counts its next turn's at ``LATER`` (``melee_ahead``).

Why the shots: moving, the score saw nothing of the ranged phase to come, so an archer
gave up its shot to stand in contact (IA-I-CONTACT) one on one with a warrior as good
as he, and a figure stood in reach of the enemy's bows for nothing. Each figure still to
shoot this turn now promises its best shot at ``FIRE`` (``fire_ahead``).

Why morale: a side that has lost a third of its figures tests army morale at the end of
every turn in which it loses another (IA-I-CRITICAL), and a 0-4 sends all but the two a
commander holds off the table (IA-MORALE, IA-I-RETREAT); a 5-8 hands the initiative to
the enemy. A one-step reader saw neither until the dice fell: ending the melee phase
looked worth an enemy figure more than finishing a fight (the enemy's test fell inside
the end of the phase), and a figure stepping out of contact to join another fight
called its side's test (IA-I-BREAK), losing the initiative two times in three; the
computer did so 30 times in 20 games against a passive enemy, and lost two of them to
the retreats it called. The score now counts the test a side faces at the end of this
turn, and the initiative each side will have.

Why the verdict: at the turn limit the side that lost fewer soldiers wins (IA-I-END),
and a count of figures alone played the last turns as the first (``verdict_ahead``).
"""

from __future__ import annotations

import math

from engine.closing import pull
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma import victory
from rulesets.inter_arma.build import mounted
from rulesets.inter_arma.chapters import combat, measure, melee, morale, ranged
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs, mv

#: the pull toward the nearest foe is full within NEAR inches, none NEAR_SPAN beyond
NEAR, NEAR_SPAN = 12.0, 36.0
VALUE = {"commander": 2.0, "elite": 1.3, "regular": 1.0, "conscript": 0.8}
#: what is left of a wounded figure's worth: it cannot fight, but it stands on the table
#: until an enemy kills or captures it (IA-WOUNDED), and finishing it is worth a little
WOUNDED = 0.25
#: a contact's clash next turn, against one this turn: the movement phase between may
#: bring friends in or take the initiative away, and a clash due now that its side
#: passes over must be worth less than the clash taken
LATER = 0.6
#: a shot the coming ranged phase promises, against one taken: the other side moves
#: too, and neither sight nor cover is measured for it (a score must be quick)
FIRE = 0.5
#: what striking first in the melee phase (IA-INITIATIVE) is worth, in figures
INITIATIVE = 0.25
#: the turn limit's verdict read ahead (IA-I-END): what winning is worth over losing, in
#: figures, in full at the limit and fading to nothing ``END_TURNS`` turns before it
END_WORTH = 2.0
END_TURNS = 4.0
#: the spread, in figures lost, that one turn adds to the difference in losses
SPREAD = 1.0
#: P(2d6 <= n), n = 0..12: the chance of an army morale throw of n or less (IA-MORALE)
AT_MOST = tuple(sum(a + b <= n for a in range(1, 7) for b in range(1, 7)) / 36 for n in range(13))


def worth(m: Model) -> float:
    v = VALUE.get(str(m.stats.get("class")), 1.0)
    return v * (WOUNDED if "wounded" in m.status else 1.0)


def _kind(state: GameState, m: Model) -> tuple[object, ...]:
    """What a clash's odds depend on: class, type, armour, shield, still mounted, an
    archer's shot this turn (IA-MELEE-1: −1 on the initiative), and crawling (a lone
    crawler strikes from hiding, IA-AMBUSH)."""
    st = m.stats
    return (st.get("class"), st.get("type"), bool(st.get("armored")), bool(st.get("shield")),
            mounted(m), melee.archer_penalty(state, m), "crawling" in m.status)  # fmt: skip


_CLASHES: dict[tuple[object, ...], tuple[float, float]] = {}


def clash(state: GameState, group: list[Model], t: Model) -> tuple[float, float]:
    """(P(``t`` down), P(``group[0]`` down)) in the clash of ``group`` (its first the
    one ``t`` strikes back at) on ``t``, exactly as melee.apply plays it one, two or
    three on one: the initiative (IA-MELEE-1/2/3), the group's blows, the lone figure's
    one blow with its class bonus turned against the first (IA-MELEE-2). Saves of the
    moment (formations, inspiration) and massed combat are left out."""
    key = (*(_kind(state, g) for g in group), None, _kind(state, t))
    got = _CLASHES.get(key)
    if got is None and melee.ambushing(group[0], group):
        got = _CLASHES[key] = ambush(group[0], t)
    if got is None:
        a, b, _ = melee.initiative_dists(state, group, t)
        win = sum(pa * pb for fa, pa in a.items() for fb, pb in b.items() if fa > fb)
        lose = sum(pa * pb for fa, pa in a.items() for fb, pb in b.items() if fa < fb)
        f = float(win / (win + lose))
        survive = 1.0
        for g in group:
            survive *= 1 - float(combat.p_down(combat.hit_dist(t, melee.attack_kind(g), [])))
        back = combat.hit_dist(group[0], melee.attack_kind(t), melee.counter_mods(group, t))
        q = float(combat.p_down(back))
        got = (f * (1 - survive) + (1 - f) * (1 - q) * (1 - survive), f * survive * q + (1 - f) * q)
        _CLASHES[key] = got
    return got


def ambush(g: Model, t: Model) -> tuple[float, float]:
    """(P(``t`` down), P(``g`` down)) when ``g`` crawls alone on ``t``: no initiative,
    ``t`` saves 2 worse (1 if armoured), and only a commander that saved strikes back at
    once (IA-AMBUSH). Why: the score took it for an even clash, so the computer neither
    crawled in to strike from hiding nor feared an enemy crawling at its side; in 20
    mirror games the random player's ambushes put down 8 of its figures for none."""
    d = float(combat.p_down(combat.hit_dist(t, melee.attack_kind(g), melee.ambush_mods(t))))
    if t.stats.get("class") != "commander":
        return d, 0.0
    back = float(combat.p_down(combat.hit_dist(g, melee.attack_kind(t), [])))
    return d, (1 - d) * back


def best_clash(state: GameState, group: list[Model], t: Model) -> float:
    """The worth the clash of ``group`` on ``t`` gains the group's side: ``t`` put down
    less the one it strikes back at, the group choosing that one (the figure that
    declares the fight) to lose least."""
    best = -math.inf
    for i, m in enumerate(group):
        down, lost = clash(state, [m, *group[:i], *group[i + 1 :]], t)
        best = max(best, down * worth(t) - lost * worth(m))
    return best


Offer = tuple[float, Model, list[Model]]


Touch = dict[str, list[Model]]


def _offers(state: GameState, side: str, touch: Touch, used: set[str]) -> list[Offer]:
    """The clashes ``side`` may declare now, (worth to it, target, group), best first:
    on each enemy not yet clashed, every ready figure of its own touching it
    (IA-I-CLASH; a figure clashes once a turn, ``used``). ``touch``: each fighting
    figure's fighting enemies in contact."""
    out = []
    for tid, near in touch.items():
        t = state.models[tid]
        if t.side == side or tid in used:
            continue
        group = [m for m in near if m.side == side and m.id not in used]
        if group:
            out.append((best_clash(state, group, t), t, group))
    return sorted(out, key=lambda o: -o[0])


def _pass(state: GameState, pickers: list[str], touch: Touch, used: set[str]) -> dict[str, float]:
    """One melee phase as the score foresees it: each side in ``pickers`` in turn takes
    the clashes that gain it, best first, counting as gained what a clash takes from the
    sides after it: a lone figure striking one of a pair first breaks their two on one,
    for neither may clash again that turn (IA-I-CLASH). ``used`` grows with the figures
    that clash. Returns the worth each side gains."""
    gain = dict.fromkeys(state.sides, 0.0)
    for k, side in enumerate(pickers):
        later = [o for s in pickers[k + 1 :] for o in _offers(state, s, touch, used) if o[0] > 0]
        for v, t, group in _offers(state, side, touch, used):
            if t.id in used or any(m.id in used for m in group):
                continue
            ids = {m.id for m in group}
            denied = max((w for w, u, g in later if u.id in ids or t in g), default=0.0)
            if v + denied <= 0:
                continue
            used.update([t.id, *ids])
            gain[side] += v
            gain[t.side] -= v
    return gain


def contacts(fighters: list[Model]) -> Touch:
    """Each fighting figure's fighting enemies in base contact (IA-I-CONTACT)."""
    touch: Touch = {m.id: [] for m in fighters}
    for i, a in enumerate(fighters):
        for b in fighters[i + 1 :]:
            if a.side != b.side and measure.in_contact(a, b):
                touch[a.id].append(b)
                touch[b.id].append(a)
    return {k: v for k, v in touch.items() if v}


def melee_ahead(state: GameState, side: str, fighters: list[Model], touch: Touch) -> float:
    """What the contacts promise ``side``: the clashes of this turn's melee phase, the
    sides still to play it picking in their order (the side to act first in it), and
    for every contact left over, its clash next turn at ``LATER`` (next turn's order).
    Why picked, not summed both ways: a pair meets once a turn (IA-MELEE-1), and the side
    that opens the melee phase chooses where (IA-INITIATIVE, IA-I-CLASH): it fights
    where it gains and leaves the rest to the other side, who takes only what gains it.
    Why exact odds: an even-looking one on one is not even when one is armoured
    (a Gallic warrior against a legionary loses 0.42 of a figure for 0.25, IA-SAVE)
    or a commander (armoured, +2 to save: no blow puts him down), and the class-only
    edge of old walked warriors into legionaries one by one (issue 20)."""
    turn = gs(state).get("ia") or {}
    order = list(turn.get("order") or state.sides)
    pickers = order[int(turn.get("i", 0)) :] if state.phase == "melee" else order
    if not touch:
        return 0.0
    done = {m.id for m in fighters if mv(m).get("clashed") == state.turn}
    used = set(done)
    now = _pass(state, pickers, touch, used)
    first = leader(state)
    later_order = [first, *(s for s in order if s != first)] if first else order
    later = _pass(state, later_order, touch, used - done)
    return now[side] + LATER * later[side]


_SHOTS: dict[tuple[object, ...], float] = {}


def shot(state: GameState, f: Model, t: Model, w: dict[str, object]) -> float:
    """The worth a shot of ``f`` with ``w`` at ``t`` puts down: the band of the gap
    between their bases (centres less radii), the to-hit roll with its class and
    horseback modifiers, then ``t``'s saves (IA-RANGED, IA-SAVE, IA-CAVALRY); sight,
    cover and height are not measured. Nothing out of range."""
    gap = T.cm(math.dist(f.pos, t.pos) - measure.base_radius(f) - measure.base_radius(t))
    band = ranged.band_of(w, gap, 0)
    if not band:
        return 0.0
    q = combat.quality(f)
    mod = (q if q > 0 and band in ("short", "medium") else min(q, 0)) - mounted(f)
    key = (band, mod, _kind(state, t))
    p = _SHOTS.get(key)
    if p is None:
        hit = combat.to_hit_chance(T.TO_HIT[band], mod)
        p = _SHOTS[key] = float(hit * combat.p_down(combat.hit_dist(t, band, [])))
    return p * worth(t)


def fire_ahead(state: GameState, side: str, fighters: list[Model], touch: Touch) -> float:
    """What the coming ranged phase promises ``side``: each figure still to shoot this
    turn (not in contact, crawling or out of missiles, its side not done shooting)
    aims at the enemy it would put down most worth of, at ``FIRE``; the enemy's the
    same, taken off. Why: the score saw nothing of the ranged phase while moving, so
    archers walked into melee (where they may not shoot, IA-I-CONTACT), one on one
    with warriors as good as they, and stood in reach of the enemy's bows for free."""
    if state.phase not in ("movement", "ranged"):
        return 0.0
    turn = gs(state).get("ia") or {}
    order = list(turn.get("order") or state.sides)
    done = set(order[: int(turn.get("i", 0))]) if state.phase == "ranged" else set()
    total = 0.0
    for f in fighters:
        if f.side in done or f.id in touch or "crawling" in f.status:
            continue
        if mv(f).get("shot") == state.turn:
            continue
        w = ranged.pick_weapon(f, "")
        if w is None or (w["kind"] == "javelin" and int(mv(f).get("javelins", 0)) <= 0):
            continue
        best = max((shot(state, f, t, w) for t in fighters if t.side != f.side), default=0.0)
        total += best if f.side == side else -best
    return FIRE * total


def leader(state: GameState) -> str | None:
    """The side that will open the next melee phase: the initiative order, with the sides
    whose morale lost them the initiative this turn already moved last (IA-MORALE 5-8;
    the order changes when the turn ends, and the score must not jump then)."""
    turn = gs(state).get("ia") or {}
    order = list(turn.get("order") or [])
    lose = turn.get("lose_init") or []
    if lose and len(lose) < len(order):
        order = [s for s in order if s not in lose] + [s for s in order if s in lose]
    return order[0] if order else None


def retreat_risk(state: GameState, side: str) -> float:
    """The worth ``side`` expects to lose to its army morale test at the end of this turn:
    nothing unless it has lost a figure since its last look and a third of its figures
    are down (IA-I-CRITICAL), else the chance of a 0-4 with its modifiers (IA-MORALE)
    times the worth of those who run: every able figure but its commanders and the two
    each may hold, on a 3+ (IA-I-RETREAT; held counted at two thirds, sight ignored)."""
    soldiers = [m for m in state.models.values() if m.side == side and morale.role(m) != "civilian"]
    down = [m for m in morale.lost(state, side) if morale.role(m) != "civilian"]
    seen = int((gs(state).get("morale_seen") or {}).get(side, 0))
    if len(down) <= seen or 3 * len(down) < len(soldiers):
        return 0.0
    k = sum(x.value for x in morale.modifiers(state, side))
    p = AT_MOST[max(0, min(12, 4 - k))]
    able = [m for m in state.live(side) if "wounded" not in m.status]
    chiefs = [c for c in able if c.stats.get("class") == "commander"]
    men = [m for m in able if m not in chiefs]
    if p <= 0 or not men:
        return 0.0
    holds = sum(max(0, 2 - int(mv(c).get("holds", 0))) for c in chiefs)
    held = min(len(men), holds) * 2 / 3
    return p * sum(worth(m) for m in men) * (1 - held / len(men))


def verdict_ahead(state: GameState, side: str) -> float:
    """What the turn limit's verdict promises ``side``: the side that lost fewer soldiers
    wins (IA-I-END), so with ``left`` turns to play the chance of winning less that of
    losing, 2Φ(d/σ) − 1 for a lead of ``d`` soldiers and a spread σ = ``SPREAD`` √left,
    weighed ``END_WORTH`` at the limit and less the farther off it is. Why: the score
    counted figures alone, so a side one soldier behind in the last turns fought as it
    did in the first: against random play the computer ended turns 8 and 9 of 10 one
    soldier behind without a blow and lost 5 to 6. Being a curve, it makes a fight's
    risk worth taking when behind and not when ahead, as the dice of each sampled fight
    fall (greedy averages the score over them)."""
    limit = state.turn_limit
    if not limit:
        return 0.0
    done = PHASE_DONE.get(state.phase, 0.0)
    left = max(1e-6, limit - state.turn + 1 - done)
    weight = END_WORTH * max(0.0, 1 - left / END_TURNS)
    if weight <= 0:
        return 0.0
    own = victory.lost(state, side)
    d = sum(victory.lost(state, s) for s in state.sides if s != side) - own
    return weight * math.erf(d / (SPREAD * math.sqrt(2 * left)))


#: the share of a turn gone when each phase begins (IA-SEQUENCE)
PHASE_DONE = {"movement": 0.0, "ranged": 1 / 3, "melee": 2 / 3}


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own fighting strength minus the enemy's (class-weighted, wounded at a quarter),
    the morale tests ahead this turn, the initiative, the melee the contacts promise, and
    a little for closing in, so greedy play advances instead of waiting."""
    total = 0.0
    for m in state.models.values():
        if m.removed:
            continue
        total += worth(m) if m.side == side else -worth(m)
    own = [m for m in state.live(side) if "wounded" not in m.status]
    foes = [e for e in state.live() if e.side != side]
    ready = [e for e in foes if "wounded" not in e.status]
    for s in state.sides:
        total += retreat_risk(state, s) * (-1.0 if s == side else 1.0)
    first = leader(state)
    if first is not None:
        total += INITIATIVE if first == side else -INITIATIVE
    fighters = own + ready
    touch = contacts(fighters)
    total += verdict_ahead(state, side)
    promise = melee_ahead(state, side, fighters, touch) + fire_ahead(state, side, fighters, touch)
    return total + promise + 0.02 * pull(own, ready, lambda m: NEAR, NEAR_SPAN)
