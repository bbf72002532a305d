"""UMR's rough-ground measure once kept private copies of ``crossing`` and
``path_prefix`` that clamp differently (no upper clamp on the crossing, no slack at a
corner). The engine functions now take that as a parameter; these tests pin the
parameterised functions to the old copies' exact results over many random segments,
and check the defaults still give the engine's own results."""

from __future__ import annotations

import math
import random

from engine.polygons import crossing, path_prefix

Point = tuple[float, float]


def _old_cross(a: Point, b: Point, c: Point, d: Point) -> float | None:
    """The copy that lived in rulesets/umr/movement.py (the reference)."""
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-12:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t, u = (qx * sy - qy * sx) / den, (qx * ry - qy * rx) / den
    return max(0.0, t) if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= u <= 1 + 1e-12 else None


def _old_prefix(path: list[Point], length: float) -> list[Point]:
    """The copy that lived in rulesets/umr/movement.py (the reference)."""
    out = [path[0]]
    left = length
    for a, b in zip(path, path[1:]):
        d = math.dist(a, b)
        if d >= left:
            t = left / d if d > 0 else 0.0
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            return out
        out.append(b)
        left -= d
    return out


def _pt(rng: random.Random) -> Point:
    # a coarse grid makes touching ends, shared corners and parallel edges common
    if rng.random() < 0.5:
        return (float(rng.randint(0, 6)), float(rng.randint(0, 6)))
    return (rng.uniform(0, 6), rng.uniform(0, 6))


def test_unclamped_crossing_equals_umr_copy() -> None:
    rng = random.Random(17)
    hits = 0
    for _ in range(50_000):
        a, b, c, d = _pt(rng), _pt(rng), _pt(rng), _pt(rng)
        got = crossing(a, b, c, d, clamp_end=False)
        assert got == _old_cross(a, b, c, d)
        hits += got is not None
        ref = _old_cross(a, b, c, d)
        assert crossing(a, b, c, d) == (None if ref is None else min(1.0, ref))
    assert hits > 5_000


def test_crossing_just_past_the_end() -> None:
    """The one case the parameter exists for: t a hair over 1 stays over 1 unclamped."""
    a, b = (0.0, 0.0), (1.0, 0.0)
    c, d = (1.0 + 5e-13, -1.0), (1.0 + 5e-13, 1.0)
    assert crossing(a, b, c, d) == 1.0
    assert crossing(a, b, c, d, clamp_end=False) == _old_cross(a, b, c, d)
    got = crossing(a, b, c, d, clamp_end=False)
    assert got is not None and got > 1.0


def test_exact_prefix_equals_umr_copy() -> None:
    rng = random.Random(18)
    for _ in range(20_000):
        path = [_pt(rng) for _ in range(rng.randint(2, 6))]
        if rng.random() < 0.2:
            path.insert(1, path[0])  # a zero-length leg
        total = sum(math.dist(p, q) for p, q in zip(path, path[1:]))
        if rng.random() < 0.3:
            # a cut at (or a hair past) a corner, where the slack used to differ
            k = rng.randint(1, len(path) - 1)
            length = sum(math.dist(p, q) for p, q in zip(path[:k], path[1:k]))
            length += rng.choice([0.0, 1e-10, -1e-10])
        else:
            length = rng.uniform(0, total * 1.2)
        assert path_prefix(path, length, slack=0.0) == _old_prefix(path, length)


def test_prefix_slack_makes_a_difference_at_a_corner() -> None:
    """Why the parameter: with the default slack a cut a hair past a corner ends there."""
    path = [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)]
    assert len(path_prefix(path, 3.0 + 1e-10)) == 2
    assert path_prefix(path, 3.0 + 1e-10, slack=0.0) == _old_prefix(path, 3.0 + 1e-10)
    assert len(path_prefix(path, 3.0 + 1e-10, slack=0.0)) == 3
