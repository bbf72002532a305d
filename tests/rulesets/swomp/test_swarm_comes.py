"""Issue 20: the SWOMP swarm comes to fight. A model without a gun is pulled toward the
foe its charge would hurt most, a unit whose straight advance a ruin refuses is offered
advances round it, and greedy Tyranids remove marines from a side that never acts."""

from pathlib import Path

import pytest

from engine.actions import Move
from engine.sim import Job, play_one
from rulesets.swomp import candidates, rules, score
from rulesets.swomp.chapters import table

from .helpers import make

ROOT = Path(__file__).resolve().parents[3]
RUIN = ((24.0, 24.0), (36.0, 24.0), (36.0, 28.0), (24.0, 28.0))


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def swarm(y=40.0, terrain=()):
    return make(
        [m("b", "blue", 30, 6, facing=90), m("h", "red", 30, y, "hormagaunt", facing=270)],
        first="red",
        terrain=terrain,
    )


def test_a_model_without_a_gun_is_pulled_toward_the_foe_its_charge_would_strike():
    """A hormagaunt (no gun, MR 9: charge reach 18") 33" from a marine is 15" beyond its
    reach: 1 - 15/24 of MELEE_PULL times its charge's strike; within reach, all of it
    (it does not out-fight the marine, so no CHARGE_REACH on top)."""
    g = swarm()
    h, b = g.state.models["h"], g.state.models["b"]
    strike = score.strike_value([h], b, charging=True)
    assert strike > 0
    beyond = table.distance(h, b) - 18.0
    assert beyond == pytest.approx(34.0 - 2 * 0.4921 - 18.0, abs=0.01)
    want = score.MELEE_PULL * strike * (1 - beyond / score.APPROACH_SPAN)
    assert score.position(g.state, "red") == pytest.approx(want)
    h.y = 20.0
    assert not score.fights_better(h, b)
    assert score.position(g.state, "red") == pytest.approx(score.MELEE_PULL * strike)


def test_a_ruin_in_the_way_is_gone_round():
    """The straight 18" advance meets the ruin (SWOMP-I-PATH) and is refused; advances
    at 30 and 60 degrees off it, at 0.8 and 0.4 of the allowance, are offered instead,
    and those that clear the ruin make the list."""
    g = swarm(terrain=(("building", RUIN),))
    h, b = g.state.models["h"], g.state.models["b"]
    straight = next(a for a in candidates.unit_options(g.state, g.ctx, "h") if isinstance(a, Move))
    assert straight.to == (30.0, 22.0)
    assert "go round it" in str(rules.check(g.state, straight, g.ctx))
    detours = candidates.detours(g.ctx, h, b, 18.0, "h", None)
    assert len(detours) == 8
    assert detours[0].to == pytest.approx(table.offset(h.pos, 270.0 + 30.0, 0.8 * 18.0))
    legal = g.candidates("red")
    assert straight not in legal
    assert sum(1 for a in detours if a in legal) >= 4


def test_greedy_tyranids_remove_marines_from_a_side_that_never_acts():
    """The default scenario, seed 1, six rounds: before the pull and the detours the swarm
    waited and removed one marine of seven; now it removes at least three."""
    scenario = str(ROOT / "rulesets" / "swomp" / "scenarios" / "default.toml")
    result = play_one(Job(scenario, 0, 1, ("passive", "greedy"), swap=False))
    assert result.agents == {"blue": "passive", "red": "greedy"}
    assert result.winner == "red"
    assert result.casualties["blue"] >= 3
