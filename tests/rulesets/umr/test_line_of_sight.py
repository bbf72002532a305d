"""The quick "certainly hidden" test of a shot (``Geometry.surely_hidden``, which UMR's
shots ask before the exact measure) against the geometry service's exact visible fraction (UMR-BALLISTIC: a target more
than 3/4 hidden cannot be shot): whenever the quick test says hidden, the exact measure
finds the whole base hidden, so the shot's verdict never depends on which one answered."""

from __future__ import annotations

import itertools
import random

from engine.battlefield import Battlefield, Footprint, TerrainFeature
from engine.dice import Dice
from engine.events import EventLog
from engine.ruleset import Context
from engine.scenario import load_scenario, new_game
from tests.rulesets.umr.helpers import terrain

BASE = 25.0


def _ctx(*features: TerrainFeature) -> Context:
    return Context(Battlefield(72.0, 48.0, tuple(features)), Dice(seed=1), EventLog())


def _fp(x: float, y: float) -> Footprint:
    return Footprint(x, y, 0.0, BASE)


def hidden_for_sure(ctx: Context, a: Footprint, b: Footprint) -> bool:
    return ctx.table.geo.surely_hidden(a, b)


def _exact(ctx: Context, a: Footprint, b: Footprint) -> float:
    return ctx.table.sight(a, b).visible


def test_a_target_wholly_behind_a_wall_is_hidden_for_sure():
    """UMR-BALLISTIC: a building between the two models hides all of the target."""
    ctx = _ctx(terrain("house", "building", (20, 10, 24, 30)))
    eye, target = _fp(10, 20), _fp(34, 20)
    assert hidden_for_sure(ctx, eye, target)
    assert _exact(ctx, eye, target) < 1e-9


def test_a_target_half_past_the_corner_is_left_to_the_exact_measure():
    """UMR-BALLISTIC: the building's corner hides only part of this target."""
    ctx = _ctx(terrain("house", "building", (20, 10, 24, 20)))
    eye, target = _fp(10, 20), _fp(34, 20)
    assert not hidden_for_sure(ctx, eye, target)
    assert 0.25 < _exact(ctx, eye, target) < 1.0


def test_a_hill_hides_only_models_below_it():
    """UMR-BALLISTIC with the geometry service's hills: both models below the hill's
    top are hidden from each other; a model standing on the hill sees across it."""
    hill = terrain("ridge", "hill", (20, 5, 26, 35), height=2)
    ctx = _ctx(hill)
    low, target, on_top = _fp(10, 20), _fp(36, 20), _fp(23, 20)
    assert hidden_for_sure(ctx, low, target)
    assert _exact(ctx, low, target) < 1e-9
    assert not hidden_for_sure(ctx, on_top, target)
    assert _exact(ctx, on_top, target) == 1.0


def test_a_target_deep_in_woods_is_hidden_for_sure():
    """UMR-BALLISTIC: more than the sight depth of woods on every line hides a target;
    one near the edge of the wood is left to the exact measure."""
    ctx = _ctx(terrain("wood", "woods", (30, 10, 45, 30)))
    eye = _fp(10, 20)
    assert hidden_for_sure(ctx, eye, _fp(37, 20))
    assert _exact(ctx, eye, _fp(37, 20)) < 1e-9
    assert not hidden_for_sure(ctx, eye, _fp(31, 20))


def test_woods_between_the_models_hide_for_sure_only_when_deep_enough():
    """UMR-BALLISTIC with the geometry service's woods: six inches of wood on every line
    hide the target; a strip thinner than the sight depth hides nothing."""
    eye, target = _fp(10, 20), _fp(36, 20)
    deep = _ctx(terrain("wood", "woods", (20, 10, 26, 30)))
    assert hidden_for_sure(deep, eye, target)
    assert _exact(deep, eye, target) < 1e-9
    thin = _ctx(terrain("wood", "woods", (20, 10, 21.5, 30)))
    assert not hidden_for_sure(thin, eye, target)
    assert _exact(thin, eye, target) == 1.0


def test_an_eye_deep_enough_in_woods_toward_the_target_sees_nothing():
    """UMR-BALLISTIC with the geometry service's woods: a model an inch from the back
    edge of a wood, looking through five inches of it, sees nothing beyond; looking
    out of the near edge it sees the target whole."""
    ctx = _ctx(terrain("wood", "woods", (20, 10, 26, 30)))
    eye = _fp(21, 20)
    assert hidden_for_sure(ctx, eye, _fp(40, 20))
    assert _exact(ctx, eye, _fp(40, 20)) < 1e-9
    assert not hidden_for_sure(ctx, eye, _fp(4, 20))
    assert _exact(ctx, eye, _fp(4, 20)) == 1.0


def test_hills_as_high_as_a_model_and_shallow_woods_leave_it_in_view():
    """UMR-BALLISTIC with the geometry service's hills and woods: a hill hides nothing
    from or of a model standing on it, and a strip of wood thinner than the sight depth
    on every line hides nothing; both are proven in view without the exact measure."""
    hill = _ctx(terrain("ridge", "hill", (20, 5, 26, 35), height=2))
    on_top, target = _fp(23, 20), _fp(36, 20)
    assert hill.table.geo.surely_in_view(on_top, target)
    assert hill.table.geo.surely_in_view(target, on_top)
    assert not hill.table.geo.surely_in_view(_fp(10, 20), target)
    thin = _ctx(terrain("wood", "woods", (20, 10, 21.5, 30)))
    assert thin.table.geo.surely_in_view(_fp(10, 20), target)
    assert _exact(thin, _fp(10, 20), target) == 1.0
    deep = _ctx(terrain("wood", "woods", (20, 10, 22.5, 30)))
    assert not deep.table.geo.surely_in_view(_fp(10, 20), target)
    assert _exact(deep, _fp(10, 20), target) < 1e-9


def test_the_quick_tests_never_contradict_the_exact_measure():
    """UMR-BALLISTIC, over a sweep of eyes and targets on the UMR bench map (hills,
    rocks, woods, brush, wheat): every pair the quick test calls hidden is wholly hidden
    to the exact measure, and the quick test does find many of the hidden ones; every
    pair proven in view is wholly visible."""
    scn = load_scenario("rulesets/umr/scenarios/skirmish10.toml")
    ctx = new_game(scn).ctx
    rng = random.Random(24)
    points = [(rng.uniform(1, 71), rng.uniform(1, 47)) for _ in range(45)]
    found = hidden = opened = 0
    for (ax, ay), (bx, by) in itertools.permutations(points, 2):
        eye, target = _fp(ax, ay), _fp(bx, by)
        quick = hidden_for_sure(ctx, eye, target)
        exact = _exact(ctx, eye, target)
        if quick:
            assert exact < 1e-9, (eye, target, exact)
            found += 1
        hidden += exact < 0.25
        if ctx.table.geo.surely_in_view(eye, target):
            assert exact == 1.0, (eye, target, exact)
            opened += 1
    assert found >= hidden // 2
    assert opened > 100
