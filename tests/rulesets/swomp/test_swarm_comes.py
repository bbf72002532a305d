"""Issue 20: the SWOMP swarm comes to fight. A model without a gun is pulled toward the
foe its charge would hurt most, a unit whose straight advance a ruin refuses is offered
advances round it, and greedy Tyranids remove marines from a side that never acts."""

import math
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
    """The default scenario (five marines against a warrior and five broods), the strength
    bench's first two seeds, six rounds: the greedy swarm wins both and removes at least
    five of the ten marines. Before the sidestep and the short advances the rear broods
    stood wedged behind the front ones and the ruins and removed three."""
    scenario = str(ROOT / "rulesets" / "swomp" / "scenarios" / "default.toml")
    removed = 0
    for seed in (11 * 100_003, 11 * 100_003 + 1):
        result = play_one(Job(scenario, 0, seed, ("passive", "greedy"), swap=False))
        assert result.agents == {"blue": "passive", "red": "greedy"}
        assert result.winner == "red"
        removed += result.casualties["blue"]
    assert removed >= 5


def wedged():
    """A lone hormagaunt 2.5" behind a line of five termagants of its own side (x 26 to
    34), the marine it would charge 34" away straight beyond the line."""
    line = [
        m(f"t{i}", "red", 26.0 + 2 * i, 37.5, "termagant", unit="brood", facing=270)
        for i in range(5)
    ]
    return make(
        [m("b", "blue", 30, 6, facing=90), m("h", "red", 30, 40, "hormagaunt", facing=270), *line],
        first="red",
    )


def test_a_brood_wedged_behind_its_own_line_steps_aside_and_comes_on():
    """SWOMP-I-PATH: a path may not pass through another model, so every one-leg advance
    (straight, the detours, and each share of them) meets the termagants. The menu then
    offers a move in two legs: a sidestep clear of the line, then on toward the marine
    with the rest of the 18" allowance. Before, the hormagaunt's only moves were a step
    back, and in the default scenario's deep swarm the rear broods waited all game."""
    g = wedged()
    h, b = g.state.models["h"], g.state.models["b"]
    start = table.distance(h, b)
    opts = [a for a in candidates.unit_options(g.state, g.ctx, "h") if isinstance(a, Move)]
    one_leg = [a for a in opts if not a.path]
    assert one_leg and not any(rules.check(g.state, a, g.ctx).ok and a.to[1] < 40 for a in one_leg)
    assert candidates.short_advances(g.state, g.ctx, h, one_leg[:1]) == []
    two_leg = [a for a in opts if a.path]
    assert two_leg, "a sidestep-then-advance is offered"
    for a in two_leg:
        assert rules.check(g.state, a, g.ctx).ok
        side, on = a.path
        assert abs(side[1] - 40.0) < 0.01 and abs(side[0] - 30.0) in candidates.SIDESTEPS
    legal = g.candidates("red")
    best = min((a for a in two_leg if a in legal), key=lambda a: math.dist(a.path[-1], b.pos))
    g.apply(best)
    assert table.distance(g.state.models["h"], b) <= start - 6.0


def test_a_blocked_advance_is_offered_as_far_as_the_way_is_clear():
    """A single termagant 9" straight ahead: the full advance meets it, and the longest
    share of it (SHORT_STEPS) that stops short is offered and legal."""
    g = make(
        [
            m("b", "blue", 30, 6, facing=90),
            m("h", "red", 30, 40, "hormagaunt", facing=270),
            m("t", "red", 30, 30, "termagant", facing=270),
        ],
        first="red",
    )
    h = g.state.models["h"]
    full = next(a for a in candidates.unit_options(g.state, g.ctx, "h") if isinstance(a, Move))
    assert not rules.check(g.state, full, g.ctx).ok
    short = candidates.short_advances(g.state, g.ctx, h, [full])
    assert len(short) == 1 and rules.check(g.state, short[0], g.ctx).ok
    assert short[0].to == pytest.approx((30.0, 40.0 - 18.0 * 0.5), abs=0.01)
