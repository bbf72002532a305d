"""Setup (GEM-2.0.2 to GEM-2.0.4): side choice on a d20, secret deployment plans, placing
units by the plan, and the plans revealed and enforced. Played only when the scenario
turns the option on (see rules reference GEM-I-OPTIONS)."""

from __future__ import annotations

from engine.actions import Action
from engine.ruleset import Context, Legality
from engine.state import GameState


def check(state: GameState, a: Action, ctx: Context) -> Legality:
    return Legality.no(
        f"{a.KIND.replace('_', ' ')} is part of the setup, which this game "
        f"does not play (GEM-2.0.4)"
    )


def apply(state: GameState, a: Action, ctx: Context) -> None:  # pragma: no cover
    raise AssertionError("setup actions are refused by check")


def end_step(state: GameState, ctx: Context) -> None:  # pragma: no cover
    pass
