"""Issue 20: the greedy agent comes to fight. It takes a shot at good odds, goes for the
scenario's objective, closes on the enemy rather than waiting, and every attack it (or
any agent that lists its options) declines is counted in the batch results."""

from pathlib import Path

from engine.actions import EndActivation, Shoot
from engine.agents import AGENTS, make
from engine.agents.greedy import DECLINE_ODDS, GreedyAgent, Option, declined, front, worth
from engine.scenario import load_scenario, new_game
from engine.sim import Job, play_one
from tests.engine.conftest import make_toy_game

ROOT = Path(__file__).resolve().parents[2]


def test_greedy_takes_a_shot_at_good_odds():
    """example_d6 (D6-3): SK 1 hits on a d6 of 3 or more, 4 in 6 — above DECLINE_ODDS."""
    game = make_toy_game(seed=4, n=1)
    assert game.odds(Shoot(actor="b0", target="r0")).chance > DECLINE_ODDS
    agent = GreedyAgent(1)
    assert agent.choose(game, "blue") == Shoot(actor="b0", target="r0")
    assert agent.tally == {"decisions": 1, "declined": 0}


def test_greedy_closes_in_rather_than_ending_its_activation():
    """After its shot b0 may move 3" up the table, toward r0, or end: the position
    score is the same either way, and the pull toward the enemy decides."""
    game = make_toy_game(seed=4, n=1)
    agent = GreedyAgent(1)
    game.apply(agent.choose(game, "blue"))  # the shot
    before = front(game.state, "blue")
    action = agent.choose(game, "blue")
    assert action.KIND == "move"
    game.apply(action)
    assert front(game.state, "blue") == before - 3.0


def test_worth_is_one_enemy_model_in_the_rulesets_currency():
    """example_d6 scores hit points kept against the enemy's: a model of 2 HP is 2."""
    game = make_toy_game(seed=1, n=2)
    assert worth(game, "blue") == 2.0


def test_declined_names_the_attack_passed_over_for_ending():
    game = make_toy_game(seed=4, n=1)
    now = game.score("blue")
    shot = Option(Shoot(actor="b0", target="r0"), now + 0.5, chance=0.67)
    end = Option(EndActivation(actor="b0"), now + 0.6)
    assert declined(game, "blue", end.action, [end, shot]) is shot
    # not a decline: the attack was taken, the odds were poor, or it would lose value
    assert declined(game, "blue", shot.action, [shot, end]) is None
    poor = Option(shot.action, now + 0.5, chance=0.5)
    assert declined(game, "blue", end.action, [end, poor]) is None
    losing = Option(shot.action, now - 0.1, chance=0.9)
    assert declined(game, "blue", end.action, [end, losing]) is None


class _Decliner:
    """Ends every activation while listing a sure shot among its options."""

    name = "decliner"

    def __init__(self, seed: int = 0) -> None:
        self.last: list[Option] = []

    def choose(self, game, side):
        options = game.candidates(side)
        end = next(a for a in options if a.KIND == "end_activation")
        shots = [a for a in options if a.KIND == "shoot"]
        now = game.score(side)
        self.last = [Option(end, now)] + [Option(a, now + 1.0, chance=0.9) for a in shots]
        return end


def test_batch_results_count_each_sides_declined_attacks(monkeypatch):
    monkeypatch.setitem(AGENTS, "decliner", _Decliner)
    scenario = str(ROOT / "rulesets" / "example_d6" / "scenarios" / "default.toml")
    result = play_one(Job(scenario, 0, 5, ("greedy", "decliner"), swap=False, turn_limit=2))
    greedy_side, decliner_side = result.agents
    assert result.decisions[greedy_side] > 0 and result.declined[greedy_side] == 0
    assert result.declined[decliner_side] > 0  # every end with a shot on offer
    assert result.declined[decliner_side] <= result.decisions[decliner_side]


def test_greedy_goes_for_the_objective():
    """GEM's default scenario: the Greeks win by holding the hill at the end of a turn
    (GEM-3.7). Against a side that never acts, greedy takes it within two turns."""
    scn = load_scenario(ROOT / "rulesets" / "gem" / "scenarios" / "default.toml")
    scn.seed = 23
    game = new_game(scn)
    agents = {"greeks": make("greedy", seed=1), "romans": make("passive")}
    n = 0
    while (side := game.to_act()) is not None and n < 400:
        game.apply(agents[side].choose(game.clone(dice_seed=n, viewer=side), side))
        n += 1
    out = game.outcome()
    assert out is not None and out.winner == "greeks" and "hill" in out.reason
    assert game.state.turn <= 2


def test_search_closes_in_too():
    """The hard level values positions the same way (greedy's pull, in enemy models)."""
    from engine.agents import SearchAgent

    game = make_toy_game(seed=4, n=1)
    agent = SearchAgent(1, budget=60.0, max_iterations=8)
    game.apply(agent.choose(game, "blue"))
    before = front(game.state, "blue")
    action = agent.choose(game, "blue")
    assert action.KIND == "move" and agent.pull == 0.01 * worth(game, "blue")
    game.apply(action)
    assert front(game.state, "blue") < before


def test_search_values_are_position_values_like_greedys():
    """The pull counts inches closed since the decision began, so the position as it
    stands is valued at its score: ``declined`` and the panel's notes compare the
    search's option values with ``Game.score`` as they do greedy's."""
    from engine.agents import SearchAgent

    game = make_toy_game(seed=4, n=1)
    agent = SearchAgent(1, budget=60.0, max_iterations=8)
    agent.choose(game, "blue")
    assert agent.pull > 0 and agent._final(game, "blue") == game.score("blue")
