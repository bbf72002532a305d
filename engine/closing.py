"""Closing the distance: the one pull every ruleset's position score uses to make a
one-step agent walk toward what it can hurt (issue 20).

Why one helper: a one-step agent values a position before anything dies, so a step
toward the enemy changes nothing it can see unless the score pays for the step. Each
ruleset pays for it in its own currency — UMR's melee edge, a SWOMP model's shot or
strike, a GEM figure's bow range or charge — but the shape is the same everywhere: a
model gains a share of what it could do to a foe, in full once the foe is within its
reach (weapon range, charge reach) and fading linearly to nothing ``span`` inches
beyond it. The terms were written three times (UMR ``closing``, SWOMP ``position``,
Inter Arma's ``near``) and GEM's ``closeness``; they are this module now.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

from engine.state import Model

#: how far apart two models are, in inches: centres by default, a ruleset passes its own
Gap = Callable[[Model, Model], float]


def centres(a: Model, b: Model) -> float:
    """The distance between two models' centres."""
    return math.dist(a.pos, b.pos)


def closeness(beyond: float, span: float) -> float:
    """1 at or inside reach (``beyond`` <= 0), falling linearly to 0 at ``span`` inches
    beyond it."""
    return max(0.0, 1.0 - max(0.0, beyond) / span)


def pull(
    models: Iterable[Model],
    foes: Sequence[Model],
    reach: Callable[[Model], float],
    span: float,
    gain: Callable[[Model, Model], float] | None = None,
    gap: Gap = centres,
) -> float:
    """The sum over ``models`` of the best ``gain(m, foe) * closeness(gap - reach(m),
    span)`` over ``foes`` (a gain of 1 for every foe when ``gain`` is None: then only
    the nearest foe counts). Gains at or below nothing add nothing: a model is never
    pushed toward a foe it cannot hurt."""
    total = 0.0
    for m in models:
        r = reach(m)
        best = 0.0
        for e in foes:
            g = 1.0 if gain is None else gain(m, e)
            if g <= best:
                continue
            near = closeness(gap(m, e) - r, span)
            if near * g > best:
                best = near * g
        total += best
    return total
