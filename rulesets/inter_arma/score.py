"""The computer's reading of a position (score): fighting strength weighed by class,
and a little for closing in.
"""

from __future__ import annotations

from engine.closing import pull
from engine.ruleset import Context
from engine.state import GameState

#: the pull toward the nearest foe is full within NEAR inches, none NEAR_SPAN beyond
NEAR, NEAR_SPAN = 12.0, 36.0
VALUE = {"commander": 2.0, "elite": 1.3, "regular": 1.0, "conscript": 0.8}


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """Own fighting strength minus the enemy's (class-weighted, wounded at a tenth), and a
    little for closing in, so greedy play advances instead of waiting."""
    total = 0.0
    for m in state.models.values():
        if m.removed:
            continue
        v = VALUE.get(str(m.stats.get("class")), 1.0) * (0.1 if "wounded" in m.status else 1.0)
        total += v if m.side == side else -v
    own = [m for m in state.live(side) if "wounded" not in m.status]
    foes = [e for e in state.live() if e.side != side]
    return total + 0.02 * pull(own, foes, lambda m: NEAR, NEAR_SPAN)
