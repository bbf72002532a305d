"""Vehicles with forced dice (GEM-3.1 to GEM-3.4): wheels and their radius, damaged
mobilizers, a jammed main body, arms, full throttle, coasting and the skid."""

import math

import pytest

from engine.actions import EndPhase, Fight
from engine.testing import logged, to_phase
from rulesets.gem.actions import Drive
from rulesets.gem.chapters.vehicles import (
    apply_effect,
    damage,
    damage_roll,
    forced_move,
    max_speed,
    speed_range,
    turn_radius,
    vehicle_hit,
)
from rulesets.gem.state import engage

from .helpers import make, model


def _one(profile: str, speed: float = 0.0, **kw):
    """A vehicle of ``profile`` for blue at (20, 10) facing north, a foe far away."""
    return make(
        [
            model("v", "blue", 20, 10, 90, profile=profile, state={"speed": speed}, **kw),
            model("x", "red", 60, 45, 270, profile="marauder"),
        ]
    )


def next_turn(g, initiative=(20, 1)):
    """End segments into the next turn's first segment, forcing its initiative d20s."""
    turn = g.state.turn
    g.dice.force(list(initiative))
    for _ in range(30):
        if g.state.turn > turn:
            return
        g.apply(EndPhase())
    raise AssertionError("the turn never ended")


# ------------------------------------------------------------------ the window's arcs
def test_model_view_gives_the_turning_radius():
    """GEM-3.1: a wheel's radius is the current speed; the window reads it from
    model_view's turn_radius (hp and status stay). A dragging wheel doubles it
    (GEM-I-HALFARC); a vehicle that may only turn in place pivots (0)."""
    g = _one("skimmer", 7.0)
    rs, v = g.ruleset, g.state.models["v"]
    view = rs.model_view(v)
    assert view["turn_radius"] == 7.0 and view["speed"] == 7.0
    assert view["hp"] == 2 and view["status"] == []
    damage(v)["left_mobilizer"] = ["jammed"]
    assert rs.model_view(v)["turn_radius"] == 14.0
    assert "turn_radius" not in rs.model_view(g.state.models["x"])
    t = _one("grav_tank", 4.0)
    tank = t.state.models["v"]
    damage(tank)["right_mobilizer"] = ["broken"]
    assert t.ruleset.model_view(tank)["turn_radius"] == 0.0


# ------------------------------------------------------------------ wheels
def test_wheel_at_speed_radius_turns_speed_over_radius():
    """GEM-3.1: the distance of a wheel is measured along an arc whose radius is the
    speed: at 6" a 90 degree wheel needs 9.4", so all 6" turn 1 radian."""
    g = _one("skimmer", 6.0)
    to_phase(g, "movement")
    g.apply(Drive(actor="v", speed=6.0, wheels=((0.0, 90.0),)))
    v = g.state.models["v"]
    assert v.facing == pytest.approx(90 + math.degrees(1.0), abs=0.01)
    chord = 2 * 6.0 * math.sin(0.5)
    assert math.dist((20, 10), v.pos) == pytest.approx(chord, abs=0.02)


def test_jammed_wheel_halves_speed_and_the_turning_arc():
    """GEM-3.3: a jammed wheel moves at half rate and turns at half the normal arc
    (GEM-I-HALFARC: radius twice the speed, so the same distance turns half as far)."""
    g = _one("skimmer", 8.0)  # MOV 16, ACC 6
    v = g.state.models["v"]
    g.dice.force([3, 1])  # left mobilizer, jammed
    damage_roll(g.state, g.ctx, v, 5)
    assert max_speed(v) == 8.0 and turn_radius(v) == 16.0
    assert not logged(g, "status") or all(e.rule != "GEM-3.4" for e in logged(g, "status"))
    to_phase(g, "movement")
    assert "outside" in g.check(Drive(actor="v", speed=9.0)).reason
    g.apply(Drive(actor="v", speed=8.0, wheels=((0.0, 90.0),)))
    assert v.facing == pytest.approx(90 + math.degrees(8.0 / 16.0), abs=0.01)
    assert "half the turning arc" in logged(g, "move")[-1].text


def test_broken_tread_only_turns_in_place():
    """GEM-3.3: a broken tread leaves the vehicle turning in place with the good one;
    at speed 0 a wheel is a pivot (GEM-I-PIVOT)."""
    g = _one("grav_tank", 2.0)  # ACC 4: it can stop
    v = g.state.models["v"]
    g.dice.force([4, 2])  # right mobilizer, broken
    damage_roll(g.state, g.ctx, v, 5)
    assert max_speed(v) == 0.0 and speed_range(v) == (0.0, 0.0)
    to_phase(g, "movement")
    why = g.check(Drive(actor="v", speed=2.0)).reason
    assert "only turn in place" in why
    g.apply(Drive(actor="v", speed=0.0, wheels=((0.0, -135.0),)))
    assert v.pos == pytest.approx((20, 10), abs=0.01) and v.facing == pytest.approx(315.0)


def test_jammed_main_body_needs_3_to_turn_even_slowly():
    """GEM-3.3: a jammed body needs a d6 of 3+ to turn (GEM-I-JAMBODY: one roll a
    drive); failing, it goes straight on."""
    g = _one("grav_tank", 4.0)  # MOV 12: half speed 6
    v = g.state.models["v"]
    damage(v)["main_body"] = ["jammed"]
    to_phase(g, "movement")
    g.dice.force([2])
    g.apply(Drive(actor="v", speed=4.0, wheels=((0.0, 30.0),)))
    roll = [e for e in logged(g, "resolution") if "jammed main body" in e.text][-1]
    assert roll.outcome == "stalls" and roll.rolls == [2] and roll.chance == pytest.approx(4 / 6)
    assert v.facing == 90.0 and v.y == pytest.approx(14.0, abs=0.01)


def test_jammed_main_body_over_half_speed():
    """GEM-3.3: moving over half speed needs the 3+; a 3 lets it go."""
    g = _one("grav_tank", 8.0)
    v = g.state.models["v"]
    damage(v)["main_body"] = ["jammed"]
    to_phase(g, "movement")
    g.dice.force([3])
    g.apply(Drive(actor="v", speed=8.0))
    assert v.y == pytest.approx(18.0, abs=0.01)


# ------------------------------------------------------------------ arms
def _claw():
    g = make(
        [
            model("v", "blue", 20, 10, 90, profile="dreadnought"),
            model("x", "red", 20, 11.49, 270, profile="marauder"),
        ]
    )
    engage(g.state, "x", "v", "front", False)
    return g


def test_jammed_main_body_needs_3_to_use_an_arm():
    """GEM-3.3: "use a mechanical arm" needs the 3+ with a jammed body; the power claw is
    on the left arm (GEM-I-ARMS)."""
    g = _claw()
    v = g.state.models["v"]
    damage(v)["main_body"] = ["jammed"]
    to_phase(g, "melee", "blue")
    g.dice.force([2])
    g.apply(Fight(actor="v", target="x"))
    assert [e.outcome for e in logged(g, "resolution")][-1] == "stalls"
    assert not g.state.models["x"].removed and v.vars["fought"]


def test_a_damaged_arm_cannot_strike_and_a_wild_one_calms_on_4():
    """GEM-3.3 / GEM-I-ARMS: an actuator out of control puts its arm out of use until a
    d6 of 4+ at the start of a turn."""
    g = _claw()
    v = g.state.models["v"]
    apply_effect(g.state, g.ctx, v, "left_actuator", "out_of_control", 5)
    to_phase(g, "melee", "blue")
    why = g.check(Fight(actor="v", target="x")).reason
    assert "left actuator (arm) is out of control" in why
    from rulesets.gem.chapters.vehicles import start_of_turn

    g.dice.force([4])
    start_of_turn(g.state, g.ctx, v)
    assert "out_of_control" not in damage(v)["left_actuator"]


# ------------------------------------------------------------------ out of control
def test_random_speed_over_the_top_sticks_at_full_throttle():
    """GEM-3.3: top speed / 6 rounded up d6 (16 -> 3d6); 18 > 16 means full throttle for
    the rest of the game; the d6 turn 1-2 left is a 45 degree wheel (GEM-I-RANDOMTURN)."""
    g = _one("skimmer", 10.0)
    v = g.state.models["v"]
    v.vars["random_next"] = True
    from rulesets.gem.chapters.vehicles import auto_drive

    g.dice.force([6, 6, 6, 1])
    auto_drive(g.state, g.ctx, v)
    assert v.vars["full_throttle"] and v.vars["speed"] == 16.0
    assert v.facing == pytest.approx(90 + math.degrees(min(16 / 16, math.radians(45))))
    assert forced_move(v) is None
    assert speed_range(v) == (16.0, 16.0)
    v.vars.pop("moved_done")
    to_phase(g, "movement")
    why = g.check(Drive(actor="v", speed=12.0)).reason
    assert "stuck at full throttle" in why


def test_main_body_out_of_control_does_not_care():
    """GEM-3.3: "If it is the main body, who cares" — nothing changes."""
    g = _one("grav_tank", 4.0)
    v = g.state.models["v"]
    g.dice.force([5, 3])
    damage_roll(g.state, g.ctx, v, 5)
    assert forced_move(v) is None and max_speed(v) == 12.0
    assert "acting funny" in logged(g, "status")[-1].text


def test_torn_off_controls_coast_half_of_last_turn_rounded_down():
    """GEM-3.3: controls torn off: it coasts, each turn half of last turn's move rounded
    down, unsteered and firing nothing; the top speed does not drop, so no skid."""
    g = _one("grav_tank", 9.0)
    v = g.state.models["v"]
    g.dice.force([6, 5])
    damage_roll(g.state, g.ctx, v, 5)
    assert not [e for e in logged(g, "status") if e.rule == "GEM-3.4"]
    assert forced_move(v) == "coasting to a stop"
    from rulesets.gem.chapters.vehicles import auto_drive, weapon_problem

    assert "lost its controls" in weapon_problem(v, v.weapons[1])
    auto_drive(g.state, g.ctx, v)
    assert v.y == pytest.approx(14.0, abs=0.01) and v.vars["speed"] == 4.0


def test_broken_control_system_repeats_for_good():
    """GEM-I-BROKENCONTROL: a broken control system repeats last turn's movement and
    never frees itself."""
    g = _one("grav_tank", 4.0)
    v = g.state.models["v"]
    v.vars["last_legs"] = [[0.0, 20.0]]
    g.dice.force([6, 2])
    damage_roll(g.state, g.ctx, v, 5)
    assert forced_move(v) == "repeats last turn (controls jammed)"
    from rulesets.gem.chapters.vehicles import auto_drive, start_of_turn

    start_of_turn(g.state, g.ctx, v)  # no unjam roll for a broken control
    auto_drive(g.state, g.ctx, v)
    assert v.facing == pytest.approx(110.0)


# ------------------------------------------------------------------ deceleration
def test_skid_damage_rolls_are_table_rolls_without_hits():
    """GEM-3.4: a d6 per skidded inch, 5+ is another damage roll on the tables (GEM-I-ARM:
    no HIT for it); a broken tread at 12" with ACC 4 skids 8"."""
    g = _one("grav_tank", 12.0)
    v = g.state.models["v"]
    g.dice.force([3, 2, 7, 5, 1, 1, 1, 1, 1, 1, 1, 2, 1])
    vehicle_hit(g.state, g.ctx, v, 9)
    assert v.hp == 3  # the hit's HIT only
    assert damage(v)["left_actuator"] == ["jammed"]
    skid = [e for e in logged(g, "status") if e.rule == "GEM-3.4"]
    assert "skids 8" in skid[0].text


def test_frame_broken_at_the_start_of_a_turn_is_a_new_top_speed():
    """GEM-3.3 broken body: 5+ at the start of a turn breaks the frame; GEM-3.4 (GEM-I-
    DECEL): the vehicle must shed its speed to 0: 8 - ACC 4 = 4" of skid."""
    g = _one("grav_tank", 8.0)
    v = g.state.models["v"]
    damage(v)["main_body"] = ["broken"]
    from rulesets.gem.chapters.vehicles import start_of_turn

    g.dice.force([5, 12, 1, 1, 1, 1])
    start_of_turn(g.state, g.ctx, v)
    assert "frame_broken" in damage(v)["main_body"] and max_speed(v) == 0.0
    assert v.y == pytest.approx(14.0) and v.vars["speed"] == 0.0


def test_vehicle_d6_checks_carry_their_exact_chance():
    """GEM-3.3 broken main body: a d6 of 5+ breaks the frame; the event states 2/6."""
    from engine.battlefield import Battlefield
    from engine.dice import Dice
    from engine.events import EventLog
    from engine.ruleset import Context
    from engine.state import Model
    from rulesets.gem.state import d6_check

    ctx = Context(Battlefield(), Dice(1), EventLog())
    m = Model(id="tank", side="a", unit="tank", x=1.0, y=1.0)
    ctx.dice.force([5, 4])
    assert d6_check(ctx, m, "tank broken main body", 5, "GEM-3.3", "frame broken", "holds")
    assert not d6_check(ctx, m, "tank broken main body", 5, "GEM-3.3", "frame broken", "holds")
    events = [e for e in ctx.log.events if e.kind == "resolution"]
    assert [e.outcome for e in events] == ["frame broken", "holds"]
    assert all(abs(e.chance - 2 / 6) < 1e-12 and e.rule == "GEM-3.3" for e in events)
