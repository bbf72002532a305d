"""Example d6 with forced dice, each test naming the section it checks (reference.toml),
and the base flow it runs on: turns, the turn limit, the last side standing, building."""

from __future__ import annotations

from fractions import Fraction

from engine.actions import EndActivation, Move, Shoot
from engine.ruleset import ALREADY_ACTIVATED, NOT_YOUR_TURN, TOO_FAR, load
from engine.scenario import Scenario, new_game
from engine.turns import DONE
from tests.engine.conftest import make_toy_game


def test_a_d6_plus_skill_of_four_hits_and_takes_one_hit_point():
    """D6-3: d6 + SK, 4 or more hits; the target loses one hit point."""
    g = make_toy_game()
    g.dice.force([3])  # 3 + SK 1 = 4: a hit
    ev = g.apply(Shoot(actor="b0", target="r0"))
    assert [e.outcome for e in ev if e.kind == "resolution"] == ["hit"]
    assert g.state.models["r0"].hp == 1
    assert g.odds(Shoot(actor="b1", target="r0")).chance == Fraction(2, 3)  # faces 3 to 6
    g.dice.force([2])  # 2 + 1 = 3: a miss (the second shot of another unit)
    g.apply(EndActivation())
    g.apply(EndActivation())
    ev = g.apply(Shoot(actor="b1", target="r0"))
    assert [e.outcome for e in ev if e.kind == "resolution"] == ["miss"]


def test_a_model_with_no_hit_points_is_removed_and_the_last_side_wins():
    """D6-3: at no hit points a model is removed; a side with none left loses."""
    g = make_toy_game(n=1)
    r0 = g.state.models["r0"]
    r0.hp = 1
    g.dice.force([6])
    ev = g.apply(Shoot(actor="b0", target="r0"))
    assert r0.removed and any(e.kind == "removed" for e in ev)
    assert g.outcome().winner == "blue" and g.outcome().reason == "last side standing"
    assert g.to_act() is None


def test_a_move_is_six_inches_and_once_an_activation():
    """D6-2: up to 6", once per activation; the refusal carries the allowance as data."""
    g = make_toy_game()
    far = g.check(Move(actor="b0", to=(10.0, 12.0)))
    assert not far.ok and far.find(TOO_FAR).data["limit"] == 6.0
    assert g.ruleset.allowance(g.state, "b0", g.ctx) == 6.0
    g.apply(Move(actor="b0", to=(10.0, 11.0)))
    assert g.check(Move(actor="b0", to=(10.0, 12.0))).codes == (DONE,)


def test_turns_alternate_and_a_unit_activates_once_a_round():
    """D6-1: sides alternate one unit each; a unit that has acted waits for the next round."""
    g = make_toy_game()
    assert g.check(Move(actor="r0", to=(10.0, 38.0))).codes == (NOT_YOUR_TURN,)
    g.apply(Move(actor="b0", to=(10.0, 8.0)))
    g.apply(EndActivation())
    assert g.to_act() == "red"
    g.apply(EndActivation())
    assert g.check(Move(actor="b0", to=(10.0, 9.0))).codes == (ALREADY_ACTIVATED,)


def test_ending_an_activation_never_begun_still_ends_the_round():
    """D6-1: a side that passes uses up a unit, so every round ends (the old trap: a
    round where no one acted never ended)."""
    g = make_toy_game(turn_limit=3)
    for _ in range(40):
        if g.to_act() is None:
            break
        g.apply(EndActivation())
    assert g.state.turn == 3 and g.outcome().reason == "turn limit"
    assert g.outcome().winner is None


def test_initiative_is_a_d6_roll_off():
    """D6-1: highest d6 goes first; ties reroll."""
    g = make_toy_game(first=None, seed=1)
    g2 = make_toy_game(first=None, seed=1)
    assert g.to_act() == g2.to_act()
    ev = [e for e in g.log.since(0) if e.kind == "initiative"]
    assert ev and all(e.rule == "D6-1" for e in ev)


def test_the_default_build_merges_stats_and_rejects_unknown_ones():
    rs = load("example_d6")
    m, probs = rs.build_model({"id": "a", "side": "blue", "x": 1, "y": 2, "stats": {"SK": 2}})
    assert probs == [] and m.stats == {"SK": 2, "HP": 2} and m.hp == m.max_hp == 2
    m, probs = rs.build_model(
        {"id": "a", "side": "blue", "x": 1, "y": 2, "stats": {"HP": 3}, "state": {"hp": 1}}
    )
    assert m.hp == 1 and m.max_hp == 3
    m, probs = rs.build_model({"id": "a", "side": "blue", "x": 1, "y": 2, "stats": {"WS": 3}})
    assert m is None and probs[0][0] == "stats.WS" and "example_d6 stats: SK, HP" in probs[0][1]


def test_the_default_scenario_plays_to_the_turn_limit():
    """D6-1: the scenario's six rounds, then a draw if both sides stand."""
    from pathlib import Path

    from engine.scenario import load_scenario

    scn: Scenario = load_scenario(
        Path(__file__).resolve().parents[3] / "rulesets/example_d6/scenarios/default.toml"
    )
    g = new_game(scn)
    for _ in range(200):
        if g.to_act() is None:
            break
        g.apply(EndActivation())
    assert g.state.turn == 6 and g.outcome().reason == "turn limit"


def test_stats_are_whole_numbers_or_the_model_is_refused():
    """The stat schema hook (found by tests/test_fuzz.py: SK = "" loaded, then the first
    shot raised): a stat that is not a whole number is a load problem, never a crash."""
    rs = load("example_d6")
    spec = {"id": "b0", "side": "blue", "x": 1.0, "y": 1.0}
    for bad in ("", 1.5, True, "3"):
        _, problems = rs.build_model({**spec, "stats": {"SK": bad}})
        assert ("stats.SK", "must be a whole number") in problems, bad
    model, problems = rs.build_model({**spec, "stats": {"SK": 2, "HP": 3}})
    assert not problems and model is not None and model.stat("SK") == 2 and model.hp == 3
