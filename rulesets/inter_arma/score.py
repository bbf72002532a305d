"""The computer's reading of a position (score): fighting strength weighed by class, the
melee each contact promises, and a little for closing in.

Why the contacts: a one-step reader sees nothing of the melee phase while it moves, so
it walked figures into even one-on-one clashes (a coin toss: the one attacked strikes
back when it saves, IA-MELEE-1) as gladly as into two on one, where the group throws
1.5d6 or 2d6 for the initiative and every member strikes (IA-MELEE-2, -3). Each enemy
touched by k of our fighting figures is counted as a share ``GANG[k]`` of a loss, and
each of ours touched by k of theirs the same way, so an even pairing nets nothing and
outnumbering pays (issue 20) — for the side that strikes first.

Why who strikes first: the side with the initiative opens every melee phase
(IA-INITIATIVE), and a fight brings in every friend touching the target (IA-I-CLASH), so
it picks the clashes: its two on one stand, but the other side's two on one is broken,
the lone figure striking one of the pair first, one on one, after which neither may
clash again that turn. Against the rush baseline (which always strikes) the computer
counted on pairs that never fought and walked into pairs that did.

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
"""

from __future__ import annotations

from engine.closing import pull
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.chapters import combat, measure, morale
from rulesets.inter_arma.state import gs, mv

#: the pull toward the nearest foe is full within NEAR inches, none NEAR_SPAN beyond
NEAR, NEAR_SPAN = 12.0, 36.0
VALUE = {"commander": 2.0, "elite": 1.3, "regular": 1.0, "conscript": 0.8}
#: what is left of a wounded figure's worth: it cannot fight, but it stands on the table
#: until an enemy kills or captures it (IA-WOUNDED), and finishing it is worth a little
WOUNDED = 0.25
#: the share of a figure's worth that k fighting enemies in base contact threaten
GANG = (0.0, 0.1, 0.4, 0.6)
#: ... and never more than this share, whatever the class edge: a contact held is only a
#: promise, and three on one with a commander among them (0.6 x 2.0) promised more than
#: the figure's whole worth, so holding the contact beat the clash itself (70% to put the
#: enemy down) and a passive enemy stood untouched for the rest of the game (issue 20)
PROMISE = 0.4
#: what striking first in the melee phase (IA-INITIATIVE) is worth, in figures
INITIATIVE = 0.25
#: P(2d6 <= n), n = 0..12: the chance of an army morale throw of n or less (IA-MORALE)
AT_MOST = tuple(sum(a + b <= n for a in range(1, 7) for b in range(1, 7)) / 36 for n in range(13))


def worth(m: Model) -> float:
    v = VALUE.get(str(m.stats.get("class")), 1.0)
    return v * (WOUNDED if "wounded" in m.status else 1.0)


def edge(by: Model, t: Model) -> float:
    """How much more (or less) than an even clash ``by`` threatens ``t``: the class
    difference gives the initiative roll and the save their bonuses (IA-MELEE-1,
    IA-SAVE a, b), so a regular touching a commander threatens him little."""
    return min(2.0, max(0.25, 1.0 + 0.5 * (combat.quality(by) - combat.quality(t))))


def threat(own: list[Model], foes: list[Model], first: bool = True) -> float:
    """What the contacts promise ``own``'s side: the threatened share of each enemy's
    worth less that of each of ours (fighting figures only), each weighed by the best
    class edge among those who touch it. Only the side that strikes first (``first``:
    ``own``'s) gets its gangs; the other side's count as one on one."""
    touch = {e.id: [m for m in own if measure.in_contact(m, e)] for e in foes}
    total = 0.0
    for e in foes:
        k = touch[e.id]
        if k:
            n = min(len(k), 3 if first else 1)
            total += min(PROMISE, GANG[n] * max(edge(m, e) for m in k)) * worth(e)
    for m in own:
        k = [e for e in foes if any(x.id == m.id for x in touch[e.id])]
        if k:
            n = min(len(k), 1 if first else 3)
            total -= min(PROMISE, GANG[n] * max(edge(e, m) for e in k)) * worth(m)
    return total


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
    promise = threat(own, ready, first in (side, None))
    return total + promise + 0.02 * pull(own, ready, lambda m: NEAR, NEAR_SPAN)
