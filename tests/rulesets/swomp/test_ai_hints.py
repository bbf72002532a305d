"""The AI's hints: the candidate list (candidates.py) and the position score (score.py).

Each test pins one hint with exact figures so that removing or mis-weighting it fails:
shots beyond range are not offered (SWOMP-I-RANGE: range is measured after declaring),
a squad's models may fire on their own, an advance aims the narrowest fire arc, an idle
overwatch costs the model its next action, and overwatch fire owed is priced in.
"""

import math

import pytest

from engine.actions import Move, Shoot
from engine.battlefield import base_radius_in
from engine.ruleset import load
from rulesets.swomp import candidates, rules, score
from rulesets.swomp.chapters import contest, core, cover_moves, table

from .helpers import make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def shots(g, side="blue"):
    return [a for a in g.candidates(side) if isinstance(a, Shoot)]


def test_a_shot_beyond_range_is_not_offered():
    """SWOMP-I-RANGE: a boltgun (24") at a marine 30" away would be declared and miss;
    the list leaves it out, and offers it once the target is within range."""
    far = make([m("b", "blue", 30, 6, facing=90), m("r", "red", 30, 37, facing=270)])
    assert table.distance(far.state.models["b"], far.state.models["r"]) == pytest.approx(
        30.016, abs=1e-3
    )
    assert rules.check(far.state, Shoot(actor="b", target="r", weapon="boltgun"), far.ctx).ok
    assert shots(far) == []
    near = make([m("b", "blue", 30, 6, facing=90), m("r", "red", 30, 30, facing=270)])
    assert shots(near) == [Shoot(actor="b", target="r", weapon="boltgun")]


def test_overwatch_fire_beyond_range_is_not_offered():
    """The overwatch reaction offers passing, and shots only at targets within range."""
    g = make([m("b", "blue", 30, 6, facing=90), m("r", "red", 30, 42, facing=270)], first="red")
    g.state.models["b"].vars["overwatch"] = True
    g.apply(Move(actor="r", to=(30.0, 36.0)))  # 28.0" away: seen, but beyond 24"
    assert g.to_act() == "blue"
    assert [a.KIND for a in g.candidates("blue")] == ["choose"]


def test_squad_models_fire_on_their_own_when_the_squad_shot_would_waste_some():
    """A unit's shot also fires models the target is out of range of, so then the list
    offers only each model's own shot at what it can reach (all legal)."""
    g = make(
        [
            m("b1", "blue", 10, 6, unit="sq", facing=90),
            m("b2", "blue", 10, 2, unit="sq", facing=90),
            m("r", "red", 10, 29, facing=270),
        ]
    )
    st = g.state
    assert (
        table.distance(st.models["b1"], st.models["r"])
        < 24
        < table.distance(st.models["b2"], st.models["r"])
    )
    offered = shots(g)
    assert offered == [Shoot(actor="b1", target="r", weapon="boltgun")]
    assert all(rules.check(st, a, g.ctx).ok for a in g.candidates("blue"))
    g2 = make(
        [
            m("b1", "blue", 10, 6, unit="sq", facing=90),
            m("b2", "blue", 12, 6, unit="sq", facing=90),
            m("r", "red", 10, 29, facing=270),
        ]
    )
    assert Shoot(actor="sq", target="r", weapon="boltgun") in shots(g2)


def test_an_advance_turns_the_narrowest_arc_to_a_sighted_enemy():
    """A lascannon sees 20 degrees: the squad's advance faces it at the nearest enemy it
    can sight within range (bearing from the lascannon), not along the path; and one
    advance is short enough for the heavy weapon still to fire (SWOMP "Heavy weapons")."""
    g = make(
        [
            m("s", "blue", 20, 6, "marine_sergeant", unit="sq", facing=90),
            m("lc", "blue", 24, 6, "marine_lascannon", unit="sq", facing=90),
            m("r", "red", 44, 30, facing=270),
        ]
    )
    face = round(table.bearing((24.0, 6.0), (44.0, 30.0)), 1)
    assert face == 50.2
    moves = [a for a in g.candidates("blue") if isinstance(a, Move) and a.actor == "sq"]
    forward = [a for a in moves if a.to[1] > 6.0]
    assert forward and all(a.facing == face for a in forward)
    # the lead is the lascannon (ids in order): 1 x MR, and the 2" it may move and fire
    lead = g.state.models["lc"]
    assert sorted(round(math.dist(lead.pos, a.to), 1) for a in forward) == [2.0, 4.0]
    assert all(rules.check(g.state, a, g.ctx).ok for a in moves)
    assert candidates.aim(g.state, g.ctx, [g.state.models["s"]]) is None  # 90 degree arc


def test_idle_overwatch_costs_the_next_action():
    """Overwatch with no enemy in range scores IDLE_WATCH lower; with one in range the
    watch may fire first and costs nothing."""
    g = make([m("b", "blue", 30, 6, facing=90), m("r", "red", 30, 42, facing=270)])
    st = g.state
    before = score.score(st, "blue")
    st.models["b"].vars["overwatch"] = True
    assert score.score(st, "blue") - before == pytest.approx(score.IDLE_WATCH)
    st.models["r"].y = 28.0
    watching = score.score(st, "blue")
    st.models["b"].vars.pop("overwatch")
    assert score.score(st, "blue") == pytest.approx(watching)


def test_overwatch_fire_owed_is_priced_in():
    """A move that ends in sight of an enemy watcher hands it a shot: the mover's score
    drops by REACTION_SHARE of that shot's expected points (PR 4 + WR 2 + overwatch 1
    against DR 4 + armour 4, one wound kills a 44-point marine); the watcher's rises."""
    g = make([m("b", "blue", 30, 12, facing=90), m("r", "red", 30, 42, facing=270)], first="red")
    st = g.state
    st.models["b"].vars["overwatch"] = True
    g.apply(Move(actor="r", to=(30.0, 34.0)))  # 8": no movement bonus; 21" from b
    assert st.pending and g.to_act() == "blue"
    p = float(contest.p_win(7, 8))
    assert p == pytest.approx(0.38)
    owed = score.REACTION_SHARE * p * 44
    assert score.reaction_fire(st, "blue") == pytest.approx(owed)
    assert score.reaction_fire(st, "red") == pytest.approx(-owed)
    rs = load("swomp")
    with_fire = rs.score(st, "red")
    st.pending.clear()
    assert with_fire - rs.score(st, "red") == pytest.approx(-owed)


def test_a_declared_charge_and_an_engagement_are_priced_in():
    """SWOMP "Close Combat": a charge is valued before its strike is rolled. The
    captain's charge (CR 6 + power sword 2 + charging 1 = 9 against DR 4 + armour 4 = 8)
    counts at STRIKE_SHARE; then each engaged model's next strike (8 against 8; the
    marine's CR 4 against the captain's 4 + 4 + field 2 + parry 1 = 11) is ours to gain
    and theirs to lose."""
    from rulesets.swomp.actions import SwompCharge

    g = make(
        [m("b", "blue", 30, 10, "marine_captain", facing=90), m("r", "red", 30, 16, facing=270)]
    )
    st = g.state
    assert score.melee_edge(st, "blue") == 0.0
    g.apply(SwompCharge(actor="b", target="r"))
    assert g.to_act() == "red"  # the marine may stand or retreat first
    assert score.cc_hp(9, 8, 0, 1) == pytest.approx(0.53)
    strike = score.STRIKE_SHARE * 0.53 * 44
    nxt = score.cc_hp(8, 8, 0, 1) * 44 - score.cc_hp(4, 11, 0, 3) * 84 / 3
    assert score.melee_edge(st, "blue") == pytest.approx(strike + nxt)
    assert score.melee_edge(st, "red") == pytest.approx(-(strike + nxt))


# --- moves into cover (cover_moves.py) ------------------------------------------------------

WALL = ((28.0, 20.0), (32.0, 20.0), (32.0, 20.4), (28.0, 20.4))


def test_the_spot_behind_a_wall_is_just_past_it_as_the_foe_sees_it():
    """The spot clears the wall's far face by the base's radius and CLEAR (0.4"): a wall
    0.4" thick with its centre at y 20.2, seen from straight ahead at y 40."""
    r = base_radius_in(25.0)
    assert r == pytest.approx(0.49213, abs=1e-5)
    spot = cover_moves.behind(((30.0, 20.2), WALL), (30.0, 40.0), r)
    assert spot == pytest.approx((30.0, 20.2 - 0.2 - r - 0.4))
    assert cover_moves.covered(spot, r, (30.0, 40.0), [((30.0, 20.2), WALL)])
    # the same spot seen from the other side has the wall behind it: no cover
    assert not cover_moves.covered(spot, r, (30.0, 0.0), [((30.0, 20.2), WALL)])


def test_a_lone_trooper_is_offered_the_move_behind_the_wall_and_gets_hard_cover():
    """SWOMP cover: the list offers the move that ends snug behind the low wall, and
    from there the enemy's line of fire crosses it (hard cover, +2 DR); where it
    stands it has none. The move (7.11") is within its 8" (2 x MR, moving only)."""
    g = make(
        [m("b", "blue", 30, 12, facing=90), m("r", "red", 30, 40, facing=270)],
        terrain=(("low_wall", WALL),),
    )
    st = g.state
    assert table.sight(g.ctx, st.models["r"], st.models["b"]) == (True, table.NONE)
    to = (30.0, round(20.2 - 0.2 - base_radius_in(25.0) - 0.4, 2))
    offered = [a for a in g.candidates("blue") if isinstance(a, Move) and a.to == to]
    assert offered, g.candidates("blue")
    g.apply(offered[0])
    assert st.models["b"].pos == to
    assert table.sight(g.ctx, st.models["r"], st.models["b"]) == (True, table.HARD)


def test_a_squad_is_offered_the_moves_that_cover_the_most_of_it():
    """A unit moves as one, so a spot is judged by how many of its models end in cover:
    behind the long wall both marines are covered; the short wall's spot is nearer (a
    2.9" move) but would cover one, so both moves offered go behind the long wall."""
    long_wall = ((20.0, 22.0), (40.0, 22.0), (40.0, 22.4), (20.0, 22.4))
    short_wall = ((29.0, 17.0), (31.0, 17.0), (31.0, 17.4), (29.0, 17.4))
    specs = [
        m("b1", "blue", 28, 14, unit="sq", facing=90),
        m("b2", "blue", 32, 14, unit="sq", facing=90),
        m("r", "red", 30, 44, facing=270),
    ]
    terrain = (("low_wall", long_wall), ("low_wall", short_wall))
    g = make(specs, terrain=terrain)
    st = g.state
    ms = core.unit_models(st, "sq")
    foe = st.models["r"]
    short = cover_moves.behind(((30.0, 17.2), short_wall), foe.pos, base_radius_in(25.0))
    assert math.dist(short, ms[0].pos) == pytest.approx(2.9, abs=0.05)
    moves = cover_moves.moves(g.ctx, ms, "sq", foe, 8.0, None)
    assert len(moves) == cover_moves.OFFERED == 2
    for move in moves:
        g = make(specs, terrain=terrain)
        g.apply(move)
        placed = core.unit_models(g.state, "sq")
        assert all(21 < b.y < 22 for b in placed)  # just this side of the long wall
        assert [table.sight(g.ctx, g.state.models["r"], b)[1] for b in placed] == [
            table.HARD,
            table.HARD,
        ]


# --- the firepower balance (score.firepower) ----------------------------------------------


def test_best_shot_is_the_exact_shot_at_a_target_the_targeting_rule_allows():
    """SWOMP "Targeting": a lascannon (PR 4 + WR 7 = 11; heavy, so no stand-still bonus)
    must aim at the closest medium target: a 44-point marine (DR 4 + armour 4 = 8, one
    wound) although the 84-point captain behind it (DR 4 + armour 4 + field 2 = 10, three
    wounds, all taken by Dam 3) would be worth more. With the marine gone the captain is
    the shot."""
    g = make(
        [
            m("lc", "blue", 30, 6, "marine_lascannon", facing=90),
            m("r", "red", 30, 30, facing=270),
            m("cap", "red", 34, 40, "marine_captain", facing=270),
        ]
    )
    st = g.state
    marine = score.p_win(11, 8) * 44
    captain = score.p_win(11, 10) * 84
    assert marine == pytest.approx(0.66 * 44) and captain == pytest.approx(0.53 * 84)
    assert captain > marine  # the rule, not the value, picks the marine
    assert score.best_shot(st, g.ctx, st.models["lc"]) == pytest.approx(marine)
    st.models["r"].removed = True
    assert score.best_shot(st, g.ctx, st.models["lc"]) == pytest.approx(captain)


def test_firepower_counts_cover_range_and_engagement():
    """A boltgun (PR 4 + WR 2 = 6) at a 44-point marine in the open (DR 4 + armour 4 = 8)
    hits 32% of the time; snug behind a low wall the marine has hard cover (+2, so 10:
    23%) while the marine shooting it, far from the wall, has none; beyond 24" there
    is no shot; a model locked in close combat neither shoots nor is shot."""
    wall = ((26.0, 27.0), (34.0, 27.0), (34.0, 27.4), (26.0, 27.4))
    specs = [m("b", "blue", 30, 10, facing=90), m("r", "red", 30, 28.1, facing=270)]
    open_ = make(specs)
    walled = make(specs, terrain=(("low_wall", wall),))
    assert table.sight(walled.ctx, walled.state.models["b"], walled.state.models["r"]) == (
        True,
        table.HARD,
    )
    assert score.firepower(open_.state, open_.ctx) == pytest.approx(
        {"blue": 0.32 * 44, "red": 0.32 * 44}
    )
    assert score.firepower(walled.state, walled.ctx) == pytest.approx(
        {"blue": 0.23 * 44, "red": 0.32 * 44}
    )
    far = make([m("b", "blue", 30, 4, facing=90), m("r", "red", 30, 30, facing=270)])
    assert score.firepower(far.state, far.ctx) == {"blue": 0.0, "red": 0.0}
    core.engage(open_.state.models["b"], open_.state.models["r"])
    assert score.firepower(open_.state, open_.ctx) == {"blue": 0.0, "red": 0.0}


def test_the_score_adds_the_firepower_balance_with_the_table_at_hand():
    """With ctx the score adds FIRE_WEIGHT x (own firepower - the enemy's): a lascannon
    (66% against a 44-point marine) facing a lone boltgun (32% against the 55-point
    lascannon marine) is worth more to its side than without the table."""
    g = make(
        [m("lc", "blue", 30, 10, "marine_lascannon", facing=90), m("r", "red", 30, 30, facing=270)]
    )
    st = g.state
    rs = load("swomp")
    fire = score.firepower(st, g.ctx)
    assert st.models["lc"].vars["points"] == 55
    assert fire == pytest.approx({"blue": 0.66 * 44, "red": 0.32 * 55})
    gain = score.FIRE_WEIGHT * (fire["blue"] - fire["red"])
    assert gain > 0
    assert rs.score(st, "blue", g.ctx) - rs.score(st, "blue") == pytest.approx(gain)
    assert rs.score(st, "red", g.ctx) - rs.score(st, "red") == pytest.approx(-gain)
