"""The turning radius the window draws a vehicle's arcs with, derived from its speed
and its turn allowance (SWOMP "Movement, turning, and acceleration"; SWOMP-I-TURNS,
SWOMP-I-TURN-RADIUS)."""

import math

import pytest

from engine.ruleset import load
from rulesets.swomp.chapters import vehicles

from .helpers import make


def razorback(speed=0.0, **kw):
    return {
        "id": "v",
        "side": "red",
        "profile": "razorback",
        "x": 30.0,
        "y": 24.0,
        "facing": 90.0,
        "state": {"speed": speed},
        **kw,
    }


MARINE = {"id": "a", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0}


@pytest.mark.parametrize(
    "speed, allowance", [(3.5, 180.0), (7.0, 180.0), (14.0, 90.0), (21.0, 45.0), (28.0, 22.5)]
)
def test_radius_is_the_arc_that_spends_the_allowance(speed, allowance):
    """SWOMP-I-TURN-RADIUS: a move of s inches turning A evenly is an arc s = r x A
    (the Razorback has MR 7: bands at 7, 14 and 21 inches)."""
    g = make([MARINE, razorback(speed)])
    v = g.state.models["v"]
    assert vehicles.turn_allowance(v, speed) == allowance
    assert vehicles.turn_radius(v) == pytest.approx(speed / math.radians(allowance))


def test_model_view_gives_the_radius_and_keeps_hp_and_status():
    """The window reads model_view(model)["turn_radius"] in inches; hp and status stay."""
    g = make([MARINE, razorback(14.0)])
    view = load("swomp").model_view(g.state.models["v"])
    assert view["turn_radius"] == pytest.approx(8.91, abs=0.01)
    assert view["hp"] == g.state.models["v"].hp and isinstance(view["status"], list)
    assert view["speed"] == 14.0
    assert "turn_radius" not in load("swomp").model_view(g.state.models["a"])


def test_a_stopped_or_immobile_vehicle_has_no_arc():
    """SWOMP-I-TURN-RADIUS: 0 means no arc to draw."""
    g = make([MARINE, razorback(0.0)])
    v = g.state.models["v"]
    assert load("swomp").model_view(v)["turn_radius"] == 0.0
    v.vars["speed"] = 10.0
    v.vars["effects"] = ["immobile"]
    assert vehicles.turn_radius(v) == 0.0


def test_the_radius_widens_with_speed():
    """Faster means wider: the allowance halves at each band while the speed grows."""
    g = make([MARINE, razorback()])
    v = g.state.models["v"]
    radii = [vehicles.turn_radius(v, s) for s in (2, 7, 10, 14, 18, 21, 25, 28)]
    assert radii == sorted(radii)
