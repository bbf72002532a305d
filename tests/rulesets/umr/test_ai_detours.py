"""Issue 20: a UMR model whose straight line to the nearest foe runs into a building
goes round it. UMR-CLIMBING: a building cannot be walked through, so the straight
advance is refused; before the detours the model had no advance on offer and ended its
activations behind the ruin for the rest of the game (the mirror battle's guardian)."""

from __future__ import annotations

import math

from engine.actions import Move
from engine.agents import make
from rulesets.umr import candidates
from tests.rulesets.umr.helpers import game, spec, terrain


def _behind_the_ruin():
    return game(
        spec("b_guard", "blue", 56, 11, profile="guardian"),
        spec("r_rifle", "red", 56, 43, profile="rifleman"),
        features=(terrain("ruin", "building", (53, 14, 60, 18.5), height=3),),
    )


def _three_rounds_against_passive(g, seed):
    """Play greedy blue against a red side that never acts for three rounds; give back
    the blue guardian and the red rifleman it should be closing on."""
    agents = {"blue": make("greedy", seed), "red": make("passive")}
    while (side := g.to_act()) is not None and g.state.turn <= 3:
        g.apply(agents[side].choose(g, side))
    return g.state.models["b_guard"], g.state.models["r_rifle"]


def test_the_straight_advance_is_refused_and_angled_ones_are_offered():
    """UMR-CLIMBING refuses the straight advance into the ruin; the list offers legal
    advances at an angle (UMR-MOVEMENT) in its place."""
    g = _behind_the_ruin()
    assert not g.check(Move(actor="b_guard", to=(56.0, 17.0))).ok
    moves = [a.to for a in g.candidates("blue") if isinstance(a, Move)]
    # the old list: the refused straight advance, the step back and a cover spot
    assert any(a[1] > 11.5 for a in moves), moves
    assert all(g.check(Move(actor="b_guard", to=p)).ok for p in moves)


def test_greedy_goes_round_the_ruin():
    """UMR-ROUND, three rounds against an opponent that never acts: the guardian gets
    round the ruin's end and at least 4" nearer the rifleman (it stayed at 32" before)."""
    for seed in range(3):
        guard, foe = _three_rounds_against_passive(_behind_the_ruin(), seed)
        assert math.dist(guard.pos, foe.pos) < 28.0, (seed, guard.pos)


def test_the_unchecked_menu_goes_without_detours():
    """UMR-MOVEMENT: ``proposals`` (the random agent's and the rollouts' menu) is not
    checked, so it offers only the straight advance, as before."""
    g = _behind_the_ruin()
    m = g.state.models["b_guard"]
    foes = [g.state.models["r_rifle"]]
    full = list(candidates._model_options(g.state, g.ctx, m, foes))
    bare = list(candidates._model_options(g.state, g.ctx, m, foes, detour=False))
    assert len(full) == len(bare) + len(candidates.DETOURS)


def _shoulder_on_the_ruin():
    """The rifleman straight ahead, the line between the two centres 0.3" clear of the
    ruin's east side, so the guardian's base (0.49" round its centre) meets the ruin."""
    return game(
        spec("b_guard", "blue", 60.3, 11, profile="guardian"),
        spec("r_rifle", "red", 60.3, 43, profile="rifleman"),
        features=(terrain("ruin", "building", (53, 14, 60, 18.5), height=3),),
    )


def test_an_advance_whose_base_meets_the_ruin_gets_detours():
    """UMR-I-MOVE: the straight advance is legal (its centre line misses the ruin) but
    the physics service stops the base at the ruin's corner; the list now offers the
    angled advances there too (before: only where the advance was refused)."""
    g = _shoulder_on_the_ruin()
    m = g.state.models["b_guard"]
    straight, _ = candidates._steps(g.ctx, m, g.state.models["r_rifle"])
    assert straight is not None and g.check(straight).ok
    assert candidates._walled(g.ctx, m, straight.to)
    moves = [a.to for a in g.candidates("blue") if isinstance(a, Move)]
    assert any(p[0] > 61.0 for p in moves), moves  # an advance angled east of the ruin


def test_a_clear_advance_gets_no_detours():
    """UMR-I-MOVE: with the ruin 2" further west the base passes it, so no angled
    advances are added."""
    g = game(
        spec("b_guard", "blue", 62.3, 11, profile="guardian"),
        spec("r_rifle", "red", 62.3, 43, profile="rifleman"),
        features=(terrain("ruin", "building", (53, 14, 60, 18.5), height=3),),
    )
    m = g.state.models["b_guard"]
    straight, _ = candidates._steps(g.ctx, m, g.state.models["r_rifle"])
    assert straight is not None and not candidates._walled(g.ctx, m, straight.to)


def test_greedy_gets_past_the_ruin_corner():
    """UMR-ROUND, three rounds against an opponent that never acts: the guardian gets
    past the corner it grazed and at least 8" nearer the rifleman."""
    for seed in range(3):
        guard, foe = _three_rounds_against_passive(_shoulder_on_the_ruin(), seed)
        assert math.dist(guard.pos, foe.pos) < 24.0, (seed, guard.pos)
