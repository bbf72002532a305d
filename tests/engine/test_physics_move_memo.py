"""``Physics.move`` remembers its answers until a shape changes (issue 24): the same move
asked again is the same answer, and a base that arrives in the way or leaves is seen."""

from __future__ import annotations

from engine.battlefield import Battlefield, Footprint
from engine.physics import Physics


def test_a_remembered_move_is_forgotten_when_a_base_moves_into_the_way():
    ph = Physics(Battlefield(24, 24, ()))
    ph.sync({"a": Footprint(2, 12, 0, 25.4)})
    free = ph.move("a", [(12, 12)])
    assert free.blocked_by is None and free is ph.move("a", [(12.0, 12.0)])
    ph.sync({"a": Footprint(2, 12, 0, 25.4), "b": Footprint(8, 12, 0, 25.4)})
    stopped = ph.move("a", [(12, 12)])
    assert stopped.blocked_by == "b" and stopped.end[0] < 7.1
    ph.sync({"a": Footprint(2, 12, 0, 25.4)})
    assert ph.move("a", [(12, 12)]) == free


def test_a_charge_placement_leaves_no_stale_move_behind():
    ph = Physics(Battlefield(24, 24, ()))
    bodies = {"a": Footprint(2, 12, 0, 25.4), "t": Footprint(12, 12, 0, 25.4)}
    ph.sync(bodies)
    before = ph.move("a", [(20, 12)])
    ph.place_in_contact("t", ["a"])  # adds and removes shapes of its own while it works
    assert ph.move("a", [(20, 12)]) == before
