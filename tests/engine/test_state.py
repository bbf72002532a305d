"""GameState: plain data that copies, serialises and checksums exactly."""

from engine.state import GameState, Model


def _state() -> GameState:
    m = Model(
        id="a",
        side="blue",
        unit="u",
        x=1.0,
        y=2.0,
        base=(50.0, 25.0),
        hp=3,
        max_hp=3,
        stats={"MOVE": 1},
        weapons=[{"name": "Bow", "range": 24}],
        vars={"k": [1, 2]},
    )
    n = Model(id="b", side="red", unit="b", x=5.0, y=6.0)
    return GameState(
        ruleset="example_d6",
        sides=["blue", "red"],
        models={"a": m, "b": n},
        vars={"act": {"done": []}},
    )


def test_round_trip_is_exact():
    s = _state()
    t = GameState.from_dict(s.to_dict())
    assert t.to_dict() == s.to_dict()
    assert t.models["a"].base == (50.0, 25.0)
    assert t.checksum() == s.checksum()


def test_copy_is_independent():
    s = _state()
    c = s.copy()
    c.models["a"].x = 9.0
    c.models["a"].vars["k"].append(3)
    c.vars["act"]["done"].append("u")
    assert s.models["a"].x == 1.0 and s.models["a"].vars["k"] == [1, 2]
    assert s.vars["act"]["done"] == []


def test_checksum_changes_with_the_state_and_ignores_float_noise():
    s = _state()
    base = s.checksum()
    s.models["a"].x += 1e-9
    assert s.checksum() == base
    s.models["a"].hp -= 1
    assert s.checksum() != base


def test_queries():
    s = _state()
    s.models["b"].removed = True
    assert [m.id for m in s.live()] == ["a"]
    assert list(s.units()) == ["u"]
    assert list(s.units(live=False)) == ["u", "b"]
    assert s.models["a"].weapon("bow")["range"] == 24
    s.models["a"].set_status("pinned")
    s.models["a"].set_status("pinned")
    assert s.models["a"].status == ["pinned"]


def test_integral_floats_checksum_like_integers():
    """A move built with integer coordinates must checksum like its replay (floats)."""
    a, b = _state(), _state()
    a.models["a"].x = 10
    b.models["a"].x = 10.0
    assert a.checksum() == b.checksum()
