"""How an Inter Arma battle ends (IA-I-END): a side with no figure able to fight has
lost; at the turn limit the side that lost fewer soldiers wins; after a campaign battle
the wounded throw for their fate (IA-WOUNDED).
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import Context
from engine.state import GameState
from rulesets.inter_arma.chapters import goals
from rulesets.inter_arma.state import mv


def fighting(state: GameState, side: str) -> list:
    """The side's figures able to fight: not wounded, not civilians (IA-I-ALLIES)."""
    return [m for m in state.live(side) if "wounded" not in m.status and not mv(m).get("civilian")]


def settle(state: GameState, ctx: Context) -> None:
    """A side with no figure able to fight has lost (IA-I-END)."""
    if state.over:
        return
    left = [s for s in state.sides if fighting(state, s)]
    if len(left) <= 1:
        winner = left[0] if left else None
        state.over = {
            "winner": winner,
            "reason": "the enemy has no figure left able to fight (IA-I-END)",
        }
        state.active = None
        ctx.log.emit("status", state.over["reason"], outcome="over")
        after_battle(state, ctx)


def soldiers(state: GameState, side: str) -> list:
    """The side's soldiers, on the table or not: every figure but civilians, who count
    in neither the losses nor the strength (IA-I-ALLIES)."""
    return [m for m in state.models.values() if m.side == side and not mv(m).get("civilian")]


def lost(state: GameState, side: str) -> int:
    """How many of the side's soldiers are lost (IA-I-END): killed or wounded, since a
    wounded figure is out of the fight for good."""
    return len([m for m in soldiers(state, side) if m.removed or "wounded" in m.status])


def losses(state: GameState, side: str) -> float:
    """The share of the side's soldiers lost (``lost``), which the benches report."""
    total = len(soldiers(state, side))
    return lost(state, side) / total if total else 0.0


def finish_on_losses(state: GameState, ctx: Context, why: str) -> None:
    """IA-I-END: at the turn limit the side that lost fewer soldiers wins; equal is a
    draw. A civilian killed is no soldier lost (IA-I-ALLIES)."""
    losses = {s: lost(state, s) for s in state.sides}
    best = min(losses.values())
    winners = [s for s, v in losses.items() if v == best]
    winner = winners[0] if len(winners) == 1 else None
    state.over = {
        "winner": winner,
        "reason": f"{why}: losses {', '.join(f'{s} {v}' for s, v in losses.items())} (IA-I-END)",
    }
    state.active = None
    ctx.log.emit("status", state.over["reason"], outcome="over")
    after_battle(state, ctx)


def after_battle(state: GameState, ctx: Context) -> None:
    """IA-WOUNDED: in a campaign (``options.campaign``) the wounded throw for their fate."""
    if goals.campaign(state):
        goals.fates(state, ctx)


def victory_text(scenario: Any) -> str:
    """What wins an Inter Arma scenario (IA-I-END), for the new-game screen."""
    text = "A side with no figure left able to fight has lost."
    if scenario.turn_limit:
        text += (
            f" After {scenario.turn_limit} turns the side that lost fewer soldiers (killed "
            "or wounded; civilians do not count) wins; equal losses are a draw (IA-I-END)."
        )
    return text
