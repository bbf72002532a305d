"""The greedy agent: one step of lookahead, valued by expectation.

For each candidate it applies the action in clones with *forked* dice (it never sees the
real stream) and averages the ruleset's position score afterwards; actions that roll
dice are sampled several times, and where the ruleset offers exact odds the expected
damage breaks ties. This is "expected value from odds() and the position score" with no
ruleset-specific code.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action
from engine.dice import Dice
from engine.game import Game
from engine.ruleset import DAMAGE, Odds


@dataclass
class Option:
    """One candidate as the agent saw it: for the 'why did the computer do that' panel."""

    action: Action
    value: float
    chance: float | None = None
    samples: int = 1

    def line(self) -> str:
        odds = f", chance {self.chance:.0%}" if self.chance is not None else ""
        return f"{self.action.describe()} (value {self.value:+.2f}{odds})"


def damage_hint(odds: Odds | None) -> float:
    """A hundredth of the exact expected damage, to break ties between sampled values in
    favour of the surer attack; nothing for odds that measure something else (inches)."""
    if odds is None or odds.expected is None or odds.measures != DAMAGE:
        return 0.0
    return 0.01 * float(odds.expected)


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 4) -> None:
        self.dice = Dice(seed=seed ^ 0x6EED)
        self.samples = samples
        self.last: list[Option] = []

    def value(self, game: Game, side: str) -> float:
        """The position value the agent maximises: the ruleset's score."""
        return game.score(side)

    def evaluate(self, game: Game, side: str, action: Action) -> Option:
        odds = game.odds(action)
        total = 0.0
        n = 0
        for k in range(self.samples):
            c = game.clone(dice_seed=self.dice.face(1 << 30) + k)
            before = len(c.dice.consumed)
            c.apply(action)
            total += self.value(c, side)
            n += 1
            if c.state.over:
                w = c.state.over.get("winner")
                total += 1000.0 if w == side else (-1000.0 if w else 0.0)
            if len(c.dice.consumed) == before:
                break  # no dice: one sample is exact
        value = total / n + damage_hint(odds)
        return Option(action, value, float(odds.chance) if odds else None, n)

    def choose(self, game: Game, side: str) -> Action:
        options = [self.evaluate(game, side, a) for a in game.candidates(side)]
        if not options:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        options.sort(key=lambda o: -o.value)
        best = options[0].value
        ties = [o for o in options if o.value >= best - 1e-9]
        pick = ties[self.dice.face(len(ties)) - 1]
        # the explanation names the move actually played first, then the others weighed
        self.last = [pick] + [o for o in options if o is not pick][:4]
        return pick.action
