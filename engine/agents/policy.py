"""The search's rollout policy (``SearchAgent``'s base): what each side plays inside a
rollout, cheap and deterministic given the rollout's seed.

Why its own module: the policy is the part of the search a ruleset's shape shows
through (which attacks carry damage odds, whether a lazy menu is offered), and the
search's bookkeeping of rounds, memos and confidence is not.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from engine.actions import Action
from engine.agents.greedy import GreedyAgent, foes_of, is_attack, worth
from engine.game import Game
from engine.ruleset import DAMAGE

#: how much better than ending a charge must leave its side's score to be played
CHARGE_MARGIN = 1e-6
#: the dice every charge of a rollout step is valued on (``_best_charge``)
CHARGE_DICE = 0xC4A
#: the dice the greedy rollout policy (``moves``) values every candidate of a step on
POLICY_DICE = 0x6E1


class RolloutPolicy:
    """The rollout policy's methods; the search sets the options they read."""

    #: the greedy policy's valuation (``moves``): one sample a move, two an attack
    _stepper: GreedyAgent
    #: ``worth`` by side and army, for the greedy policy's pull (``_unit``)
    _units: dict[tuple[str, ...], float]

    #: samples of each candidate in the search's first stage (0: the old search, whose
    #: policy reads the checked ``candidates``, never the lazy menu)
    prefilter: int
    #: the candidate whose one forked-dice sample scores best, not the best attack
    scored_policy: bool
    #: weigh attacks without damage odds (charges) before ending (``_best_charge``);
    #: None: as the ruleset's ``rollout_charges`` says
    charges: bool | None
    #: the rollout policy is greedy's one step (``_greedy_pick``) on fixed dice, moves
    #: included, instead of the best attack or the end of the activation
    moves: bool
    #: greedy's pull toward the enemy, per ``worth`` of one enemy model (the search's)
    engage: float

    def _policy(self, sim: Game, side: str, seed: int) -> Action | None:
        """The rollout policy, cheap and deterministic given its seed: the attack with the
        best exact expected damage (``Ruleset.odds`` measuring damage — a move's odds
        measure inches and are never compared with a hit); with none on offer, the
        ruleset's "end activation" (``scored_policy``: the candidate whose one
        forked-dice sample scores best, ten times dearer). Ties go to the rollout's seed."""
        a, _ = self._pick(sim, side, seed)
        return a

    def _pick(self, sim: Game, side: str, seed: int) -> tuple[Action | None, bool]:
        """``_policy``'s choice, and whether it depended on the seed (then it may not be
        kept for other rounds). From the ruleset's lazy menu where it offers one: only
        the attacks on it are checked, and the menu's moves never are."""
        if self.moves:
            return self._greedy_pick(sim, side), False
        lazy = getattr(sim.ruleset, "proposals", None)
        menu = lazy(sim.state, side, sim.ctx) if lazy is not None else None
        if menu is not None and self.prefilter and not self.scored_policy:
            best = self._best_attack(sim, side, *menu)
            if best is not None:
                return best, False
            step = sim.ruleset.advance(sim.state, sim.ctx)
            if step is not None and sim.allowed(step):
                if self._charges(sim):
                    return self._best_charge(sim, side, step, *menu), False
                return step, False
        return self._listed(sim, side, seed)

    def _greedy_pick(self, sim: Game, side: str) -> Action | None:
        """Greedy's choice in a rollout (``moves``): every checked candidate valued one
        step ahead as greedy values it (its score plus the pull toward the enemy), on
        one sample of ``POLICY_DICE`` (two for an attack), the first of equals. Why:
        the opponent is greedy, and a policy that only attacks or ends never moves, so a
        move that leaves a charge lane open or walks into the open was never answered in
        a rollout (docs/decisions/0011). The same position gets the same choice in every
        round, so a prefix that rolled no dice keeps its memo."""
        opts = sim.candidates(side)
        if len(opts) <= 1:
            return opts[0] if opts else None
        pull = self.engage * self._unit(sim, side)
        fixed = sim.clone(stream=POLICY_DICE)  # its samples fork from one fixed stream
        return self._stepper.weigh(fixed, side, opts, pull, POLICY_DICE)[0].action

    def _unit(self, sim: Game, side: str) -> float:
        """``worth`` of one of ``side``'s enemy models, once a game per side."""
        key = (side, *sorted(sim.state.models))
        got = self._units.get(key)
        if got is None:
            got = self._units[key] = worth(sim, side)
        return got

    def _charges(self, sim: Game) -> bool:
        """Whether the policy weighs attacks without damage odds (``_best_charge``): the
        search's ``charges`` option, else the ruleset's ``rollout_charges``."""
        if self.charges is not None:
            return self.charges
        return sim.ruleset.rollout_charges

    def _best_charge(
        self, sim: Game, side: str, step: Action, sure: list[Action], unsure: list[Action]
    ) -> Action:
        """The legal attack of the menu that carries no damage odds (a charge, whose
        blows fall in a later segment) whose position ``side`` values most, if it beats
        ``step`` (the ruleset's "end activation"), else ``step``. Each is valued on one
        clone with the same fixed dice, so the choice is the same in every round. Why:
        with charges never played, the enemy's answer to a move into its reach was always
        to end its movement, and the rollouts rewarded the move (GEM, issue 20)."""
        best, best_v = step, self._after(sim, side, step)
        for a, unchecked in _distinct_attacks(sim, side, sure, unsure):
            odds = sim.odds(a)
            if odds is not None and odds.measures == DAMAGE:
                continue
            if unchecked and not sim.allowed(a):
                continue
            v = self._after(sim, side, a)
            if v > best_v + CHARGE_MARGIN:
                best, best_v = a, v
        return best

    @staticmethod
    def _after(sim: Game, side: str, a: Action) -> float:
        """``side``'s score after ``a``, on one clone with fixed dice."""
        c = sim.clone(dice_seed=CHARGE_DICE)
        c.apply(a)
        value = c.score(side)
        if c.state.over:
            w = c.state.over.get("winner")
            value += 1000.0 if w == side else (-1000.0 if w else 0.0)
        return value

    def _best_attack(
        self, sim: Game, side: str, sure: list[Action], unsure: list[Action]
    ) -> Action | None:
        """The legal attack of the menu with the best exact expected damage (the first of
        equals, in the menu's order, as ``candidates`` would list them), or None."""
        best: Action | None = None
        best_v = 0.0
        for a, unchecked in _distinct_attacks(sim, side, sure, unsure):
            if unchecked and not sim.allowed(a):
                continue
            odds = sim.odds(a)
            if odds is not None and odds.expected is not None and odds.measures == DAMAGE:
                v = float(odds.expected)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _listed(self, sim: Game, side: str, seed: int) -> tuple[Action | None, bool]:
        """The policy over the checked ``candidates`` (a ruleset without a lazy menu)."""
        opts = sim.candidates(side)
        if not opts:
            return None, False
        if len(opts) == 1:
            return opts[0], False
        best: Action | None = None
        best_v = 0.0
        for a in opts:
            odds = sim.odds(a)
            if odds is not None and odds.expected is not None and odds.measures == DAMAGE:
                v = float(odds.expected)
                if v > best_v:
                    best, best_v = a, v
        if best is not None:
            return best, False
        if not self.scored_policy:
            step = sim.ruleset.advance(sim.state, sim.ctx)
            if step is not None and sim.allowed(step):
                return step, False
            return opts[(seed >> 7) % len(opts)], True
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
        return ties[(seed >> 7) % len(ties)], True


def _distinct_attacks(
    sim: Game, side: str, sure: list[Action], unsure: list[Action]
) -> Iterator[tuple[Action, bool]]:
    """The attacks on ``side``'s foes in the menu's order (``sure`` first), each once,
    with whether its legality is still to be checked (it came from ``unsure``). Both
    rollout choices (``_best_charge``, ``_best_attack``) walk the menu this way, so a
    duplicate or an unchecked attack is treated alike by both."""
    foes = foes_of(sim.state, side)
    known = len(sure)
    seen: set[str] = set()
    for n, a in enumerate(sure + unsure):
        if not is_attack(a, foes):
            continue
        key = repr(a.to_dict())
        if key in seen:
            continue
        seen.add(key)
        yield a, n >= known
