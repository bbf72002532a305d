"""The shortcuts that spare GEM's checks the geometry and physics services must give the
services' own answers (rulesets/gem/chapters/measure.py, movement.py, state.py).

Why these tests: each shortcut settles a question by plain arithmetic, a memo or a
bounding box only when the answer cannot differ, and leaves the close calls to the
service; a shortcut that answered differently would change what ``check`` allows. Each
test compares the shortcut with the service on many seeded positions, close calls
included.
"""

from __future__ import annotations

import math
import random

from engine import geometry
from engine.battlefield import Battlefield, Footprint, base_radius_in
from engine.polygons import point_segment_distance
from engine.state import GameState, Model
from rulesets.gem import state as gstate  # the bookkeeping module
from rulesets.gem.chapters import blocks, measure, movement

from .helpers import make, model, terrain


def _m(mid: str, x: float, y: float, facing: float = 0.0, base=25.0, side: str = "s") -> Model:
    return Model(id=mid, side=side, unit=mid, x=x, y=y, facing=facing, base=base)


BASES = (25.0, 30.0, 50.0, (25.0, 50.0), (60.0, 90.0))


def test_segment_and_point_tests_agree_with_the_exact_measure():
    """``segment_within`` and ``point_within`` answer ``distance < limit`` exactly as the
    service's measure does, also for limits a hair either side of that distance."""
    rnd = random.Random(3)
    for _ in range(400):
        m = _m("m", rnd.uniform(0, 20), rnd.uniform(0, 20), rnd.uniform(0, 360), rnd.choice(BASES))
        a = (rnd.uniform(0, 20), rnd.uniform(0, 20))
        b = (rnd.uniform(0, 20), rnd.uniform(0, 20))
        exact = measure.segment_distance(m, a, b)
        point = measure.point_segment_distance(m.pos, a, b)
        for limit in (exact, exact + 1e-12, exact - 1e-12, exact + 0.5, exact - 0.5, 1.0):
            assert measure.segment_within(m, a, b, limit) == (exact < limit)
        for limit in (point, point + 1e-12, point - 1e-12, point + 0.5, 1.0):
            assert measure.point_within(m.pos, a, b, limit) == (point < limit)


def test_memoised_measures_repeat_the_service():
    """Distances, arcs and zones asked twice (memo hits) are the service's answers."""
    rnd = random.Random(4)
    for _ in range(200):
        a = _m("a", rnd.uniform(0, 30), rnd.uniform(0, 30), rnd.uniform(0, 360), rnd.choice(BASES))
        b = _m("b", rnd.uniform(0, 30), rnd.uniform(0, 30), rnd.uniform(0, 360), rnd.choice(BASES))
        for _ in range(2):
            assert measure.distance(a, b) == geometry.distance(measure.fp(a), measure.fp(b))
            assert measure.in_arc(a, b, 90.0) == geometry.in_arc(measure.fp(a), measure.fp(b), 90.0)
            assert measure.zone_of([a], [b], a.facing) == measure._zone_of([a], [b], a.facing)


def test_terrain_shortcuts_agree_with_the_service():
    """Paths and bases far from every feature of the kinds asked are answered "none"
    without the service; near ones still go to it. Both agree with the service."""
    bf = Battlefield(
        72.0,
        48.0,
        (
            terrain("woods", [(10, 10), (20, 10), (20, 20), (10, 20)], "w1"),
            terrain("hedge", [(30, 5), (30.2, 5), (30.2, 30), (30, 30)], "h1"),
            terrain("rough", [(15, 15), (25, 15), (25, 25), (15, 25)], "r1"),
        ),
    )
    kinds = ("woods", "rough", "hedge")
    rnd = random.Random(5)
    for _ in range(300):
        p = (round(rnd.uniform(0, 72), 2), round(rnd.uniform(0, 48), 2))
        q = (round(rnd.uniform(0, 72), 2), round(rnd.uniform(0, 48), 2))
        for ks in (kinds, ("woods",), ("hedge",)):
            want_at = [i for i in geometry.features_at(p, bf) if measure._kinds(bf)[i] in ks]
            assert measure.features_at(bf, p, ks) == want_at
            assert measure.crossed(bf, [p, q], ks) == geometry.crossings([p, q], bf, set(ks))
            fp = Footprint(p[0], p[1], rnd.uniform(0, 360), rnd.choice(BASES))
            want_under = [i for i in geometry.features_under(fp, bf) if measure._kinds(bf)[i] in ks]
            assert measure.features_under(bf, fp, ks) == want_under
        inside = geometry.path_terrain_lengths([p, q], bf)
        if len([i for i, v in inside.items() if v > 1e-12]) <= 1:
            want = min(sum(v for v in inside.values() if v > 1e-12), math.dist(p, q))
            assert math.isclose(measure.path_in(bf, [p, q], kinds), want, abs_tol=1e-12)


def _crowd(seed: int) -> list[dict]:
    """Figures scattered round the middle of the table, some in base contact."""
    rnd = random.Random(seed)
    specs = []
    for i in range(24):
        x, y = rnd.uniform(20, 50), rnd.uniform(15, 35)
        side = "blue" if i % 2 else "red"
        base = rnd.choice((25.0, [25.0, 50.0]))
        specs.append(
            model(
                f"f{i}",
                side,
                round(x, 2),
                round(y, 2),
                rnd.uniform(0, 360),
                base=base,
                profile="archer",
            )
        )
    return specs


def test_moves_the_shortcuts_vouch_for_are_the_physics_services():
    """``_surely_clear`` vouches only for moves the service completes, and ``_move``
    (memoised on the bases near the path) answers as a fresh ``Physics.move`` does, also
    after figures far from the path have moved."""
    for seed in (1, 2, 3):
        game = make(_crowd(seed), terrain_=(terrain("building", [(5, 5), (9, 5), (9, 9), (5, 9)]),))
        st, ctx = game.state, game.ctx
        rnd = random.Random(seed)
        vouched = 0
        for _ in range(60):
            m = rnd.choice(gstate.live_models(st))
            o = rnd.choice(gstate.live_models(st))
            to = (round(o.x + rnd.uniform(-2, 2), 2), round(o.y + rnd.uniform(-2, 2), 2))
            path = [to] if rnd.random() < 0.7 else [(round(m.x + 1, 2), round(m.y, 2)), to]
            fresh = movement._phys(ctx, st).move(m.id, path)
            assert movement._move(ctx, st, m.id, path) == fresh
            if movement._surely_clear(ctx, st, m, path):
                vouched += 1
                assert fresh.complete
            pts = [m.pos, *path]
            reach = base_radius_in(m.base) + movement._MOVE_REACH + 1.0
            far = [
                f
                for f in gstate.live_models(st)
                if f is not m
                and min(point_segment_distance(f.pos, a, b) for a, b in zip(pts, pts[1:]))
                > reach + base_radius_in(f.base)
            ]
            for f in far:
                f.x, f.y = f.x + 0.3, f.y - 0.3
            assert movement._move(ctx, st, m.id, path) == movement._phys(ctx, st).move(m.id, path)
            for f in far:
                f.x, f.y = f.x - 0.3, f.y + 0.3
        assert vouched > 0


def test_roster_follows_the_models_dict():
    """The cached roster is rebuilt when a model is added or replaced, and filters
    removed models on every call."""
    game = make(
        [
            model("a1", "blue", 10, 10, unit="a", profile="archer"),
            model("b1", "red", 20, 10, unit="b", profile="archer"),
        ]
    )
    st = game.state
    assert [m.id for m in gstate.unit_models(st, "a")] == ["a1"]
    st.models["a2"] = Model(id="a2", side="blue", unit="a", x=12, y=10)
    assert [m.id for m in gstate.unit_models(st, "a")] == ["a1", "a2"]
    st.models["a2"].removed = True
    assert [m.id for m in gstate.unit_models(st, "a")] == ["a1"]
    assert [m.id for m in gstate.unit_models(st, "a", live=False)] == ["a1", "a2"]
    new = Model(id="a1", side="blue", unit="a", x=11, y=11)
    st.models["a1"] = new
    assert gstate.unit_models(st, "a")[0] is new
    assert [m.id for m in gstate.live_models(st)] == [m.id for m in st.live()]
    assert gstate.unit_of(st, "b") == "b" and gstate.unit_of(st, "zz") is None
    assert not gstate.is_block(st, "a")


def test_a_freed_states_roster_never_answers_for_a_new_one():
    """The roster lives on its state, not in a table keyed by ``id()`` (issue 17): states
    freed one after another, each new models dict at an address a freed one had, each
    answer with their own models. The loop must see an address come back, or it proved
    nothing."""
    seen: set[int] = set()
    reused = 0
    for i in range(300):
        # the same ids every time: only the models' identity tells the states apart
        models = {"x": Model(id="x", side="blue", unit="u", x=float(i), y=1.0)}
        st = GameState(ruleset="gem", sides=["blue", "red"], models=models)
        reused += id(st.models) in seen
        seen.add(id(st.models))
        assert gstate.unit_models(st, "u")[0] is models["x"]
        assert gstate.roster(st)[0].x == float(i)
        del st, models
    assert reused > 0


def test_the_roster_stays_out_of_saves_and_follows_copies():
    """The roster entry is no part of the game: ``to_dict`` and the checksum are the same
    before and after it is built, and a copy answers with the copy's own models."""
    game = make(
        [
            model("a1", "blue", 10, 10, unit="a", profile="archer"),
            model("b1", "red", 20, 10, unit="b", profile="archer"),
        ]
    )
    st = game.state
    st.__dict__.pop(gstate.ROSTER_KEY, None)
    before, saved = st.checksum(), st.to_dict()
    assert gstate.unit_models(st, "a")[0] is st.models["a1"]
    assert gstate.ROSTER_KEY in st.__dict__
    assert st.checksum() == before and st.to_dict() == saved
    twin = st.copy()
    assert gstate.unit_models(twin, "a")[0] is twin.models["a1"]
    assert twin.models["a1"] is not st.models["a1"]


def test_a_blocks_slot_size_is_its_models():
    """``unit_slot`` is ``slot_size`` of the unit's models, removed ones included."""
    from .helpers import block_specs

    game = make(block_specs("hop", "blue", (30.0, 20.0), 90.0, 8, 4))
    st = game.state
    assert blocks.unit_slot(st, "hop") == blocks.slot_size(
        gstate.unit_models(st, "hop", live=False)
    )
