"""Small games for the Gemini tests: two models facing each other on an open table."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.testing import make_game


def duel(
    blue: dict[str, Any] | None = None,
    red: dict[str, Any] | None = None,
    gap: float = 10.0,
    options: dict[str, Any] | None = None,
    **kw: Any,
) -> Game:
    """Model ``b`` (blue) at (20, 10) and ``r`` (red) ``gap`` inches further north
    (centre to centre), blue to act first."""
    b = {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, **(blue or {})}
    r = {"id": "r", "side": "red", "x": 20.0, "y": 10.0 + gap, **(red or {})}
    vars_ = {"options": dict(options or {})}
    return make_game("gemini", [b, r], vars=vars_, **kw)


def to_phase(game: Game, phase: str) -> None:
    """End phases until ``phase`` of the side to act."""
    from engine.actions import EndPhase

    for _ in range(20):
        if game.state.phase == phase:
            return
        game.apply(EndPhase())
    raise AssertionError(f"never reached {phase}")


RIFLE = {"name": "rifle", "range": 24, "S": 3, "class": "rapid_fire"}
