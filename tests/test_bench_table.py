"""bench/ai_strength.py's one table (issue 20): each agent's declined attacks over its
decisions, and the games it won on an objective before the turn limit."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from engine.sim import GameResult

BENCH = Path(__file__).resolve().parents[1] / "bench"


def ai_strength():
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    return importlib.import_module("ai_strength")


def result(game: int, agents: dict[str, str], winner: str | None, reason: str, turns: int):
    return GameResult(
        game=game,
        seed=1,
        agents=agents,
        winner=winner,
        winner_agent=agents[winner] if winner else None,
        reason=reason,
        turns=turns,
        actions=10,
        casualties={"greeks": 2, "romans": 5},
        decisions={"greeks": 20, "romans": 30},
        declined={"greeks": 1, "romans": 3},
    )


def test_declined_share_and_objective_wins_follow_the_agent_across_sides():
    mod = ai_strength()
    one = {"greeks": "greedy", "romans": "passive"}
    two = {"greeks": "passive", "romans": "greedy"}
    results = [
        result(0, one, "greeks", "greeks took the hill by turn 2", 2),
        result(1, two, "romans", "greeks did not take the hill by turn 8", 8),
    ]
    assert mod.declined_share(results, "greedy") == (1 + 3, 20 + 30)
    assert mod.objective_wins(results, "greedy", limit=8) == 1
    sizes = {"greeks": 10, "romans": 10}
    assert mod.removed_share(results, "passive", sizes) == [0.5, 0.2]
    assert mod.TARGETS[("search", "rush")] == (0.75, 0.0)
