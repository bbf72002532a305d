"""Where rammed and skidding bodies end, found by the physics service (SWOMP "Ramming and
Collisions"; SWOMP-I-DIVE, SWOMP-I-SKID): exact end positions."""

import math

import pytest

from engine.testing import apply, events_of
from rulesets.swomp.actions import Ram
from rulesets.swomp.chapters import driving

from .helpers import make

HALF_W = 70 / 25.4 / 2  # a rhino's 70 x 100 mm base
HALF_L = 100 / 25.4 / 2
R25 = 25 / 25.4 / 2


def _ram_into_the_corner(wall_y0: float):
    rhino = {"id": "v", "side": "blue", "profile": "rhino", "x": 10.0, "y": 24.0}
    rhino["state"] = {"speed": 10}
    t = {"id": "t", "side": "red", "profile": "eldar_guardian", "x": 22.0, "y": 24.0}
    wall = ("wall", [(20.0, wall_y0), (24.0, wall_y0), (24.0, wall_y0 + 1), (20.0, wall_y0 + 1)])
    g = make([rhino, t], terrain=(wall,))
    ev = apply(g, Ram(actor="v", target="t", speed=15), [2, 9])
    return g, ev


def test_a_trooper_dives_aside_away_from_a_wall():
    """He wins the ram (13 vs 14) and would jump north, to y 24 + 1.378 + 0.492 + 0.1 =
    25.97, but a wall from y 25.5 (clear of the rhino, whose side is at 25.38) is in the way: he dives south instead, to 22.03."""
    g, ev = _ram_into_the_corner(25.5)
    t = g.state.models["t"]
    assert (t.x, t.y) == pytest.approx((22.0, 24.0 - (HALF_W + R25 + 0.1)), abs=0.01)
    assert "dives aside to (22.00, 22.03)" in events_of(ev, "move")[-1].text
    g, _ = _ram_into_the_corner(27.0)  # the wall further off: north, as the text's side
    assert g.state.models["t"].y == pytest.approx(25.97, abs=0.01)


def test_a_skidding_vehicle_glances_off_a_wall():
    """A rhino (MR 7) at 10" facing 20 degrees turns 110 degrees (to go 10" south): a control test (d10 10,
    lost), out of control d10 1: it skids, speed 10 - 7 = 3", straight on. Its front left
    corner, 1.969 sin 20 + 1.378 cos 20 = 1.968" above its centre, meets the wall at
    y 26.5 after 0.532 / sin 20 = 1.555"; the blow is 20 degrees, so it glances and slides
    the 1.445" left times cos 20 = 1.358" east: centre (12.819, 24.532)."""
    rhino = {"id": "v", "side": "blue", "profile": "rhino", "x": 10.0, "y": 24.0}
    rhino.update(facing=20.0, state={"speed": 10})
    far = {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0}
    g = make([rhino, far], terrain=(("wall", [(0, 26.5), (72, 26.5), (72, 30), (0, 30)]),))
    v = g.state.models["v"]
    g.dice.force([10, 1])
    driving.drive(g.state, g.ctx, v, [(10.0, 24.0), (10.0, 14.0)])
    s20, c20 = math.sin(math.radians(20)), math.cos(math.radians(20))
    top = HALF_L * s20 + HALF_W * c20
    s = (26.5 - top - 24.0) / s20
    x = 10.0 + s * c20 + (3.0 - s) * c20
    assert (v.x, v.y) == pytest.approx((x, 26.5 - top), abs=0.01), [
        e.text for e in g.ctx.log.events
    ]
    assert v.facing == 20.0 and g.dice.forced == []


def test_three_marines_against_a_stopped_rhino_roll_one_contest():
    """SWOMP "Multiple attackers" ("the same rules apply ... against a vehicle"),
    SWOMP-I-VEH-MULTI (audit multi_vs_vehicle: three contests): each marine CR 4 +
    charging 1 + vehicle stopped 5 = 10; one contest at 10 + 5 + 5 = 20, + 5 = 25 against
    the rhino's DR 9 + speed 0 + 5 = 14."""
    from engine.actions import Charge

    sq = [
        {"id": k, "side": "blue", "unit": "sq", "profile": "space_marine", "x": 10.0, "y": y}
        for k, y in (("m1", 22.0), ("m2", 24.0), ("m3", 26.0))
    ]
    rhino = {"id": "rhino", "side": "red", "profile": "rhino", "x": 16.0, "y": 24.0}
    g = make([*sq, {**rhino, "facing": 90.0}])
    ev = apply(g, Charge(actor="sq", target="rhino"), [5, 5])
    res = [e for e in events_of(ev, "resolution") if "rhino" in e.text]
    assert len(res) == 1 and res[0].outcome == "hit"
    assert "= 25" in res[0].text and "= 14" in res[0].text
