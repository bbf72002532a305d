"""Shared fixtures for engine tests: a game of the example_d6 ruleset (rulesets/example_d6)
built without any scenario file."""

import pytest

from engine.battlefield import Battlefield
from engine.dice import Dice
from engine.game import Game
from engine.persistence import mark_start
from engine.ruleset import load
from engine.state import GameState, Model


def make_toy_game(
    seed: int = 1,
    first: str | None = "blue",
    n: int = 2,
    turn_limit: int = 0,
    battlefield: Battlefield | None = None,
) -> Game:
    rs = load("example_d6")
    models = {}
    for i in range(n):
        for side, y in (("blue", 5.0), ("red", 40.0)):
            mid = f"{side[0]}{i}"
            models[mid] = Model(
                id=mid, side=side, unit=mid, x=10.0 + 5 * i, y=y, hp=2, max_hp=2, stats={"SK": 1}
            )
    state = GameState(ruleset="example_d6", sides=["blue", "red"], models=models)
    if turn_limit:
        state.vars["turn_limit"] = turn_limit
    game = Game(rs, battlefield or Battlefield(), state, Dice(seed=seed))
    rs.setup(state, game.ctx, first)
    mark_start(game)
    return game


@pytest.fixture
def toy_game() -> Game:
    return make_toy_game()
