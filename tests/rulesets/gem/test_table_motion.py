"""Motion the GEM text leaves to the table (GEM-I-SKID): a skid or an out-of-control
move slides on through the physics service until it meets a base, terrain or the edge,
and stops against it or glances off it (exact end positions)."""

import math

import pytest

from engine.testing import logged, to_phase
from rulesets.gem.chapters.vehicles import auto_drive

from .helpers import make, model, terrain

R = 1.0  # a 50.8 mm round base: radius 1"


def _wild(facing: float, wall) -> object:
    g = make(
        [
            model("v", "blue", 20.0, 10.0, facing, profile="skimmer", base=50.8),
            model("x", "red", 60.0, 45.0, 270.0, profile="marauder"),
        ],
        terrain_=(wall,),
    )
    g.state.models["v"].vars["random_next"] = True
    return g


def test_an_out_of_control_vehicle_glances_off_a_wall():
    """GEM-3.3 out of control: 3d6 = 6", d6 3 straight on, heading 70 degrees. The base
    (radius 1") meets the wall's face x = 22 when its centre reaches x 21, after 1 / cos 70
    = 2.924" at y 10 + 2.924 sin 70 = 12.748; the blow is 20 degrees to the face, so it
    glances and slides the 3.076" left times sin 70 = 2.891" north: (21.0, 15.638)."""
    wall = terrain("wall", [(22.0, 0.0), (23.0, 0.0), (23.0, 40.0), (22.0, 40.0)], "w1")
    g = _wild(70.0, wall)
    v = g.state.models["v"]
    g.dice.force([2, 2, 2, 3])
    auto_drive(g.state, g.ctx, v)
    s = 1 / math.cos(math.radians(70))
    y = 10 + s * math.sin(math.radians(70)) + (6 - s) * math.sin(math.radians(70))
    assert (v.x, v.y) == pytest.approx((21.0, y), abs=0.01)
    moved = [e for e in logged(g, "move") if e.actor == "v"][-1].text
    assert "glances off w1" in moved


def test_a_steep_blow_stops_the_out_of_control_vehicle():
    """The same move at heading 20 degrees meets the face at 70 degrees: it stops against
    it, centre x 21 after 1 / cos 20 = 1.064", y 10 + 1.064 sin 20 = 10.364."""
    wall = terrain("wall", [(22.0, 0.0), (23.0, 0.0), (23.0, 40.0), (22.0, 40.0)], "w1")
    g = _wild(20.0, wall)
    v = g.state.models["v"]
    g.dice.force([2, 2, 2, 3])
    auto_drive(g.state, g.ctx, v)
    s = 1 / math.cos(math.radians(20))
    assert (v.x, v.y) == pytest.approx((21.0, 10 + s * math.sin(math.radians(20))), abs=0.01)
    moved = [e for e in logged(g, "move") if e.actor == "v"][-1].text
    assert "stopped by w1" in moved


def test_a_vehicle_given_no_order_slows_straight_on():
    """GEM-3.1, GEM-I-NOORDER (audit D5): a skimmer at 14 (ACC 6) whose side ends its
    movement segment without driving it goes 14 - 6 = 8" straight on, north from (30, 10)
    to (30, 18), and its speed is 8."""
    from engine.actions import EndPhase

    g = make(
        [
            model("sk", "blue", 30.0, 10.0, 90.0, profile="skimmer", state={"speed": 14}),
            model("foe", "red", 60.0, 40.0, 270.0, profile="marauder"),
        ]
    )
    to_phase(g, "movement", "blue")
    sk = g.state.models["sk"]
    g.apply(EndPhase())
    assert (sk.x, sk.y) == pytest.approx((30.0, 18.0), abs=0.01) and sk.vars["speed"] == 8.0
    assert any("no drive order" in e.text for e in logged(g, "status"))


def test_a_scenario_s_moved_and_disorganized_count_in_turn_1_and_wear_off():
    """GEM-I-STATE (audit D10, D11): an archer with state.moved = 3 shooting a target with
    state.moved = 3 takes Table 2's -2 firing after moving and -2 target has moved (15 - 4
    = 11 misses its 15+); a model set out disorganized may not move in turn 1 (GEM-2.4.5)
    and moves again in turn 2."""
    from engine.actions import Move, Shoot

    g = make(
        [
            model("arc", "blue", 10.0, 10.0, 0.0, profile="archer", state={"moved": 3}),
            model(
                "tgt",
                "red",
                20.0,
                10.0,
                180.0,
                stats={"OFF": 3, "DEF": 7, "HIT": 2},
                state={"moved": 3},
            ),
            model("dis", "blue", 10.0, 30.0, 0.0, profile="archer", state={"disorganized": True}),
        ]
    )
    to_phase(g, "movement", "blue")
    assert "disorganized" in g.check(Move(actor="dis", to=(11.0, 30.0))).reason
    to_phase(g, "missile", "blue")
    g.dice.force([15])
    ev = g.apply(Shoot(actor="arc", target="tgt", weapon="bow"))
    res = [e for e in ev if e.kind == "resolution"][0]
    assert res.outcome == "miss" and res.data["modifier"] == -4
    assert 'firing after moving 3.0" −2' in res.text and "tgt has moved −2" in res.text
    to_phase(g, "movement", "blue")  # turn 2
    assert g.state.turn == 2 and "disorganized" not in g.state.models["dis"].status
    assert g.check(Move(actor="dis", to=(11.0, 30.0))).ok
    assert float(g.state.models["arc"].vars.get("moved", 0) or 0) == 0


def test_driving_into_contact_starts_a_melee():
    """GEM-2.3, GEM-I-CONTACT (audit D8): the dreadnought drives 3" into the marauder at
    (20, 13.5); a melee begins (the marauder may no longer fire, GEM-2.2.1) and in the
    melee segment the dreadnought fights it with its arms."""
    from engine.actions import Fight, Shoot
    from rulesets.gem.actions import Drive
    from rulesets.gem.state import foes_in_melee

    g = make(
        [
            model("dread", "blue", 20.0, 10.0, 90.0, profile="dreadnought"),
            model("x", "red", 20.0, 13.5, 270.0, profile="marauder"),
            model("far", "red", 60.0, 40.0, 270.0, profile="marauder"),
        ]
    )
    to_phase(g, "movement", "blue")
    ev = g.apply(Drive(actor="dread", speed=3.0))
    assert any("drives into contact with x: a melee begins" in e.text for e in ev)
    assert foes_in_melee(g.state, "dread") == ["x"]
    to_phase(g, "missile", "red")
    assert "locked in melee" in g.check(Shoot(actor="x", target="dread", weapon="slug gun")).reason
    to_phase(g, "melee", "blue")
    assert g.check(Fight(actor="dread", target="x")).ok


def test_a_block_pays_for_terrain_under_its_whole_footprint():
    """GEM-2.1.1 "when moving through difficult terrain it is halved", GEM-I-BLOCK (audit
    D1): a 4 x 2 hoplite block (MOV 4) whose two left files walk through woods pays
    double for them: 3" north costs 6" there, more than 4", so it is refused; with no
    woods the same 3" is allowed."""
    from engine.actions import Move
    from rulesets.gem.chapters import blocks

    from .helpers import block_specs

    woods = terrain("woods", [(14.0, 6.0), (19.9, 6.0), (19.9, 20.0), (14.0, 20.0)], "w1")
    specs = block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
    foe = model("foe", "red", 60.0, 40.0, 270.0, profile="archer")
    for feats, ok in (((woods,), False), ((), True)):
        g = make([*specs, foe], terrain_=feats)
        to_phase(g, "movement", "blue")
        fx, fy = blocks.record(g.state, "h")["front"]
        leg = g.check(Move(actor="h", to=(fx, fy + 3.0)))
        assert leg.ok is ok, leg.reason
        if not ok:
            assert 'its slowest figure pays 6.0"' in leg.reason or "costs 6.0" in leg.reason


def test_a_block_has_the_road_bonus_only_all_on_the_road():
    """GEM-2.1.1 "if the entire move is on a road" x1.5 rounded up, GEM-I-BLOCK (issue
    26): a 4 x 2 hoplite block (MOV 4) moving 6" north along a road that carries all
    four files has ceil(4 x 1.5) = 6"; when the road carries only its two right files
    (x 20.5 and 21.5, the road from x 19.9), the block has its plain 4" and the 6" move
    is refused, while 4" is allowed."""
    from engine.actions import Move
    from rulesets.gem.chapters import blocks

    from .helpers import block_specs

    wide = terrain("road", [(16.0, 0.0), (24.0, 0.0), (24.0, 40.0), (16.0, 40.0)], "r1")
    half = terrain("road", [(19.9, 0.0), (24.0, 0.0), (24.0, 40.0), (19.9, 40.0)], "r1")
    specs = block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
    foe = model("foe", "red", 60.0, 40.0, 270.0, profile="archer")
    for road, six_ok in ((wide, True), (half, False)):
        g = make([*specs, foe], terrain_=(road,))
        to_phase(g, "movement", "blue")
        fx, fy = blocks.record(g.state, "h")["front"]
        six = g.check(Move(actor="h", to=(fx, fy + 6.0)))
        assert six.ok is six_ok, six.reason
        assert g.check(Move(actor="h", to=(fx, fy + 4.0))).ok
        assert not g.check(Move(actor="h", to=(fx, fy + 6.5))).ok


def test_an_out_of_control_vehicle_glances_off_another_vehicle():
    """GEM-3.3 out of control, GEM-I-SKID (issue 26): the same 6" at heading 70 as against
    the wall, but the face at x 22 is the side of another vehicle (a 1" x 40" base at
    x 22.5): the skimmer glances off it as off the wall, its centre at x 21 (less the
    contact tolerance, kept to the hundredth: 20.99) and y 15.638, and the other
    vehicle is not moved."""
    g = make(
        [
            model("v", "blue", 20.0, 10.0, 70.0, profile="skimmer", base=50.8),
            model("w", "red", 22.5, 20.0, 90.0, profile="skimmer", base=(25.4, 1016.0)),
            model("x", "red", 60.0, 45.0, 270.0, profile="marauder"),
        ]
    )
    v, w = g.state.models["v"], g.state.models["w"]
    v.vars["random_next"] = True
    g.dice.force([2, 2, 2, 3])
    auto_drive(g.state, g.ctx, v)
    s = 1 / math.cos(math.radians(70))
    y = 10 + s * math.sin(math.radians(70)) + (6 - s) * math.sin(math.radians(70))
    assert (v.x, v.y) == pytest.approx((20.995, y), abs=0.01)
    assert (w.x, w.y, w.facing) == (22.5, 20.0, 90.0)
    moved = [e for e in logged(g, "move") if e.actor == "v"][-1].text
    assert "glances off w" in moved
