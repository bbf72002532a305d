"""The search agent: determinized rollouts over greedy's ranking, with a time budget.

Why this shape: games here are long strings of small decisions (one unit's dice, then
the enemy's), and the greedy agent's one weakness is that it never sees the reply — it
walks a model into the open because nothing is lost *yet*. So the search is a rollout
algorithm (Bertsekas' "rollout"): every candidate is first valued one step ahead, as
greedy does but on common forked dice (the prefilter); the best few are then each
followed, in several *determinizations* — clones of the game with their own dice,
never the real stream — by both sides playing a cheap policy (the attack with the best
exact expected damage, else the ruleset's "end activation") until the opponent has
answered: its first attack, or play back with us after its go (``through``; in a turn
of phases the enemy's first step is the end of its movement, and its answer is its
shooting after it). The action with the best one-step value plus mean rollout gain is
played.

What keeps the estimates sharp at a small budget is variance reduction, measured:

- A rollout is valued as the sum of what each step adds *in expectation*: after every
  step that rolls dice, the value is averaged over ``reply_samples`` forked outcomes
  and the gain over the value before the step is added up, while the rollout goes on
  from one of them (a control variate: the luck of each roll is taken out, what the
  roll is worth on average stays).
- The samples of a step are drawn from streams keyed by the rollout's round and the
  step's place (``Game.clone(stream=)``), and the opponent's answer by the round alone,
  so every root action of a round meets the same luck in its answer, whatever dice it
  rolled itself (common random numbers).
- The one-step value is taken on common dice too: the prefilter's ``prefilter`` samples
  of each candidate, then one more per rollout (every rollout of a round plays its root
  action on the round's dice), so the few actions followed end with as many samples of
  their own value as they have rollouts.

Why a prefilter (issue 24, decision 0002): the old 12-sample floor took the whole clock
under load. ``prefilter=0`` is the old search, which ``bench/search_rollouts.py`` runs too.

The first stage by default (``greedy_prior``) is greedy's own valuation, within half
the clock (``FIRST_SHARE``; ``GreedyAgent.weigh`` with a deadline: one look at every
candidate, then greedy's samples while the clock allows), and the search plays greedy's
best unless the rollouts show another action better with confidence (``_confident``):
against greedy, a few rollouts' noisy gains overturned a right one-step ranking
(docs/decisions/0008). ``greedy_prior=False`` is the prefilter above.

What keeps a rollout cheap, without changing its value:

- The rollout policy reads the ruleset's lazy menu (``proposals``, where offered) and
  checks only the attacks on it, instead of checking every move of ``candidates``.
- A rollout's prefix that rolled no dice (a move, then "end activation") reaches the
  same position in every round: its state, its value and the policy's choice there are
  kept for the decision (``_Memo``) and each round starts from them.

``max_iterations`` caps the rollouts; with ``budget=math.inf`` (``NO_CLOCK``, the
strength bench's hard rows) nothing reads the clock: the first stage takes all of
greedy's samples and the rollouts stop at the cap, so a seed plays the same game
whatever the machine's load. A finite budget (the window's 0.4 s) bounds both stages
by the clock. No ruleset-specific code: attacks are told from moves by
``Odds.measures``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.actions import Action
from engine.agents.frozen import Frozen
from engine.agents.greedy import (
    ENGAGE_PER_INCH,
    GreedyAgent,
    Option,
    damage_hint,
    foes_of,
    front,
    is_attack,
    why_not_attack,
    worth,
)
from engine.agents.policy import RolloutPolicy
from engine.agents.vet import vetted
from engine.dice import Dice
from engine.events import EventLog
from engine.game import Game
from engine.state import GameState

#: standard errors by which the rollouts must find another action better than the
#: first stage's best before the search (``greedy_prior``) plays it
CONFIDENCE = 1.0
#: the budget of a search bounded by its rollout cap alone: the clock is never read
NO_CLOCK = math.inf
#: the share of the clock greedy's first stage (``greedy_prior``) may take: one look at
#: every candidate is always taken, the rest of greedy's samples only within it
FIRST_SHARE = 0.5


@dataclass
class _Memo:
    """What one decision's rollouts learnt about positions reached without a die roll,
    keyed by the path to them (root index, then the steps played): the position, its
    value, the policy's choice there and the value of that choice when it rolls none."""

    states: dict[tuple[int, ...], tuple[Frozen, float]] = field(default_factory=dict)
    picks: dict[tuple[int, ...], Action | None] = field(default_factory=dict)
    exact: dict[tuple[int, ...], float] = field(default_factory=dict)
    #: the decision's position, frozen once (``_fork``)
    root: Frozen | None = None


def _fork(game: Game, blob: Frozen, dice_seed: int = 0, stream: int | None = None) -> Game:
    """``game.clone(dice_seed=)`` (or ``clone(stream=)``) standing at the frozen state
    ``blob``: the same clone, but a position the search forks many times is prepared
    once (``Frozen``: its mutable parts pickled once; a clone pickles them every time).
    From the state after a prefix that rolled nothing, it is the clone that prefix
    reached: the stream is where it was."""
    if stream is not None:
        dice = Dice(seed=stream)
    else:
        dice = game.dice.fork(f"clone:{dice_seed}")
        dice.forced = []
    g = Game(game.ruleset, game.battlefield, blob.thaw(), dice, EventLog(), record=False)
    g.ctx = game.ctx.fork(dice, g.log)
    g.scenario = game.scenario
    return g


class SearchAgent(RolloutPolicy):
    name = "search"

    def __init__(
        self,
        seed: int = 0,
        budget: float = 0.4,
        horizon: int = 16,
        max_iterations: int = 100_000,
        width: int = 4,
        reply_samples: int = 6,
        prior_samples: int = 24,
        min_prior: int = 12,
        scored_policy: bool = False,
        engage: float = ENGAGE_PER_INCH,
        prefilter: int = 4,
        greedy_prior: bool = True,
        freeze: bool = True,
        through: int = 1,
        confidence: float = CONFIDENCE,
        vet: bool = False,
        charges: bool | None = None,
        moves: bool = False,
        margin: float = 0.0,
    ) -> None:
        if budget == NO_CLOCK and max_iterations >= 100_000:
            raise ValueError("a search without a clock needs a rollout cap (max_iterations)")
        self.dice = Dice(seed=seed ^ 0x5EA6)
        self.budget = budget
        self.horizon = horizon
        self.max_iterations = max_iterations
        self.width = width
        self.reply_samples = reply_samples
        self.prior_samples = prior_samples
        self.min_prior = min_prior
        self.scored_policy = scored_policy
        #: samples of each candidate in the first stage; 0: the old full prior
        self.prefilter = prefilter
        #: the first stage is greedy's (``GreedyAgent.weigh``): attacks on 8 then 24
        #: common-dice samples with the luck of the hits taken out (docs/decisions/0007)
        self.greedy_prior = greedy_prior
        #: positions forked many times keep only their mutable parts pickled
        #: (``Frozen``); False: pickled whole, as before (for the benches' A/B)
        self.freeze = freeze
        #: 1: the rollout plays on through the opponent's steps that attack nothing (an
        #: end of its movement phase) to its first attack, or until play is back with us
        #: (docs/decisions/0009); 2: on to its first attack, our own steps between too
        #: (the horizon permitting); 0: it stops at the opponent's first step, whatever
        #: it is, as before (a phased turn's answer was then "end phase", never a shot);
        #: 3: on through the opponent's whole go, until it has attacked and play is back
        #: with us (Inter Arma moves both sides before anyone shoots: at 1 a movement
        #: option's rollout ended with the enemy's "end phase", docs/decisions/0010)
        self.through = through
        self.confidence = confidence  # standard errors (``_confident``)
        #: ... and by at least this many enemy models' ``worth`` (``_confident``)
        self.margin = margin
        self.vet = vet  # rollouts play only attacks that pay their side (``vet.py``)
        #: rollouts weigh charges, attacks without damage odds (``policy.py``); None:
        #: as the ruleset's ``rollout_charges`` says
        self.charges = charges
        #: the rollout policy is greedy's one step, moves included (``_greedy_pick``):
        #: dearer, for the strength bench's rows without a clock (docs/decisions/0011)
        self.moves = moves
        self._stepper = GreedyAgent(samples=1, attack_samples=1, engage=engage)
        self._units: dict[tuple[str, ...], float] = {}
        #: decisions weighed by rollouts, and those that left the first stage's best
        self.tally = {"rolled": 0, "left": 0}
        self._greedy = GreedyAgent(seed=seed, engage=engage)
        # greedy's pull toward the enemy, in enemy models per inch (issue 20): the same
        # position value as greedy's, set per game from ``worth`` when choosing
        self.engage = engage
        self.pull = 0.0
        self.root_front = 0.0
        self._worth: dict[tuple[str, ...], float] = {}
        self.last: list[Option] = []
        self.iterations = 0

    def _copy(
        self, game: Game, blob: Frozen | None, dice_seed: int = 0, stream: int | None = None
    ) -> Game:
        """``_fork``, or with ``prefilter=0`` the old search's ``Game.clone`` (so the
        bench's baseline pays what it paid); ``Game.clone`` too with no ``blob``."""
        if not self.prefilter or blob is None:
            return game.clone(dice_seed=None if stream is not None else dice_seed, stream=stream)
        return _fork(game, blob, dice_seed, stream)

    def _frozen(self, state: GameState) -> Frozen:
        """The position, ready to be forked many times (``Frozen``)."""
        return Frozen(state, whole=not self.freeze)

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

    def _advance(
        self,
        game: Game,
        sim: Game | None,
        side: str,
        a: Action,
        path: tuple[int, ...],
        seed: int,
        memo: _Memo | None,
    ) -> tuple[Game, float, bool]:
        """Play ``a`` at the end of ``path`` (on ``sim``, or on a fresh clone for the
        root): the game after it, its value, and whether the path still rolled no dice
        (only then is it kept in ``memo`` for the other rounds)."""
        if memo is not None and path in memo.states:
            state, value = memo.states[path]
            return self._copy(game, state, seed), value, True
        if sim is None:
            sim = self._copy(game, memo.root if memo is not None else None, seed)
        sim.apply(a)
        value = self._final(sim, side)
        calm = memo is not None and not sim.dice.consumed
        if calm and memo is not None:
            memo.states[path] = (self._frozen(sim.state), value)
        return sim, value, calm

    def _rollout(
        self,
        game: Game,
        side: str,
        action: Action,
        seed: int,
        deadline: float,
        index: int = 0,
        memo: _Memo | None = None,
    ) -> float | None:
        """What ``action`` gains for ``side`` beyond its own value; None if out of time."""
        got = self._playout(game, side, action, seed, deadline, index, memo)
        return None if got is None else got[1]

    def _playout(
        self,
        game: Game,
        side: str,
        action: Action,
        seed: int,
        deadline: float,
        index: int = 0,
        memo: _Memo | None = None,
    ) -> tuple[float, float] | None:
        """(``action``'s own value on this round's dice, what it gains beyond it): play on
        with the rollout policy to the opponent's first answer, adding up what each step
        adds in expectation (``_expected`` less the value before it) and going on from
        one sampled outcome (``through``: past its steps that attack nothing, to its
        first attack or until play is back with us; each of its steps on dice shared by
        every root action of the round). None if out of time."""
        path: tuple[int, ...] = (index,)
        sim, prev, calm = self._advance(game, None, side, action, path, seed, memo)
        root = prev
        gain = 0.0
        theirs = 0  # the opponent's steps so far
        answered = False  # the opponent has attacked
        for step in range(self.horizon):
            if time.perf_counter() > deadline:
                return None
            to_act = sim.to_act()
            if to_act is None or (to_act == side and self._answered(theirs, answered)):
                break  # over, or the opponent has had its go and play is back with us
            a, fixed = self._step_pick(sim, to_act, seed * 31 + step, path, memo if calm else None)
            if a is None:
                break
            calm = calm and fixed  # a choice left to the seed may differ next round
            # the answer's samples share their dice across root actions (its seeds do
            # not depend on the steps before it), so answers are compared on one luck
            key = seed * 131 + 7919 * theirs if to_act != side else seed * 131 + 1009 * (step + 1)
            if calm and memo is not None and path in memo.exact:
                value = memo.exact[path]
            else:
                value, exact = self._expected_exact(sim, side, a, key)
                if self.vet:
                    a, value, swapped = vetted(
                        self._expected_exact, sim, side, to_act, a, value, prev, key
                    )
                    exact, calm = exact and not swapped, calm and not swapped
                if calm and exact and memo is not None:
                    memo.exact[path] = value
            gain += value - prev
            if to_act != side:
                theirs += 1
                hit = is_attack(a, foes_of(sim.state, to_act))
                answered = answered or hit
                if not self.through or (hit and self.through < 3):
                    break  # the opponent's answer: its first attack
            path = (*path, step)
            sim, prev, calm = self._advance(game, sim, side, a, path, seed, memo if calm else None)
        return root, gain

    def _answered(self, theirs: int, answered: bool) -> bool:
        """Whether a rollout whose opponent has taken ``theirs`` steps (``answered``: one
        of them an attack) stops when play is back with its side (``through``)."""
        if self.through == 3:
            return answered
        return bool(theirs) and self.through < 2

    def _step_pick(
        self, sim: Game, to_act: str, seed: int, path: tuple[int, ...], memo: _Memo | None
    ) -> tuple[Action | None, bool]:
        """The policy's choice at the end of ``path``, from ``memo`` when the path rolled
        no dice and an earlier round made the same choice there; and whether the choice
        is the same in every round (it did not fall to the seed)."""
        if memo is not None and path in memo.picks:
            return memo.picks[path], True
        a, seeded = self._pick(sim, to_act, seed)
        if memo is not None and not seeded:
            memo.picks[path] = a
        return a, not seeded

    def _expected(self, sim: Game, side: str, a: Action, seed: int) -> float:
        """The value after ``a`` in expectation (``_expected_exact``'s value)."""
        return self._expected_exact(sim, side, a, seed)[0]

    def _expected_exact(self, sim: Game, side: str, a: Action, seed: int) -> tuple[float, bool]:
        """The value after ``a`` in expectation: the mean over ``reply_samples`` fresh
        streams seeded from ``seed`` (one sample when it rolls no dice — then exact,
        the second answer). Fresh streams, not forks of the rollout's own: two rollouts
        that reach this step by different dice still roll the same faces here."""
        total = 0.0
        n = 0
        exact = False
        blob = self._frozen(sim.state) if self.prefilter else None
        legal = False  # every copy is the same position: one check serves them all
        for k in range(self.reply_samples):
            c = self._copy(sim, blob, stream=(seed + k) & 0xFFFFFFFFFFFF)
            before = len(c.dice.consumed)
            if k == 0:
                legal = c.check(a).ok
            c.apply(a, checked=legal)
            total += self._final(c, side)
            n += 1
            if len(c.dice.consumed) == before:
                exact = n == 1
                break
        return total / n, exact

    def _prior(
        self,
        game: Game,
        side: str,
        roots: list[Action],
        deadline: float,
        samples: int | None = None,
        floor: int | None = None,
        share: float = 0.5,
    ) -> list[Option]:
        """``_sampled``'s options alone."""
        return self._sampled(game, side, roots, deadline, samples, floor, share)[0]

    def _sampled(
        self,
        game: Game,
        side: str,
        roots: list[Action],
        deadline: float,
        samples: int | None = None,
        floor: int | None = None,
        share: float = 0.5,
    ) -> tuple[list[Option], list[float], list[int]]:
        """Every candidate's one-step value on common random numbers: sample k of every
        candidate is played on the same forked dice, so two shots are compared on the same
        luck and the ranking is sharper than independent samples give (greedy's 4 samples
        on separate dice often rank a worse shot first). Actions that roll no dice need
        one sample. Samples stop at ``share`` of the budget but never before ``floor``
        (the old prior's: half, and ``min_prior``, since on a busy machine a costly
        decision once got 3 to 10 samples, a ranking of noise,
        docs/decisions/0002-search-prior-floor.md). The prefilter asks for ``prefilter``
        samples, at least one, in a quarter of the budget: the actions it keeps gather
        the rest in their rollouts. Also returns each candidate's sum of values and
        count of samples, for the rollouts to add to."""
        samples = self.prior_samples if samples is None else samples
        floor = self.min_prior if floor is None else floor
        base = self.dice.face(1 << 30)
        blob = self._frozen(game.state) if self.prefilter else None
        half = time.perf_counter() + (deadline - time.perf_counter()) * share
        totals = [0.0] * len(roots)
        counts = [0] * len(roots)
        exact = [False] * len(roots)
        odds = [game.odds(a) for a in roots]
        for k in range(samples):
            if k >= max(1, floor) and time.perf_counter() > half:
                break
            for i, a in enumerate(roots):
                if exact[i]:
                    continue
                c = self._copy(game, blob, base + k)
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
        return out, totals, counts

    def _weighed(
        self, game: Game, side: str, roots: list[Action], deadline: float
    ) -> tuple[list[Option], list[float], list[int]]:
        """``_sampled``'s answer from greedy's first stage (``GreedyAgent.weigh``, on the
        common dice of this decision, stopped at ``FIRST_SHARE`` of the clock): each
        option's value, and as its "sum" of samples its value less the damage hint
        times its count, so the rollouts' own samples of the root value are added with
        the weight of greedy's."""
        common = self.dice.face(1 << 30)
        until = None  # no clock: all of greedy's samples
        if deadline != NO_CLOCK:
            now = time.perf_counter()
            until = now + (deadline - now) * FIRST_SHARE
        weighed = self._greedy.weigh(game, side, roots, self.pull, common, until)
        by = {id(o.action): o for o in weighed}
        options = [by[id(a)] for a in roots]
        totals = [(o.value - o.hint) * o.samples for o in options]
        return options, totals, [o.samples for o in options]

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
        deadline = NO_CLOCK if self.budget == NO_CLOCK else time.perf_counter() + self.budget
        if self.greedy_prior:
            options, totals, counts = self._weighed(game, side, roots, deadline)
        elif self.prefilter:
            options, totals, counts = self._sampled(
                game, side, roots, deadline, self.prefilter, 1, 0.25
            )
        else:
            options, totals, counts = self._sampled(game, side, roots, deadline)
        order = sorted(range(len(roots)), key=lambda i: -options[i].value)[: self.width]
        rounds, sums, own = self._rounds(game, side, roots, order, deadline)

        def mean(i: int) -> float:
            # the one-step value (with the rollouts' own samples of it after a
            # prefilter) plus what the rollouts add on average
            o = options[i]
            if self.prefilter and rounds:
                hint = o.value - totals[i] / counts[i]
                first = (totals[i] + own[i]) / (counts[i] + rounds) + hint
            else:
                first = o.value
            return first + (sums[i] / rounds if rounds else 0.0)

        ranked = sorted(order, key=lambda i: (-mean(i), order.index(i)))
        if self.greedy_prior and rounds >= 3:
            pick = self._confident(order, mean, self.margin * self._worth[key])
            self.tally["rolled"] += 1
            self.tally["left"] += pick != order[0]
            ranked.remove(pick)
            ranked.insert(0, pick)
        self.last = []
        for i in ranked:
            o = options[i]
            self.last.append(Option(o.action, mean(i), o.chance, rounds + o.samples))
        now = self._final(game, side)  # the position as it stands, on the options' scale
        self.last[0].note = why_not_attack(
            game, side, self.last[0], self.last, self._worth[key], now
        )
        return roots[ranked[0]]

    def _confident(self, order: list[int], mean: Callable[[int], float], floor: float = 0.0) -> int:
        """Greedy's choice (``order[0]``, the first stage's best) unless the rollouts say
        with some confidence that another action is better: its value less greedy's,
        less ``CONFIDENCE`` standard errors of the paired round-by-round difference of
        their gains (the rounds share their dice, so the difference is sharper than
        either gain). A few rollouts' gains vary far more than greedy's 24-sample values
        (docs/decisions/0007): taken at face value they overturn a right first stage.
        ``floor`` (``margin`` enemy models): the least such gain that leaves greedy's
        choice, so departures worth hundredths, whose spread was smaller still, do not."""
        g = order[0]
        pick, margin = g, floor
        for i in order[1:]:
            d = [a - b for a, b in zip(self._gains[i], self._gains[g])]
            lo = mean(i) - mean(g) - self.confidence * statistics.stdev(d) / math.sqrt(len(d))
            if lo > margin:
                pick, margin = i, lo
        return pick

    def _rounds(
        self, game: Game, side: str, roots: list[Action], order: list[int], deadline: float
    ) -> tuple[int, dict[int, float], dict[int, float]]:
        """Rounds of rollouts of the ``order`` actions on shared dice until the clock or
        ``max_iterations``: (rounds, sum of gains, sum of the root values) per action.
        Sets ``iterations``."""
        sums = {i: 0.0 for i in order}
        own = {i: 0.0 for i in order}
        self._gains: dict[int, list[float]] = {}
        memo = _Memo(root=self._frozen(game.state)) if self.prefilter else None
        rounds = 0
        it = 0
        while it + len(order) <= self.max_iterations and time.perf_counter() < deadline:
            seed = self.dice.face(1 << 30)
            got: dict[int, tuple[float, float]] = {}
            for i in order:
                v = self._playout(game, side, roots[i], seed, deadline, i, memo)
                if v is None:
                    break
                got[i] = v
            if len(got) < len(order):
                break  # an unfinished round would compare actions on different dice
            for i, (root, gain) in got.items():
                own[i] += root
                sums[i] += gain
                self._gains.setdefault(i, []).append(gain)
            rounds += 1
            it += len(order)
        self.iterations = it
        return rounds, sums, own
