"""Area weapons (GEM-2.2.6), magic (GEM-3.5) and vehicles (GEM-3.1 to GEM-3.4)."""

import pytest

from engine.actions import EndPhase, Shoot
from engine.testing import logged, to_phase
from rulesets.gem.actions import Cast, Drive

from .helpers import make, model


def _grenade(extra=()):
    specs = [
        model("gren", "blue", 10, 10, 0, profile="grenadier"),
        model("t", "red", 20, 10, 180, profile="trooper"),
        model("u", "red", 21.2, 10, 180, profile="trooper"),
        *extra,
    ]
    return make(specs)


def test_direct_hit_attacks_everyone_under_and_partials_roll_d6():
    """GEM-2.2.6: 5-6 on the d6 is a direct hit; a fully covered figure is attacked, a
    partly covered one only on a d6 of 4-6."""
    g = _grenade()
    to_phase(g, "missile")
    g.dice.force([5, 20, 4, 20])
    g.apply(Shoot(actor="gren", target="t", weapon="grenade launcher"))
    assert g.state.models["t"].removed and g.state.models["u"].removed
    sc = logged(g, "scatter")[0]
    assert sc.outcome == "direct hit"
    part = [e for e in logged(g, "resolution") if "partly under" in e.text][0]
    assert part.outcome == "under" and part.chance == 0.5


def test_partial_figure_safe_on_1_to_3():
    """GEM-2.2.6: a partly covered figure is safe on 1-3."""
    g = _grenade()
    to_phase(g, "missile")
    g.dice.force([6, 20, 3])
    g.apply(Shoot(actor="gren", target="t", weapon="grenade launcher"))
    assert g.state.models["t"].removed and not g.state.models["u"].removed


def test_deviation_clock_along_the_line_of_fire():
    """GEM-2.2.6: on 1-4 the template drifts: d12 clock (12 = along the line of fire) and
    the deviation dice in inches."""
    g = _grenade([model("v", "red", 24.5, 10, 180, profile="trooper")])
    to_phase(g, "missile")
    g.dice.force([3, 12, 4, 20])
    g.apply(Shoot(actor="gren", target="t", weapon="grenade launcher"))
    sc = logged(g, "scatter")[0]
    assert sc.data["centre"] == [24.0, 10.0] and sc.rolls == [3, 12, 4]
    assert g.state.models["v"].removed and not g.state.models["t"].removed
    from rulesets.gem.chapters.measure import clock_point

    x, y = clock_point((20.0, 10.0), 0.0, 3, 4.0)
    assert abs(x - 20.0) < 1e-9 and abs(y - 6.0) < 1e-9  # 3 o'clock: to the right


def _wizards():
    specs = [
        model("w", "blue", 10, 10, 90, profile="wizard"),
        model("b", "blue", 12, 10, 90, profile="archer"),
        model("rw", "red", 10, 30, 270, profile="wizard"),
        model("r", "red", 12, 30, 270, profile="archer"),
    ]
    return make(specs)


def test_spell_opposed_then_against_mag():
    """GEM-3.5.3: the offensive power beats the paired defensive spell on Table 1, then
    the target's MAG; Sloth of Grimgut then takes 4 MOV (GEM-I-SPELLS)."""
    g = _wizards()
    assert g.state.phase == "magic_offence" and g.state.active == "blue"
    g.apply(Cast(actor="w", target="r", spell="Sloth of Grimgut", power=4))
    assert g.state.models["w"].vars["power"]["offensive"] == 8
    assert g.state.active == "red"  # blue has nothing left to lay: play moves on
    g.apply(EndPhase())  # red lays no offensive spell
    assert g.state.phase == "magic_defence"
    g.apply(EndPhase())  # blue lays no defensive spell
    # 4 vs 2 needs 6: beats Haste; 4 vs MAG 2 needs 6: takes effect. The cards are turned
    # as soon as red has laid its last card.
    g.dice.force([6, 6])
    g.apply(Cast(actor="rw", target="r", spell="Haste of Gygax", power=2))
    res = [e for e in logged(g, "resolution") if e.rule == "GEM-3.5.3"]
    assert [e.outcome for e in res] == ["succeeds", "succeeds"]
    from rulesets.gem.chapters.pricing import mov

    assert mov(g.state, g.state.models["r"]) == 1.0
    assert g.state.phase == "movement"


def test_unopposed_defensive_spell_must_beat_mag_and_haste_adds_mov():
    """GEM-3.5.3/3.5.4: Haste of Gygax, a point of MOV per power level, after beating MAG."""
    g = _wizards()
    to_phase(g, "magic_defence", "blue")
    g.apply(Cast(actor="w", target="b", spell="Haste of Gygax", power=3))
    g.dice.force([9])  # 3 vs MAG 2 needs 8
    g.apply(EndPhase())  # red ends the magic segment: the cards are turned
    from rulesets.gem.chapters.pricing import mov

    assert mov(g.state, g.state.models["b"]) == 8.0


def test_one_spell_of_each_kind_and_power_limits():
    """GEM-3.5.1: one offensive spell per wizard per segment, within its points."""
    g = _wizards()
    assert not g.check(Cast(actor="w", target="r", spell="Bane of Vex", power=13)).ok
    g.apply(Cast(actor="w", target="r", spell="Bane of Vex", power=3))
    from rulesets.gem.chapters.magic import cast_problems

    why = cast_problems(g.state, g.state.models["w"], "Dread of Morphus", "r", 2)
    assert any("already cast" in w for w in why)


def _tank():
    return make(
        [
            model("tank", "blue", 20, 10, 90, profile="grav_tank"),
            model("x", "red", 60, 45, 270, profile="marauder"),
        ]
    )


def test_vehicle_speed_changes_by_acc():
    """GEM-3.1: this turn's speed is last turn's give or take ACC."""
    g = _tank()
    to_phase(g, "movement")
    assert "outside 0 to 4" in g.check(Drive(actor="tank", speed=6.0)).reason
    g.apply(Drive(actor="tank", speed=4.0))
    t = g.state.models["tank"]
    assert abs(t.y - 14.0) < 0.05 and t.vars["speed"] == 4.0


def test_vehicle_wheel_radius_is_the_speed():
    """GEM-3.1: a wheel is an arc whose radius is the current speed."""
    from rulesets.gem.chapters.vehicles import poses

    g = _tank()
    t = g.state.models["tank"]
    import math

    ps = poses(t, 4.0, [(0.0, 90.0)])  # a quarter circle of radius 4 is 6.28" > 4"
    x, y, f = ps[-1]
    ang = math.degrees(4.0 / 4.0)
    assert abs(f - (90 + ang)) < 1e-6
    assert abs(math.dist((20, 10), (x, y)) - 2 * 4 * math.sin(math.radians(ang) / 2)) < 1e-6


def test_hit_location_and_effect_main_body_torn_off():
    """GEM-3.2/3.3: d6 5 = main body, d6 5 = torn off: destroyed; troops inside rolled."""
    from rulesets.gem.chapters.vehicles import vehicle_hit

    g = _tank()
    t = g.state.models["tank"]
    g.dice.force([5, 5, 20, 20, 1, 1])
    vehicle_hit(g.state, g.ctx, t, 9)
    assert t.removed and t.vars["crew"]["lost"] == 2


def test_jammed_central_control_repeats_and_broken_tread_halts():
    """GEM-3.3: tracks broken leave only turning in place; sudden deceleration
    (GEM-3.4) skids the vehicle when its top speed drops below last speed - ACC."""
    from rulesets.gem.chapters.vehicles import max_speed, vehicle_hit

    g = _tank()
    t = g.state.models["tank"]
    t.vars["speed"] = 12.0
    g.dice.force([3, 2, 7, 6, 1, 1, 1, 1, 1, 1, 1])  # left mobilizer broken; skid 8"
    vehicle_hit(g.state, g.ctx, t, 9)
    assert max_speed(t) == 0.0
    skid = [e for e in logged(g, "status") if e.rule == "GEM-3.4"]
    assert skid and "skids 8" in skid[0].text


def test_spell_power_is_hidden_from_the_other_side():
    """GEM-3.5.2: the power is written on the hidden side of the card (GEM-I-SECRET)."""
    from rulesets.gem.chapters.view import redact

    g = _wizards()
    g.apply(Cast(actor="w", target="r", spell="Sloth of Grimgut", power=4))
    mine = redact(g.state, "blue")["vars"]["gem"]["magic"]["cards"][0]
    theirs = redact(g.state, "red")["vars"]["gem"]["magic"]["cards"][0]
    assert mine["power"] == 4 and theirs["power"] is None and theirs["spell"] == "Sloth of Grimgut"


@pytest.mark.parametrize(
    "spell, factor, change",
    [
        ("Haste of Gygax", "mov", 5),
        ("Sloth of Grimgut", "mov", -5),
        ("Vigor of Hrothgar", "off", 3),
        ("Indolence of Beavis", "off", -3),
        ("Peace of Jude", "morale", 3),
        ("Defense of St. George", "def", 2),
        ("Eye of Smaug", "to_hit", 2),
    ],
)
def test_factor_spells_read_their_effect_from_the_table(spell, factor, change):
    """GEM-3.5.4 (Haste) and GEM-I-SPELLS: power 5 gives the whole, half or a third of
    the power (rounded up) to one factor of the target unit for the turn."""
    from rulesets.gem.chapters import magic, spell_effects

    g = _wizards()
    magic._effect(g.state, g.ctx, {"target": "r", "power": 5, "spell": spell, "wizard": "w"})
    assert spell_effects.effects(g.state, "r") == {factor: change}
    assert g.log.events[-1].text.startswith(f"{spell} takes effect on r: {change:+d} ")
