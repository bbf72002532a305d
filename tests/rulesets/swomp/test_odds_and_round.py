"""Exact odds for the preview and the AI, the initiative roll and deployment order."""

from fractions import Fraction

from engine.actions import Charge, EndActivation, Shoot
from engine.testing import apply
from rulesets.swomp import build, rules
from rulesets.swomp.chapters import contest

from .helpers import make


def test_shooting_odds_are_exact_fractions():
    """SWOMP-SHOOT: the frag example's contest, 7 against 5, wins 60% of the time."""
    g = make(
        [
            {"id": "m", "side": "blue", "profile": "marine_missile", "x": 10.0, "y": 24.0},
            {
                "id": "g",
                "side": "red",
                "profile": "hormagaunt",
                "x": 30.0,
                "y": 24.0,
                "state": {"moved": 18, "cover": "soft"},
            },
        ]
    )
    o = g.odds(Shoot(actor="m", target="g", weapon="frag missile"))
    assert o.chance == Fraction(3, 5) == contest.p_win(7, 5)
    assert o.dist == {0: Fraction(2, 5), 1: Fraction(3, 5)}


def test_sustained_fire_odds_count_hits():
    g = make(
        [
            {"id": "m", "side": "blue", "profile": "terminator", "x": 10.0, "y": 24.0},
            {"id": "e", "side": "red", "profile": "eldar_guardian", "x": 20.0, "y": 24.0},
        ]
    )
    o = g.odds(Shoot(actor="m", target="e", weapon="assault cannon"))
    p = contest.p_win(4 + 3, 3 + 1)
    assert o.chance == 1 - (1 - p) ** 4 and sum(o.dist.values()) == 1


def test_close_combat_odds_give_the_damage_distribution():
    """SWOMP "Multiple attackers": 14 against 8 for six charging hormagaunts."""
    ring = [(33.0, 24.0), (28.5, 26.6), (28.5, 21.4), (31.5, 26.6), (31.5, 21.4), (27.0, 24.0)]
    g = make(
        [{"id": "marine", "side": "blue", "profile": "space_marine", "x": 30.0, "y": 24.0}]
        + [
            {
                "id": f"g{i}",
                "side": "green",
                "unit": "gaunts",
                "profile": "hormagaunt",
                "x": x,
                "y": y,
            }
            for i, (x, y) in enumerate(ring)
        ],
        first="green",
    )
    o = g.odds(Charge(actor="gaunts", target="marine"))
    d = contest.margin_dist(14, 8)
    assert o.chance == contest.p_win(14, 8)
    assert o.dist[3] == sum(p for k, p in d.items() if k >= 10)
    assert sum(o.dist.values()) == 1


def test_initiative_d10_ties_reroll_and_alternate_units():
    """SWOMP "Game Sequence": d10 each, ties reroll, then alternate unit actions."""
    g = make(
        [
            {"id": "a", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 10.0},
            {"id": "b", "side": "blue", "profile": "space_marine", "x": 14.0, "y": 10.0},
            {"id": "c", "side": "red", "profile": "space_marine", "x": 10.0, "y": 40.0},
        ],
        first=None,
        seed=3,
    )
    init = [e for e in g.log.events if e.kind == "initiative"]
    assert init and all(e.rule == "SWOMP-ROUND" for e in init)
    first = g.to_act()
    apply(g, EndActivation())
    assert g.to_act() != first or len(g.state.units(first)) > 1
    assert rules.TURNS.data(g.state)["order"][0] == first


def test_three_sides_play_in_initiative_order():
    g = make(
        [
            {"id": s, "side": s, "profile": "space_marine", "x": 10.0 + 10 * i, "y": 10.0}
            for i, s in enumerate(("blue", "red", "green"))
        ],
        first=None,
        seed=5,
    )
    order = rules.TURNS.data(g.state)["order"]
    seen = []
    while g.state.turn == 1 and g.to_act() is not None:
        seen.append(g.to_act())
        apply(g, EndActivation(), exact=False)
    assert seen == order


def test_deployment_order_lowest_sr_first_ties_alternate():
    """SWOMP "Deployment"."""
    units = [
        ("gaunts", "red", 3),
        ("tactical", "blue", 6),
        ("terma", "red", 3),
        ("scouts", "blue", 3),
        ("captain", "blue", 9),
    ]
    assert build.deployment_order(units) == ["scouts", "gaunts", "terma", "tactical", "captain"]
