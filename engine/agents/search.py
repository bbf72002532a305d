"""The search agent: determinized Monte Carlo tree search with a time budget.

Each iteration draws a fresh determinization (a clone of the game with its own forked
dice — never the real stream), walks the tree by UCB1 over the actions tried so far,
expands one new action, plays a short greedy-ish rollout, and backs up the ruleset's
position score from the deciding side's view, squashed to [-1, 1]. The move played is
the most visited root action. Agents contain no ruleset-specific code.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from engine.actions import Action
from engine.agents.greedy import Option
from engine.dice import Dice
from engine.game import Game


def _key(a: Action) -> str:
    return repr(sorted(a.to_dict().items()))


@dataclass
class Node:
    visits: int = 0
    value: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)
    actions: dict[str, Action] = field(default_factory=dict)
    side: str | None = None


class SearchAgent:
    name = "search"

    def __init__(self, seed: int = 0, budget: float = 0.4, rollout: int = 6,
                 max_iterations: int = 100_000, c: float = 0.9) -> None:
        self.dice = Dice(seed=seed ^ 0x5EA6)
        self.budget = budget
        self.rollout = rollout
        self.max_iterations = max_iterations
        self.c = c
        self.last: list[Option] = []
        self.iterations = 0

    def _value(self, game: Game, side: str, base: float) -> float:
        st = game.state
        if st.over:
            w = st.over.get("winner")
            return 1.0 if w == side else (-1.0 if w else 0.0)
        return math.tanh((game.ruleset.score(st, side) - base) / 10.0)

    def choose(self, game: Game, side: str) -> Action:
        root = Node(side=side)
        roots = game.candidates(side)
        if len(roots) == 1:
            self.last = [Option(roots[0], 0.0)]
            return roots[0]
        for a in roots:
            root.actions[_key(a)] = a
        base = game.ruleset.score(game.state, side)
        deadline = time.perf_counter() + self.budget
        it = 0
        while it < self.max_iterations and (it < len(roots) or time.perf_counter() < deadline):
            it += 1
            sim = game.clone(dice_seed=self.dice.face(1 << 30))
            path = [root]
            node = root
            depth = 0
            # selection / expansion
            while not sim.state.over and depth < 8:
                to_act = sim.to_act()
                if to_act is None:
                    break
                if not node.actions:
                    for a in sim.candidates(to_act):
                        node.actions[_key(a)] = a
                    node.side = to_act
                untried = [k for k in node.actions if k not in node.children]
                if untried:
                    k = untried[self.dice.face(len(untried)) - 1]
                    node.children[k] = Node()
                    sim.apply(node.actions[k])
                    node = node.children[k]
                    path.append(node)
                    break
                parent = node
                sign = 1.0 if parent.side == side else -1.0
                k = max(parent.children, key=lambda k: (
                    sign * parent.children[k].value / max(1, parent.children[k].visits)
                    + self.c * math.sqrt(math.log(parent.visits + 1)
                                         / (parent.children[k].visits + 1e-9))))
                legal = sim.check(parent.actions[k])
                if not legal.ok:  # this determinization made it illegal: stop here
                    break
                sim.apply(parent.actions[k])
                node = parent.children[k]
                path.append(node)
                depth += 1
            # rollout: random actions for a few steps
            for _ in range(self.rollout):
                to_act = sim.to_act()
                if to_act is None:
                    break
                opts = sim.candidates(to_act)
                if not opts:
                    break
                sim.apply(opts[self.dice.face(len(opts)) - 1])
            v = self._value(sim, side, base)
            for n in path:
                n.visits += 1
                n.value += v
        self.iterations = it
        ranked = sorted(root.children.items(), key=lambda kv: -kv[1].visits)
        self.last = []
        for k, n in ranked[:5]:
            odds = game.odds(root.actions[k])
            self.last.append(Option(root.actions[k], n.value / max(1, n.visits),
                                    float(odds.chance) if odds else None, n.visits))
        return root.actions[ranked[0][0]]
