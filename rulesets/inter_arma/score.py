"""The computer's reading of a position (score): fighting strength weighed by class, the
melee each contact promises, and a little for closing in.

Why the contacts: a one-step reader sees nothing of the melee phase while it moves, so
it walked figures into even one-on-one clashes (a coin toss: the one attacked strikes
back when it saves, IA-MELEE-1) as gladly as into two on one, where the group throws
1.5d6 or 2d6 for the initiative and every member strikes (IA-MELEE-2, -3). Each enemy
touched by k of our fighting figures is counted as a share ``GANG[k]`` of a loss, and
each of ours touched by k of theirs the same way, so an even pairing nets nothing and
outnumbering pays (issue 20).
"""

from __future__ import annotations

from engine.closing import pull
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.chapters import combat, measure

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


def worth(m: Model) -> float:
    v = VALUE.get(str(m.stats.get("class")), 1.0)
    return v * (WOUNDED if "wounded" in m.status else 1.0)


def edge(by: Model, t: Model) -> float:
    """How much more (or less) than an even clash ``by`` threatens ``t``: the class
    difference gives the initiative roll and the save their bonuses (IA-MELEE-1,
    IA-SAVE a, b), so a regular touching a commander threatens him little."""
    return min(2.0, max(0.25, 1.0 + 0.5 * (combat.quality(by) - combat.quality(t))))


def threat(own: list[Model], foes: list[Model]) -> float:
    """What the contacts promise ``own``'s side: the threatened share of each enemy's
    worth less that of each of ours (fighting figures only), each weighed by the best
    class edge among those who touch it."""
    touch = {e.id: [m for m in own if measure.in_contact(m, e)] for e in foes}
    total = 0.0
    for e in foes:
        k = touch[e.id]
        if k:
            total += min(PROMISE, GANG[min(len(k), 3)] * max(edge(m, e) for m in k)) * worth(e)
    for m in own:
        k = [e for e in foes if any(x.id == m.id for x in touch[e.id])]
        if k:
            total -= min(PROMISE, GANG[min(len(k), 3)] * max(edge(e, m) for e in k)) * worth(m)
    return total


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own fighting strength minus the enemy's (class-weighted, wounded at a quarter),
    the melee the contacts promise, and a little for closing in, so greedy play advances
    instead of waiting."""
    total = 0.0
    for m in state.models.values():
        if m.removed:
            continue
        total += worth(m) if m.side == side else -worth(m)
    own = [m for m in state.live(side) if "wounded" not in m.status]
    foes = [e for e in state.live() if e.side != side]
    ready = [e for e in foes if "wounded" not in e.status]
    return total + threat(own, ready) + 0.02 * pull(own, ready, lambda m: NEAR, NEAR_SPAN)
