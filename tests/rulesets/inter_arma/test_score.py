"""The computer's reading of a position (issue 20): an even one-on-one contact is worth
nothing either way (IA-MELEE-1: the one attacked strikes back when it saves), two on
one pays (IA-MELEE-2: 1.5d6 for the initiative and both strike), and a wounded enemy
is worth finishing (IA-WOUNDED)."""

from __future__ import annotations

import math

import pytest

from rulesets.inter_arma import score
from tests.rulesets.inter_arma.helpers import BASE, fig, game


def _value(*specs) -> float:
    g = game(*specs)
    return score.score(g.state, "blue", g.ctx)


def test_two_on_one_pays_and_one_on_one_is_even():
    apart = _value(
        fig("a", "blue", 30.0, 10.0),
        fig("b", "blue", 30.0 + 2 * BASE + 0.5, 10.0),
        fig("g", "red", 30.0 + BASE, 10.0 + 5.0),
    )
    one = _value(
        fig("a", "blue", 30.0, 10.0),
        fig("b", "blue", 30.0 + 2 * BASE + 0.5, 20.0),
        fig("g", "red", 30.0 + BASE, 10.0),
    )
    two = _value(
        fig("a", "blue", 30.0, 10.0),
        fig("b", "blue", 30.0 + 2 * BASE, 10.0),
        fig("g", "red", 30.0 + BASE, 10.0),
    )
    assert two > one + 0.1
    assert abs(one - apart) < 0.05 + 0.02  # only the pull toward the enemy differs


def test_a_wounded_enemy_is_worth_finishing():
    whole = game(fig("a", "blue", 10.0, 10.0), fig("g", "red", 30.0, 10.0))
    hurt = game(fig("a", "blue", 10.0, 10.0), fig("g", "red", 30.0, 10.0))
    hurt.state.models["g"].set_status("wounded")
    gone = game(fig("a", "blue", 10.0, 10.0), fig("g", "red", 30.0, 10.0))
    gone.state.models["g"].removed = True
    v = [score.score(x.state, "blue", x.ctx) for x in (whole, hurt, gone)]
    assert v[0] < v[1] < v[2]
    assert v[2] - v[1] >= 0.2  # a quarter of a regular's worth is left to take


def test_touching_a_commander_alone_is_a_threat_to_oneself():
    """IA-MELEE-1, IA-SAVE: a commander has +2 on the initiative and on the save, so a
    regular in contact with him is in more danger than he is."""
    chief = {"class": "commander"}
    even = _value(fig("a", "blue", 30.0, 10.0), fig("g", "red", 30.0 + BASE, 10.0))
    alone = _value(fig("a", "blue", 30.0, 10.0), fig("g", "red", 30.0 + BASE, 10.0, **chief))
    apart = _value(fig("a", "blue", 30.0, 10.0), fig("g", "red", 30.0 + BASE, 15.0, **chief))
    assert alone < apart - 0.05
    assert (
        abs(even - _value(fig("a", "blue", 30.0, 10.0), fig("g", "red", 30.0 + BASE, 15.0))) < 0.07
    )


def test_the_pull_is_toward_enemies_still_able_to_fight():
    """IA-I-END: a wounded enemy is counted lost already; standing next to it is no
    closer to the fight than standing back."""
    near = game(
        fig("a", "blue", 10.0, 10.0), fig("h", "red", 14.0, 10.0), fig("g", "red", 50.0, 10.0)
    )
    back = game(
        fig("a", "blue", 6.0, 10.0), fig("h", "red", 14.0, 10.0), fig("g", "red", 50.0, 10.0)
    )
    for g in (near, back):
        g.state.models["h"].set_status("wounded")
    v = [score.score(g.state, "blue", g.ctx) for g in (near, back)]
    # 4 inches nearer the Gaul at 36-40 inches: the pull's span is 36 beyond 12
    assert v[0] - v[1] < 0.02 * 4 / 36 + 1e-9
    assert v[0] > v[1]


def test_a_contact_never_promises_more_than_its_clash():
    """IA-MELEE-3: three on one with a commander among them puts the enemy down about
    70% of the time; a contact once promised 0.6 x 2.0 of the figure, more than the
    clash, so the computer held it and never struck. The contact now promises the
    clash's own expected result, no more."""
    chief = {"class": "commander"}
    r = 2 * BASE
    ring = [(30.0 - BASE, 10.0), (30.0 + BASE, 10.0), (30.0, 10.0 + BASE)]
    g = game(
        fig("c", "blue", *ring[0], **chief),
        fig("a", "blue", *ring[1]),
        fig("b", "blue", *ring[2]),
        fig("g", "red", 30.0, 10.0),
    )
    three = score.score(g.state, "blue", g.ctx)
    apart = _value(
        fig("c", "blue", ring[0][0] - r, ring[0][1], **chief),
        fig("a", "blue", ring[1][0] + r, ring[1][1]),
        fig("b", "blue", ring[2][0], ring[2][1] + r),
        fig("g", "red", 30.0, 10.0),
    )
    m = g.state.models
    clash = score.best_clash(g.state, [m["c"], m["a"], m["b"]], m["g"])
    assert 0.5 < clash < 1.0
    assert clash - 0.02 <= three - apart <= clash + 0.02  # the pull's difference at most


def test_a_clash_is_read_with_its_armour_and_class():
    """IA-MELEE-1, IA-SAVE: one on one, each strikes first half the time and the one
    struck back at saves first. A Gallic warrior (shield, no armour: down on 3 or less)
    against a legionary (armour: down on 2 or less) puts him down 1/2 x 1/3 + 1/2 x 1/2
    x 1/3 = 1/4 and goes down 1/2 x 2/3 x 1/2 + 1/2 x 1/2 = 5/12; against an armoured
    centurion (+2 to save: no face puts him down) it only goes down, 1/2, for his +2
    on the initiative does not matter: he strikes first or back. The old reading by
    class alone called the warrior's clash even, and walked warriors into legionaries."""
    legionary = {"class": "regular", "armored": True, "shield": True}
    warrior = {"class": "regular", "shield": True}
    g = game(
        fig("w", "red", 30.0, 10.0, **warrior),
        fig("l", "blue", 30.0 + BASE, 10.0, **legionary),
        fig("c", "blue", 30.0 - BASE, 10.0, **{**legionary, "class": "commander"}),
    )
    m = g.state.models
    down, lost = score.clash(g.state, [m["w"]], m["l"])
    assert abs(down - 1 / 4) < 1e-9 and abs(lost - 5 / 12) < 1e-9
    down, lost = score.clash(g.state, [m["w"]], m["c"])
    assert down == 0.0 and abs(lost - 1 / 2) < 1e-9
    touching = _value(
        fig("w", "blue", 30.0, 10.0, **warrior), fig("l", "red", 30.0 + BASE, 10.0, **legionary)
    )
    apart = _value(
        fig("w", "blue", 30.0, 10.0, **warrior), fig("l", "red", 30.0 + BASE, 15.0, **legionary)
    )
    assert touching < apart - 0.1


def test_a_pair_counts_only_for_the_side_that_strikes_first():
    """IA-INITIATIVE, IA-I-CLASH: with red opening the melee phase, the red figure strikes
    one of the pair first, one on one, and neither may clash again that turn: blue's two
    on one promises no more than one on one. With blue first it pays, as before."""

    def pair(first: str) -> float:
        g = game(
            fig("a", "blue", 30.0, 10.0),
            fig("b", "blue", 30.0 + 2 * BASE, 10.0),
            fig("g", "red", 30.0 + BASE, 10.0),
            first=first,
        )
        return score.score(g.state, "blue", g.ctx)

    def single(first: str) -> float:
        g = game(
            fig("a", "blue", 30.0, 10.0),
            fig("b", "blue", 30.0 + 2 * BASE + 0.5, 20.0),
            fig("g", "red", 30.0 + BASE, 10.0),
            first=first,
        )
        return score.score(g.state, "blue", g.ctx)

    assert pair("blue") > single("blue") + 0.1
    assert pair("red") <= single("red") + 0.02  # the pull's difference at most


def test_losing_the_initiative_is_counted_before_the_turn_ends():
    """IA-MORALE 5-8: a side whose army test this turn lost it the initiative plays last
    from the next turn. A figure stepping out of contact calls that test (IA-I-BREAK),
    two times in three a 5-8; the score saw nothing of it and the computer stepped out
    30 times in 20 games against an enemy who never moved."""
    g = game(fig("a", "blue", 10.0, 10.0), fig("g", "red", 30.0, 10.0), first="blue")
    keep = score.score(g.state, "blue", g.ctx)
    g.state.vars["ia"]["lose_init"] = ["blue"]
    assert score.score(g.state, "blue", g.ctx) <= keep - 2 * score.INITIATIVE + 1e-9


def test_an_enemy_test_at_the_end_of_the_turn_is_worth_its_odds():
    """IA-I-CRITICAL, IA-MORALE: red has lost a third of its figures this turn and tests
    at the end of it; on a 0-4 (1 in 6 with no modifier) every able red figure runs.
    The same losses already tested at an earlier turn's end promise nothing more. The
    score missed the test, so ending the melee phase (where it falls) looked worth an
    enemy figure more than finishing a fight first."""
    specs = [fig("a", "blue", 10.0, 10.0)] + [
        fig(f"g{i}", "red", 40.0, 10.0 + 3 * i) for i in range(3)
    ]
    now, before = game(*specs), game(*specs)
    for g in (now, before):
        g.state.models["g0"].set_status("wounded")
    before.state.vars["morale_seen"] = {"red": 1}
    a, b = (score.score(g.state, "blue", g.ctx) for g in (now, before))
    assert a - b > 0.3  # a sixth of two fighting figures, at least
    assert score.retreat_risk(before.state, "red") == 0.0


ARCHER = {"class": "regular", "type": "skirmisher", "weapons": [{"name": "bow", "kind": "bow"}]}


def test_an_archer_is_worth_its_coming_shot():
    """IA-RANGED, IA-I-CONTACT: an archer 14 cm from a warrior (medium range: 4+ to hit,
    then the warrior's save fails on 3 or less) promises the ranged phase a quarter of
    a figure; in contact it may not shoot, and one on one with a warrior as good as he
    it promises nothing. The score saw no shot to come, and archers walked into melee."""
    gap = BASE + 7.0  # 14 cm between the bases
    aim = _value(fig("a", "blue", 30.0, 10.0, **ARCHER), fig("w", "red", 30.0 + gap, 10.0))
    far = _value(fig("a", "blue", 30.0, 10.0, **ARCHER), fig("w", "red", 30.0 + 20.0, 10.0))
    touch = _value(fig("a", "blue", 30.0, 10.0, **ARCHER), fig("w", "red", 30.0 + BASE, 10.0))
    assert abs(aim - far - score.FIRE * 0.25) < 0.02 + 1e-9  # the pull's difference at most
    assert aim > touch + 0.1


def test_standing_in_reach_of_the_enemy_bows_costs():
    """IA-RANGED: a legionary (armour: down on 2 or less) 4 cm from an enemy archer is
    hit on 3+ at short range and goes down a third of the time: 2/3 x 1/3 of a figure,
    at ``FIRE``, is taken off the score before the ranged phase, and nothing once the
    archer has shot this turn."""
    legionary = {"class": "regular", "armored": True, "shield": True}
    g = game(
        fig("l", "blue", 30.0, 10.0, **legionary),
        fig("a", "red", 30.0 + BASE + 2.0, 10.0, **ARCHER),
    )
    exposed = score.score(g.state, "blue", g.ctx)
    g.state.models["a"].vars["shot"] = g.state.turn
    assert score.score(g.state, "blue", g.ctx) - exposed == pytest.approx(score.FIRE * 2 / 9)


def test_a_lone_crawler_strikes_from_hiding():
    """IA-AMBUSH (5.V special): a crawling figure striking alone throws no initiative, and
    the soldier it strikes saves 2 worse (1 if armoured); only a commander that saves
    strikes back at once. A Gallic warrior (shield: down on 3 or less) goes down on 5 or
    less, 5/6, and the crawler risks nothing; a legionary (armour: down on 2 or less) on
    3 or less, 1/2; an armoured centurion (+2) on 1, 1/6, and strikes back the 5/6 he
    saves, putting the crawler (down on 3 or less) down half the time: 5/12. The score
    read it as an even clash, so the computer neither crawled in to strike nor feared
    the enemy crawling at its side."""
    warrior = {"class": "regular", "shield": True}
    legionary = {"class": "regular", "armored": True, "shield": True}
    g = game(
        fig("c", "blue", 30.0, 10.0, **warrior),
        fig("w", "red", 30.0 + BASE, 10.0, **warrior),
        fig("l", "red", 30.0 - BASE, 10.0, **legionary),
        fig("k", "red", 30.0, 10.0 + BASE, **{**legionary, "class": "commander"}),
    )
    m = g.state.models
    upright = score.clash(g.state, [m["c"]], m["w"])
    m["c"].set_status("crawling")
    assert score.clash(g.state, [m["c"]], m["w"]) == pytest.approx((5 / 6, 0.0))
    assert score.clash(g.state, [m["c"]], m["l"]) == pytest.approx((1 / 2, 0.0))
    assert score.clash(g.state, [m["c"]], m["k"]) == pytest.approx((1 / 6, 5 / 12))
    assert upright == pytest.approx((3 / 8, 3 / 8))  # upright, a fair fight (IA-MELEE-1)


def test_an_enemy_crawler_at_ones_side_is_a_threat():
    """IA-AMBUSH, IA-INITIATIVE: red opens the melee phase; its warrior crawling at a blue
    warrior's side strikes from hiding, 5/6 of a figure for nothing, where upright the
    clash is even."""
    warrior = {"class": "regular", "shield": True}
    g = game(
        fig("a", "blue", 30.0, 10.0, **warrior),
        fig("c", "red", 30.0 + BASE, 10.0, **warrior),
        first="red",
    )
    upright = score.score(g.state, "blue", g.ctx)
    g.state.models["c"].set_status("crawling")
    assert score.score(g.state, "blue", g.ctx) < upright - 0.5


def test_the_turn_limit_verdict_is_read_ahead():
    """IA-I-END: at the turn limit the side that lost fewer soldiers wins. One soldier
    behind with one turn to play (turn 8 of 8, the movement phase: ``left`` 1), the
    score counts 2Φ(−1/σ) − 1 = −erf(1/√2) of a win worth ``END_WORTH`` × (1 − 1/4)
    = 1.5 figures; in the melee phase of turn 6 (left 8 − 6 + 1 − 2/3 = 7/3) the weight is
    2 × (1 − 7/12) = 5/6 and σ = √(7/3); four turns or more from the limit, nothing;
    level, nothing. The score counted figures alone and fought the last turns one
    soldier behind as the first, waiting for the limit to lose."""
    g = game(
        fig("a", "blue", 10.0, 10.0),
        fig("b", "blue", 10.0, 20.0),
        fig("r", "red", 50.0, 10.0),
        fig("s", "red", 50.0, 20.0),
        turn_limit=8,
    )
    st = g.state
    st.models["b"].set_status("wounded")
    st.turn = 8
    assert score.verdict_ahead(st, "blue") == pytest.approx(-1.5 * math.erf(1 / math.sqrt(2)))
    assert score.verdict_ahead(st, "red") == pytest.approx(1.5 * math.erf(1 / math.sqrt(2)))
    st.turn, st.phase = 6, "melee"
    want = -(5 / 6) * math.erf(1 / math.sqrt(2 * 7 / 3))
    assert score.verdict_ahead(st, "blue") == pytest.approx(want)
    st.turn, st.phase = 5, "movement"
    assert score.verdict_ahead(st, "blue") == 0.0
    st.turn = 8
    st.models["s"].removed = True
    assert score.verdict_ahead(st, "blue") == 0.0
