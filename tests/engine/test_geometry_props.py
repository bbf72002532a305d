"""Property tests of the geometry service (Hypothesis): invariants that must hold for any
table and any pair of bases, and the fast sight matrix against the per-pair reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.battlefield import Battlefield, Footprint, TerrainFeature, base_radius_in
from engine.geometry import (
    ZONE_TOL,
    Geometry,
    distance,
    footprint_outline,
    in_arc,
    overlaps,
    template_hits,
    zone_of,
    zone_point,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

coord = st.floats(0, 24, allow_nan=False, allow_infinity=False)
facing = st.floats(0, 360, allow_nan=False, allow_infinity=False, exclude_max=True)
base = st.sampled_from([25, 32, 40, 25.4, (25, 50), (60, 30), (25.4, 25.4)])
footprints = st.builds(Footprint, coord, coord, facing, base)
round_fps = st.builds(Footprint, coord, coord, facing, st.sampled_from([20, 25, 32, 60]))


@st.composite
def polygons(draw: st.DrawFn) -> tuple[tuple[float, float], ...]:
    """Convex polygons (rotated rectangles, regular n-gons) and non-convex L shapes."""
    cx, cy = draw(coord), draw(coord)
    shape = draw(st.sampled_from(["rect", "ngon", "L"]))
    ang = draw(st.floats(0, math.pi))
    if shape == "rect":
        w, h = draw(st.floats(0.2, 6)), draw(st.floats(0.2, 4))
        local = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    elif shape == "ngon":
        n, r = draw(st.integers(3, 8)), draw(st.floats(0.3, 3))
        local = [
            (r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)
        ]
    else:
        s, t = draw(st.floats(1, 5)), draw(st.floats(0.2, 0.9))
        local = [(0, 0), (s, 0), (s, t), (t, t), (t, s), (0, s)]
    c, sn = math.cos(ang), math.sin(ang)
    return tuple((cx + x * c - y * sn, cy + x * sn + y * c) for x, y in local)


def features(kinds: list[str]) -> st.SearchStrategy[tuple[TerrainFeature, ...]]:
    one = st.tuples(st.sampled_from(kinds), polygons(), st.sampled_from([0.5, 1.0, 3.0]))
    return st.lists(one, min_size=1, max_size=6).map(
        lambda fs: tuple(TerrainFeature(f"f{i}", k, p, h) for i, (k, p, h) in enumerate(fs))
    )


TALL = ["wall", "building", "rocks", "hill", "hedge"]
MIXED = TALL + ["woods", "brush"]


@SETTINGS
@given(
    features(TALL),
    st.lists(footprints, min_size=1, max_size=4),
    st.lists(footprints, min_size=1, max_size=4),
)
def test_matrix_equals_reference_with_tall_terrain(terrain, observers, targets):
    geo = Geometry(Battlefield(24, 24, terrain))
    m = geo.visible_matrix(observers, targets)
    ref = np.array([[geo.visible_fraction(o, t) for t in targets] for o in observers])
    assert m.shape == (len(observers), len(targets))
    assert np.all((ref >= 0) & (ref <= 1))
    assert np.abs(m - ref).max() <= 1e-6


@SETTINGS
@given(
    features(MIXED),
    st.lists(footprints, min_size=1, max_size=4),
    st.lists(footprints, min_size=1, max_size=4),
)
def test_matrix_equals_reference_with_area_terrain(terrain, observers, targets):
    geo = Geometry(Battlefield(24, 24, terrain))
    m = geo.visible_matrix(observers, targets)
    ref = np.array([[geo.visible_fraction(o, t) for t in targets] for o in observers])
    assert np.all((m >= 0) & (m <= 1))
    assert np.abs(m - ref).max() <= 1e-6


@SETTINGS
@given(features(MIXED), footprints, footprints)
def test_sight_record_is_consistent(terrain, observer, target):
    geo = Geometry(Battlefield(24, 24, terrain))
    s = geo.sight(observer, target)
    assert 0.0 <= s.visible <= 1.0
    assert s.visible == geo.visible_fraction(observer, target)
    ids = {f.id for f in terrain}
    assert set(s.blockers) <= ids and set(s.soft_cover) <= ids and set(s.hard_cover) <= ids
    if s.visible < 1.0:
        assert s.blockers  # something casts the shadow
    assert s.distance == distance(observer, target)


@settings(max_examples=300, deadline=None)
@given(round_fps, round_fps)
def test_round_distance_symmetric_and_zero_exactly_on_contact(a, b):
    d = distance(a, b)
    assert d == distance(b, a)
    gap = math.hypot(a.x - b.x, a.y - b.y) - base_radius_in(a.base) - base_radius_in(b.base)
    if gap <= 0:
        assert d == 0.0
    else:
        assert d > 0.0 and math.isclose(d, gap, rel_tol=1e-12, abs_tol=1e-12)


@settings(max_examples=300, deadline=None)
@given(footprints, footprints)
def test_distance_symmetric_and_consistent_with_overlap(a, b):
    d = distance(a, b)
    assert d == distance(b, a) and d >= 0.0
    if overlaps(a, b, tol=1e-9):
        assert d == 0.0
    if d > 1e-9:
        assert not overlaps(a, b, tol=0.0)
    # No base point can be nearer to the other base's centre region than the distance
    # allows: the outlines' vertex-to-vertex distance bounds it from above.
    va, vb = footprint_outline(a, 64), footprint_outline(b, 64)
    nearest = min(math.hypot(p[0] - q[0], p[1] - q[1]) for p in va for q in vb)
    assert d <= nearest + 1e-9


@settings(max_examples=300, deadline=None)
@given(footprints, coord, coord)
def test_zone_point_partitions_the_plane(target, px, py):
    z = zone_point(target, (px, py))
    assert z in ("front", "flank", "rear")
    s = (px - target.x) * math.cos(math.radians(target.facing)) + (py - target.y) * math.sin(
        math.radians(target.facing)
    )
    r = base_radius_in(target.base)
    half = r if not isinstance(target.base, tuple) else target.base[1] / 25.4 / 2
    if s > half + 1e-9:
        assert z == "front"
    elif s < -half - 1e-9:
        assert z == "rear"
    elif abs(s) < half - 1e-9:
        assert z == "flank"


def _half_depth(fp: Footprint) -> float:
    return base_radius_in(fp.base) if not isinstance(fp.base, tuple) else fp.base[1] / 50.8


@settings(max_examples=200, deadline=None)
@given(footprints, footprints)
def test_zone_of_means_the_whole_base_is_in_the_zone(target, attacker):
    """Every point of the attacker's base lies in the zone named (within ZONE_TOL of its
    line); "none" means the base reaches on both sides of a line."""
    z = zone_of(target, attacker)
    assert z in ("front", "flank", "rear", "none")
    ux, uy = math.cos(math.radians(target.facing)), math.sin(math.radians(target.facing))
    h, tol = _half_depth(target), ZONE_TOL + 1e-9
    pts = footprint_outline(attacker, 256)
    if not isinstance(attacker.base, tuple):  # the outline is inscribed: add the extremes
        r = base_radius_in(attacker.base)
        pts += [
            (attacker.x + r * ux, attacker.y + r * uy),
            (attacker.x - r * ux, attacker.y - r * uy),
        ]
    s = [(x - target.x) * ux + (y - target.y) * uy for x, y in pts]
    lo, hi = min(s), max(s)
    if z == "front":
        assert lo >= h - tol
    elif z == "rear":
        assert hi <= -h + tol
    elif z == "flank":
        assert lo >= -h - tol and hi <= h + tol
    else:
        assert lo < h - 1e-7 and hi > -h + 1e-7 and (lo < -h + 1e-7 or hi > h - 1e-7)


@settings(max_examples=200, deadline=None)
@given(footprints, footprints, st.floats(0, 360), st.floats(-180, 180))
def test_whole_in_arc_implies_any_part(shooter, target, arc, offset):
    if in_arc(shooter, target, arc, offset, whole=True):
        assert in_arc(shooter, target, arc, offset)


@settings(max_examples=200, deadline=None)
@given(
    st.tuples(coord, coord),
    st.floats(0.1, 6),
    st.dictionaries(st.sampled_from("abcdef"), footprints, max_size=6),
)
def test_template_shares_in_range(centre, radius, bases):
    hits = template_hits(centre, radius, bases)
    for fid, share in hits.items():
        assert 0.0 < share <= 1.0
        fp = bases[fid]
        assert (
            math.hypot(fp.x - centre[0], fp.y - centre[1])
            <= radius + base_radius_in(fp.base) + 1e-9
        )


def test_a_subnormal_vertex_is_zero_and_both_measures_agree():
    """Hypothesis found a wall with a vertex at x = 5e-324 beside two identical walls: the
    exact measure raised in GEOS's snapped overlay and the batched one gave 0.019 where
    the exact gave 0.096. A coordinate nearer zero than 1e-12" is now zero
    (``TerrainFeature``), and both measures give what they give for 0."""
    for tiny, expect in ((5e-324, 0.0), (-1e-13, 0.0), (1e-3, 1e-3)):
        walls = [
            TerrainFeature(
                f"w{i}", "wall", ((-0.5, -0.25), (0.5, -0.25), (0.5, 0.25), (-0.5, 0.25)), 0.5
            )
            for i in range(2)
        ]
        odd = ((tiny, 0.0), (1.0, 0.0), (1.0, 0.5), (0.5, 0.5), (0.5, 1.0), (tiny, 1.0))
        third = TerrainFeature("w2", "wall", odd, 0.5)
        assert third.polygon[0][0] == expect and third.polygon[-1][0] == expect
        geo = Geometry(Battlefield(24, 24, (*walls, third)))
        eye, target = Footprint(0.0, 3.0, 0.0, 25), Footprint(0.0, 0.0, 0.0, 25)
        exact = geo.visible_fraction(eye, target)
        assert abs(geo.visible_matrix([eye], [target])[0, 0] - exact) <= 1e-6
        if tiny != 1e-3:
            assert exact == pytest.approx(0.09555116198684177, abs=1e-9)
