"""The search agent: determinized Monte Carlo search over the ruleset's candidates, with
a time budget.

Why this shape: games here are long strings of small decisions (one unit's dice, then
the enemy's), so a deep tree with random rollouts drowns the signal in noise. Instead
each root action is tried in many *determinizations* — clones of the game with their
own forked dice, never the real stream — and followed by a short rollout in which both
sides play a cheap odds-guided policy (attack with the best expected damage from
``Ruleset.odds()``, otherwise a random action) until play has passed to the opponent
and back. Root actions are chosen for more samples by UCB1, seeded by the greedy
agent's own sampled evaluation counted as virtual playouts. The action played has the best mean value; ties go to the most sampled.
A rollout algorithm of this kind provably does at least as well as its base policy in
expectation, and its horizon lets it see the opponent's reply. No ruleset-specific code.
"""

from __future__ import annotations

import math
import time

from engine.actions import Action
from engine.agents.greedy import GreedyAgent, Option
from engine.dice import Dice
from engine.game import Game


class SearchAgent:
    name = "search"

    def __init__(self, seed: int = 0, budget: float = 0.4, horizon: int = 12,
                 max_iterations: int = 100_000, c: float = 0.6, width: int = 12) -> None:
        self.dice = Dice(seed=seed ^ 0x5EA6)
        self.budget = budget
        self.horizon = horizon
        self.max_iterations = max_iterations
        self.c = c
        self.width = width
        self.last: list[Option] = []
        self.iterations = 0
        self.greedy = GreedyAgent(seed=seed, samples=4)

    # --- the rollout policy -------------------------------------------------------
    def _policy(self, game: Game, side: str) -> Action:
        """Best expected damage among attacks; otherwise a random action."""
        opts = game.candidates(side)
        best, best_v = None, 0.0
        for a in opts:
            odds = game.odds(a)
            if odds is not None and odds.expected is not None:
                v = float(odds.expected) * (1.0 + float(odds.chance or 0))
                if v > best_v:
                    best, best_v = a, v
        if best is not None and self.dice.face(10) > 2:
            return best
        return opts[self.dice.face(len(opts)) - 1]

    def _value(self, game: Game, side: str, base: float) -> float:
        st = game.state
        if st.over:
            w = st.over.get("winner")
            return 1.0 if w == side else (-1.0 if w else 0.0)
        return math.tanh((game.ruleset.score(st, side) - base) / 10.0)

    def _rollout(self, game: Game, side: str, action: Action, base: float,
                 deadline: float = math.inf) -> float | None:
        """Value after ``action`` and a short odds-guided playout; None if out of time."""
        sim = game.clone(dice_seed=self.dice.face(1 << 30))
        sim.apply(action)
        switches = 0
        last = side
        for _ in range(self.horizon):
            if time.perf_counter() > deadline:
                return None
            to_act = sim.to_act()
            if to_act is None:
                break
            if to_act != last:
                switches += 1
                last = to_act
                if switches > 2:  # the opponent has answered and play came back
                    break
            if not sim.candidates(to_act):
                break
            sim.apply(self._policy(sim, to_act))
        return self._value(sim, side, base)

    # --- choosing -----------------------------------------------------------------
    def choose(self, game: Game, side: str) -> Action:
        roots = game.candidates(side)
        if len(roots) == 1:
            self.last = [Option(roots[0], 0.0)]
            return roots[0]
        base = game.ruleset.score(game.state, side)
        deadline = time.perf_counter() + self.budget
        # Prior: greedy's own evaluation (score after the action, averaged over forked
        # dice), counted as that many virtual playouts. Rollouts can then only move the
        # choice away from greedy's with evidence, so search does not fall below greedy
        # when its playouts are few or uninformative.
        prior: dict[int, float] = {}
        weight: dict[int, int] = {}
        for i, a in enumerate(roots):
            opt = self.greedy.evaluate(game, side, a)
            prior[i] = math.tanh((opt.value - base) / 10.0)
            weight[i] = opt.samples
        order = sorted(prior, key=lambda i: -prior[i])[: self.width]
        visits = {i: weight[i] for i in order}
        total = {i: prior[i] * weight[i] for i in order}
        it = 0
        while it < self.max_iterations and time.perf_counter() < deadline:
            it += 1
            n = sum(visits.values())
            i = max(order, key=lambda k: total[k] / visits[k]
                    + self.c * math.sqrt(math.log(n + 1) / visits[k]))
            v = self._rollout(game, side, roots[i], base, deadline)
            if v is None:
                break
            total[i] += v
            visits[i] += 1
        self.iterations = it
        ranked = sorted(order, key=lambda k: (-total[k] / visits[k], -visits[k]))
        self.last = []
        for k in ranked[:5]:
            odds = game.odds(roots[k])
            self.last.append(Option(roots[k], total[k] / visits[k],
                                    float(odds.chance) if odds else None, visits[k]))
        return roots[ranked[0]]
