"""Agents: whoever picks the next action for a side. All are ruleset-agnostic: they use
only the Game/Ruleset interface (candidates, check, odds, score)."""

from __future__ import annotations

from engine.agents.greedy import GreedyAgent
from engine.agents.random_agent import RandomAgent
from engine.agents.search import SearchAgent

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "search": SearchAgent}
#: difficulty levels offered by the new-game screen
LEVELS = {"easy": "random", "normal": "greedy", "hard": "search"}


def make(name: str, seed: int = 0, **options):
    """An agent by name ("random", "greedy", "search") or level ("easy", "normal", "hard")."""
    name = LEVELS.get(name, name)
    try:
        return AGENTS[name](seed=seed, **options)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(AGENTS))})") from None


def explain(agent, side: str) -> str | None:
    """'red (greedy) chose b1 shoot r3: value +2.10, chance 42%; next: ...' from the
    agent's last decision, for the log headless and the window's panel."""
    last = getattr(agent, "last", None)
    if not last:
        return None
    head, *rest = last
    text = f"{side} ({agent.name}) chose {head.line()}"
    if rest:
        text += "; also weighed: " + "; ".join(o.line() for o in rest[:3])
    return text
