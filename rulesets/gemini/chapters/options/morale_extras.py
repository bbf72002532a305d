"""Morale switches: ``gasr_morale`` (whose Ld a model tests on, and −1 when alone) and
``all_out_rout`` (the bottle test); ``snake_eyes`` lives in :func:`common.ld_test`.

Why pure: the core's morale tests (rout, rally, pursuit) all start from "which Ld, with
which modifiers"; these functions answer that from the plain facts (distances, statuses)
so the same answer serves the log, the AI's odds and the tests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.dice import Dice, Modifier
from rulesets.gemini.chapters.options.common import Test, ld_test

R_GASR_MORALE = "GM-GASR-MORALE"
R_ROUT = "GM-ALL-OUT-ROUT"

LEADER_RANGE = 6.0
ALONE_RANGE = 3.0
#: a leader in one of these states lends nobody his Ld (GM-GASR-MORALE)
LEADER_UNUSABLE = frozenset(
    {"routing", "running_for_cover", "nerve_broken", "knocked_down", "stunned", "down", "reeling"}
)
#: models in these states count as lost for the bottle test and lend no Ld (GM-ALL-OUT-ROUT)
LOST = frozenset({"pinned", "routing", "knocked_down", "stunned", "down", "reeling"})


@dataclass(frozen=True)
class Friend:
    """What the morale rules need to know of a friendly model."""

    id: str
    ld: int
    distance: float
    status: frozenset[str] = frozenset()
    leader: bool = False
    removed: bool = False


def alone_mod(friends: Iterable[Friend]) -> list[Modifier]:
    """−1 for a model more than 3" from every other friendly model on the table."""
    near = [f for f in friends if not f.removed and f.distance <= ALONE_RANGE]
    return [] if near else [Modifier(-1, 'more than 3" from any friend', R_GASR_MORALE)]


def morale_ld(ld: int, friends: Iterable[Friend]) -> tuple[int, list[Modifier], str]:
    """GM-GASR-MORALE: the Ld a model tests morale on — its own, or its leader's
    within 6" if higher and the leader is fit to lead — and the −1 for being alone.
    Returns (Ld, modifiers, whose Ld)."""
    fs = list(friends)
    best, whose = ld, "own"
    for f in fs:
        if (
            f.leader
            and not f.removed
            and f.distance <= LEADER_RANGE
            and not f.status & LEADER_UNUSABLE
            and f.ld > best
        ):
            best, whose = f.ld, f.id
    return best, alone_mod(fs), whose


def morale_test(
    dice: Dice,
    ld: int,
    friends: Iterable[Friend],
    purpose: str,
    *,
    actor: str = "",
    snake_eyes: bool = False,
    extra: Iterable[Modifier] = (),
) -> Test:
    """A GASR morale test: the model alone, on the Ld :func:`morale_ld` gives."""
    target, mods, whose = morale_ld(ld, friends)
    label = purpose if whose == "own" else f"{purpose} on {whose}'s Ld"
    return ld_test(
        dice,
        target,
        label,
        actor=actor,
        rule=R_GASR_MORALE,
        mods=[*mods, *extra],
        snake_eyes=snake_eyes,
    )


@dataclass(frozen=True)
class ForceModel:
    """One model of a force as the bottle test counts it: its profile W and state."""

    id: str
    wounds: int
    ld: int
    status: frozenset[str] = frozenset()
    removed: bool = False

    @property
    def lost(self) -> bool:
        return self.removed or bool(self.status & LOST)


def lost_share(force: Iterable[ForceModel]) -> Fraction:
    """The share of the force's profile wounds that is pinned, routing, down, stunned or
    removed (the text's counting by original wounds: an Ogryn weighs three spacers)."""
    ms = list(force)
    total = sum(max(1, m.wounds) for m in ms)
    lost = sum(max(1, m.wounds) for m in ms if m.lost)
    return Fraction(lost, total) if total else Fraction(0)


def bottle_due(force: Iterable[ForceModel]) -> bool:
    """GM-ALL-OUT-ROUT: 50% or more lost at the start of a turn calls the test."""
    return lost_share(force) >= Fraction(1, 2)


def best_ld(force: Iterable[ForceModel]) -> int | None:
    """The highest Ld among models that may lend it (None: nobody can)."""
    usable = [m.ld for m in force if not m.lost]
    return max(usable) if usable else None


def bottle_test(
    dice: Dice, force: Iterable[ForceModel], side: str, snake_eyes: bool = False
) -> Test:
    """The bottle test on the best usable Ld; with nobody to lend one, it fails."""
    ld = best_ld(force)
    if ld is None:
        return Test(False, why=f"{side} has no model fit to test: the force breaks")
    return ld_test(dice, ld, f"{side} bottle test", actor=side, rule=R_ROUT, snake_eyes=snake_eyes)
