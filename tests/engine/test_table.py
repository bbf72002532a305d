"""The table service (engine/table.py): measures with exact figures, its memos, and their
lifetime — a freed battlefield's answers are never read for another one."""

import copy
import gc
import threading
import weakref

import pytest

from engine import polygons
from engine.battlefield import Battlefield, TerrainFeature
from engine.dice import Dice
from engine.events import EventLog
from engine.ruleset import Context
from engine.state import Model
from engine.table import Memo, Table, distance, footprint

INCH = 25.4  # a base of 25.4 mm has a radius of exactly half an inch


def square(fid: str, kind: str, x0: float, y0: float, x1: float, y1: float) -> TerrainFeature:
    return TerrainFeature(fid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


WALL = square("w", "wall", 9.0, 0.0, 11.0, 20.0)
WATER = square("pond", "water", 2.0, -1.0, 4.0, 1.0)
WOODS = square("copse", "woods", 3.0, -1.0, 5.0, 1.0)
BF = Battlefield(24, 24, (WATER, WOODS))


def model(mid: str, x: float, y: float, base=INCH, facing: float = 0.0) -> Model:
    return Model(mid, "a" if mid < "m" else "b", mid, x, y, facing, base)


def ctx_of(bf: Battlefield) -> Context:
    return Context(bf, Dice(1), EventLog())


# --------------------------------------------------------------------------- lifetime


def test_a_freed_battlefield_never_answers_for_one_at_its_address():
    """400 tables, alternately with and without a wall between two models: each answer is
    its own table's, though freed battlefields' addresses are reused (the bug UMR's
    id-keyed sight caches had: 168 stale answers of 400 in this very loop)."""
    a, b = model("a", 2.0, 10.0), model("z", 18.0, 10.0)
    seen: set[int] = set()
    reused = wrong = 0
    for k in range(400):
        bf = Battlefield(terrain=(WALL,) if k % 2 else ())
        reused += id(bf) in seen
        seen.add(id(bf))
        ctx = ctx_of(bf)
        visible, _ = ctx.table.visible(a, b)
        sight = ctx.table.sight(a, b)
        want = 0.0 if k % 2 else 1.0
        wrong += abs(visible - want) > 1e-9 or abs(sight.visible - want) > 1e-9
        ctx.memo("test.k").get_or("k", lambda k=k: k)
        wrong += ctx.memo("test.k")["k"] != k
        del ctx, bf
        if k % 7 == 0:
            gc.collect()
    assert wrong == 0
    assert reused >= 0  # how often an address came back (often: hundreds) is not asserted


def test_the_table_lives_and_dies_with_its_battlefield():
    bf = Battlefield(24, 24, (WALL,))
    t = ctx_of(bf).table
    assert Table.of(bf) is t is ctx_of(bf).table is ctx_of(bf).fork(Dice(2)).table
    assert ctx_of(Battlefield(24, 24, (WALL,))).table is not t  # equal, not the same
    gone = weakref.ref(t)
    del t, bf
    gc.collect()
    assert gone() is None


def test_a_copied_battlefield_gets_a_table_of_its_own():
    bf = Battlefield(24, 24, (WALL,))
    t = Table.of(bf)
    t.memo("test").put("x", 1)
    twin = copy.deepcopy(bf)
    assert twin == bf and Table.of(twin) is not t and "x" not in Table.of(twin).memo("test")


def test_memo_is_shared_by_threads_and_physics_is_not():
    ctx = ctx_of(BF)
    memo, mine = ctx.memo("test.shared"), ctx.physics
    seen = []

    def other() -> None:
        c = ctx_of(BF)
        seen.extend([c.memo("test.shared"), c.physics])

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen[0] is memo and seen[1] is not mine


def test_memo_clears_at_its_limit_and_skips_unhashable_keys():
    m = Memo(limit=3)
    for k in range(3):
        m.get_or(k, lambda k=k: k * k)
    assert dict(m) == {0: 0, 1: 1, 2: 4}
    assert m.get_or(3, lambda: 9) == 9 and dict(m) == {3: 9}
    assert m.get_or([1, 2], lambda: "listy") == "listy" and len(m) == 1
    t = Table.of(Battlefield(24, 24, ()))
    t.memo("a").put(1, 1)
    t.clear()
    assert len(t.memo("a")) == 0


def test_synced_physics_syncs_only_when_the_bases_change():
    t = Table.of(Battlefield(24, 24, ()))
    calls = []

    def bodies():
        calls.append(1)
        return {"a": footprint(model("a", 5, 5))}

    ph = t.synced(("a", 5, 5), bodies)
    assert t.synced(("a", 5, 5), bodies) is ph and len(calls) == 1
    t.synced(("a", 6, 5), bodies)
    t.unsync()
    t.synced(("a", 6, 5), bodies)
    assert len(calls) == 3


# --------------------------------------------------------------------------- measures


def test_distance_between_models_edge_to_edge():
    assert distance(model("a", 0, 0), model("b", 10, 0)) == 9.0
    rect = model("r", 0, 0, base=(2 * INCH, INCH))  # 2" wide across its front, 1" deep
    t = Table.of(BF)
    assert t.distance(rect, model("b", 3, 0)) == pytest.approx(2.0, abs=1e-12)
    assert t.distance(rect, model("b", 0, 3)) == pytest.approx(1.5, abs=1e-12)
    assert t.distance(model("a", 0, 0), model("b", 0.5, 0)) == 0.0
    assert t.distance_point(model("a", 0, 0), (3.0, 4.0)) == 4.5


def test_bearings_angles_arcs_and_zones():
    t = Table.of(BF)
    assert t.bearing((0, 0), (0, 1)) == 90.0 and t.bearing((0, 0), (1, -1)) == 315.0
    assert t.angle_diff(350.0, 10.0) == 20.0 and t.angle_diff(10.0, 190.0) == 180.0
    shooter = model("a", 0, 0)
    diag = model("b", 5, 5)  # 45 degrees off the facing, 0.5" radius
    assert t.in_arc(shooter, diag, 90.0)
    assert not t.in_arc(shooter, diag, 60.0)
    assert t.in_arc(shooter, diag, 60.0, offset_deg=45.0)
    target = model("t", 0, 0)
    assert t.zone_of(target, model("b", 3, 0)) == "front"
    assert t.zone_of(target, model("b", -3, 0)) == "rear"
    assert t.zone_of(target, model("b", 0, 3)) == "flank"
    assert t.zone_of(target, model("b", 0.8, 3)) == "none"


def test_path_cost_is_paid_once_over_the_union_of_kinds():
    t = Table.of(BF)
    path = [(0.0, 0.0), (6.0, 0.0)]
    assert t.path_cost(path, {"water": 2.0}) == 8.0  # 2" of water
    # water 2-4 and woods 3-5 overlap on 3-4: 3" of difficult ground, not 4"
    assert t.path_cost(path, {"water": 2.0, "woods": 2.0}) == 9.0
    # the dearest kind where they overlap: 1+1 dry, 2x3 water, 1x2 woods
    assert t.path_cost(path, {"water": 3.0, "woods": 2.0}) == 11.0
    # read every quarter inch, as a tape measure would: 8 of 24 samples in water
    assert t.path_cost(path, {"water": 2.0}, sample=0.25) == 8.0


def test_walk_stops_where_the_allowance_runs_out():
    w = Table.of(BF).walk([(0.0, 0.0), (6.0, 0.0)], 3.0, {"water": 2.0})
    assert (w.end, w.travelled, w.extra, w.complete) == ((2.5, 0.0), 2.5, 0.5, False)
    assert [(leg.a, leg.b, leg.cost) for leg in w.legs] == [
        ((0.0, 0.0), (2.0, 0.0), 1.0),
        ((2.0, 0.0), (2.5, 0.0), 2.0),
    ]


def test_first_terrain_touched_and_points_in_terrain():
    t = Table.of(BF)
    path = [(0.0, 0.0), (6.0, 0.0)]
    assert t.first_touched(path, {"woods", "water"}).id == "pond"
    assert t.first_touched(path, {"woods"}).id == "copse"
    assert t.first_touched(path, {"woods", "water"}, skip="pond").id == "copse"
    assert t.first_touched([(0.0, 5.0), (6.0, 5.0)]) is None
    assert t.feature_at((3.5, 0.0), {"woods"}).id == "copse"
    assert t.feature_at((3.5, 0.0)).id == "pond"
    assert t.near((1.0, 0.0), 1.0) == ["water"]
    assert t.clear_of({"woods"}, (0.0, 0.0, 2.5, 0.5))
    assert not t.clear_of(None, (0.0, 0.0, 2.5, 0.5))
    assert t.length_inside(WOODS, (0.0, 0.0), (6.0, 0.0)) == 2.0


def test_segment_and_polygon_helpers():
    sq = ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    assert polygons.point_segment_distance((0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)) == 1.0
    assert polygons.closest_on_segment((5.0, 1.0), (-1.0, 0.0), (1.0, 0.0)) == (1.0, 0.0)
    assert polygons.closest_point((3.0, 3.0), sq) == (2.0, 2.0)
    assert polygons.polygon_distance((3.0, 1.0), sq) == 1.0
    assert polygons.polygon_distance((1.0, 1.0), sq) == 0.0
    assert polygons.crossing((0.0, 0.0), (2.0, 0.0), (1.0, -1.0), (1.0, 1.0)) == 0.5
    assert polygons.crossing((0.0, 0.0), (2.0, 0.0), (0.0, 1.0), (2.0, 1.0)) is None
    assert polygons.cuts((0.0, 0.0), (2.0, 0.0), (1.0, 0.0), (3.0, 0.0)) == [0.5, 1.5]
    assert polygons.box_of(sq) == (0.0, 0.0, 2.0, 2.0)
    assert polygons.lerp((0.0, 0.0), (2.0, 4.0), 0.25) == (0.5, 1.0)
    path = [(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)]
    assert polygons.path_prefix(path, 5.0) == [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)]
    assert polygons.path_prefix(path, 9.0) == path
