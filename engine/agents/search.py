"""The search agent: determinized rollouts over greedy's ranking, with a time budget.

Why this shape: games here are long strings of small decisions (one unit's dice, then
the enemy's), and the greedy agent's one weakness is that it never sees the reply — it
walks a model into the open because nothing is lost *yet*. So the search is a rollout
algorithm (Bertsekas' "rollout"): every candidate is first valued one step ahead, as
greedy does but on common forked dice and more samples (the prior); the best few are
then each followed, in several *determinizations* — clones of the game with their own
dice, never the real stream — by both sides playing a cheap policy (the attack with the
best exact expected damage, else the ruleset's "end activation") until the opponent has
answered. The action with the best prior plus mean rollout gain is played.

What keeps the estimates sharp at a small budget is variance reduction, measured:

- A rollout is valued as the sum of what each step adds *in expectation*: after every
  step that rolls dice, the value is averaged over ``reply_samples`` forked outcomes
  and the gain over the value before the step is added up, while the rollout goes on
  from one of them (a control variate: the luck of each roll is taken out, what the
  roll is worth on average stays). The root action's own value is the prior's.
- The samples of a step are drawn from streams keyed by the rollout's round and the
  step's place (``Game.clone(stream=)``), and the opponent's answer by the round alone,
  so every root action of a round meets the same luck in its answer, whatever dice it
  rolled itself (common random numbers).
- The prior is taken on common dice too, ``prior_samples`` of each candidate.

Without them one option's value varied by as much as the gap between the options. The
rollout policy costs one candidate list per step. What was measured, with and without
each of these, is in docs/decisions/0001-search-variance-reduction.md. No
ruleset-specific code: attacks are told from moves by ``Odds.measures``.

``max_iterations`` caps the rollouts so a run can be repeated whatever the machine's
load; the prior still stops at half the clock budget, so give a generous ``budget``
with the cap when a run must be reproducible.
"""

from __future__ import annotations

import math
import time

from engine.actions import Action
from engine.agents.greedy import (
    ENGAGE_PER_INCH,
    Option,
    damage_hint,
    front,
    why_not_attack,
    worth,
)
from engine.dice import Dice
from engine.game import Game
from engine.ruleset import DAMAGE


class SearchAgent:
    name = "search"

    def __init__(
        self,
        seed: int = 0,
        budget: float = 0.4,
        horizon: int = 8,
        max_iterations: int = 100_000,
        width: int = 4,
        reply_samples: int = 6,
        prior_samples: int = 24,
        min_prior: int = 12,
        scored_policy: bool = False,
        engage: float = ENGAGE_PER_INCH,
    ) -> None:
        self.dice = Dice(seed=seed ^ 0x5EA6)
        self.budget = budget
        self.horizon = horizon
        self.max_iterations = max_iterations
        self.width = width
        self.reply_samples = reply_samples
        self.prior_samples = prior_samples
        self.min_prior = min_prior
        self.scored_policy = scored_policy
        # greedy's pull toward the enemy, in enemy models per inch (issue 20): the same
        # position value as greedy's, set per game from ``worth`` when choosing
        self.engage = engage
        self.pull = 0.0
        self.root_front = 0.0
        self._worth: dict[tuple[str, ...], float] = {}
        self.last: list[Option] = []
        self.iterations = 0

    # --- the rollout policy --------------------------------------------------------------
    def _policy(self, sim: Game, side: str, seed: int) -> Action | None:
        """The rollout policy, cheap and deterministic given its seed: the attack with the
        best exact expected damage (``Ruleset.odds`` measuring damage — a move's odds
        measure inches and are never compared with a hit); with none on offer, the
        ruleset's "end activation" (``scored_policy``: the candidate whose one
        forked-dice sample scores best, ten times dearer). Ties go to the rollout's seed."""
        opts = sim.candidates(side)
        if not opts:
            return None
        if len(opts) == 1:
            return opts[0]
        best: Action | None = None
        best_v = 0.0
        for a in opts:
            odds = sim.odds(a)
            if odds is not None and odds.expected is not None and odds.measures == DAMAGE:
                v = float(odds.expected)
                if v > best_v:
                    best, best_v = a, v
        if best is not None:
            return best
        if not self.scored_policy:
            step = sim.ruleset.advance(sim.state, sim.ctx)
            if step is not None and sim.check(step).ok:
                return step
            return opts[(seed >> 7) % len(opts)]
        ties: list[Action] = []
        top = -math.inf
        for a in opts:
            c = sim.clone(dice_seed=seed)
            c.apply(a)
            v = c.score(side)
            if v > top + 1e-9:
                ties, top = [a], v
            elif v >= top - 1e-9:
                ties.append(a)
        return ties[(seed >> 7) % len(ties)]

    def _final(self, sim: Game, side: str) -> float:
        st = sim.state
        value = sim.score(side)
        if self.pull and not st.over:
            # inches closed since the decision began: values stay position values, so
            # ``greedy.declined`` compares them with the score as it stands
            value -= self.pull * (front(st, side) - self.root_front)
        if st.over:
            w = st.over.get("winner")
            value += 1000.0 if w == side else (-1000.0 if w else 0.0)
        return value

    def _rollout(
        self, game: Game, side: str, action: Action, seed: int, deadline: float
    ) -> float | None:
        """What ``action`` gains for ``side`` beyond its own value: play on with the
        rollout policy to the opponent's first answer, adding up what each step adds in
        expectation (``_expected`` less the value before it) and going on from one
        sampled outcome. The root's own outcome is sampled only to go on from: its
        value is the prior's. None if out of time."""
        sim = game.clone(dice_seed=seed)
        sim.apply(action)
        prev = self._final(sim, side)
        gain = 0.0
        for step in range(self.horizon):
            if time.perf_counter() > deadline:
                return None
            to_act = sim.to_act()
            if to_act is None:
                break
            a = self._policy(sim, to_act, seed * 31 + step)
            if a is None:
                break
            # the answer's samples share their dice across root actions (its seeds do
            # not depend on the steps before it), so answers are compared on one luck
            key = seed * 131 if to_act != side else seed * 131 + 1009 * (step + 1)
            gain += self._expected(sim, side, a, key) - prev
            if to_act != side:
                break
            sim.apply(a)
            prev = self._final(sim, side)
        return gain

    def _expected(self, sim: Game, side: str, a: Action, seed: int) -> float:
        """The value after ``a`` in expectation: the mean over ``reply_samples`` fresh
        streams seeded from ``seed`` (one sample when it rolls no dice). Fresh streams,
        not forks of the rollout's own: two rollouts that reach this step by different
        dice still roll the same faces here."""
        total = 0.0
        n = 0
        for k in range(self.reply_samples):
            c = sim.clone(stream=(seed + k) & 0xFFFFFFFFFFFF)
            before = len(c.dice.consumed)
            c.apply(a)
            total += self._final(c, side)
            n += 1
            if len(c.dice.consumed) == before:
                break
        return total / n

    def _prior(self, game: Game, side: str, roots: list[Action], deadline: float) -> list[Option]:
        """Every candidate's one-step value on common random numbers: sample k of every
        candidate is played on the same forked dice, so two shots are compared on the same
        luck and the ranking is sharper than independent samples give (greedy's 4 samples
        on separate dice often rank a worse shot first). Actions that roll no dice need
        one sample. Samples stop at half the budget, keeping the rest for the rollouts,
        but never before ``min_prior``: the prior is each option's own value, and on a
        busy machine a costly decision (many candidates) once got 3 to 10 samples, a
        ranking of noise (docs/decisions/0002-search-prior-floor.md has the numbers)."""
        base = self.dice.face(1 << 30)
        half = time.perf_counter() + (deadline - time.perf_counter()) / 2
        totals = [0.0] * len(roots)
        counts = [0] * len(roots)
        exact = [False] * len(roots)
        odds = [game.odds(a) for a in roots]
        for k in range(self.prior_samples):
            if k >= max(1, self.min_prior) and time.perf_counter() > half:
                break
            for i, a in enumerate(roots):
                if exact[i]:
                    continue
                c = game.clone(dice_seed=base + k)
                before = len(c.dice.consumed)
                c.apply(a)
                totals[i] += self._final(c, side)
                counts[i] += 1
                exact[i] = len(c.dice.consumed) == before
        out = []
        for i, a in enumerate(roots):
            o = odds[i]
            value = totals[i] / counts[i] + damage_hint(o)
            out.append(Option(a, value, float(o.chance) if o else None, counts[i]))
        return out

    # --- choosing -----------------------------------------------------------------------
    def choose(self, game: Game, side: str) -> Action:
        roots = game.candidates(side)
        key = (side, *sorted(game.state.models))
        if key not in self._worth:
            self._worth[key] = worth(game, side)
        self.pull = self.engage * self._worth[key]
        self.root_front = front(game.state, side)
        if len(roots) == 1:
            self.last = [Option(roots[0], 0.0)]
            self.iterations = 0
            return roots[0]
        deadline = time.perf_counter() + self.budget
        options = self._prior(game, side, roots, deadline)
        order = sorted(range(len(roots)), key=lambda i: -options[i].value)[: self.width]
        sums = {i: 0.0 for i in order}
        rounds = 0
        it = 0
        while it + len(order) <= self.max_iterations and time.perf_counter() < deadline:
            seed = self.dice.face(1 << 30)
            got: dict[int, float] = {}
            for i in order:
                v = self._rollout(game, side, roots[i], seed, deadline)
                if v is None:
                    break
                got[i] = v
            if len(got) < len(order):
                break  # an unfinished round would compare actions on different dice
            for i, v in got.items():
                sums[i] += v
            rounds += 1
            it += len(order)
        self.iterations = it

        def mean(i: int) -> float:
            # the prior's one-step value plus what the rollouts add on average
            return options[i].value + (sums[i] / rounds if rounds else 0.0)

        ranked = sorted(order, key=lambda i: (-mean(i), order.index(i)))
        self.last = []
        for i in ranked:
            o = options[i]
            self.last.append(Option(o.action, mean(i), o.chance, rounds + o.samples))
        now = self._final(game, side)  # the position as it stands, on the options' scale
        self.last[0].note = why_not_attack(
            game, side, self.last[0], self.last, self._worth[key], now
        )
        return roots[ranked[0]]
