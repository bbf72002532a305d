"""The random agent: the baseline every other agent must beat, and the contract tests'
fuzzer. It picks uniformly among the ruleset's legal actions, using its own dice stream.

Why it samples lazily where it can: ``candidates`` checks every action on the menu, and
a random pick needs only one legal action. A ruleset that offers ``proposals(state,
side, ctx)`` — the menu before ``check``, as (actions known legal, actions to check) —
lets the agent draw an action at random, check it, and draw again among the rest only
if it was refused: still uniform over the legal actions of the menu, at the cost of a
check or two instead of one per action. It asks ``Game.allowed``, the verdict alone, so
a rule may stop at the first reason it finds. Other rulesets (or a ``proposals`` that
answers None) are served from ``candidates`` as before.
"""

from __future__ import annotations

from engine.actions import Action
from engine.dice import Dice
from engine.game import Game


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice(seed=seed ^ 0x5EED)

    def choose(self, game: Game, side: str) -> Action:
        lazy = getattr(game.ruleset, "proposals", None)
        menu = lazy(game.state, side, game.ctx) if lazy is not None else None
        if menu is not None:
            return self._draw(game, side, *menu)
        options = game.candidates(side)
        if not options:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        return options[self.dice.face(len(options)) - 1]

    def _draw(self, game: Game, side: str, sure: list[Action], unsure: list[Action]) -> Action:
        """Draw without replacement until a legal action comes up (each distinct action
        once: the same action offered twice is not twice as likely). A ruleset whose
        menus are distinct already (``Ruleset.distinct_proposals``) skips the de-duplication:
        the pool, and so every draw, is the same."""
        offered = [(a, True) for a in sure] + [(a, False) for a in unsure]
        if getattr(game.ruleset, "distinct_proposals", False):
            pool = offered
        else:
            pool = []
            seen: set[str] = set()
            for a, known in offered:
                key = repr(a.to_dict())
                if key not in seen:
                    seen.add(key)
                    pool.append((a, known))
        while pool:
            i = self.dice.face(len(pool)) - 1
            a, known = pool[i]
            if known or game.allowed(a):
                return a
            pool[i] = pool[-1]
            pool.pop()
        raise RuntimeError(f"ruleset {game.state.ruleset} offered no legal action to {side}")
