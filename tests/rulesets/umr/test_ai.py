"""What the AI is offered (candidates), how it scores a position, and that random games
end (UMR-ROUND, UMR-END, UMR-I-TURN-LIMIT)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.actions import Charge, EndActivation, Shoot
from engine.agents import RandomAgent
from engine.game import play
from engine.scenario import load_scenario, new_game
from engine.testing import apply
from tests.rulesets.umr.helpers import RS, game, spec, terrain

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = sorted((ROOT / "rulesets" / "umr" / "scenarios").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_candidates_are_few_legal_and_include_ending_the_activation(path):
    """UMR-ROUND: every candidate passes check(); one of them moves play on."""
    g = new_game(load_scenario(path))
    for step in range(40):
        side = g.to_act()
        if side is None:
            break
        cands = g.candidates()
        assert 1 <= len(cands) <= 60
        assert any(isinstance(a, EndActivation) for a in cands)
        for a in cands:
            assert g.check(a).ok, (a, g.check(a).reason)
        g.apply(cands[(step * 7) % len(cands)])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_random_games_end(path):
    """UMR-END / UMR-I-TURN-LIMIT: games between random agents finish with an outcome."""
    for seed in range(2):
        scn = load_scenario(path)
        scn.seed = seed
        scn.turn_limit = 4
        g = new_game(scn)
        out = play(g, {s: RandomAgent(seed + i) for i, s in enumerate(g.state.sides)})
        assert out is not None and g.state.over is not None
        assert g.state.turn <= 4


def test_candidates_offer_fights_and_shots():
    """UMR-MELEE / UMR-BALLISTIC: a foe in contact is offered as a fight, not a shot."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 10.99, 10), spec("y", "red", 20, 20))
    kinds = {(a.KIND, getattr(a, "target", "")) for a in g.candidates("blue")}
    assert ("fight", "x") in kinds and ("shoot", "y") not in kinds
    g = game(spec("a", "blue", 10, 10), spec("y", "red", 20, 20))
    assert ("shoot", "y") in {(a.KIND, getattr(a, "target", "")) for a in g.candidates("blue")}


def test_score_prefers_more_health_and_models():
    """UMR-HEALTH: the heuristic counts health left and models on the table."""
    g = game(spec("a", "blue", 10, 10, stats={"BALLISTIC": 2}), spec("x", "red", 20, 10))
    before = RS.score(g.state, "blue")
    assert before == 0 and RS.score(g.state, "red") == 0
    apply(g, Shoot(actor="a", target="x"), [5, 1, 4])
    assert RS.score(g.state, "blue") == before + 4 and RS.score(g.state, "red") == -4


def test_candidates_offer_climbs_and_jumps_for_the_window():
    """UMR-CLIMBING / UMR-I-JUMP: a model at a wall is offered the climb, one on the bank of
    water between it and the enemy the leap; every candidate is legal."""
    g = game(
        spec("a", "blue", 11.3, 30),
        spec("b", "blue", 11.3, 10),
        spec("x", "red", 20, 10),
        features=(
            terrain("w", "wall", (12, 25, 13, 35), height=3),
            terrain("r", "river", (12, 5, 15, 15)),
        ),
    )
    cands = g.candidates("blue")
    kinds = {a.KIND for a in cands}
    assert {"climb", "jump"} <= kinds
    assert all(g.check(a).ok for a in cands)


def test_charge_follows_the_players_waypoints():
    """UMR-I-MOVE: a charge from the window may bend round terrain, then goes into contact."""
    wall = (terrain("w", "wall", (14, 8, 14.5, 12)),)
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 18, 10), features=wall)
    assert "stands between" in g.check(Charge(actor="a", target="x")).reason
    c = Charge(actor="a", target="x", path=((10, 10), (14.2, 13.5)))
    assert g.check(c).ok
    apply(g, c, [6])  # 5.5" to the corner, then on toward x: not enough
    apply(g, Charge(actor="a", target="x"), [5])  # now the straight line is clear
    assert any(e.outcome == "contact" for e in g.log.events)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_the_quick_shot_check_gives_the_full_verdict(path):
    """UMR-BALLISTIC / UMR-RANGE: the candidate list checks shots the quick way (the
    visible share and the range only, no cover, no blocker names); it must allow exactly
    the shots the full check allows, at every point of a random game."""
    from rulesets.umr import rules

    g = new_game(load_scenario(path))
    agent = RandomAgent(3)
    for step in range(25):
        side = g.to_act()
        if side is None:
            break
        for m in g.state.live(side):
            for t in g.state.live():
                if t.side != side:
                    a = Shoot(actor=m.id, target=t.id)
                    quick = rules.check(g.state, a, g.ctx, quick=True)
                    assert bool(quick) == bool(rules.check(g.state, a, g.ctx)), (a, quick)
        g.apply(agent.choose(g.clone(dice_seed=step), side))


def test_frozen_answers_do_not_outlive_the_candidate_list():
    """UMR-MELEE: contacts are remembered only while the candidate list is built; a base
    moved afterwards is seen at once."""
    from rulesets.umr import state as umr_state
    from rulesets.umr.chapters import measure

    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10))
    st = g.state
    a = st.models["a"]
    with umr_state.frozen(st):
        assert measure.foes_in_contact(st, a) == []
        assert measure.live(st) is measure.live(st)
        st.models["x"].x = 10.99  # a frozen state must not change: the answer stays
        assert measure.foes_in_contact(st, a) == []
    assert [o.id for o in measure.foes_in_contact(st, a)] == ["x"]
    assert ("fight", "x") in {(c.KIND, getattr(c, "target", "")) for c in g.candidates("blue")}


def test_move_odds_measure_distance_and_shot_odds_damage():
    """UMR-MOVEMENT / UMR-BALLISTIC: a movement roll's odds count inches, a shot's count
    damage (engine Odds.measures):
    an agent ranking attacks by expected harm must not take a long move for a hit."""
    from engine.actions import Move
    from engine.ruleset import DAMAGE, DISTANCE

    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10))
    assert g.odds(Move(actor="a", to=(10.0, 14.0))).measures == DISTANCE
    assert g.odds(Shoot(actor="a", target="x")).measures == DAMAGE


def test_search_rollouts_shoot_rather_than_walk():
    """UMR-BALLISTIC, UMR-I-ODDS: the search's rollout policy plays the attack with the
    best expected damage; a
    move's expected distance (about 3.5") is not damage and is not compared with it."""
    from engine.agents import SearchAgent

    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10))
    picked = SearchAgent(1)._policy(g.clone(dice_seed=1), "blue", 5)
    assert isinstance(picked, Shoot) and picked.target == "x"


def test_score_counts_the_shots_each_side_has():
    """AI hint: with the table at hand the score adds 0.4 x (own best shots' expected
    damage - the enemy's), so a model behind cover scores better than one in the open.
    Figures: a model with no stats shooting another 10" away (short range, no cover) hits
    5/12 of the time (attack d6 must beat defence d6, UMR-BALLISTIC) and a hit's damage
    die keeps rolling on sixes (expected 3.5 x 6/5 = 4.2, UMR-SIX-DAMAGE): 1.75."""
    from rulesets.umr import score

    open_ = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10))
    fire = score.firepower(open_.state, open_.ctx)
    assert fire["blue"] == pytest.approx(1.75, rel=1e-6) == fire["red"]
    assert open_.score("blue") == pytest.approx(0.0)
    wall = terrain("w", "building", (14, 6, 16, 14), height=0)
    hidden = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10), features=(wall,))
    fire = score.firepower(hidden.state, hidden.ctx)
    assert fire == {"blue": 0.0, "red": 0.0}
    # cover on one side only: the model behind the hedge is harder to hit
    hedge = terrain("h", "hedge", (18.5, 8, 18.8, 12))
    covered = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10), features=(hedge,))
    assert covered.score("red") > 0 > covered.score("blue")


def test_firepower_cache_tells_stats_apart():
    """UMR-PERSONALITY / UMR-BALLISTIC: the shot cache is keyed by stats, not profile
    name, so a sharper shooter at the same spot is valued higher: with BALLISTIC +2 the
    attack beats the defence 2/3 of the time instead of 5/12, times 4.2 damage = 2.8."""
    from rulesets.umr import score

    plain = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10))
    sharp = plain.clone(dice_seed=1)  # same table, same place, same profile name
    # a new stats dict: a copy shares its models' stats (engine.state.fixed_stats)
    sharp.state.models["a"].stats = {**sharp.state.models["a"].stats, "BALLISTIC": 2}
    assert score.firepower(plain.state, plain.ctx)["blue"] == pytest.approx(1.75, rel=1e-6)
    assert score.firepower(sharp.state, sharp.ctx)["blue"] == pytest.approx(2.8, rel=1e-6)


def test_frozen_answers_belong_to_their_state_and_thread():
    """UMR-ROUND: the AI's frozen answers (``measure.frozen``, issue 17) are owned by
    the state they are about: inside the block a question is answered once (here
    deliberately kept after the state is changed, to see it), a copy of the state and
    another thread ask afresh, and the block's end forgets them."""
    import threading

    from rulesets.umr import state as umr_state
    from rulesets.umr.chapters import measure

    g = game(spec("a", "blue", 10, 10), spec("b", "red", 20, 10))
    st = g.state
    a, b = st.models["a"], st.models["b"]
    with umr_state.frozen(st):
        assert measure.foes_in_contact(st, a) == []
        b.x = 10.0 + 25.0 / 25.4  # into base contact: the frozen answer stands
        assert measure.foes_in_contact(st, a) == []
        twin = st.copy()
        assert [m.id for m in measure.foes_in_contact(twin, twin.models["a"])] == ["b"]
        seen: list[list[str]] = []
        t = threading.Thread(
            target=lambda: seen.append([m.id for m in measure.foes_in_contact(st, a)])
        )
        t.start()
        t.join()
        assert seen == [["b"]]
        with umr_state.frozen(st):
            assert [m.id for m in measure.foes_in_contact(st, a)] == ["b"]
            b.x = 20.0
        assert [m.id for m in measure.foes_in_contact(st, a)] == []
        b.x = 10.0 + 25.0 / 25.4
    assert [m.id for m in measure.foes_in_contact(st, a)] == ["b"]


def test_greedy_does_not_start_a_climb_that_buys_nothing():
    """UMR-CLIMBING: a climb under way holds the model's next dice, so a climb that gains
    no shot is valued below ending the activation (before, the two tied and the
    computer picked either: a squad leader spent a mirror game half-way up a ruin)."""
    from engine.actions import EndActivation
    from engine.agents.greedy import GreedyAgent
    from rulesets.umr.actions import Climb

    g = game(
        spec("a", "blue", 11.3, 30),
        spec("x", "red", 60, 40),
        features=(terrain("w", "building", (12, 25, 16, 35), height=9),),
    )
    climb, end = Climb(actor="a", feature="w"), EndActivation(actor="a")
    assert g.check(climb).ok and g.check(end).ok
    for seed in range(4):
        options = GreedyAgent(seed).weigh(g, "blue", [climb, end], 0.0, 1000 + seed)
        assert options[0].action == end, [(o.action.describe(), o.value) for o in options]
        assert options[0].value > options[1].value + 0.5


def test_the_normal_level_pulls_toward_the_enemy_at_six_tenths():
    """UMR-MOVEMENT / UMR-BALLISTIC, AI hint (issue 20): UMR's greedy agent weighs its
    options with 0.6 of the engine's pull toward the enemy (``UMR.engage_scale``):
    ``ENGAGE_PER_INCH`` (0.01) of an enemy model's worth per inch closed, 0.006 x worth. Figures: one model with no stats
    each side, 18" apart in the open; the enemy model's worth (``greedy.worth``) is its
    15 health and the 5 a model counts (the two long shots cancel before, none is left
    after): 20, a pull of 0.12 a inch (0.2 before). At the full pull a walk was worth
    about a long-range hit and the computer walked instead of shooting."""
    from engine.agents import greedy

    g = game(spec("a", "blue", 10, 10), spec("x", "red", 28, 10))
    seen: list[float] = []
    agent = greedy.GreedyAgent(seed=1)
    weigh = agent.weigh

    def spy(game, side, candidates, pull, common, *rest):
        seen.append(pull)
        return weigh(game, side, candidates, pull, common, *rest)

    agent.weigh = spy
    agent.choose(g.clone(dice_seed=1), "blue")
    worth = greedy.worth(g, "blue")
    assert worth == pytest.approx(20.0)
    assert seen == [pytest.approx(0.12, rel=1e-9)]
