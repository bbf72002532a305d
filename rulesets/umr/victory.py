"""How a UMR game ends (UMR-END, UMR-I-TURN-LIMIT): a side with no models left loses,
a side may concede, and at the turn limit the most health left wins.

Why apart from the round flow: the flow asks ``check_end`` after every removal, and the
engine's turn limit, the new-game screen and a concession ask the same questions.
"""

from __future__ import annotations

from typing import Any

from engine.state import GameState


def health(state: GameState, side: str) -> int:
    return sum(m.hp for m in state.live(side))


def by_health(state: GameState, why: str) -> None:
    """Designer's interpretation UMR-I-TURN-LIMIT: most remaining health wins."""
    totals = {s: health(state, s) for s in state.sides}
    best = max(totals.values())
    leaders = [s for s, v in totals.items() if v == best]
    winner = leaders[0] if len(leaders) == 1 else None
    scores = ", ".join(f"{s} {v}" for s, v in totals.items())
    state.over = {
        "winner": winner,
        "reason": f"{why}; remaining health: {scores} (UMR-I-TURN-LIMIT)",
    }
    state.active = None


def losses(state: GameState, side: str) -> float:
    """The share of ``side``'s health lost, 0 to 1: what the turn limit counts
    (UMR-I-TURN-LIMIT, the most remaining health wins), so the benches' "removed"
    column reads a side's strength as UMR's victory does. A model's share is its full
    health (``max_hp``, a drone's too once it is on the table); a removed model has
    lost all of it."""
    mine = [m for m in state.models.values() if m.side == side]
    full = sum(m.max_hp for m in mine)
    left = sum(m.hp for m in mine if not m.removed)
    return max(0.0, 1.0 - left / full) if full else 0.0


def at_turn_limit(state: GameState) -> None:
    """UMR-I-TURN-LIMIT: at the scenario's turn limit the most remaining health wins."""
    limit = state.turn_limit
    by_health(state, f"the turn limit of {limit} rounds was reached")


def check_end(state: GameState) -> bool:
    """The game ends when a side has no models left on the table (UMR-END)."""
    alive = [s for s in state.sides if state.live(s)]
    if len(alive) == len(state.sides):
        return False
    gone = [s for s in state.sides if s not in alive]
    if len(alive) == 1:
        state.over = {
            "winner": alive[0],
            "reason": f"{', '.join(gone)} has no models left (UMR-END)",
        }
        state.active = None
    elif not alive:
        state.over = {"winner": None, "reason": "no models are left on the table (UMR-END)"}
        state.active = None
    else:
        by_health(state, f"{', '.join(gone)} has no models left (UMR-END)")
    return True


def concede(state: GameState, side: str) -> None:
    """A player may concede at any time (UMR-END)."""
    rest = [s for s in state.sides if s != side and state.live(s)]
    if len(rest) == 1:
        state.over = {"winner": rest[0], "reason": f"{side} conceded (UMR-END)"}
        state.active = None
    else:
        for m in state.live(side):
            m.removed = True
        by_health(state, f"{side} conceded")


def victory_text(scenario: Any) -> str:
    """What wins a UMR scenario (UMR-END, UMR-I-TURN-LIMIT), for the new-game screen."""
    text = "A side with no model left on the table has lost (UMR-END)."
    if scenario.turn_limit:
        text += (
            f" After {scenario.turn_limit} rounds the side with the most health left wins "
            "(UMR-I-TURN-LIMIT)."
        )
    return text
