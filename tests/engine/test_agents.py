"""Agents work through the engine interface only, never see the real dice, and greedy
beats random on the toy ruleset."""

from engine.actions import EndActivation, Move, Shoot
from engine.agents import GreedyAgent, RandomAgent, SearchAgent, make
from engine.game import play
from tests.engine.conftest import make_toy_game


def _match(a_factory, b_factory, games=12):
    wins = 0
    for seed in range(games):
        g = make_toy_game(seed=seed, turn_limit=8, first="blue" if seed % 2 else "red")
        agents = {"blue": a_factory(seed), "red": b_factory(seed + 1000)}
        out = play(g, agents)
        wins += out is not None and out.winner == "blue"
    return wins


def test_agents_do_not_consume_the_real_dice():
    g = make_toy_game(seed=3)
    g.dice.force([6, 6, 6])
    before = (g.dice.get_state(), list(g.dice.forced))
    for agent in (RandomAgent(1), GreedyAgent(1), SearchAgent(1, budget=0.05)):
        agent.choose(g, "blue")
    assert (g.dice.get_state(), g.dice.forced) == before


def test_greedy_beats_random_on_the_toy_rules():
    wins = _match(lambda s: GreedyAgent(s), lambda s: RandomAgent(s))
    assert wins >= 10, wins


def test_search_explains_its_choice():
    g = make_toy_game(seed=5)
    # a generous clock and a rollout cap: the test does not depend on the machine's load
    agent = SearchAgent(2, budget=60.0, max_iterations=8)
    action = agent.choose(g, "blue")
    assert g.check(action).ok
    assert agent.last and agent.last[0].action == action
    width = min(agent.width, len(g.candidates("blue")))
    assert agent.iterations == (8 // width) * width  # whole rounds only (common dice)
    assert agent.last[0].value == max(o.value for o in agent.last)


def test_search_is_reproducible_from_its_seed():
    """Rollouts draw their determinizations from the agent's own seeded dice, so with a
    rollout cap the same seed gives the same choice and the same values."""
    runs = []
    for _ in range(2):
        g = make_toy_game(seed=7)
        agent = SearchAgent(3, budget=60.0, max_iterations=8)
        action = agent.choose(g, "blue")
        runs.append((action, [(o.action, o.value) for o in agent.last]))
    assert runs[0] == runs[1]


def test_search_values_an_answer_on_common_dice_whatever_the_root_rolled():
    """The opponent's answer is sampled on streams keyed by the rollout round alone, so
    the same answer from the same position is valued the same whether the root action
    rolled dice or not (forks of the rollout's own stream would differ with every die
    the root rolled, and the comparison would be swamped by the answer's luck)."""
    g = make_toy_game(seed=5, n=1)
    g.apply(Move(actor="b0", to=(10.0, 11.0)))
    g.apply(EndActivation())  # red to act, in range of b0
    agent = SearchAgent(2, reply_samples=6)
    answer = Shoot(actor="r0", target="b0")
    assert g.check(answer).ok
    quiet = g.clone(dice_seed=1)
    rolled = g.clone(dice_seed=2)
    rolled.dice.face(6)
    key = 4242
    v = agent._expected(quiet, "blue", answer, key)
    assert agent._expected(rolled, "blue", answer, key) == v
    by_hand = []
    for k in range(6):
        c = g.clone(stream=key + k)
        c.apply(answer)
        by_hand.append(c.score("blue"))
    assert v == sum(by_hand) / 6
    assert min(by_hand) < max(by_hand)  # the samples do differ: a real mean, not one roll


def test_search_rollout_adds_up_each_steps_expected_gain():
    """A rollout's value is the sum over its steps of (the value after the step in
    expectation) less (the value before it): the root's own luck and the luck of the
    steps between are taken out (a control variate), and only what the steps add on
    average is left. Here blue ends its activation and red's best shot answers."""
    g = make_toy_game(seed=5, n=1)
    g.apply(Move(actor="b0", to=(10.0, 11.0)))
    agent = SearchAgent(2, reply_samples=6)
    seed = 99
    got = agent._rollout(g, "blue", EndActivation(), seed, deadline=float("inf"))
    after = g.clone(dice_seed=seed)
    after.apply(EndActivation())
    answer = agent._policy(after, "red", seed * 31)
    assert answer == Shoot(actor="r0", target="b0")
    want = agent._expected(after, "blue", answer, seed * 131) - after.score("blue")
    assert got == want and got < 0  # red's answer costs blue health on average


def test_make_by_name_and_level():
    assert make("hard").name == "search" and make("easy").name == "random"
    assert make("greedy", seed=3).name == "greedy"


def test_play_logs_each_computer_decision_with_its_options():
    g = make_toy_game(seed=4, turn_limit=2)
    play(g, {"blue": GreedyAgent(1), "red": RandomAgent(2)})
    lines = [e.text for e in g.log.events if e.kind == "decision"]
    assert lines and all(t.startswith("blue (greedy) chose ") for t in lines)
    assert any("chance" in t for t in lines)  # shots carry their exact odds


def test_the_explanation_names_the_move_played():
    from engine.agents import explain

    for seed in range(6):
        g = make_toy_game(seed=seed)
        agent = GreedyAgent(seed)
        action = agent.choose(g, "blue")
        assert agent.last[0].action == action
        assert explain(agent, "blue").startswith(f"blue (greedy) chose {action.describe()} ")


def test_search_prior_takes_its_floor_of_samples_even_out_of_time():
    """The prior stops at half the clock, but never before ``min_prior`` samples of each
    option that rolls dice: with no time at all a shot is still valued on 12 samples (its
    own value is what the rollouts' gains are added to), and an option that rolls no dice
    on one."""
    g = make_toy_game(seed=5, n=1)
    g.apply(Move(actor="b0", to=(10.0, 11.0)))
    agent = SearchAgent(2, budget=0.0)
    roots = g.candidates("blue")
    options = agent._prior(g, "blue", roots, deadline=0.0)
    samples = {type(o.action).__name__: o.samples for o in options}
    assert samples["Shoot"] == 12 and samples["EndActivation"] == 1
    assert (
        SearchAgent(2, min_prior=3)
        ._prior(g, "blue", roots, 0.0)[[type(a) for a in roots].index(Shoot)]
        .samples
        == 3
    )


def test_the_search_leaves_greedys_choice_only_on_a_confident_rollout_difference():
    """``greedy_prior``: the first stage's best (``order[0]``) stays the choice unless
    another action's value beats it by more than ``CONFIDENCE`` standard errors of the
    round-by-round difference of their gains (docs/decisions/0008)."""
    agent = SearchAgent(1, greedy_prior=True)
    agent._gains = {0: [0.0, 1.0, 2.0, 3.0], 1: [0.5, 1.5, 2.5, 3.5], 2: [3.0, -2.0, 4.0, -1.0]}
    means = {0: 10.0, 1: 10.5, 2: 10.6}
    # 1 gains 0.5 in every round: a sure difference; 2 more on average, but noise
    assert agent._confident([0, 1, 2], means.__getitem__) == 1
    agent._gains[1] = [1.5, 0.5, 3.5, 2.5]  # the same mean, now a noisy difference
    assert agent._confident([0, 1, 2], means.__getitem__) == 0


def test_the_search_keeps_greedys_choice_below_the_margin():
    """``margin``: a rollout difference that is sure but worth less than ``margin`` enemy
    models (the ``floor`` in score units) leaves greedy's choice standing; a larger one
    still overturns it."""
    agent = SearchAgent(1, greedy_prior=True)
    agent._gains = {0: [0.0, 1.0, 2.0, 3.0], 1: [0.5, 1.5, 2.5, 3.5]}
    means = {0: 10.0, 1: 10.5}
    assert agent._confident([0, 1], means.__getitem__, floor=0.0) == 1
    assert agent._confident([0, 1], means.__getitem__, floor=0.6) == 0
    assert agent._confident([0, 1], means.__getitem__, floor=0.4) == 1
