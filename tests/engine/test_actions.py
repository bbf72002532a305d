"""Typed actions: registry, dict round trip, clear errors for bad fields."""

import pytest

from engine import actions as a


@pytest.mark.parametrize(
    "d",
    [
        {"do": "move", "actor": "m", "to": [1.0, 2.0], "mode": "run"},
        {"do": "move", "actor": "m", "path": [[1.0, 2.0], [3.0, 4.0]], "facing": 90.0},
        {"do": "shoot", "actor": "m", "target": "t", "weapon": "bow"},
        {"do": "charge", "actor": "m", "target": "t"},
        {"do": "fight", "actor": "m"},
        {"do": "end_activation"},
        {"do": "end_turn"},
    ],
)
def test_round_trip(d):
    act = a.from_dict(d)
    assert a.from_dict(act.to_dict()) == act
    assert act.to_dict()["do"] == d["do"]


def test_integers_become_floats_for_coordinates():
    m = a.from_dict({"do": "move", "actor": "m", "to": [1, 2]})
    assert m.to == (1.0, 2.0)
    assert m.waypoints((0.0, 0.0)) == ((0.0, 0.0), (1.0, 2.0))


@pytest.mark.parametrize(
    "d, msg",
    [
        ({"do": "fly"}, "unknown action 'fly'"),
        ({"do": "move", "actor": "m", "speed": 3}, "speed: not a field of 'move'"),
        ({"do": "move", "actor": "m", "to": [1]}, "to: expected 2 values"),
        ({"do": "shoot", "actor": "m", "target": 5}, "target: expected a string"),
        ({"actor": "m"}, "do: missing"),
    ],
)
def test_errors_name_the_field(d, msg):
    with pytest.raises(a.ActionError) as e:
        a.from_dict(d)
    assert msg in str(e.value)


def test_describe():
    assert a.Shoot(actor="m", target="t", weapon="bow").describe() == "m shoot t with bow"
