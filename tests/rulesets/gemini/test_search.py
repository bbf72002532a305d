"""The hard level's rollouts in a turn of phases: the enemy's answer is its shooting,
not the end of its movement phase (issue 20: search over greedy)."""

from __future__ import annotations

from engine.actions import Action, EndPhase
from engine.agents import SearchAgent
from engine.agents.greedy import foes_of, is_attack
from engine.game import Game
from tests.rulesets.gemini.helpers import RIFLE, duel


def _answers(agent: SearchAgent, g: Game) -> tuple[float, list[str]]:
    """The gain of one rollout of blue's "end phase" in its movement phase, and the side
    of every attack the rollout's policy played."""
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


def test_the_rollout_plays_on_to_the_enemys_first_shot():
    """Blue's rifleman stands 15" from red's, both in range (GM shooting: 24" rifles).
    A turn goes movement, shooting, close combat, recovery for the side to act, then the
    enemy's. The rollout of blue ending its movement shoots in blue's shooting phase,
    then red ends its movement (not an attack) and shoots back: that shot is the answer
    whose cost the search weighs. Stopped at red's first step, as before, the rollout
    saw only blue's own shot, and walking into the open looked free."""
    g = duel({"weapons": [RIFLE]}, {"weapons": [RIFLE]}, gap=15.0)
    assert g.state.phase == "movement" and g.to_act() == "blue"
    gain, attacks = _answers(SearchAgent(1), g)
    assert attacks == ["blue", "red"]
    old_gain, old_attacks = _answers(SearchAgent(1, through=0), g)
    assert old_attacks == ["blue"]
    assert gain < old_gain  # red's shot costs blue wounds on average
