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


def test_copy_copies_every_mutable_part_and_keeps_shared_objects_shared():
    """The copy carries a model's stats, weapons, status and vars as new objects (a
    ruleset may change any of them: Gemini's conditions lower stats), and one object
    reached from two places in the state stays one object in the copy."""
    s = _state()
    shared = {"ammo": 2}
    s.models["a"].weapons.append(shared)
    s.vars["last_weapon"] = shared
    s.models["a"].set_status("pinned")
    c = s.copy()
    assert c.to_dict() == s.to_dict() and c.checksum() == s.checksum()
    a, ca = s.models["a"], c.models["a"]
    for name in ("stats", "weapons", "status", "vars"):
        assert getattr(ca, name) == getattr(a, name)
        assert getattr(ca, name) is not getattr(a, name), name
    ca.stats["MOVE"] = 0
    ca.status.clear()
    assert a.stats == {"MOVE": 1} and a.status == ["pinned"]
    assert c.vars["last_weapon"] is ca.weapons[-1]
    c.vars["last_weapon"]["ammo"] = 1
    assert shared == {"ammo": 2}


def test_copy_deep_copies_an_attribute_a_ruleset_added_and_drops_caches():
    """A model attribute beyond the fields is copied deeply too; a cache kept on the
    state under a ``_`` name is left for the copy to rebuild, the id order is kept."""
    s = _state()
    s.models["b"].__dict__["marks"] = ["x"]
    s.__dict__["_memo"] = {"big": 1}
    s.ids()
    c = s.copy()
    c.models["b"].__dict__["marks"].append("y")
    assert s.models["b"].__dict__["marks"] == ["x"]
    assert "_memo" not in c.__dict__ and c.ids() == ["a", "b"]
    c.models["c"] = Model(id="c", side="red", unit="c", x=0.0, y=0.0)
    assert c.ids() == ["a", "b", "c"] and s.ids() == ["a", "b"]


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
