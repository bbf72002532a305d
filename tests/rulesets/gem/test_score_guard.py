"""The denying side's view of an objective (score.py: ``guard``, ``guard_pull``,
``approach``) and the pull of a block's missiles (``fire_pull``).

Why these tests: in the default scenario the Romans must keep one figure on the hill
to the end of turn 8 (GEM-3.7). Valued as 45 for any unit inside, a lone general or two
horse archers guarded it as well as the legion, and the legion, fourth nearest unit,
felt no pull at all: it marched straight past the hill (its twelve pila pulling it at
the enemy) and was caught in melee 5" short while the Greek horse swept the hill.
"""

import math

import pytest

from rulesets.gem import score as scoring

from .helpers import block_specs, make, model

HILL = {"id": "hill", "x": 36.0, "y": 24.0, "radius": 3.0, "side": "blue", "by_turn": 8}
CENTRE = (36.0, 24.0)


def _inside(state, side: str) -> set[str]:
    return {m.unit for m in state.live(side) if math.dist(m.pos, CENTRE) <= 3.0}


def test_a_guard_is_worth_the_hit_it_holds_against_the_enemy_near():
    """GEM-3.7: the hill is denied while one red figure stands inside at the turn's end,
    so a guard is worth its HIT against the enemy's HIT near the hill (within NEAR of the
    radius): a 3-HIT champion more than a 1-HIT slinger, and less once a block stands
    near."""
    specs = [
        model("champ", "red", 36.0, 25.0, 270, profile="champion"),
        model("sling", "red", 35.0, 23.0, 270, profile="slinger"),
        model("far", "blue", 60.0, 44.0, 90, profile="slinger"),
    ]
    g = make(specs, vars_={"objectives": [HILL]})
    st = g.state
    champ = scoring.guard(st, "red", {"champ"}, CENTRE, 3.0)
    sling = scoring.guard(st, "red", {"sling"}, CENTRE, 3.0)
    assert champ == pytest.approx(scoring.GUARD * 3 / (3 + scoring.GUARD_HIT))
    assert sling == pytest.approx(scoring.GUARD * 1 / (1 + scoring.GUARD_HIT))
    assert champ > 2 * sling  # the old count gave both the same 45
    both = scoring.guard(st, "red", {"champ", "sling"}, CENTRE, 3.0)
    assert both == pytest.approx(scoring.GUARD * 4 / (4 + scoring.GUARD_HIT))
    g2 = make(
        specs + block_specs("hop", "blue", (36.0, 17.0), 90.0, 8, 4),
        vars_={"objectives": [HILL]},
    )
    near = scoring.guard(g2.state, "red", {"champ"}, CENTRE, 3.0)
    assert near == pytest.approx(scoring.GUARD * 3 / (3 + 8))


def test_the_denying_side_pulls_by_strength():
    """The pull toward the hill is shared by HIT: a 12-figure block 10" out is pulled
    harder than a 1-HIT slinger nearer; with the pull shared by distance rank, the block
    (third nearest of three here) had a quarter."""
    specs = block_specs("leg", "red", (44.0, 34.0), 270.0, 12, 4, profile="legionary") + [
        model("s1", "red", 36.0, 30.0, 270, profile="slinger"),
        model("s2", "red", 38.0, 31.0, 270, profile="slinger"),
        model("far", "blue", 60.0, 4.0, 90, profile="slinger"),
    ]
    g = make(specs, vars_={"objectives": [HILL]})
    st = g.state
    from rulesets.gem.chapters import blocks

    base = scoring.objective_value(st, "red")
    for m in st.models.values():
        if m.unit == "leg":
            m.y -= 1.0
    rec = blocks.record(st, "leg")
    rec["front"] = [rec["front"][0], rec["front"][1] - 1.0]
    block_gain = scoring.objective_value(st, "red") - base
    base = scoring.objective_value(st, "red")
    st.models["s1"].y -= 1.0
    slinger_gain = scoring.objective_value(st, "red") - base
    assert block_gain > 5 * slinger_gain > 0


def test_a_block_approaches_by_its_front_and_the_wheel_to_face_the_objective():
    """GEM-I-WHEEL: a block turns by half its frontage times the angle, so a block
    facing past the hill must still cover the wheel: its approach is its front's
    distance plus that wheel, not its nearest figure's distance. A block facing the hill
    straight on has no wheel to make: its nearest figure's distance stands."""
    from rulesets.gem.chapters import blocks, movement

    specs = block_specs("leg", "red", (44.0, 34.0), 270.0, 12, 4, profile="legionary")
    specs += [model("far", "blue", 60.0, 4.0, 90, profile="slinger")]
    st = make(specs, vars_={"objectives": [HILL]}).state
    rec = blocks.record(st, "leg")
    front = (rec["front"][0], rec["front"][1])
    near = min(math.dist(m.pos, CENTRE) for m in st.live("red") if m.unit == "leg")
    turn = movement.wheel_cost(st, "leg", 270.0, math.degrees(math.atan2(-10.0, -8.0)) % 360)
    got = scoring.approach(st, "leg", near, CENTRE, 3.0)
    assert turn > 1.0
    assert got == pytest.approx(math.dist(front, CENTRE) + turn)
    assert got > near + 1.0
    straight = block_specs("leg", "red", (36.0, 34.0), 270.0, 12, 4, profile="legionary")
    st2 = make(straight + specs[-1:], vars_={"objectives": [HILL]}).state
    near2 = min(math.dist(m.pos, CENTRE) for m in st2.live("red") if m.unit == "leg")
    assert scoring.approach(st2, "leg", near2, CENTRE, 3.0) == pytest.approx(near2)


def test_only_a_blocks_front_rank_pulls_toward_targets():
    """GEM-2.2.2: only the front rank of a block may fire, so only its four figures gain
    IN_RANGE for an enemy within pilum range, not all twelve."""
    specs = block_specs("leg", "red", (36.0, 30.0), 270.0, 12, 4, profile="legionary")
    specs += [model("s", "blue", 36.0, 27.0, 90, profile="slinger")]
    st = make(specs).state
    assert scoring.fire_pull(st, "red") == pytest.approx(4 * scoring.IN_RANGE)


def test_a_lone_guard_in_a_losing_melee_on_the_hill_counts_the_hill_lost():
    """GEM-3.7: the enemy holds the hill at the turn's end once every red figure inside
    is struck down. A lone slinger inside, in melee with a blue figure inside that
    strikes it down more often than not (Table 1, GEM-2.2.3), takes off HOLD times that
    chance (``swept``); a second red figure inside, out of the melee, takes it back."""
    from rulesets.gem.chapters.melee_value import melee_hits
    from rulesets.gem.state import engage

    strong = {"OFF": 10, "DEF": 10, "ATT": 2}
    specs = [
        model("b", "blue", 36.0, 24.0, 90, stats=strong),
        model("s", "red", 36.0, 25.0, 270, profile="slinger"),
        model("c", "red", 50.0, 40.0, 270, profile="champion"),
    ]
    g = make(specs, vars_={"objectives": [HILL]})
    st = g.state
    engage(st, "b", "s", "front", False)
    alone = scoring.objective_value(st, "red")
    h = melee_hits(st, "red")["s"]
    p = 1 - math.exp(-h)  # one HIT: struck down by the first hit
    assert p > 0.5
    assert scoring.swept(st, "red", {"s"}, CENTRE, 3.0) == pytest.approx(p)
    st.models["c"].x, st.models["c"].y = 35.0, 23.0  # a second guard, out of the melee
    assert scoring.swept(st, "red", {"s", "c"}, CENTRE, 3.0) == 0.0
    with_two = scoring.objective_value(st, "red")
    guard_gain = scoring.guard(st, "red", {"s", "c"}, CENTRE, 3.0) - scoring.guard(
        st, "red", {"s"}, CENTRE, 3.0
    )
    assert with_two - alone > scoring.HOLD * p + guard_gain - 1e-6
