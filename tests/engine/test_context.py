"""Context services: one Geometry per battlefield, one Physics per battlefield and thread."""

import threading

from engine.battlefield import Battlefield, TerrainFeature
from engine.dice import Dice
from engine.events import EventLog
from engine.ruleset import Context

BF = Battlefield(24, 24, (TerrainFeature("w", "wall", ((5, 5), (6, 5), (6, 9), (5, 9))),))


def test_geometry_is_shared_between_contexts_and_forks():
    a = Context(BF, Dice(1), EventLog())
    b = Context(BF, Dice(2), EventLog())
    assert a.geo is b.geo is a.fork(Dice(3)).geo
    other = Battlefield(24, 24, ())
    assert Context(other, Dice(1), EventLog()).geo is not a.geo


def test_physics_is_per_thread():
    a = Context(BF, Dice(1), EventLog())
    mine = a.physics
    assert Context(BF, Dice(2), EventLog()).physics is mine
    seen = []
    t = threading.Thread(target=lambda: seen.append(Context(BF, Dice(3), EventLog()).physics))
    t.start()
    t.join()
    assert seen and seen[0] is not mine
