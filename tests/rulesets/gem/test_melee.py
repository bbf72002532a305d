"""Charges and melee (GEM-2.3): Table 3 modifiers with forced dice, flank and rear zones
taken where the charge began, spears and pikes."""

from engine.actions import Charge, Fight
from engine.testing import logged, to_phase

from .helpers import block_specs, make, model, terrain


def _charge(bface: float, ax: float = 10.0, ay: float = 10.0, terrain_=(), a_kw=None):
    specs = [
        model("a", "blue", ax, ay, 0, stats={"OFF": 5, "DEF": 5, "MOV": 6}, **(a_kw or {})),
        model("b", "red", 14, 10, bface, stats={"OFF": 5, "DEF": 5, "HIT": 3, "MOR": 5}),
    ]
    g = make(specs, terrain_=terrain_)
    to_phase(g, "movement")
    g.dice.force([20])  # any fear check the contact calls for passes
    ev = g.apply(Charge(actor="a", target="b"))
    assert not any(e.kind == "refused" for e in ev), [e.text for e in ev]
    return g


def _mods(g):
    from rulesets.gem.chapters.melee import table3_mods

    s = g.state
    return {m.reason: m.value for m in table3_mods(s, g.ctx, "a", s.models["a"], s.models["b"])}


def test_charge_brings_bases_into_contact_and_gives_plus_2():
    """GEM-2.3.1 Table 3: +2 for the unit that charged into combat this turn."""
    g = _charge(180)
    from rulesets.gem.chapters.measure import distance

    assert distance(g.state.models["a"], g.state.models["b"]) <= 0.02
    assert _mods(g) == {"charged into combat this turn": 2}
    to_phase(g, "melee")
    g.dice.force([9])  # OFF 5 vs DEF 5 needs 11: 9 + 2 = 11 hits
    ev = g.apply(Fight(actor="a", target="b"))
    res = [e for e in ev if e.kind == "resolution"][0]
    assert res.outcome == "hit" and g.state.models["b"].hp == 2


def test_flank_attack_plus_5_and_fear_check():
    """GEM-2.3.3: starting wholly behind the target's front line is a flank attack (+5),
    and contact in the flank calls a fear check (GEM-2.4.1)."""
    g = _charge(90)
    assert _mods(g)["flank attack"] == 5
    assert any("contacted in the flank" in e.text for e in logged(g, "morale"))


def test_rear_attack_plus_10():
    """GEM-2.3.3: starting wholly behind the rear line is a rear attack (+10)."""
    g = _charge(0)
    assert _mods(g)["rear attack"] == 10


def test_straddling_the_front_line_is_no_flank():
    """GEM-2.3.3: an attacker partly ahead of the front line gets no flank bonus."""
    g = _charge(95, ay=10.5)
    assert "flank attack" not in _mods(g) and "rear attack" not in _mods(g)


def test_higher_ground_plus_1():
    """GEM-2.3.1: +1 for the attacker standing higher than the enemy (the hill's edge runs
    between the two centres: a centre on the edge counts as on the hill)."""
    hill = terrain("hill", [(0, 0), (11.5, 0), (11.5, 20), (0, 20)], height=1.0)
    specs = [
        model("a", "blue", 11.0, 10, 0, stats={"OFF": 5, "DEF": 5}),
        model("b", "red", 12.0, 10, 180, stats={"OFF": 5, "DEF": 5}),
    ]
    g = make(specs, terrain_=(hill,))
    from rulesets.gem.state import engage

    engage(g.state, "a", "b", "front", False)
    assert _mods(g) == {"higher ground": 1}


def test_enemy_behind_obstacle_minus_1():
    """GEM-2.3.1: -1 against an enemy behind an obstacle (fighting over a fence)."""
    fence = terrain("fence", [(11.45, 5), (11.55, 5), (11.55, 15), (11.45, 15)])
    specs = [
        model("a", "blue", 11.0, 10, 0, stats={"OFF": 5, "DEF": 5}),
        model("b", "red", 12.0, 10, 180, stats={"OFF": 5, "DEF": 5}),
    ]
    g = make(specs, terrain_=(fence,))
    from rulesets.gem.state import engage

    engage(g.state, "a", "b", "front", False)
    assert _mods(g) == {"enemy behind fence fence": -1}


def test_ranks_deeper_plus_2_each():
    """GEM-2.3.1: +2 for each rank deeper than the opponent (blocks counted by GEM-2.1.4)."""
    specs = block_specs("h", "blue", (20.0, 20.0), 90.0, 16, 4)
    specs += block_specs("o", "red", (20.0, 20.05), 270.0, 8, 4, profile="orc")
    g = make(specs)
    from rulesets.gem.chapters.melee import table3_mods
    from rulesets.gem.state import engage

    engage(g.state, "h", "o", "front", False)
    s = g.state
    mods = table3_mods(s, g.ctx, "h", s.models["h1"], s.models["o1"])
    assert [(m.reason, m.value) for m in mods] == [("2 ranks deeper than the enemy", 4)]


def test_spears_and_pikes_add_attacks():
    """GEM-2.3.2: spears add half the second rank; pikes also a quarter of the third."""
    from rulesets.gem.chapters.melee import attack_dice

    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 12, 4)
        + block_specs("p", "blue", (40.0, 10.0), 90.0, 12, 4, profile="phalangite")
        + block_specs("l", "blue", (60.0, 10.0), 90.0, 12, 4, profile="legionary")
        + [model("x", "red", 30, 40, profile="archer")]
    )
    assert attack_dice(g.state, "h", "h1")[0] == 4 + 2
    assert attack_dice(g.state, "p", "p1")[0] == 4 + 2 + 1
    assert attack_dice(g.state, "l", "l1")[0] == 4


def test_disorganized_fights_at_half_off():
    """GEM-2.4.5: a disorganized unit fights at half its OFF, rounded down."""
    g = _charge(180)
    from rulesets.gem.chapters.melee import melee_attack
    from rulesets.gem.state import set_disorganized

    set_disorganized(g.state, "a")
    a = melee_attack(g.state, g.ctx, "a", "a", g.state.models["b"])
    assert a.off == 2
