"""Agents: whoever picks the next action for a side. All are ruleset-agnostic: they use
only the Game/Ruleset interface (candidates, check, odds, score)."""

from __future__ import annotations

from engine.agents.random_agent import RandomAgent

AGENTS = {"random": RandomAgent}


def make(name: str, seed: int = 0):
    try:
        return AGENTS[name](seed=seed)
    except KeyError:
        raise ValueError(f"unknown agent '{name}' (known: {', '.join(sorted(AGENTS))})") from None
