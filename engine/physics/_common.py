"""Units, tolerances, result types and pose helpers shared by the physics service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import pymunk

from engine.battlefield import base_is_round

Pose = tuple[float, float, float]


Point = tuple[float, float]


#: Base contact: a stop point leaves a gap in (0, CONTACT_TOLERANCE] inches to what stopped it.
CONTACT_TOLERANCE = 0.01


#: Ids reported for the four table edges (hit_kind "edge").
EDGE_IDS = ("edge:south", "edge:east", "edge:north", "edge:west")


#: Default terrain kinds that bases cannot enter (the "tall" class).
IMPASSABLE_KINDS = ("wall", "building", "rocks")


_MAX_STEP = 0.5


_MIN_STEP = 0.002


_BISECT = 0.001


_START_OVERLAP = 1e-4


_EPS = 1e-9


_BACKOFFS = (0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64)


_RING_SAMPLES_ROUND = 720


_RING_SAMPLES_OTHER = 360


_PACK_GAP = 0.007


_GRID = 0.01


_NUDGE_BUDGET = 400


_KIND_RANK = {"model": 0, "terrain": 1, "edge": 2}


@dataclass(frozen=True)
class MoveResult:
    """Outcome of :meth:`Physics.move`: where the base stopped and why."""

    end: tuple[float, float]
    travelled: float
    blocked_by: str | None
    complete: bool


@dataclass(frozen=True)
class SweepResult:
    """Outcome of :meth:`Physics.sweep`: the last clear pose and what was touched first."""

    index: int
    pose: tuple[float, float, float]
    hit: str | None
    hit_kind: str | None


class _Tag(NamedTuple):
    kind: str  # "model" | "terrain" | "edge"
    id: str


class _Contact(NamedTuple):
    """First contact of a sweep: between poses[leg - 1] and poses[leg], at parameter t."""

    leg: int
    t: float
    rate: float
    hits: list[pymunk.Shape]


def _r2(v: float) -> float:
    """Round to 0.01 and turn -0.0 into 0.0 so equal results print and compare equal."""
    return round(v, 2) + 0.0


def _norm_deg(a: float) -> float:
    """Facing in [0, 360) rounded to 0.01 degree."""
    a = _r2(a % 360.0)
    return 0.0 if a >= 360.0 else a


def _angle_diff(a: float, b: float) -> float:
    """Signed smallest rotation (degrees) taking facing b to facing a, in (-180, 180]."""
    d = (a - b) % 360.0
    return d - 360.0 if d > 180.0 else d


def _interp(p0: Pose, p1: Pose, t: float) -> Pose:
    """Pose a fraction t of the way from p0 to p1, turning the short way round."""
    return (
        p0[0] + (p1[0] - p0[0]) * t,
        p0[1] + (p1[1] - p0[1]) * t,
        p0[2] + _angle_diff(p1[2], p0[2]) * t,
    )


def _base_key(base: float | tuple[float, float]) -> tuple[str, float] | tuple[str, float, float]:
    if base_is_round(base):
        return ("round", float(base))  # type: ignore[arg-type]
    w, d = base  # type: ignore[misc]
    return ("rect", float(w), float(d))
