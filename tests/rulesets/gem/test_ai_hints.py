"""The AI's hints: GEM's position score (score.py) and the objective moves in its
candidate list (candidates.py).

Each test pins one term with exact figures so that removing or mis-weighting it fails:
material counted as the share of points kept (GEM-I-TURNLIMIT), an objective held,
denied and approached (GEM-3.7), a melee's expected exchange (GEM-2.3), the threat of
an enemy charge, and the pull of missile range.
"""

import math

import pytest

from engine.actions import Charge, Move
from engine.testing import to_phase
from rulesets.gem import score as scoring
from rulesets.gem.candidates import _toward
from rulesets.gem.chapters import melee_value
from rulesets.gem.chapters.points import model_value
from rulesets.gem.rules import check

from .helpers import make, model

HILL = {"id": "hill", "x": 36.0, "y": 24.0, "radius": 3.0, "side": "blue", "by_turn": 8}


def duel(bx=10.0, by=10.0, rx=60.0, ry=40.0, objectives=(), **kw):
    specs = [
        model("b", "blue", bx, by, 0, stats={"OFF": 5, "DEF": 5, "MOV": 6}, **kw),
        model("r", "red", rx, ry, 180, stats={"OFF": 5, "DEF": 5, "HIT": 3, "MOR": 5}),
    ]
    return make(specs, vars_={"objectives": list(objectives)})


def test_material_is_the_share_of_points_kept():
    """GEM-I-TURNLIMIT: the turn limit compares the share each side keeps, so a HIT off
    the 3-HIT red figure is worth a third of its value, scaled by the mean army."""
    g = duel()
    st = g.state
    before = scoring.score(st, "blue")
    st.models["r"].hp = 2
    k = (model_value(st.models["b"]) + model_value(st.models["r"])) / 2
    assert scoring.scale(st) == pytest.approx(k)
    assert scoring.kept(st, "red") == pytest.approx(2 / 3)
    assert scoring.score(st, "blue") - before == pytest.approx(k / 3)


def test_holding_an_objective_and_denying_it():
    """GEM-3.7: a figure of the objective's side inside the radius with no enemy there
    holds it (HOLD plus the full pull); one enemy figure inside denies it, worth to the
    enemy its guard (``guard``: its 3 HIT against blue's 1 near the hill, never fewer
    than GUARD_HIT) and taking HOLD away. Red pulls by strength (``guard_pull``): its one
    unit has all its HIT."""
    g = duel(bx=36.0, by=24.0, objectives=[HILL])
    st = g.state
    r_pull = scoring.GUARD_PULL * scoring.closeness(math.dist((60, 40), (36, 24)) - 3, 30)
    assert scoring.objective_value(st, "blue") == pytest.approx(scoring.HOLD + scoring.OBJ_PULL)
    assert scoring.objective_value(st, "red") == pytest.approx(-scoring.HOLD + r_pull)
    st.models["r"].x, st.models["r"].y = 37.0, 25.0
    guard = scoring.GUARD * 3 / (3 + scoring.GUARD_HIT)
    assert scoring.objective_value(st, "blue") == pytest.approx(scoring.OBJ_PULL)
    assert scoring.objective_value(st, "red") == pytest.approx(guard + scoring.GUARD_PULL)


def test_the_objective_pulls_its_side_closer():
    """Each inch nearer the radius is worth OBJ_PULL / OBJ_SPAN to the nearest figure."""
    g = duel(bx=36.0, by=9.0, objectives=[HILL])  # 15" from the centre, 12" beyond r
    st = g.state
    far = scoring.objective_value(st, "blue")
    assert far == pytest.approx(scoring.OBJ_PULL * (1 - 12 / scoring.OBJ_SPAN))
    st.models["b"].y = 13.0
    assert scoring.objective_value(st, "blue") - far == pytest.approx(
        4 * scoring.OBJ_PULL / scoring.OBJ_SPAN
    )


def test_objective_moves_are_offered_and_legal():
    """GEM-3.7: both sides need a way onto the objective: a move and a rush toward it."""
    g = duel(bx=36.0, by=9.0, objectives=[HILL])
    to_phase(g, "movement", "blue")
    cands = g.candidates("blue")
    walk = Move(actor="b", to=_toward((36.0, 9.0), (36.0, 24.0), 6 * 0.9))
    rush = Move(actor="b", to=_toward((36.0, 9.0), (36.0, 24.0), 6 * 1.6), mode="rush")
    assert walk in cands and rush in cands
    assert all(check(g.state, a, g.ctx).ok for a in cands)


def test_a_melee_is_valued_by_its_expected_exchange():
    """GEM-2.3: after a charge the melee is worth what each side should strike off the
    other next segment: blue OFF 5 vs DEF 5 needs 11+, +2 for the charge (12 faces in
    20), on a 3-HIT figure; red needs 11+ (10 faces in 20) on blue's single HIT. Blue
    has the initiative (GEM-2.0.1) and strikes first: red strikes back only if fewer
    than its 3 HIT fall (Poisson odds of 0.6 expected hits). Each side's hits are a
    Poisson count too, no more than the figure's HIT of them struck off."""
    g = duel(bx=10.0, by=10.0, rx=14.0, ry=10.0)
    to_phase(g, "movement", "blue")
    g.dice.force([20])  # any fear check passes
    g.apply(Charge(actor="b", target="r"))
    st = g.state
    vb, vr = model_value(st.models["b"]), model_value(st.models["r"])
    assert melee_value.p_hit(5, 5, 2) == 0.6 and melee_value.p_hit(5, 5, 0) == 0.5
    keeps = sum(math.exp(-0.6) * 0.6**k / math.factorial(k) for k in range(3))
    on_r = sum(
        1 - sum(math.exp(-0.6) * 0.6**j / math.factorial(j) for j in range(k)) for k in (1, 2, 3)
    )
    edge = on_r * vr / 3 - (1 - math.exp(-0.5 * keeps)) * vb
    assert melee_value.melee_edge(st, "blue") == pytest.approx(edge)
    assert melee_value.melee_edge(st, "red") == pytest.approx(-edge)


def test_a_figure_within_an_enemy_charge_is_exposed():
    """A figure within the move of an enemy that out-fights it loses THREAT_SHARE of the
    exchange that charge would open; out of reach it loses nothing."""
    g = duel(bx=10.0, by=10.0, rx=14.5, ry=10.0)
    st = g.state
    b, r = st.models["b"], st.models["r"]
    r.stats["OFF"] = 8
    threat = (
        1 * melee_value.p_hit(8, 5, 2) * model_value(b)
        - 1 * melee_value.p_hit(5, 5, 0) * model_value(r) / 3
    )
    assert threat > 0
    assert scoring.exposure(st, "blue") == pytest.approx(scoring.THREAT_SHARE * threat)
    r.x = 30.0
    assert scoring.exposure(st, "blue") == 0.0


def test_missile_range_pulls_a_little():
    """A bow (range 24) gains IN_RANGE with an enemy in range, fading over FIRE_SPAN."""
    bow = [{"name": "bow", "OFF": 4, "ATT": 1, "range": 24}]
    g = duel(bx=10.0, by=10.0, rx=40.0, ry=10.0, weapons=bow)  # 30" apart: 6" short
    st = g.state
    assert scoring.fire_pull(st, "blue") == pytest.approx(
        scoring.IN_RANGE * (1 - 6 / scoring.FIRE_SPAN)
    )
    st.models["b"].x = 20.0
    assert scoring.fire_pull(st, "blue") == pytest.approx(scoring.IN_RANGE)
    assert scoring.fire_pull(st, "red") == 0.0


def test_a_block_threatens_as_one_and_no_more_than_a_figure_is_worth():
    """A block charges as one unit (GEM-2.1.2), so its threat is counted once, led by its
    front rank; and its many dice can take no more than the single HIT a slinger has."""
    from rulesets.gem.score import THREAT_SHARE, exposure

    from .helpers import block_specs

    specs = block_specs("hop", "red", (20.0, 13.0), 270.0, 8, 4) + [
        model("s", "blue", 20.0, 10.0, 90, profile="slinger"),
    ]
    g = make(specs)
    st = g.state
    s, lead = st.models["s"], st.models["hop1"]
    assert 4 * melee_value.p_hit(5, 3, 2) > 1  # four spears at DEF 3: more hits than HIT
    back = melee_value.p_hit(2, 6, 0) * model_value(lead)
    assert exposure(st, "blue") == pytest.approx(THREAT_SHARE * (model_value(s) - back))


def test_melee_figures_close_on_foes_they_out_fight():
    """A figure with no missile weapon gains CLOSE for a foe it out-fights (a charge
    strikes off more than comes back, Table 1 with the +2 charge bonus) within its
    reach (MOV + 1), fading over CLOSE_SPAN inches beyond; an archer or a figure that
    would lose the exchange gains nothing."""
    g = duel(bx=10.0, by=10.0, rx=40.0, ry=10.0)  # 30" apart, reach 7": 23" beyond
    st = g.state
    b, r = st.models["b"], st.models["r"]
    r.stats["OFF"] = 1  # a poor fighter: blue's charge wins the exchange

    def out_fights() -> bool:
        return melee_value.charge_blows(b, 1, r, 2) > melee_value.charge_blows(r, 1, b, 0)

    assert out_fights()
    assert scoring.close_pull(st, "blue") == pytest.approx(
        scoring.CLOSE * (1 - 23 / scoring.CLOSE_SPAN)
    )
    r.x = 16.0  # within reach: the whole pull
    assert scoring.close_pull(st, "blue") == pytest.approx(scoring.CLOSE)
    b.stats["OFF"], r.stats["OFF"] = 1, 9  # now a charge would lose the exchange
    assert not out_fights()
    assert scoring.close_pull(st, "blue") == 0.0


def test_a_bowman_gains_no_close_pull():
    bow = [{"name": "bow", "OFF": 4, "ATT": 1, "range": 24}]
    g = duel(bx=10.0, by=10.0, rx=16.0, ry=10.0, weapons=bow)
    assert scoring.close_pull(g.state, "blue") == 0.0


def test_shots_are_offered_at_the_nearest_foes_that_can_be_hit():
    """GEM-2.2: a shot needs sight. The two nearest foes stand behind a building, so the
    menu must reach past them to the farther foe in the open (it once offered only the
    two nearest, both refused, and archers never loosed)."""
    from engine.actions import Shoot

    from .helpers import terrain

    specs = [
        model("b", "blue", 10.0, 10.0, 0, profile="archer"),
        model("r1", "red", 16.0, 10.0, 180, profile="hoplite"),
        model("r3", "red", 16.0, 9.0, 180, profile="hoplite"),
        model("r2", "red", 18.0, 16.0, 180, profile="hoplite"),
    ]
    house = terrain("building", [(12, 7), (14, 7), (14, 11), (12, 11)], height=3.0)
    g = make(specs, terrain_=(house,))
    to_phase(g, "missile", "blue")
    shots = [a for a in g.candidates("blue") if isinstance(a, Shoot)]
    assert shots == [Shoot(actor="b", target="r2", weapon="bow")]
    for hidden in ("r1", "r3"):
        assert not check(g.state, Shoot(actor="b", target=hidden, weapon="bow"), g.ctx).ok


def test_a_unit_fought_by_two_melees_loses_no_more_than_it_has():
    """GEM-2.3: a 1-HIT red figure fought in front by one blue figure and in the other
    melee by a second can lose its one HIT, not two: the expected blows on it are summed
    over its melees and capped at what it has, a Poisson count of hits of which one
    strikes it down (why: capped per melee, striking it down
    now lowered the edge by twice its worth, and the agent ended the segment instead).
    r itself fights once a turn, at one of them, and blue has the initiative (GEM-2.0.1):
    r strikes back only if no blow fell on it first."""
    from rulesets.gem.state import engage

    strong = {"OFF": 10, "DEF": 10, "MOV": 6}
    g = make(
        [
            model("b1", "blue", 10.0, 10.0, 0, stats=strong),
            model("b2", "blue", 10.0, 12.0, 0, stats=strong),
            model("r", "red", 11.0, 11.0, 180, stats={"OFF": 1, "DEF": 5, "HIT": 1}),
        ]
    )
    st = g.state
    engage(st, "b1", "r", "front", False)
    engage(st, "b2", "r", "front", False)
    p_in, p_out = melee_value.p_hit(10, 5, 0), melee_value.p_hit(1, 10, 0)
    assert 2 * p_in > 1  # each melee alone would strike most of its HIT off
    vb, vr = model_value(st.models["b1"]), model_value(st.models["r"])
    keeps = math.exp(-2 * p_in)
    edge = (1 - math.exp(-2 * p_in)) * vr - (1 - math.exp(-keeps * p_out)) * vb
    assert melee_value.melee_edge(st, "blue") == pytest.approx(edge)
    assert melee_value.melee_edge(st, "red") == pytest.approx(-edge)


def test_a_charge_from_behind_a_block_threatens_more_than_one_in_front():
    """GEM-2.3.3: a charger that starts behind a block strikes at +10 (rear) on top of
    the charge's +2, and each hit takes one figure, up to the whole block: a general
    behind a hoplite block threatens about two figures, one in front of it less than
    it would lose to the block's spears (the threat then counts as nothing)."""
    from rulesets.gem.score import THREAT_SHARE, exposure

    from .helpers import block_specs

    specs = block_specs("hop", "blue", (20.0, 13.0), 90.0, 4, 2) + [
        model("gen", "red", 20.0, 8.0, 90, profile="general"),
    ]
    g = make(specs)
    st = g.state
    gen, hop = st.models["gen"], st.models["hop1"]
    rear = 2 * melee_value.p_hit(6, 6, 2 + 10)
    assert rear == pytest.approx(1.9)  # two dice at +12 against DEF 6: nearly two figures
    assert exposure(st, "blue") > THREAT_SHARE * (rear * model_value(hop) - model_value(gen))
    gen.x, gen.y, gen.facing = 20.0, 17.5, 270.0  # now in front of the block
    assert exposure(st, "blue") == 0.0
