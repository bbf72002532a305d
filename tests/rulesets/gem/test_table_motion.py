"""Motion the GEM text leaves to the table (GEM-I-SKID): a skid or an out-of-control
move slides on through the physics service until it meets a base, terrain or the edge,
and stops against it or glances off it (exact end positions)."""

import math

import pytest

from rulesets.gem.vehicles import auto_drive

from .helpers import events, make, model, terrain

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
    moved = [e for e in events(g, "move") if e.actor == "v"][-1].text
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
    moved = [e for e in events(g, "move") if e.actor == "v"][-1].text
    assert "stopped by w1" in moved
