"""The computer's ways round walls (issue 20): the closing term measures each model's
gap to the foe nearest it by the way round a wall, and a model against a wall is
offered the move along that way.

Why: in the default scenario an ork at the end of a wall, its nearest guardsman by
centre behind the wall, was offered only moves into the wall or back along it, and
stood there five turns while its side lost (bench seeds, default, game 7)."""

from __future__ import annotations

import math

from engine import actions as act
from engine.battlefield import TerrainFeature
from engine.testing import make_game
from rulesets.gemini import candidates, score

#: the default scenario's west wall, 8" long and 1" thick
WALL = TerrainFeature("wall_w", "wall", ((12.0, 22.0), (20.0, 22.0), (20.0, 23.0), (12.0, 23.0)))


def _model(mid: str, side: str, profile: str, x: float, y: float) -> dict:
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y}


def _ork_at_the_wall_end():
    """The ork pressed to the wall's north-east end, red to move; a guardsman behind the
    wall (the nearest by centre) and one off to the south-east in the open."""
    return make_game(
        "gemini",
        [
            _model("o1", "red", "ork", 19.78, 23.5),
            _model("g1", "blue", "guardsman", 16.1, 14.5),
            _model("g3", "blue", "guardsman", 27.5, 9.0),
        ],
        terrain=[WALL],
        first="red",
    )


def test_the_way_round_a_thin_wall_turns_at_both_corners_of_its_end():
    """From against the wall's north side near its east end to a point due south of it:
    the straight line crosses the wall; the way goes out past the north-east corner and
    down past the south-east one, each leg clear of the wall for a base, and is far
    shorter than the 'no way found' length (straight + 12")."""
    g = _ork_at_the_wall_end()
    a, b = (19.78, 23.5), (16.1, 14.5)
    length, corners = candidates.route(g.ctx, a, b)
    assert len(corners) == 2
    assert all(c[0] > 20.0 for c in corners)  # both past the east end
    legs = [a, *corners, b]
    assert all(candidates._clear(g.ctx, p, q) for p, q in zip(legs, legs[1:]))
    assert length == sum(math.dist(p, q) for p, q in zip(legs, legs[1:]))
    assert math.dist(a, b) < length < math.dist(a, b) + 4.0


def test_a_model_pressed_to_a_wall_is_offered_the_way_round_its_end():
    """The ork's menu holds a move that ends at least 3" nearer its nearest foe by the
    way round the wall (its allowance is 4"); before, every move on it went into the
    wall or back along it, none more than 1" nearer."""
    g = _ork_at_the_wall_end()
    st = g.state
    now = score.reach(st, st.models["o1"], g.ctx)
    assert now is not None
    gains = []
    for a in g.candidates("red"):
        if isinstance(a, act.Move) and a.actor == "o1":
            c = g.clone(dice_seed=1)
            c.apply(a)
            after = score.reach(c.state, c.state.models["o1"], c.ctx)
            assert after is not None
            gains.append(now - after)
    assert max(gains) >= 3.0


def test_closing_counts_the_foe_nearest_by_the_way_round_the_wall():
    """An ork north of the wall's middle: g1 south of the wall is nearer by centre
    (10") but the way to it goes round an end; g2 east in the open (11" off) is nearer
    by the way, and its gap is the ork's reach."""
    g = make_game(
        "gemini",
        [
            _model("o1", "red", "ork", 16.0, 24.0),
            _model("g1", "blue", "guardsman", 16.0, 14.0),
            _model("g2", "blue", "guardsman", 27.0, 24.0),
        ],
        terrain=[WALL],
        first="red",
    )
    st = g.state
    o1, g2 = st.models["o1"], st.models["g2"]
    got = candidates.nearest_by_way(st, o1, g.ctx)
    assert got is not None and got[1].id == "g2" and got[2] == ()
    assert score.reach(st, o1, g.ctx) == score.measure.gap(o1, g2)


#: the default scenario's rubble, 8" wide and 6" deep (difficult: GM-I-TERRAIN)
RUBBLE = TerrainFeature(
    "rubble", "rubble", ((20.0, 30.0), (28.0, 30.0), (28.0, 36.0), (20.0, 36.0))
)


def _ork_before_the_rubble():
    """The default scenario's third ork, just north of the rubble, its guardsman 32"
    off to the south beyond it; red to move."""
    return make_game(
        "gemini",
        [_model("o3", "red", "ork", 21.6, 38.0), _model("g2", "blue", "guardsman", 20.0, 6.0)],
        terrain=[RUBBLE],
        first="red",
    )


def test_the_way_through_difficult_ground_counts_each_inch_of_it_twice():
    """GM-MOVE, GM-I-TERRAIN: the straight way crosses 6" of rubble, so it costs 38"
    of allowance, not 32"; a way past the rubble costs its plain length."""
    g = _ork_before_the_rubble()
    length, corners = candidates.route(g.ctx, (21.6, 38.0), (21.6, 6.0))
    assert corners == () and math.isclose(length, 38.0)
    beside, _ = candidates.route(g.ctx, (19.0, 38.0), (19.0, 6.0))
    assert math.isclose(beside, 32.0)


def test_the_closing_term_prefers_the_step_round_the_rubble_to_the_step_into_it():
    """Issue 20: an ork in front of the rubble walked into it at 2" a turn. Its
    straight move (2" to the edge, 1" in) must leave it farther from its foe by the way
    than a move of less allowance stepping off the rubble's side; measured in plain
    inches the straight move looked better (3" nearer against 2.2")."""
    g = _ork_before_the_rubble()
    st = g.state
    o3 = st.models["o3"]
    now = score.reach(st, o3, g.ctx)
    assert now is not None

    def gain(*path: tuple[float, float]) -> float:
        c = g.clone(dice_seed=1)
        move = act.Move(actor="o3", path=((21.6, 38.0), *path))
        assert c.check(move).ok
        c.apply(move)
        assert math.dist(c.state.models["o3"].pos, path[-1]) < 0.01
        after = score.reach(c.state, c.state.models["o3"], c.ctx)
        assert after is not None
        return now - after

    into = gain((21.6, 35.0))  # 2" to the rubble's edge, then 1" in it: 4" of allowance
    round_ = gain((19.7, 37.6), (19.7, 35.8))  # 3.7" of open ground, west of the rubble
    assert round_ > into + 1.0
