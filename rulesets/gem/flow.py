"""The turn (GEM-2): initiative with the penalty for a side that keeps winning, then the
magic, movement, missile, melee and morale segments (or the card deck, GEM-2.5).

Why the magic segment is two steps: every side lays its offensive cards before anyone
lays a defensive one (GEM-3.5.2), so the segment is played as "magic_offence" then
"magic_defence", each by the sides in initiative order; the cards are turned when the
second step ends.
"""

from __future__ import annotations

from typing import Protocol, cast

from engine.dice import Modifier
from engine.ruleset import Context, Ruleset
from engine.state import GameState
from engine.turns import Phased, PhasedFlow, roll_off

from . import victory
from .state import PER_TURN, gs, mv, option

PHASES = ("magic_offence", "magic_defence", "movement", "missile", "melee", "morale")
CARD_PHASES = ("magic_offence", "magic_defence", "cards", "melee", "morale")
#: the card turn without the tactical magic segments: spells are cast on magic cards
MAGIC_CARD_PHASES = ("cards", "melee", "morale")
#: the setup before turn 1's segments (GEM-2.0.2 to GEM-2.0.4; terrain_setup.py, deploy.py)
SETUP_PHASES = ("terrain", "side", "plan", "deploy")
PENALTY = 5


class _StartsTurns(Protocol):
    def start_turn(self, state: GameState, ctx: Context) -> None: ...


class Segments(PhasedFlow):
    """GEM-2 on the engine's turn structure: when the last segment ends, the last
    survivor and the objectives are scored (GEM-3.7), then the engine applies the turn
    limit (``Gem.at_turn_limit``, GEM-I-TURNLIMIT) or begins the next turn, which the
    ruleset starts its own way (vehicles' turn start, initiative with the streak
    penalty, deployment on turn 1)."""

    def end_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        victory.end_of_turn(state, ctx)
        if not state.over:
            super().end_round(rs, state, ctx)

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        cast(_StartsTurns, rs).start_turn(state, ctx)


#: the standard turn, and the turn with the card deck (GEM-2.5); both keep their place
#: in the engine's ``phased`` record, and either ends through ``TURNS``
STANDARD = TURNS = Segments(PHASES)
CARDS = Phased(CARD_PHASES)
MAGIC_CARDS = Phased(MAGIC_CARD_PHASES)


def phased(state: GameState) -> Phased:
    """The turn's segments: standard, by cards, or by cards with magic cards (GEM-2.5)."""
    if not option(state, "cards"):
        return STANDARD
    return MAGIC_CARDS if option(state, "magic_cards") else CARDS


def streak_modifiers(state: GameState, side: str) -> list[Modifier]:
    """GEM-2.0.1: -5 for each turn in a row the side has won the initiative."""
    k = int(gs(state).get("streak", {}).get(side, 0))
    if not k:
        return []
    return [
        Modifier(
            -PENALTY * k, f"won the initiative the last {k} turn{'s' if k > 1 else ''}", "GEM-2.0.1"
        )
    ]


def roll_initiative(state: GameState, ctx: Context, first: str | None = None) -> list[str]:
    """Each side rolls a d20 less its streak penalty; ties roll again (GEM-2.0.1)."""
    if first:
        order = [first] + [s for s in state.sides if s != first]
        ctx.log.emit(
            "initiative",
            f"{first} has the initiative (set by the scenario)",
            actor=first,
            rule="GEM-2.0.1",
        )
    else:
        order = roll_off(
            ctx.dice,
            state.sides,
            20,
            rule="GEM-2.0.1",
            log=ctx.log,
            modifiers=lambda s: streak_modifiers(state, s),
        )
        ctx.log.emit(
            "initiative",
            f"{order[0]} wins the initiative for turn {state.turn}",
            actor=order[0],
            rule="GEM-2.0.1",
            outcome="first",
        )
    streak = gs(state).setdefault("streak", {})
    for s in state.sides:
        streak[s] = streak.get(s, 0) + 1 if s == order[0] else 0
    gs(state)["order"] = list(order)
    return order


def reset_turn_flags(state: GameState) -> None:
    for m in state.models.values():
        for k in PER_TURN + ("moved_done",):
            m.vars.pop(k, None)
        until = mv(m).get("disorganized_until")
        if until is not None and state.turn > int(until):
            m.set_status("disorganized", False)
            mv(m).pop("disorganized_until", None)
    gs(state)["missile_lost"] = {}
