"""The hard level's rollouts in a turn of phases: the enemy's answer is its shooting,
not the end of its movement phase (issue 20: search over greedy)."""

from __future__ import annotations

from engine.agents import SearchAgent
from tests.engine.rollout_spy import rollout_attacks
from tests.rulesets.gemini.helpers import RIFLE, duel


def test_the_rollout_plays_on_to_the_enemys_first_shot():
    """Blue's rifleman stands 15" from red's, both in range (GM shooting: 24" rifles).
    A turn goes movement, shooting, close combat, recovery for the side to act, then the
    enemy's. The rollout of blue ending its movement shoots in blue's shooting phase,
    then red ends its movement (not an attack) and shoots back: that shot is the answer
    whose cost the search weighs. Stopped at red's first step, as before, the rollout
    saw only blue's own shot, and walking into the open looked free."""
    g = duel({"weapons": [RIFLE]}, {"weapons": [RIFLE]}, gap=15.0)
    assert g.state.phase == "movement" and g.to_act() == "blue"
    gain, attacks = rollout_attacks(SearchAgent(1), g)
    assert attacks == ["blue", "red"]
    old_gain, old_attacks = rollout_attacks(SearchAgent(1, through=0), g)
    assert old_attacks == ["blue"]
    assert gain < old_gain  # red's shot costs blue wounds on average
