"""The greedy agent: one step of lookahead, valued by expectation.

For each candidate it applies the action in clones with *forked* dice (it never sees the
real stream) and averages the position value afterwards; actions that roll dice are
sampled several times, and where the ruleset offers exact odds the expected damage
breaks ties. No ruleset-specific code.

Every option — a shot, a charge, a move, waiting, ending a phase — is valued on one
scale: the expected change of the same position value, the ruleset's score plus a small
pull toward the enemy (``engage``). The pull is priced in the ruleset's own currency:
``worth`` is what removing one enemy model adds to the score (a GEM figure's points, a
SWOMP model's points, a UMR model's health and life), so "a twentieth of a model per
foot closed" means the same thing in every ruleset. Why the pull: a one-step agent sees
nothing change when it walks toward the enemy, and without it waiting ties with
advancing, so it waits (issue 20: the SWOMP swarm waited all game). It is far smaller
than a likely hit, so it never outweighs real damage or the ruleset's own reasons
(cover, the enemy's answer, an objective).

The agent also counts its **declined attacks** (``tally``): decisions where an attack
with at least ``DECLINE_ODDS`` and a positive expected value was on offer and it chose
to wait or end instead — the bench reports their share, and the decision line says in
plain words why the chosen option beat that attack.
"""

from __future__ import annotations

import math
import pickle
import time
from dataclasses import dataclass, field

from engine.actions import Action
from engine.agents.passive import is_active
from engine.dice import Dice
from engine.game import Game
from engine.ruleset import DAMAGE, Odds
from engine.state import GameState

#: the outcomes of a roll whose logged chance is that of a hit (``luck``)
HIT_OR_MISS = ("hit", "miss")
#: an attack this likely to succeed, worth something in expectation, should be taken
DECLINE_ODDS = 0.6
#: the pull toward the enemy, in enemy models' worth per inch the side closes
ENGAGE_PER_INCH = 0.01
#: ... counted only this far: beyond it a model is already in the fight
ENGAGE_SPAN = 48.0
#: samples of an attack's value (one with exact damage odds): a 28% shot sampled 4 times
#: misses in all four one time in four, and a wounded model's kill looked worth less
#: than a scratch on a whole one (tests/engine/test_greedy_aim.py)
ATTACK_SAMPLES = 24
#: ... on a first look of twice the samples of a move; only the best few options after it
#: get the full count (a UMR decision weighs up to 30 shots)
REFINE = 4


@dataclass
class Option:
    """One candidate as the agent saw it: for the 'why did the computer do that' panel.
    ``note`` says in plain words why it was chosen over the best attack on offer."""

    action: Action
    value: float
    chance: float | None = None
    samples: int = 1
    note: str = field(default="", compare=False)
    #: the part of ``value`` that is ``damage_hint``, not a sampled position value
    hint: float = field(default=0.0, compare=False)
    #: the samples behind ``value`` (position values, and the luck of each or None):
    #: a later look at the same option on the same dice goes on from them
    draws: tuple[list[float], list[float | None]] = field(
        default_factory=lambda: ([], []), compare=False, repr=False
    )
    #: the action rolled no dice: its one sample is its value, exactly
    exact: bool = field(default=False, compare=False)

    def line(self) -> str:
        odds = f", chance {self.chance:.0%}" if self.chance is not None else ""
        why = f" — {self.note}" if self.note else ""
        return f"{self.action.describe()} (value {self.value:+.2f}{odds}){why}"


def damage_hint(odds: Odds | None) -> float:
    """A hundredth of the exact expected damage, to break ties between sampled values in
    favour of the surer attack; nothing for odds that measure something else (inches)."""
    if odds is None or odds.expected is None or odds.measures != DAMAGE:
        return 0.0
    return 0.01 * float(odds.expected)


def is_scored_attack(odds: Odds | None) -> bool:
    """Whether odds are an attack's exact damage: its value turns on unlikely rolls, so
    it is sampled ``ATTACK_SAMPLES`` times."""
    return odds is not None and odds.measures == DAMAGE and odds.expected is not None


def luck(game: Game) -> float | None:
    """The luck of the attack rolls in ``game``'s log: hits less their chances, summed
    over the resolutions that logged a chance (the chance of a hit, before the dice
    fell). Its expectation is exactly 0 whatever was rolled, which makes it a control
    variate for sampled values (``unlucky_mean``) — but only where every such roll is
    a hit or a miss: a roll with a third outcome (Inter Arma's saves, "saved, wounded or
    dead", whose chance is the save's) gives None, and the plain mean is used."""
    total = 0.0
    for e in game.ctx.log.events:
        if e.kind != "resolution" or e.chance is None:
            continue
        if e.outcome not in HIT_OR_MISS:
            return None
        total += (e.outcome == "hit") - e.chance
    return total


def unlucky_mean(values: list[float], lucks: list[float]) -> float:
    """The mean of sampled ``values`` with the luck of the hits taken out: less the
    slope of value on luck (least squares over the samples) times the mean luck. A 28%
    shot sampled 8 times hits 0 to 5 times; its mean then swings by the worth of a hit,
    and which of two shots looked better was down to that. Taken out, what remains is
    the spread of what a hit does (docs/decisions/0007)."""
    n = len(values)
    mv = sum(values) / n
    ml = sum(lucks) / n
    var = sum((x - ml) ** 2 for x in lucks)
    if n < 3 or var < 1e-12:
        return mv
    slope = sum((x - ml) * (v - mv) for x, v in zip(lucks, values)) / var
    return mv - slope * ml


def position_key(state: GameState) -> bytes:
    """The position as bytes: equal bytes, equal positions (pickle round-trips the
    state's plain data exactly), so a value worked out for one serves the other. The
    state's caches (``_`` names) are left out; two equal positions whose bytes differ
    (a set's order, a shared object) only miss the memo."""
    d = state.__dict__
    fields = {k: v for k, v in d.items() if k != "models" and not k.startswith("_")}
    models = [m.__dict__ for m in state.models.values()]
    return pickle.dumps((fields, models), pickle.HIGHEST_PROTOCOL)


def foes_of(state: GameState, side: str) -> set[str]:
    """Ids of the live enemy models and their units: what an attack may name."""
    out: set[str] = set()
    for m in state.live():
        if m.side != side:
            out.update((m.id, m.unit))
    return out


def is_attack(action: Action, foes: set[str]) -> bool:
    """An action that attacks an enemy: any action naming a live enemy model or unit as
    its target (the shared shoot, fight and charge, or a ruleset's own verbs)."""
    target = getattr(action, "target", None)
    return bool(target) and target in foes


def front(state: GameState, side: str) -> float:
    """The side's distance to the fight: the sum over its live models of the distance to
    the nearest live enemy (centres, capped at ``ENGAGE_SPAN``)."""
    foes = [(m.x, m.y) for m in state.live() if m.side != side]
    if not foes:
        return 0.0
    return sum(min(ENGAGE_SPAN, min(math.dist(m.pos, f) for f in foes)) for m in state.live(side))


def worth(game: Game, side: str) -> float:
    """What removing one enemy model adds to ``side``'s score, on average over the
    enemy's models: the ruleset's currency unit, so the pull and the notes read the same
    in every ruleset. At least 1."""
    base = game.score(side)
    gains = []
    for m in game.state.live():
        if m.side == side:
            continue
        c = game.clone(dice_seed=0)
        c.state.models[m.id].removed = True
        gains.append(c.score(side) - base)
    return max(1.0, sum(gains) / len(gains)) if gains else 1.0


class GreedyAgent:
    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 4,
        engage: float = ENGAGE_PER_INCH,
        attack_samples: int = ATTACK_SAMPLES,
    ) -> None:
        self.dice = Dice(seed=seed ^ 0x6EED)
        self.samples = samples
        #: samples of an attack (exact damage odds): its value turns on one unlikely roll
        self.attack_samples = max(samples, attack_samples)
        self.engage = engage
        self.last: list[Option] = []
        #: decisions taken and attacks declined (issue 20), for the bench
        self.tally = {"decisions": 0, "declined": 0}
        self.declined: list[str] = []
        self._worth: dict[tuple[str, ...], float] = {}
        #: one decision's position values by position (``position_key``): a shot that
        #: misses leaves the same position in most of its samples, and two shots of one
        #: model that miss often leave the same one (a UMR decision scores each about
        #: twice; its score is nine tenths of the decision's cost)
        self._memo: dict[bytes, float] | None = None

    def unit(self, game: Game, side: str) -> float:
        """``worth`` for this game and side, worked out once (from the first position)."""
        key = (side, *sorted(game.state.models))
        if key not in self._worth:
            self._worth[key] = worth(game, side)
        return self._worth[key]

    def value(self, game: Game, side: str) -> float:
        """The position value the agent maximises: the ruleset's score."""
        return game.score(side)

    def _value(self, game: Game, side: str) -> float:
        """``value``, from the decision's memo when the position was valued before."""
        memo = self._memo
        if memo is None:
            return self.value(game, side)
        key = position_key(game.state)
        got = memo.get(key)
        if got is None:
            got = memo[key] = self.value(game, side)
        return got

    def evaluate(
        self,
        game: Game,
        side: str,
        action: Action,
        pull: float = 0.0,
        common: int | None = None,
        samples: int | None = None,
        odds: Odds | None | bool = False,
        earlier: Option | None = None,
    ) -> Option:
        """The expected position value after ``action``: the ruleset's score (a win or a
        loss decides it) plus ``pull`` per inch the side closes on the enemy. Sample k
        rolls the dice of stream ``common + k``: ``choose`` gives every candidate of a
        decision the same ``common``, so two shots are compared on the same faces.
        ``samples`` (at most; one for an action that rolls nothing): ``attack_samples``
        for an attack with exact damage odds, else ``samples``. ``odds``: the action's,
        when the caller has them already (False: ask the ruleset). ``earlier``: the
        same option valued before on the same ``common`` dice, whose samples are kept
        and only the next ones drawn (sample k is the same whichever look draws it)."""
        if odds is False:
            odds = game.odds(action)
        assert odds is None or isinstance(odds, Odds)
        start = front(game.state, side) if pull else 0.0
        base = self.dice.face(1 << 30) if common is None else common
        exact = False
        values: list[float] = list(earlier.draws[0]) if earlier else []
        lucks: list[float | None] = list(earlier.draws[1]) if earlier else []
        if samples is None:
            samples = self.attack_samples if is_scored_attack(odds) else self.samples
        for k in range(len(values), samples):
            c = game.clone(dice_seed=base + k)
            before = len(c.dice.consumed)
            c.apply(action)
            # a position reached without dice is met once: the memo is for rolls
            rolled = len(c.dice.consumed) != before
            v = self._value(c, side) if rolled else self.value(c, side)
            if pull and not c.state.over:
                v += pull * (start - front(c.state, side))
            if c.state.over:
                w = c.state.over.get("winner")
                v += 1000.0 if w == side else (-1000.0 if w else 0.0)
            values.append(v)
            lucks.append(luck(c))
            if not rolled:
                exact = True
                break  # no dice: one sample is exact
        n = len(values)
        known = [x for x in lucks if x is not None]
        value = unlucky_mean(values, known if len(known) == n else [0.0] * n)
        hint = damage_hint(odds)
        chance = float(odds.chance) if odds else None
        return Option(
            action, value + hint, chance, n, hint=hint, draws=(values, lucks), exact=exact
        )

    def choose(self, game: Game, side: str) -> Action:
        candidates = game.candidates(side)
        if not candidates:
            raise RuntimeError(f"ruleset {game.state.ruleset} offered no action to {side}")
        unit = self.unit(game, side)
        pull = self.engage * game.ruleset.engage_scale * unit
        # common random numbers: every candidate meets the same dice, so the ranking of
        # two shots is not decided by which one happened to roll well (issue 20)
        common = self.dice.face(1 << 30)
        options = self.weigh(game, side, candidates, pull, common)
        best = options[0].value
        ties = [o for o in options if o.value >= best - 1e-9]
        pick = ties[self.dice.face(len(ties)) - 1]
        self.note(game, side, pick, options, unit)
        # the explanation names the move actually played first, then the others weighed
        self.last = [pick] + [o for o in options if o is not pick][:4]
        return pick.action

    def weigh(
        self,
        game: Game,
        side: str,
        candidates: list[Action],
        pull: float,
        common: int,
        deadline: float | None = None,
    ) -> list[Option]:
        """Every candidate valued on the dice streams from ``common`` (``evaluate``), best
        first: every attack on a first look of ``2 * samples``, then the best few on
        ``attack_samples`` (most of a decision's shots are nowhere near the best). The
        search takes this as its first stage too (docs/decisions/0007, 0008), with a
        ``deadline`` (``time.perf_counter``): see ``_weigh_until``."""
        first = 2 * self.samples
        odds = {id(a): game.odds(a) for a in candidates}  # each asked once a decision
        self._memo = {}
        try:
            if deadline is not None:
                return self._weigh_until(game, side, candidates, pull, common, odds, deadline)
            options = [
                self.evaluate(
                    game, side, a, pull, common, first if is_scored_attack(o) else None, o
                )
                for a, o in ((a, odds[id(a)]) for a in candidates)
            ]
            options.sort(key=lambda o: -o.value)
            for i, o in enumerate(options[:REFINE]):
                if o.samples == first and is_scored_attack(odds[id(o.action)]):
                    options[i] = self.evaluate(
                        game, side, o.action, pull, common, None, odds[id(o.action)], o
                    )
        finally:
            self._memo = None
        options.sort(key=lambda o: -o.value)
        return options

    def _weigh_until(
        self,
        game: Game,
        side: str,
        candidates: list[Action],
        pull: float,
        common: int,
        odds: dict[int, Odds | None],
        deadline: float,
    ) -> list[Option]:
        """``weigh`` within a clock: one sample of every candidate (the cheap look the
        search cannot do without), then, while the clock allows, each candidate taken on
        to its first look's samples, then the best few attacks to ``attack_samples``.
        Sample k of an option is the same whichever look draws it, so with time enough
        the options are ``weigh``'s exactly; a candidate the clock cut short keeps fewer.
        Why: the hard level keeps about 0.5 s a decision (issue 20), and greedy's full
        first stage took 0.15-0.35 s of a loaded UMR decision before any rollout."""
        first = 2 * self.samples
        want = [first if is_scored_attack(odds[id(a)]) else self.samples for a in candidates]
        options = [self.evaluate(game, side, a, pull, common, 1, odds[id(a)]) for a in candidates]
        for i, a in enumerate(candidates):
            o = options[i]
            if o.samples < want[i] and not o.exact:
                if time.perf_counter() > deadline:
                    break
                options[i] = self.evaluate(game, side, a, pull, common, want[i], odds[id(a)], o)
        options.sort(key=lambda o: -o.value)
        for i, o in enumerate(options[:REFINE]):
            if o.samples == first and is_scored_attack(odds[id(o.action)]):
                if time.perf_counter() > deadline:
                    break
                options[i] = self.evaluate(
                    game, side, o.action, pull, common, None, odds[id(o.action)], o
                )
        options.sort(key=lambda o: -o.value)
        return options

    def note(self, game: Game, side: str, pick: Option, options: list[Option], unit: float) -> None:
        """Say in plain words, in the currency of enemy models, why ``pick`` beat the
        best attack on offer at ``DECLINE_ODDS`` or better, when it is not that attack;
        count the decision, and the attack if it was declined (``declined``)."""
        self.tally["decisions"] += 1
        now = game.score(side)
        pick.note = why_not_attack(game, side, pick, options, unit, now)
        if pick.note and declined(game, side, pick.action, options, now) is not None:
            self.tally["declined"] += 1
            self.declined.append(f"turn {game.state.turn}: {pick.action.describe()}, {pick.note}")


def why_not_attack(
    game: Game, side: str, pick: Option, options: list[Option], unit: float, now: float
) -> str:
    """'worth +0.40 enemy models against -2.10 for b1 charge r3 at 71%': why ``pick``
    beat the best attack at ``DECLINE_ODDS`` or better, each as its expected change of
    the position value ``now`` in enemy models (``unit``); "" when there is no such
    attack or ``pick`` is it."""
    top = best_attack(game, side, options)
    if top is None or top.action == pick.action:
        return ""
    return (
        f"worth {(pick.value - now) / unit:+.2f} enemy models against "
        f"{(top.value - now) / unit:+.2f} for {top.action.describe()} at {top.chance:.0%}"
    )


def best_attack(game: Game, side: str, options: list[Option]) -> Option | None:
    """The best-valued attack among ``options`` with a chance of at least
    ``DECLINE_ODDS``, or None."""
    foes = foes_of(game.state, side)
    attacks = [
        o
        for o in options
        if o.chance is not None and o.chance >= DECLINE_ODDS and is_attack(o.action, foes)
    ]
    return max(attacks, key=lambda o: o.value, default=None)


def declined(
    game: Game, side: str, action: Action, options: list[Option], now: float | None = None
) -> Option | None:
    """The attack ``side`` declined by playing ``action``, if it did: an attack at
    ``DECLINE_ODDS`` or better whose value beats the position as it stands (a positive
    expected gain) was on offer, and ``action`` neither attacks nor moves (it waits or
    ends). Any agent whose ``last`` lists its options valued as position values (greedy,
    search) can be audited this way: ``engine.sim`` counts them per game (issue 20)."""
    if is_active(action):
        return None
    top = best_attack(game, side, options)
    if top is None:
        return None
    if now is None:
        now = game.score(side)
    return top if top.value > now + 1e-9 else None
