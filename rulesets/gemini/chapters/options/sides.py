"""A model's friends and its force as the morale switches see them.

Why built here: GASR morale, broken nerve, pinning and the bottle test read the same
facts (who is near, who leads, who is down); they are gathered once from the game state
into the plain records the rule functions take.
"""

from __future__ import annotations

from engine.state import GameState, Model
from rulesets.gemini.chapters import measure
from rulesets.gemini.chapters.options.morale_extras import ForceModel, Friend


def friend(m: Model, other: Model) -> Friend:
    return Friend(
        other.id,
        int(other.stats.get("Ld", 7)),
        measure.gap(m, other),
        frozenset(other.status),
        leader=bool(other.stats.get("leader")),
        removed=other.removed,
    )


def friends_of(state: GameState, m: Model) -> list[Friend]:
    """Every other live model of ``m``'s side, with its distance from ``m``."""
    return [friend(m, o) for o in state.live() if o.side == m.side and o.id != m.id]


def force_of(state: GameState, side: str) -> list[ForceModel]:
    """Every model the side started with (removed ones too), by profile W."""
    return [
        ForceModel(
            o.id,
            int(o.stats.get("W", 1)),
            int(o.stats.get("Ld", 7)),
            frozenset(o.status),
            o.removed,
        )
        for o in state.models.values()
        if o.side == side
    ]


def nearest_enemy(state: GameState, m: Model) -> float:
    """Inches to the nearest live enemy base (a long way when there is none)."""
    gaps = [measure.gap(m, e) for e in state.live() if e.side != m.side]
    return min(gaps) if gaps else 1e9
