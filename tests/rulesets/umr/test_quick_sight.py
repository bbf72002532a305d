"""The cover-only sight of a pair proven in view (``Geometry.quick_sight``) is the exact
sight's answer, cover included, on the UMR bench table (UMR-BALLISTIC, UMR-I-COVER):
what a shot's modifiers are read from never depends on which one answered."""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

from engine.battlefield import Footprint, TerrainFeature
from engine.geometry import Geometry
from engine.scenario import load_scenario

SKIRMISH = "rulesets/umr/scenarios/skirmish10.toml"


def test_quick_sight_is_the_exact_sight():
    """UMR-BALLISTIC, UMR-I-COVER: every pair, in view or not, gets the same Sight from
    both (each geometry fresh, so neither reads the other's memo), on the bench table
    with two hedges and a low wall added; many are proven in view and some of those are
    behind a hedge or the wall, so the cover-only path is what is compared."""
    bf = load_scenario(SKIRMISH).battlefield
    lines = (  # the bench table has no hedge or low wall: three strips across it
        TerrainFeature(f"{kind}{i}", kind, ((x, 4.0), (x + 0.3, 4.0), (x + 0.3, 44.0), (x, 44.0)))
        for i, (kind, x) in enumerate((("hedge", 14.0), ("low_wall", 30.0), ("hedge", 50.0)))
    )
    bf = replace(bf, terrain=(*bf.terrain, *lines))
    quick, exact = Geometry(bf), Geometry(bf)
    rng = random.Random(7)
    points = [(rng.uniform(1, 71), rng.uniform(1, 47)) for _ in range(30)]
    proven = covered = 0
    for (ax, ay), (bx, by) in itertools.permutations(points, 2):
        eye, target = Footprint(ax, ay, 0.0, 25.0), Footprint(bx, by, 0.0, 25.0)
        got = quick.quick_sight(eye, target)
        assert got == exact.sight(eye, target), (eye, target)
        if quick.surely_in_view(eye, target):
            proven += 1
            covered += bool(got.soft_cover or got.hard_cover)
    assert proven > 100
    assert covered > 0
