"""Exact chances before a roll (IA-RANGED, IA-SAVE, IA-MASSED): a legal shot or clash,
asked of the chapter that rolls it.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import Context, Odds
from engine.state import GameState
from rulesets.inter_arma import rules
from rulesets.inter_arma.chapters import melee, ranged


def odds(state: GameState, action: act.Action, ctx: Context) -> Odds | None:
    """The odds of ``action`` (None for one that is refused or rolls nothing)."""
    if rules.check(state, action, ctx):
        return None
    if isinstance(action, act.Shoot):
        return ranged.odds(state, ctx, action)
    if isinstance(action, act.Fight):
        return melee.odds(state, ctx, action)
    return None
