"""The position score remembered per position (issue 24): the search scores every step
of every rollout, and most steps leave a position an earlier one left. A position met
again is answered from the table's memo, and anything the score reads of a model (its
place, health, stats, abilities used, gifts, dice given, climb) tells two apart, so the
remembered value is always the one the score would work out (UMR-BALLISTIC, UMR-MELEE,
UMR-LEADER)."""

from __future__ import annotations

import pytest

from engine.state import GameState
from rulesets.umr import score
from tests.rulesets.umr.helpers import game, spec


def _duel():
    """A blue grenadier and a red rifleman 10" apart on an open table."""
    return game(
        spec("g", "blue", 10, 10, profile="grenadier"),
        spec("x", "red", 20, 10, profile="rifleman"),
    )


@pytest.fixture
def worked(monkeypatch):
    """Counts the scores worked out in full (``score._score``), not read from the memo."""
    calls: list[GameState] = []
    full = score._score

    def spy(state, side, ctx):
        calls.append(state)
        return full(state, side, ctx)

    monkeypatch.setattr(score, "_score", spy)
    return calls


def test_a_position_met_again_is_read_from_the_memo(worked):
    """UMR-BALLISTIC: a copy of a scored position (a rollout's next fork) is not worked
    out again, and gives the same value."""
    g = _duel()
    first = g.score("blue")
    again = g.clone(dice_seed=3)
    assert again.score("blue") == first
    assert len(worked) == 1
    again.score("red")  # the other side's view is its own question
    assert len(worked) == 2


def test_what_the_score_reads_tells_positions_apart(worked):
    """UMR-BALLISTIC, UMR-LEADER: a step, a wound, a die given and an ability used each
    make a new position, worked out in full, with the value the score gives it fresh."""
    g = _duel()
    base = g.score("blue")
    moved = g.clone(dice_seed=1)
    moved.state.models["x"].x = 30.0
    hurt = g.clone(dice_seed=1)
    hurt.state.models["x"].hp -= 1
    given = g.clone(dice_seed=1)
    given.state.models["g"].vars["granted"] = 1
    used = g.clone(dice_seed=1)
    used.state.models["g"].vars["used"] = ["grenadier"]
    values = [c.score("blue") for c in (moved, hurt, given, used)]
    assert len(worked) == 5
    assert all(v != base for v in values)
    # the gift is the grenadier's best shot on top (``score.gifts``)
    assert values[2] - base == pytest.approx(score.best_shots(g.state, g.ctx)["g"], rel=1e-9)


def test_an_ability_used_is_no_longer_counted_in_the_shot():
    """UMR-GRENADIER, UMR-BALLISTIC: once the grenadier has thrown this round his shot
    has one damage die, not two. The shot memo was keyed by place, health and stats
    alone, so a position scored before the throw kept its two dice for the rest of the
    round, or not, depending on which position was scored first."""
    g = _duel()
    fresh = score.best_shots(g.state, g.ctx)["g"]
    thrown = g.clone(dice_seed=1)
    thrown.state.models["g"].vars["used"] = ["grenadier"]
    once = score.best_shots(thrown.state, thrown.ctx)["g"]
    assert 0 < once < fresh
    # the same as a table that never saw the fresh grenadier
    g.ctx.table.clear()
    assert score.best_shots(thrown.state, thrown.ctx)["g"] == once


def test_stats_changed_in_place_are_read_again():
    """UMR-PERSONALITY: the stats' signature is kept per stats dict, but compared with
    the dict before it is used: a dict written in place is read afresh."""
    g = _duel()
    plain = score.firepower(g.state, g.ctx)["blue"]
    g.state.models["g"].stats["BALLISTIC"] = 2
    assert score.firepower(g.state, g.ctx)["blue"] > plain
