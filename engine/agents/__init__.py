"""Agents: whoever picks the next action for a side. All are ruleset-agnostic: they use
only the Game/Ruleset interface (candidates, check, odds, score)."""

from __future__ import annotations

from typing import Any

from engine.agents.greedy import GreedyAgent
from engine.agents.passive import PassiveAgent
from engine.agents.random_agent import RandomAgent
from engine.agents.rush import RushAgent
from engine.agents.search import SearchAgent
from engine.game import explain

__all__ = [
    "AGENTS",
    "LEVELS",
    "GreedyAgent",
    "PassiveAgent",
    "RandomAgent",
    "RushAgent",
    "SearchAgent",
    "explain",
    "make",
]

AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": SearchAgent,
    # baselines a user understands (issue 20): never acts / advances and attacks
    "passive": PassiveAgent,
    "rush": RushAgent,
}
#: difficulty levels offered by the new-game screen
LEVELS = {"easy": "random", "normal": "greedy", "hard": "search"}


def make(name: str, seed: int = 0, **options: Any) -> Any:
    """An agent by name ("random", "greedy", "search", "passive", "rush") or level ("easy", "normal", "hard")."""
    name = LEVELS.get(name, name)
    try:
        return AGENTS[name](seed=seed, **options)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(AGENTS))})") from None
