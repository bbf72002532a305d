"""A spy on the search's rollout policy, shared by the rollout-horizon tests (engine and
Gemini): why one helper, so that both read a rollout the same way."""

from __future__ import annotations

from engine.actions import Action, EndPhase
from engine.agents import SearchAgent
from engine.agents.greedy import foes_of, is_attack
from engine.game import Game


def rollout_attacks(agent: SearchAgent, g: Game) -> tuple[float, list[str]]:
    """One rollout of blue's "end phase" from ``g``: its gain, and the side of every
    attack the rollout's policy played, in order."""
    attacks: list[str] = []
    pick = agent._pick

    def spy(sim: Game, side: str, seed: int) -> tuple[Action | None, bool]:
        a, seeded = pick(sim, side, seed)
        if a is not None and is_attack(a, foes_of(sim.state, side)):
            attacks.append(side)
        return a, seeded

    agent._pick = spy  # type: ignore[method-assign]
    gain = agent._rollout(g, "blue", EndPhase(), 7, deadline=float("inf"))
    assert gain is not None
    return gain, attacks
