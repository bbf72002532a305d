"""Poses along turning and straight moves, and path length, for physics and the window."""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.geometry._common import Point, _cos_sin, _norm_deg


def turn_poses(
    x: float, y: float, facing: float, radius: float, angle_deg: float, step_deg: float = 5.0
) -> list[tuple[float, float, float]]:
    """Poses (x, y, facing) along a turning arc, for the physics sweep and the window.

    Positive angle turns left (counter-clockwise), negative right; radius 0 pivots in
    place. The first pose is the start, the last exactly the analytic end pose; facings
    are normalized to [0, 360).
    """
    radius = abs(radius)
    steps = max(1, math.ceil(abs(angle_deg) / max(step_deg, 1e-9))) if angle_deg else 0
    poses = [(x, y, _norm_deg(facing))]
    if steps == 0:
        return poses
    sgn = 1.0 if angle_deg > 0 else -1.0
    c0, s0 = _cos_sin(facing)
    # centre of the turning circle, on the inside of the turn
    ccx, ccy = x - sgn * radius * s0, y + sgn * radius * c0
    for k in range(1, steps + 1):
        a = angle_deg if k == steps else angle_deg * k / steps
        c, s = _cos_sin(facing + a)
        px, py = ccx + sgn * radius * s, ccy - sgn * radius * c
        if radius == 0.0:
            px, py = x, y
        poses.append((px, py, _norm_deg(facing + a)))
    return poses


def straight_poses(
    x: float, y: float, facing: float, length: float, step: float = 0.5
) -> list[tuple[float, float, float]]:
    """Poses along a straight move of ``length`` inches along the facing (negative length
    backs up); first the start, last exactly the end."""
    c, s = _cos_sin(facing)
    steps = max(1, math.ceil(abs(length) / max(step, 1e-9))) if length else 0
    f = _norm_deg(facing)
    poses = [(x, y, f)]
    for k in range(1, steps + 1):
        t = length if k == steps else length * k / steps
        poses.append((x + t * c, y + t * s, f))
    return poses


def path_length(path: Sequence[Point]) -> float:
    """Total length of a polyline in inches."""
    return float(sum(math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])))
