"""The baseline agents of issue 20: ``passive`` never moves or attacks, ``rush`` closes
on the nearest enemy and attacks when it can; both play whole games of every ruleset
without an illegal action, and a seed always plays the same game."""

from pathlib import Path

import pytest

from engine.actions import Shoot
from engine.agents import make
from engine.agents.passive import is_active
from engine.agents.rush import gap
from engine.ruleset import available
from engine.scenario import load_scenario, new_game
from tests.engine.conftest import make_toy_game

ROOT = Path(__file__).resolve().parents[2]


def _play(game, agents, cap=3000):
    """Play to the end; every action is checked legal first. Returns (side, action)s."""
    played = []
    n = 0
    while (side := game.to_act()) is not None and n < cap:
        action = agents[side].choose(game.clone(dice_seed=n, viewer=side), side)
        legality = game.check(action)
        assert legality.ok, f"{side} {action.describe()}: {legality.reason}"
        game.apply(action)
        played.append((side, action))
        n += 1
    return played


@pytest.mark.parametrize("key", available())
def test_passive_and_rush_play_a_whole_default_game(key):
    game = new_game(load_scenario(ROOT / "rulesets" / key / "scenarios" / "default.toml"))
    first, second = game.state.sides[:2]
    played = _play(game, {first: make("passive", seed=1), second: make("rush", seed=1)})
    assert game.outcome() is not None, "the game reached its end"
    passive = [a for s, a in played if s == first]
    assert passive and not [a.describe() for a in passive if is_active(a)]
    assert any(is_active(a) for s, a in played if s == second), "rush did something"


def test_rush_shoots_and_closes_in_its_first_activation():
    game = make_toy_game(seed=4, n=1)  # b0 at (10, 5), r0 at (10, 40); shooting has no range
    rush = make("rush", seed=1)
    before = gap(game.state, "b0", "blue")
    actions = []
    while game.to_act() == "blue":
        actions.append(rush.choose(game, "blue"))
        game.apply(actions[-1])
    kinds = [a.KIND for a in actions]
    assert kinds == ["shoot", "move", "end_activation"]
    assert actions[0] == Shoot(actor="b0", target="r0")
    # the toy ruleset offers one move, 3" up the table: straight at r0
    assert gap(game.state, "b0", "blue") == pytest.approx(before - 3.0)


def test_rush_does_not_step_away():
    """Red's only offered move (3" up the table) goes away from blue: red shoots and ends."""
    game = make_toy_game(seed=4, n=1, first="red")
    rush = make("rush", seed=1)
    kinds = []
    while game.to_act() == "red":
        action = rush.choose(game, "red")
        kinds.append(action.KIND)
        game.apply(action)
    assert kinds == ["shoot", "end_activation"]


def test_rush_moves_before_ending_when_it_has_shot():
    game = make_toy_game(seed=4, n=1)
    rush = make("rush", seed=1)
    game.apply(rush.choose(game, "blue"))  # the shot
    assert rush.choose(game, "blue").KIND == "move"


def test_passive_only_ends():
    game = make_toy_game(seed=4, n=2)
    played = _play(game, {"blue": make("passive"), "red": make("passive")}, cap=200)
    assert {a.KIND for _, a in played} == {"end_activation"}


def test_a_seed_plays_the_same_game():
    runs = []
    for _ in range(2):
        game = make_toy_game(seed=9, n=2, turn_limit=4)
        _play(game, {"blue": make("rush", seed=5), "red": make("rush", seed=6)})
        runs.append(game.state.checksum())
    assert runs[0] == runs[1]
