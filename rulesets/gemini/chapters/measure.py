"""Measuring the table for Gemini: gaps, base contact, sight and cover (GM-COVER).

Why through the table facade: distances, visible fractions and cover features come from
the engine's services (``ctx.table``), shared with the window and the AI, so a refusal,
a log line and a preview read the same numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.battlefield import MM_PER_INCH
from engine.ruleset import Context
from engine.state import Base, GameState, Model
from engine.table import distance

#: edge-to-edge gap (inches) that counts as base contact (physics stops within 0.01")
CONTACT = 0.05
#: below this visible share a target is hidden and cannot be shot (GM-COVER)
HIDDEN = 0.25
#: at least this share hidden puts a target in cover (GM-COVER)
COVERED = 0.25


def gap(a: Model, b: Model) -> float:
    """Base edge to base edge, inches."""
    return distance(a, b)


def in_contact(a: Model, b: Model) -> bool:
    return distance(a, b) <= CONTACT


def foes_in_contact(state: GameState, m: Model) -> list[Model]:
    """The enemy models in base contact with ``m`` (id order)."""
    side, x, y, base = m.side, m.x, m.y, m.base
    mine = _reach(base)
    out = []
    for e in state.live():
        if e.side == side:
            continue
        # bases whose bounding circles are apart cannot touch: most pairs stop here
        apart = mine + (mine if e.base == base else _reach(e.base)) + CONTACT + 1e-6
        if math.hypot(e.x - x, e.y - y) <= apart and distance(m, e) <= CONTACT:
            out.append(e)
    return out


_REACH: dict[float, float] = {}


def _reach(base: Base) -> float:
    """The radius (inches) of the circle round a base: its half-diagonal."""
    if isinstance(base, (tuple, list)):
        return math.hypot(float(base[0]), float(base[1])) / MM_PER_INCH / 2
    got = _REACH.get(base)
    if got is None:
        got = _REACH[base] = float(base) / MM_PER_INCH / 2
    return got


def engaged(state: GameState, m: Model) -> bool:
    return bool(foes_in_contact(state, m))


@dataclass(frozen=True)
class Cover:
    """What the shooter sees of the target: the visible share, the cover it has
    ("", "soft", "hard") and the features that give it."""

    visible: float
    kind: str
    features: tuple[str, ...]
    distance: float

    @property
    def hidden(self) -> bool:
        return self.visible < HIDDEN


def cover(ctx: Context, shooter: Model, target: Model) -> Cover:
    """GM-COVER (GM-I-COVER): under a quarter visible is hidden; a target at least a
    quarter hidden, or behind a hedge, fence, low wall or in woods, is in cover. Hard
    cover: a low wall, or tall terrain (walls, buildings, rocks) hiding at least a
    quarter; soft: the rest (woods, hedges, a hill's crest)."""
    s = ctx.table.sight(shooter, target)
    hidden_share = 1.0 - s.visible
    bf = ctx.battlefield
    hard = []
    for f in s.hard_cover:
        kind = bf.feature(f).kind
        if kind == "low_wall" or hidden_share >= COVERED:
            hard.append(f)
    if hard:
        return Cover(s.visible, "hard", tuple(hard), s.distance)
    if s.soft_cover or hidden_share >= COVERED:
        return Cover(s.visible, "soft", tuple(s.soft_cover or s.blockers), s.distance)
    return Cover(s.visible, "", (), s.distance)


def visible(ctx: Context, shooter: Model, target: Model) -> float:
    """The visible share alone (cheap; memoised by the table)."""
    return ctx.table.visible(shooter, target)[0]


def in_cover(state: GameState, ctx: Context, m: Model) -> bool:
    """Whether ``m`` has cover from the nearest enemy that can see it (for the rules
    that ask "is the model in cover", GM-I-COVER)."""
    foes = sorted((e for e in state.live() if e.side != m.side), key=lambda e: (gap(m, e), e.id))
    for e in foes:
        c = cover(ctx, e, m)
        if not c.hidden:
            return c.kind != ""
    return True
