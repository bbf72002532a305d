"""Troops inside vehicles and drivers (GEM-3.1, GEM-3.3; GEM-I-EMBARK, GEM-I-DRIVER,
GEM-I-CREW) with forced dice."""

import math

import pytest

from engine.actions import Shoot
from engine.testing import to_phase
from rulesets.gem.actions import Disembark, Drive, Embark, ReplaceDriver
from rulesets.gem.chapters import measure, transport
from rulesets.gem.chapters.vehicles import damage_roll, forced_move, weapon_problem
from rulesets.gem.state import lost_percent

from .helpers import make, model
from .test_vehicles import next_turn


def _carrier(extra=(), aboard=0):
    specs = [
        model("apc", "blue", 20, 10, 90, profile="apc"),
        model("t1", "blue", 24, 10, 90, profile="trooper", unit="sq"),
        model("t2", "blue", 26, 10, 90, profile="trooper", unit="sq"),
        model("x", "red", 60, 45, 270, profile="marauder"),
        *extra,
    ]
    for i in range(aboard):
        specs.append(
            model(
                f"p{i}",
                "blue",
                5 + 2 * i,
                40,
                90,
                profile="trooper",
                unit="pass",
                state={"aboard": "apc"},
            )
        )
    return make(specs)


def test_a_figure_within_its_move_gets_in_and_rides_along():
    """GEM-3.1 "vehicles are for transporting troops" (GEM-I-EMBARK): a figure within its
    MOV gets in; it leaves the table with its HIT, goes where the vehicle goes and is no
    loss for morale (GEM-2.4)."""
    g = _carrier()
    to_phase(g, "movement")
    apc, t1 = g.state.models["apc"], g.state.models["t1"]
    assert g.check(Embark(actor="t1", target="apc")).ok
    g.apply(Embark(actor="t1", target="apc"))
    assert t1.removed and "aboard" in t1.status and t1.hp == 1
    assert transport.aboard(g.state, apc) == [t1] and transport.room(g.state, apc) == 5
    assert lost_percent(g.state, "sq") == 0.0
    g.apply(Drive(actor="apc", speed=4.0))
    assert (t1.x, t1.y) == (apc.x, apc.y)
    assert not g.check(Shoot(actor="x", target="t1", weapon="slug gun")).ok


def test_getting_in_is_priced_as_a_move():
    """GEM-I-EMBARK: the walk to the vehicle costs like a move (MOV 5 here)."""
    g = _carrier([model("far", "blue", 28, 10, 90, profile="trooper")])
    to_phase(g, "movement")
    why = g.check(Embark(actor="far", target="apc")).reason
    # t1 and t2 stand in the way along y = 10
    assert "blocked by t2" in why
    g2 = _carrier([model("far", "blue", 20, 17.5, 270, profile="trooper")])
    to_phase(g2, "movement")
    why = g2.check(Embark(actor="far", target="apc")).reason
    assert "too far" in why and 'MOV 5"' in why


def test_a_full_vehicle_takes_no_more():
    """GEM-I-EMBARK: capacity 6 places, one a figure."""
    g = _carrier(aboard=5)
    to_phase(g, "movement")
    why = g.check(Embark(actor="sq", target="apc")).reason
    assert "room for 1 more" in why
    assert g.check(Embark(actor="t1", target="apc")).ok


def test_getting_out_into_contact_is_the_move():
    """GEM-I-EMBARK: out into base contact with the vehicle near `to`, facing away; not
    the same turn it got in."""
    g = _carrier(aboard=2)
    to_phase(g, "movement")
    apc = g.state.models["apc"]
    g.apply(Disembark(actor="p0", to=(16.0, 10.0)))
    p0 = g.state.models["p0"]
    assert not p0.removed and p0.vars["moved_done"]
    assert measure.distance(p0, apc) == pytest.approx(0.0, abs=0.02)
    assert p0.x < apc.x and p0.facing == pytest.approx(measure.bearing(apc.pos, p0.pos), abs=1)
    assert g.check(Embark(actor="t1", target="apc")).ok
    g.apply(Embark(actor="t1", target="apc"))
    assert "got in this turn" in g.check(Disembark(actor="t1")).reason
    g.apply(Disembark(actor="pass"))  # the rest of the unit, behind the vehicle
    p1 = g.state.models["p1"]
    assert not p1.removed and p1.y < apc.y


def test_wreck_rolls_for_each_trooper_and_survivors_climb_out():
    """GEM-3.3: the main body torn off: "roll a damage roll for each trooper using the
    OFN value of the attack" (the crew record first, GEM-I-CREW); survivors climb out."""
    g = _carrier(aboard=2)
    apc = g.state.models["apc"]
    # location 5, effect 5; trooper p0 (DEF Ablative 5 vs OFF 9: 9+) 20 dies; p1 rolls 1
    g.dice.force([5, 5, 20, 1])
    damage_roll(g.state, g.ctx, apc, 9)
    p0, p1 = g.state.models["p0"], g.state.models["p1"]
    assert apc.removed and p0.removed and p0.hp == 0
    assert not p1.removed and "aboard" not in p1.status
    assert math.dist(p1.pos, apc.pos) < 3.0
    for o in g.state.live():
        if o.id != p1.id:
            assert not measure.overlaps(measure.fp(o), measure.fp(p1))


def test_scenario_start_aboard_is_checked():
    """GEM-I-EMBARK: state.aboard names a vehicle of the side with room."""
    from engine.ruleset import load

    rs = load("gem")
    ms = []
    for s in (
        model("apc", "blue", 20, 10, 90, profile="apc"),
        model("a", "blue", 30, 10, profile="trooper", state={"aboard": "apc"}),
        model("b", "red", 30, 30, profile="trooper", state={"aboard": "apc"}),
        model("c", "red", 40, 30, profile="trooper", state={"aboard": "a"}),
    ):
        m, probs = rs.build_model(s)
        assert m is not None, probs
        ms.append(m)
    probs = dict(rs.check_army(ms))
    assert "a" not in probs and "another side" in probs["b"] and "not a vehicle" in probs["c"]


# ------------------------------------------------------------------ drivers
def _bikes():
    return make(
        [
            model("bike", "red", 20, 30, 270, profile="war_bike", state={"speed": 9.0}),
            model("m1", "red", 22, 30, 270, profile="marauder"),
            model("t", "blue", 60, 5, 90, profile="trooper"),
        ],
        first="red",
    )


def test_torn_off_driver_is_replaced_next_turn_taking_a_full_turn():
    """GEM-3.3: the driver torn off: no driver, it coasts, no weapons; the next turn a
    suitable replacement in range takes his place, which takes a full turn
    (GEM-I-DRIVER)."""
    g = _bikes()
    bike = g.state.models["bike"]
    g.dice.force([6, 5])
    damage_roll(g.state, g.ctx, bike, 5)
    assert "no_driver" in bike.status and forced_move(bike) == "coasting to a stop"
    assert "lost its controls" in weapon_problem(bike, bike.weapons[0])
    to_phase(g, "movement")
    why = g.check(ReplaceDriver(actor="m1", target="bike")).reason
    assert "from next turn" in why
    next_turn(g, (1, 20))  # red 1 - 5, blue 20: blue first
    to_phase(g, "movement", "red")
    assert bike.vars["speed"] == 4.0  # it coasted 9 -> 4 as the segment began
    assert g.check(ReplaceDriver(actor="m1", target="bike")).ok
    g.apply(ReplaceDriver(actor="m1", target="bike"))
    m1 = g.state.models["m1"]
    assert m1.removed and "driving" in m1.status
    assert forced_move(bike) is None and "no_driver" not in bike.status
    assert weapon_problem(bike, bike.weapons[0]) == ""
    assert lost_percent(g.state, "m1") == 0.0


def test_seizing_driver_is_replaced_only_once_knocked_out():
    """GEM-3.3: central control out of control with a driver: seizures, amok; he can
    only be replaced once knocked out (broken, GEM-I-BROKENCONTROL) or killed."""
    g = _bikes()
    bike = g.state.models["bike"]
    g.dice.force([6, 3])
    damage_roll(g.state, g.ctx, bike, 5)
    assert "seizures" in bike.status and forced_move(bike) == "out of control"
    assert "has its driver" in g.check(ReplaceDriver(actor="m1", target="bike")).reason
    g.dice.force([6, 2])
    damage_roll(g.state, g.ctx, bike, 5)
    assert "seizures" not in bike.status and forced_move(bike) == "coasting to a stop"


def test_jammed_driver_is_stunned_and_repeats():
    """GEM-3.3: a jammed driver is stunned, repeating what he did last turn, until the
    control system frees itself (GEM-I-UNJAM)."""
    g = _bikes()
    bike = g.state.models["bike"]
    g.dice.force([6, 1])
    damage_roll(g.state, g.ctx, bike, 5)
    assert "stunned_driver" in bike.status and forced_move(bike).startswith("repeats")
    from rulesets.gem.chapters.vehicles import start_of_turn

    g.dice.force([4])
    start_of_turn(g.state, g.ctx, bike)
    assert "stunned_driver" not in bike.status and forced_move(bike) is None
