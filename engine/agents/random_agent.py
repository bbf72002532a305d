"""The random agent: the baseline every other agent must beat, and the contract tests'
fuzzer. It picks uniformly among the ruleset's candidates, using its own dice stream."""

from __future__ import annotations

from engine.actions import Action
from engine.dice import Dice
from engine.game import Game


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed=seed ^ 0x5EED)

    def choose(self, game: Game, side: str) -> Action:
        options = game.candidates(side)
        if not options:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        return options[self.dice.face(len(options)) - 1]
