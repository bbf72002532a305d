"""The rollout policy that moves (``SearchAgent(moves=True)``, docs/decisions/0011).

The default rollout policy plays the attack with the best expected damage, else ends
the activation: a model never moves inside a rollout, so a move's consequence (walking
into the open, leaving a lane for the enemy's charge) never shows. With ``moves`` each
side plays greedy's one step on fixed dice: moves included, the same choice in every
round."""

from engine.actions import Move, Shoot
from engine.agents import GreedyAgent, SearchAgent
from engine.agents.greedy import worth
from engine.agents.policy import POLICY_DICE
from tests.engine.conftest import make_toy_game


def test_the_moving_policy_plays_greedys_step_on_fixed_dice():
    """The moving policy plays greedy's one step (score plus the pull toward the enemy)
    valued on one fixed stream: the same choice whatever the rollout's seed and dice,
    so a prefix that rolled no dice may keep it for every round."""
    g = make_toy_game(seed=5, n=1)
    agent = SearchAgent(1, moves=True)
    picks = [agent._pick(g.clone(dice_seed=d), "blue", seed) for d, seed in ((1, 5), (2, 99))]
    assert not any(seeded for _, seeded in picks)
    assert picks[0][0] == picks[1][0]
    greedy = GreedyAgent(samples=1, attack_samples=1)
    pull = agent.engage * worth(g, "blue")
    fixed = g.clone(stream=POLICY_DICE)
    best = greedy.weigh(fixed, "blue", g.candidates("blue"), pull, POLICY_DICE)[0].action
    assert picks[0][0] == best


def test_a_rollout_with_the_moving_policy_moves_a_model():
    """A whole rollout of blue's shot: with ``moves`` some step of it is a move."""
    g = make_toy_game(seed=5, n=1)
    for moves, expect in ((False, False), (True, True)):
        agent = SearchAgent(1, moves=moves)
        played: list[object] = []
        pick = agent._pick

        def spy(sim, side, seed, pick=pick, played=played):
            a, seeded = pick(sim, side, seed)
            played.append(a)
            return a, seeded

        agent._pick = spy
        shot = next(a for a in g.candidates("blue") if isinstance(a, Shoot))
        assert agent._rollout(g, "blue", shot, 7, deadline=float("inf")) is not None
        assert any(isinstance(a, Move) for a in played) is expect
