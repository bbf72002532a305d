"""Skids through the physics service (engine/physics/skids.py): a base slides until a
body, terrain or the table edge stops it or it glances off (issue 26). Expected ends are
computed by hand, never with pymunk."""

from __future__ import annotations

import math

import pytest

from engine.battlefield import Footprint
from tests.engine.test_physics import R25, TOL, VEHICLE, box, gap, physics, terrain

SLOPE = -math.degrees(math.atan2(1.0, 2.0))  # heading of a 2:1 slope down, -26.57 degrees


def test_a_skid_into_a_trooper_stops_touching_him() -> None:
    """A 2 x 4 in vehicle at (10, 24) skids 12 in east: its front (x 12) meets the 25 mm
    base at (20, 24) when the front reaches 20 - R25 = 19.508, so the centre stops at
    17.508 less the rounding: 17.50; head on, it does not glance."""
    ph = physics(
        [], {"tank": Footprint(10.0, 24.0, 0.0, VEHICLE), "m": Footprint(20.0, 24.0, 0.0, 25)}
    )
    r = ph.skid("tank", 0.0, 12.0)
    assert r.pose == pytest.approx((20.0 - R25 - 2.0, 24.0, 0.0), abs=0.01)
    assert r.hits == (("m", "model", False),) and r.stopped_by == "m"
    assert 0 < gap(Footprint(*r.pose, VEHICLE), Footprint(20.0, 24.0, 0.0, 25)) <= TOL


def test_a_skid_into_a_wall_stops_at_the_wall() -> None:
    """The same vehicle skids 20 in east into a wall from x 30: its front stops there, the
    centre at 28.0 (27.99 on the grid, clear of the wall)."""
    wall = terrain("w", "wall", box(30.0, 10.0, 31.0, 30.0))
    ph = physics([wall], {"tank": Footprint(10.0, 24.0, 0.0, VEHICLE)})
    r = ph.skid("tank", 0.0, 20.0)
    assert r.pose == pytest.approx((27.99, 24.0, 0.0), abs=0.01)
    assert r.stopped_by == "w" and r.travelled == pytest.approx(18.0, abs=0.015)


def test_an_out_of_control_vehicle_glances_off_another() -> None:
    """Heading 2:1 down (26.57 degrees to the other's top face, under the 30 degree glance
    limit), 15 in: the corner (12, 23) meets the face y 18 of the vehicle at (22, 17)
    after 5 * sqrt(5) = 11.18 in, centre (20, 19); the 3.82 in left slide along the face
    at 2 / sqrt(5) of it, 3.42 in: the centre ends at (23.42, 19.0), the gap to the face
    (at most the 0.01 in contact tolerance) on top."""
    bodies = {"a": Footprint(10.0, 24.0, 0.0, VEHICLE), "b": Footprint(22.0, 17.0, 0.0, VEHICLE)}
    ph = physics([], bodies)
    r = ph.skid("a", SLOPE, 15.0)
    assert r.hits == (("b", "model", True),) and r.stopped_by is None
    assert r.pose == pytest.approx((20.0 + 3.82 * 2 / math.sqrt(5), 19.005, 0.0), abs=0.01)
    assert r.path[1] == pytest.approx((20.0, 19.0), abs=0.015)
    assert 0 < gap(Footprint(*r.pose, VEHICLE), bodies["b"]) <= TOL + 1e-9
    assert r == ph.skid("a", SLOPE, 15.0)  # no clock, no state: the same every time


def test_a_steep_blow_stops_and_a_shallow_one_glances_off_a_wall() -> None:
    """Into a wall along y 10..11 the same slope glances (centre (34, 12) after 26.83 in,
    then 13.17 * 2 / sqrt(5) = 11.78 in east to (45.78, 12)); straight down it stops at
    y 12."""
    wall = terrain("w", "wall", box(0.0, 10.0, 72.0, 11.0))
    ph = physics([wall], {"a": Footprint(10.0, 24.0, 0.0, VEHICLE)})
    r = ph.skid("a", SLOPE, 40.0)
    assert r.hits == (("w", "terrain", True),)
    assert r.pose == pytest.approx(
        (34.0 + (40.0 - 12.0 * math.sqrt(5)) * 2 / math.sqrt(5), 12.0, 0.0), abs=0.01
    )
    r = ph.skid("a", -90.0, 40.0)
    assert r.stopped_by == "w" and r.pose == pytest.approx((10.0, 12.0, 0.0), abs=0.01)
