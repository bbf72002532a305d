"""Dice: our own seeded stream, forced dice, Roll records and exact distributions.

Why our own generator: Python guarantees only ``random()``'s stream, not ``randint``'s,
and NumPy's streams may change between builds; replays must survive upgrades. The
generator is SplitMix64 (a 64-bit counter hashed by a fixed mixer) with rejection
sampling for unbiased faces, checked by a golden-sequence test.

Forced dice (tests, scripted scenarios, replays) are consumed before the stream. Every
face handed out is also recorded in ``consumed`` so a save can replay the exact faces.
Exact odds use :class:`fractions.Fraction`; the window's preview and the AI read the same
numbers the rules use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

_MASK = (1 << 64) - 1

Dist = dict[int, Fraction]


class ForcedDieError(ValueError):
    """A forced face that the die being rolled does not have (e.g. 7 on a d6)."""

    def __init__(self, face: int, sides: int, index: int) -> None:
        super().__init__(f"forced die {face} is not a face of a d{sides}")
        self.face = face
        self.sides = sides
        self.index = index


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


@dataclass(frozen=True)
class Modifier:
    """One modifier applied to a roll, with the reason and the rule it comes from."""

    value: int
    reason: str
    rule: str = ""

    def text(self) -> str:
        sign = "+" if self.value >= 0 else "\u2212"
        ref = f" ({self.rule})" if self.rule else ""
        return f"{self.reason} {sign}{abs(self.value)}{ref}"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True)
class Roll:
    """The record of one roll: what it was for, the faces, modifiers, need, result, chance.

    ``chance`` is the exact probability, computed before rolling, that the roller gets
    the result they want; ``None`` where a roll has no success (a damage amount).
    """

    purpose: str
    sides: int
    faces: tuple[int, ...]
    modifiers: tuple[Modifier, ...] = ()
    need: str = ""
    result: int | str = 0
    chance: Fraction | None = None
    actor: str = ""
    rule: str = ""
    forced: bool = False

    @property
    def total(self) -> int:
        return sum(self.faces) + sum(m.value for m in self.modifiers)

    def explain(self) -> str:
        """The sentence the log shows: the faces, each modifier with its rule, the modified
        total, what was needed, the result and the chance worked out before the roll.

        >>> from fractions import Fraction
        >>> Roll("to hit", 6, (5,), (Modifier(1, "SK", "DUEL-2"),), need="4+",
        ...      result="hit", chance=Fraction(2, 3)).explain()
        'to hit: d6 rolled 5; SK +1 (DUEL-2) = 6; needs 4+: hit (chance 67%)'

        Several dice are named ``nd6``; a roll without modifiers shows no total:

        >>> Roll("damage", 6, (3, 6), result=9).explain()
        'damage: 2d6 rolled 3, 6: 9'
        """
        dice = f"{len(self.faces)}d{self.sides}" if len(self.faces) != 1 else f"d{self.sides}"
        parts = [f"{self.purpose}: {dice} rolled {', '.join(map(str, self.faces))}"]
        if self.modifiers:
            parts.append(", ".join(m.text() for m in self.modifiers) + f" = {self.total}")
        if self.need:
            parts.append(f"needs {self.need}")
        s = "; ".join(parts)
        if self.result != "" and self.result is not None:
            s += f": {self.result}"
        if self.chance is not None:
            s += f" (chance {percent(self.chance)})"
        return s

    def to_dict(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "sides": self.sides,
            "faces": list(self.faces),
            "modifiers": [m.to_dict() for m in self.modifiers],
            "need": self.need,
            "result": self.result,
            "chance": None if self.chance is None else float(self.chance),
            "actor": self.actor,
            "rule": self.rule,
            "forced": self.forced,
        }


def percent(p: Fraction | float) -> str:
    """A chance as a short percentage: whole numbers plain, one decimal near 0 and 100.

    >>> percent(0.5), percent(Fraction(1, 36)), percent(Fraction(35, 36))
    ('50%', '2.8%', '97.2%')
    """
    v = float(p) * 100
    if v == 0 or v == 100 or abs(v - round(v)) < 1e-9:
        return f"{round(v)}%"
    return f"{v:.1f}%" if v < 10 or v > 90 else f"{v:.0f}%"


@dataclass
class Dice:
    """The game's dice. ``forced`` faces are consumed first, then the seeded stream.

    ``on_roll`` observers receive every :class:`Roll` (the event log, the window's
    animation). ``consumed`` lists every face handed out, for saves and replays.

    >>> dice = Dice(seed=7)
    >>> dice.force([6, 1])
    >>> dice.face(6), dice.face(6)
    (6, 1)
    >>> r = dice.roll(6, "to hit", modifiers=[Modifier(-1, "cover", "UMR-BALLISTIC")])
    >>> r.forced, r.total == r.faces[0] - 1, len(dice.consumed)
    (False, True, 3)

    A seed gives the same faces on every machine and Python version (replays rely on
    it); a face the die does not have cannot be forced:

    >>> stream = Dice(seed=1)
    >>> [stream.face(6) for _ in range(8)]
    [3, 1, 4, 1, 1, 3, 2, 3]
    >>> dice.force([7])
    >>> dice.face(6)
    Traceback (most recent call last):
    ...
    engine.dice.ForcedDieError: forced die 7 is not a face of a d6
    """

    seed: int = 0
    forced: list[int] = field(default_factory=list)
    counter: int = 0
    consumed: list[int] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    on_roll: Callable[[Roll], None] | None = None
    _forced_index: int = 0

    def __post_init__(self) -> None:
        self._state = (self.seed * 0x2545F4914F6CDD1D) & _MASK
        self._last_forced = False

    # --- the stream -----------------------------------------------------------------
    def _next64(self) -> int:
        self._state, out = _splitmix64(self._state)
        self.counter += 1
        return out

    def _uniform(self, sides: int) -> int:
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            v = self._next64()
            if v < limit:
                return v % sides + 1

    def face(self, sides: int) -> int:
        """One raw face of a d``sides``: forced first, then the stream."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if self.forced:
            f = self.forced.pop(0)
            idx = self._forced_index
            self._forced_index += 1
            if not 1 <= f <= sides:
                raise ForcedDieError(f, sides, idx)
            self._last_forced = True
        else:
            f = self._uniform(sides)
            self._last_forced = False
        self.consumed.append(f)
        return f

    def force(self, faces: Iterable[int]) -> None:
        """Queue faces to be handed out before the stream (tests, scripts, replays)."""
        self.forced = list(faces)
        self._forced_index = 0

    # --- rolls with records -----------------------------------------------------------
    def roll(
        self,
        sides: int,
        purpose: str,
        *,
        n: int = 1,
        modifiers: Sequence[Modifier] = (),
        need: str = "",
        chance: Fraction | None = None,
        actor: str = "",
        rule: str = "",
        result: Callable[[int, tuple[int, ...]], int | str] | None = None,
    ) -> Roll:
        """Roll ``n`` d``sides`` for ``purpose`` and record it.

        ``result`` maps (modified total, faces) to the outcome word or number; by default
        the result is the modified total.
        """
        forced_any = False
        faces = []
        for _ in range(n):
            faces.append(self.face(sides))
            forced_any = forced_any or self._last_forced
        faces_t = tuple(faces)
        total = sum(faces_t) + sum(m.value for m in modifiers)
        res = result(total, faces_t) if result else total
        r = Roll(
            purpose=purpose,
            sides=sides,
            faces=faces_t,
            modifiers=tuple(modifiers),
            need=need,
            result=res,
            chance=chance,
            actor=actor,
            rule=rule,
            forced=forced_any,
        )
        self.rolls.append(r)
        if self.on_roll:
            self.on_roll(r)
        return r

    def fork(self, label: str) -> Dice:
        """An independent stream (AI rollouts): cannot see this stream's future faces."""
        h = self.seed & _MASK
        for ch in label.encode():
            h = _splitmix64(h ^ ch)[1]
        return Dice(seed=h ^ (self.counter * 0x9E3779B97F4A7C15 & _MASK))

    def get_state(self) -> dict[str, Any]:
        """The stream's position (the forced queue is not part of it)."""
        return {"seed": self.seed, "counter": self.counter, "state": self._state}

    @classmethod
    def from_state(cls, d: Mapping[str, Any]) -> Dice:
        dice = cls(seed=int(d["seed"]))
        dice.counter = int(d["counter"])
        dice._state = int(d["state"])
        return dice

    def copy(self) -> Dice:
        d = Dice(seed=self.seed)
        d._state = self._state
        d.counter = self.counter
        d.forced = list(self.forced)
        d._forced_index = self._forced_index
        return d


# --- exact distributions -------------------------------------------------------------


def die(sides: int) -> Dist:
    """Uniform distribution of one d``sides``."""
    p = Fraction(1, sides)
    return {f: p for f in range(1, sides + 1)}


def constant(v: int) -> Dist:
    return {v: Fraction(1)}


def add(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Dist:
    """Distribution of the sum of two independent variables (convolution)."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out


def shift(a: Mapping[int, Fraction], k: int) -> Dist:
    return {x + k: p for x, p in a.items()}


def dice_sum(n: int, sides: int) -> Dist:
    """Distribution of the sum of ``n`` d``sides``.

    >>> two = dice_sum(2, 6)
    >>> two[7], prob(two, lambda t: t >= 10), expected(two)
    (Fraction(1, 6), Fraction(1, 6), Fraction(7, 1))
    """
    out: Dist = {0: Fraction(1)}
    for _ in range(n):
        out = add(out, die(sides))
    return out


def mix(parts: Iterable[tuple[Fraction, Mapping[int, Fraction]]]) -> Dist:
    """Mixture: sum of weight * distribution (weights should add to one)."""
    out: Dist = {}
    for w, d in parts:
        for x, p in d.items():
            out[x] = out.get(x, Fraction(0)) + w * p
    return {k: v for k, v in out.items() if v}


def chain(first: Mapping[int, Fraction], then: Callable[[int], Mapping[int, Fraction]]) -> Dist:
    """Compose: for each value of ``first``, the distribution ``then(value)``.

    Roll a d2 for how many d2 to roll, then add those up:

    >>> chain(die(2), lambda n: dice_sum(n, 2))
    {1: Fraction(1, 4), 2: Fraction(3, 8), 3: Fraction(1, 4), 4: Fraction(1, 8)}
    """
    return mix((p, then(x)) for x, p in first.items())


def prob(d: Mapping[int, Fraction], pred: Callable[[int], bool]) -> Fraction:
    """The chance that a value of ``d`` satisfies ``pred`` (needing 4+ on a d6: 1/2)."""
    return sum((p for x, p in d.items() if pred(x)), Fraction(0))


def expected(d: Mapping[int, Fraction]) -> Fraction:
    """The mean of ``d``, exactly."""
    return sum((x * p for x, p in d.items()), Fraction(0))


def p_beats(a: Mapping[int, Fraction], b: Mapping[int, Fraction]) -> Fraction:
    """P(A > B) for independent A and B (ties lose, as a defender wins ties).

    Two d10 in a contest: the attacker wins 45 times in 100, the 10 ties go to the
    defender.

    >>> p_beats(die(10), die(10))
    Fraction(9, 20)
    """
    total = Fraction(0)
    for x, px in a.items():
        for y, py in b.items():
            if x > y:
                total += px * py
    return total
