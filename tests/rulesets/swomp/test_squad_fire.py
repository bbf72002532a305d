"""Issue 20: a SWOMP squad brings its guns to bear. A squad whose every advance a short
wall refuses is offered each model's own advance (SWOMP-I-UNIT-ACTIONS), and the shots
the score counts at one target are capped at what is left of it."""

import pytest

from engine.actions import Move
from rulesets.swomp import candidates, rules, score
from rulesets.swomp.chapters import core

from .helpers import make

WALL = ((25.5, 13.2), (31.0, 13.2), (31.0, 13.7), (25.5, 13.7))


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def squad_behind_a_wall():
    """Five marines of one unit in a line 2" apart (x 22 to 30, y 12), a 5.5" wall just
    in front of the three eastern ones, a termagant 24" away to the north."""
    line = [m(f"s{i}", "blue", 22 + 2 * i, 12, unit="tac", facing=90) for i in range(5)]
    return make([*line, m("t", "red", 26, 36, "termagant", facing=270)], terrain=(("wall", WALL),))


def test_a_squad_a_wall_holds_back_advances_model_by_model():
    """SWOMP-I-PATH: the unit moves by its leader's path with every model at its offset,
    so the straight advance, each detour and each share of them meets the wall for one
    model or another. Each model may take its own action (SWOMP-I-UNIT-ACTIONS): the
    two western marines, clear of the wall, are each offered a 4" advance (their MR,
    so they may still shoot) on the termagant, coherency permitting (SWOMP-COHERENCY);
    the three behind the wall get none (straight, 30 degrees off and every share meet it)."""
    g = squad_behind_a_wall()
    st = g.state
    unit_moves = [
        a
        for a in candidates.unit_options(st, g.ctx, "tac")
        if isinstance(a, Move) and a.actor == "tac" and a.to and a.to[1] > 12
    ]
    assert unit_moves and not any(rules.check(st, a, g.ctx).ok for a in unit_moves)
    ms = core.unit_models(st, "tac")
    own = candidates.model_advances(st, g.ctx, ms, None)
    assert [a.actor for a in own] == ["s0", "s1"]
    t = st.models["t"]
    for a in own:
        mover = st.models[a.actor]
        assert rules.check(st, a, g.ctx).ok
        assert a.to == pytest.approx(
            candidates.clamp(g.ctx, candidates.toward(mover.pos, t.pos, 4.0)), abs=0.01
        )
    legal = g.candidates("blue")
    assert all(a in legal for a in own)


def test_shots_at_one_target_count_no_more_than_the_target_is_worth():
    """Two boltguns whose only target is one 27-point termagant: 17.82 each, 35.64
    together, but the termagant can be removed once: the firepower counts 27. Before,
    killing it lost the shooters more future fire than the kill was worth, and greedy
    marines passed over the shot."""
    g = make(
        [
            m("b1", "blue", 30, 10, facing=90),
            m("b2", "blue", 32, 10, facing=90),
            m("t", "red", 31, 30, "termagant", facing=270),
        ]
    )
    st = g.state
    assert score.aimed_shot(st, g.ctx, st.models["b1"]) == (pytest.approx(0.66 * 27), "t")
    assert score.firepower(st, g.ctx) == pytest.approx({"blue": 27.0, "red": 0.0})
