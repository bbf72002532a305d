"""Tests of the physics service (engine/physics.py): swept moves, charges, vehicle sweeps.

Every expected position is computed here by hand or with the small, library-free geometry
helpers below, never with pymunk, so a wrong contact in the service shows up as a failure.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.battlefield import Battlefield, Footprint, TerrainFeature, base_radius_in, base_size_in
from engine.physics import CONTACT_TOLERANCE, MoveResult, Physics, SweepResult

MM = 25.4
R25 = 25 / MM / 2  # radius of a 25 mm round base, inches
D25 = 25 / MM  # two 25 mm bases in contact: centre distance
TOL = CONTACT_TOLERANCE
SLACK = 1e-9


# --------------------------------------------------------------------------- geometry


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
    """Axis-aligned rectangle as a counter-clockwise polygon."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def terrain(fid: str, kind: str, poly) -> TerrainFeature:
    return TerrainFeature(fid, kind, tuple(poly))


def seg_dist(p, a, b) -> float:
    """Distance from point p to segment ab."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    t = 0.0 if ll == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def point_in_poly(p, poly) -> bool:
    inside = False
    for i in range(len(poly)):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
        if (y1 > p[1]) != (y2 > p[1]):
            if p[0] < x1 + (p[1] - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def point_poly_dist(p, poly) -> float:
    """Distance from a point to a polygon's area (0 inside)."""
    if point_in_poly(p, poly):
        return 0.0
    return min(seg_dist(p, poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


def segs_cross(a, b, c, d) -> bool:
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and o1 * o2 < 0 and o3 * o4 < 0


def poly_poly_dist(p, q) -> float:
    """Distance between two polygons' areas (0 if they overlap)."""
    for i in range(len(p)):
        for j in range(len(q)):
            if segs_cross(p[i], p[(i + 1) % len(p)], q[j], q[(j + 1) % len(q)]):
                return 0.0
    if point_in_poly(p[0], q) or point_in_poly(q[0], p):
        return 0.0
    d = min(point_poly_dist(v, q) for v in p)
    return min(d, min(point_poly_dist(v, p) for v in q))


def rect_corners(x: float, y: float, facing: float, base) -> list[tuple[float, float]]:
    w, d = base_size_in(base)
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    local = [(d / 2, -w / 2), (d / 2, w / 2), (-d / 2, w / 2), (-d / 2, -w / 2)]
    return [(x + c * u - s * v, y + s * u + c * v) for u, v in local]


def gap(fp: Footprint, other) -> float:
    """Gap between a footprint and a footprint or polygon (negative: overlapping)."""
    if isinstance(other, Footprint):
        if isinstance(fp.base, (int, float)) and isinstance(other.base, (int, float)):
            return math.dist((fp.x, fp.y), (other.x, other.y)) - (
                base_radius_in(fp.base) + base_radius_in(other.base)
            )
        if isinstance(fp.base, (int, float)):
            fp, other = other, fp
        if isinstance(other.base, (int, float)):
            poly = rect_corners(fp.x, fp.y, fp.facing, fp.base)
            return point_poly_dist((other.x, other.y), poly) - base_radius_in(other.base)
        a = rect_corners(fp.x, fp.y, fp.facing, fp.base)
        b = rect_corners(other.x, other.y, other.facing, other.base)
        return poly_poly_dist(a, b) if poly_poly_dist(a, b) > 0 else -1.0
    if isinstance(fp.base, (int, float)):
        return point_poly_dist((fp.x, fp.y), other) - base_radius_in(fp.base)
    dist = poly_poly_dist(rect_corners(fp.x, fp.y, fp.facing, fp.base), other)
    return dist if dist > 0 else -1.0


def moved(fp: Footprint, end) -> Footprint:
    return Footprint(end[0], end[1], fp.facing, fp.base)


def physics(terrain_list=(), bodies=None, width=72.0, depth=48.0) -> Physics:
    ph = Physics(Battlefield(width, depth, tuple(terrain_list)))
    ph.sync(bodies or {})
    return ph


# --------------------------------------------------------------------------- moves

WALL = terrain("w1", "wall", box(20.0, 10.0, 20.3, 30.0))


def test_straight_move_stops_touching_wall() -> None:
    ph = physics([WALL], {"a": Footprint(10.0, 20.0, 0.0, 25)})
    res = ph.move("a", [(30.0, 20.0)])
    contact_x = 20.0 - R25  # by hand: the base's east edge meets the wall's west face
    assert res.blocked_by == "w1"
    assert not res.complete
    assert res.end[1] == 20.0
    assert contact_x - TOL <= res.end[0] <= contact_x
    assert res.travelled == pytest.approx(res.end[0] - 10.0, abs=1e-9)


def test_move_that_grazes_a_corner_stops_on_the_corner() -> None:
    building = terrain("house", "building", box(10.0, 10.0, 14.0, 14.0))
    ph = physics([building], {"a": Footprint(5.0, 9.6, 0.0, 25)})
    res = ph.move("a", [(20.0, 9.6)])
    # The disc first meets the corner (10, 10) when (x - 10)^2 + 0.4^2 = r^2.
    contact_x = 10.0 - math.sqrt(R25**2 - 0.4**2)
    assert res.blocked_by == "house"
    assert contact_x - TOL <= res.end[0] <= contact_x + 1e-9
    assert R25 <= math.dist(res.end, (10.0, 10.0)) <= R25 + TOL


def test_move_just_clear_of_a_corner_passes() -> None:
    building = terrain("house", "building", box(10.0, 10.0, 14.0, 14.0))
    y = 10.0 - R25 - 0.01
    ph = physics([building], {"a": Footprint(5.0, y, 0.0, 25)})
    res = ph.move("a", [(20.0, y)])
    assert res == MoveResult((20.0, round(y, 2)), 15.0, None, True)


GAP_WALLS = [
    terrain("south", "wall", box(30.0, 10.0, 30.4, 20.0)),
    terrain("north", "wall", box(30.0, 21.2, 30.4, 30.0)),
]


def test_move_through_gap_wider_than_base_passes() -> None:
    ph = physics(GAP_WALLS, {"a": Footprint(25.0, 20.6, 0.0, 25)})
    res = ph.move("a", [(35.0, 20.6)])
    assert res == MoveResult((35.0, 20.6), 10.0, None, True)


def test_move_into_gap_narrower_than_base_stops() -> None:
    r = 40 / MM / 2  # 1.575 in base in a 1.2 in gap
    ph = physics(GAP_WALLS, {"a": Footprint(25.0, 20.6, 0.0, 40)})
    res = ph.move("a", [(35.0, 20.6)])
    # Symmetric: the disc touches both corners (30, 20) and (30, 21.2) at once.
    contact_x = 30.0 - math.sqrt(r**2 - 0.6**2)
    assert not res.complete
    assert res.blocked_by in ("north", "south")
    assert contact_x - TOL <= res.end[0] <= contact_x + 1e-9
    for wall in GAP_WALLS:
        assert gap(Footprint(*res.end, 0.0, 40), wall.polygon) >= 0.0


def test_mover_stops_touching_another_base() -> None:
    bodies = {"a": Footprint(10.0, 24.0, 0.0, 25), "b": Footprint(15.0, 24.3, 0.0, 32)}
    ph = physics([], bodies)
    res = ph.move("a", [(20.0, 24.0)])
    sum_r = R25 + 32 / MM / 2
    assert res.blocked_by == "b"
    assert not res.complete
    assert sum_r <= math.dist(res.end, (15.0, 24.3)) <= sum_r + TOL
    assert abs(res.end[1] - 24.0) <= 0.01  # it stopped on its path
    expected_x = 15.0 - math.sqrt(sum_r**2 - 0.3**2)  # by hand
    assert abs(res.end[0] - expected_x) <= TOL


def test_ignored_base_does_not_stop_the_mover() -> None:
    bodies = {"a": Footprint(10.0, 24.0, 0.0, 25), "b": Footprint(15.0, 24.0, 0.0, 25)}
    ph = physics([], bodies)
    assert ph.move("a", [(20.0, 24.0)], ignore=["b"]) == MoveResult((20.0, 24.0), 10.0, None, True)


@pytest.mark.parametrize("base", [25, 60, (50, 100)])
def test_long_step_never_passes_through_a_thin_wall(base) -> None:
    thin = terrain("thin", "wall", box(40.0, 1.0, 40.3, 47.0))
    ph = physics([thin], {"a": Footprint(3.0, 24.0, 0.0, base)})
    res = ph.move("a", [(69.0, 24.0)])
    assert res.blocked_by == "thin"
    assert res.end[0] < 40.0
    end = moved(ph.footprint("a"), res.end)
    assert 0.0 <= gap(end, thin.polygon) <= TOL


def test_multi_leg_path_measures_length_and_stops_on_second_leg() -> None:
    ph = physics([WALL], {"a": Footprint(10.0, 5.0, 0.0, 25)})
    res = ph.move("a", [(10.0, 20.0), (30.0, 20.0)])
    assert res.blocked_by == "w1"
    assert res.travelled == pytest.approx(15.0 + res.end[0] - 10.0, abs=1e-9)


def test_table_edge_stops_a_move() -> None:
    ph = physics([], {"a": Footprint(60.0, 24.0, 0.0, 25)})
    res = ph.move("a", [(80.0, 24.0)])
    assert res.blocked_by == "edge:east"
    assert ph.kind_of(res.blocked_by) == "edge"
    assert 72.0 - R25 - TOL <= res.end[0] <= 72.0 - R25


def test_base_touching_a_wall_can_move_away_but_not_into_it() -> None:
    ph = physics([WALL], {"a": Footprint(19.5, 20.0, 0.0, 25)})  # gap 0.0079 to the wall
    assert ph.move("a", [(10.0, 20.0)]).complete
    stuck = ph.move("a", [(25.0, 20.0)])
    assert stuck.blocked_by == "w1" and stuck.travelled == 0.0 and stuck.end == (19.5, 20.0)
    along = ph.move("a", [(19.5, 29.0)])  # sliding along the face is fine
    assert along.complete and along.end == (19.5, 29.0)


def test_rectangular_base_moves_without_turning_and_stops_at_wall() -> None:
    ph = physics([WALL], {"cav": Footprint(10.0, 20.0, 0.0, (25, 50))})
    res = ph.move("cav", [(30.0, 20.0)])
    half_depth = 50 / MM / 2
    assert res.blocked_by == "w1"
    assert 20.0 - half_depth - TOL <= res.end[0] <= 20.0 - half_depth


# --------------------------------------------------------------------------- charges


def ring_of_chargers(n: int, centre=(36.0, 24.0), rot: float = 0.0, dist: float = 5.0):
    bodies = {"t": Footprint(centre[0], centre[1], 0.0, 25)}
    for k in range(n):
        a = math.radians(60.0 * k + rot)
        bodies[f"c{k}"] = Footprint(
            centre[0] + dist * math.cos(a), centre[1] + dist * math.sin(a), 0.0, 25
        )
    return bodies


def assert_packed(placed: dict, target=(36.0, 24.0)) -> None:
    pts = list(placed.values())
    for p in pts:
        assert D25 <= math.dist(p, target) <= D25 + TOL  # in contact, not overlapping
    for i, p in enumerate(pts):
        for q in pts[i + 1 :]:
            assert math.dist(p, q) >= D25 - SLACK  # no two chargers overlap


@pytest.mark.parametrize("rot", [0.0, 7.0, 15.0, 30.0, 45.0])
def test_six_25mm_chargers_fit_around_one_25mm_target(rot: float) -> None:
    ph = physics([], ring_of_chargers(6, rot=rot))
    placed = ph.place_in_contact("t", [f"c{k}" for k in range(6)])
    assert sorted(placed) == [f"c{k}" for k in range(6)]
    assert_packed(placed)


def test_seventh_charger_is_omitted() -> None:
    bodies = ring_of_chargers(6)
    bodies["c6"] = Footprint(36.0 + 5.0 * math.cos(0.5), 24.0 + 5.0 * math.sin(0.5), 0.0, 25)
    ph = physics([], bodies)
    placed = ph.place_in_contact("t", [f"c{k}" for k in range(7)])
    assert len(placed) == 6 and "c6" not in placed
    assert_packed(placed)


def test_charger_lands_next_to_where_it_came_from() -> None:
    ph = physics([], ring_of_chargers(1))
    placed = ph.place_in_contact("t", ["c0"], approach={"c0": (36.0, 30.0)})
    assert math.dist(placed["c0"], (36.0, 24.0 + D25)) <= TOL  # due north of the target
    poses = ph.place_in_contact_poses("t", ["c0"], approach={"c0": (36.0, 30.0)})
    assert poses["c0"][2] == pytest.approx(270.0, abs=1.0)  # facing the target


def test_chargers_are_not_placed_inside_a_wall_next_to_the_target() -> None:
    wall = terrain("w", "wall", box(36.6, 20.0, 36.9, 28.0))  # 0.11 in east of the target
    bodies = ring_of_chargers(6)
    ph = physics([wall], bodies)
    chargers = [f"c{k}" for k in range(6)]
    placed = ph.place_in_contact("t", chargers)
    assert placed  # the west side still has room
    assert_packed(placed)
    for cid, p in placed.items():
        assert gap(Footprint(p[0], p[1], 0.0, 25), wall.polygon) > 0.0, cid
        assert p[0] < 36.6  # nobody ended up beyond or inside the wall


def test_placed_chargers_avoid_other_bases_and_rectangular_target() -> None:
    bodies = {
        "tank": Footprint(30.0, 30.0, 30.0, (50.8, 101.6)),
        "x": Footprint(32.3, 30.8, 0.0, 40),
        "c0": Footprint(36.0, 31.0, 0.0, 25),
        "c1": Footprint(35.0, 36.0, 0.0, (25, 50)),
    }
    ph = physics([], bodies)
    poses = ph.place_in_contact_poses("tank", ["c0", "c1"])
    assert set(poses) == {"c0", "c1"}
    tank = bodies["tank"]
    placed = {c: Footprint(p[0], p[1], p[2], bodies[c].base) for c, p in poses.items()}
    for fp in placed.values():
        assert 0.0 < gap(fp, tank) <= TOL + 1e-6
        assert gap(fp, bodies["x"]) > 0.0
    assert gap(placed["c0"], placed["c1"]) > 0.0


# --------------------------------------------------------------------------- sweeps

VEHICLE = (50.8, 101.6)  # 2 in across the front, 4 in long


def left_turn_poses(step_deg: float, radius: float = 10.0, centre=(20.0, 10.0)):
    """A vehicle starting at (centre.x + radius, centre.y) heading north, turning left."""
    poses = []
    n = int(round(180.0 / step_deg))
    for k in range(n + 1):
        phi = math.radians(k * step_deg)
        poses.append(
            (
                centre[0] + radius * math.cos(phi),
                centre[1] + radius * math.sin(phi),
                90.0 + k * step_deg,
            )
        )
    return poses


@pytest.mark.parametrize("step_deg", [1.0, 10.0, 30.0])
def test_sweep_along_left_turn_arc_hits_rock_on_the_arc(step_deg: float) -> None:
    # Rock astride the arc at 60 degrees round the turn (arc point (25, 18.66)).
    rock = terrain("rock1", "rocks", box(24.5, 18.2, 25.5, 19.2))
    ph = physics([rock], {"tank": Footprint(30.0, 10.0, 90.0, VEHICLE)})
    poses = left_turn_poses(step_deg)
    res = ph.sweep("tank", poses)
    assert isinstance(res, SweepResult)
    assert (res.hit, res.hit_kind) == ("rock1", "terrain")
    x, y, f = res.pose
    footprint = rect_corners(x, y, f, VEHICLE)
    d = poly_poly_dist(footprint, rock.polygon)
    assert 0.0 < d <= TOL  # clear of the rock, within the tolerance of touching it
    # Between samples the sweep follows the chord from poses[index] to poses[index + 1],
    # turning evenly: the reported pose lies on it, short of the rock.
    (x0, y0, f0), (x1, y1, f1) = poses[res.index], poses[res.index + 1]
    assert seg_dist((x, y), (x0, y0), (x1, y1)) <= 0.01
    t = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / ((x1 - x0) ** 2 + (y1 - y0) ** 2)
    assert f == pytest.approx((f0 + t * (f1 - f0)) % 360.0, abs=0.05)
    assert math.degrees(math.atan2(y - 10.0, x - 20.0)) < 60.0


def test_sweep_reports_models_and_table_edges() -> None:
    bodies = {"tank": Footprint(30.0, 10.0, 90.0, VEHICLE), "m": Footprint(25.5, 19.5, 0.0, 25)}
    ph = physics([], bodies)
    res = ph.sweep("tank", left_turn_poses(5.0))
    assert (res.hit, res.hit_kind) == ("m", "model")
    assert ph.kind_of("m") == "model"
    end = Footprint(*res.pose, VEHICLE)
    assert 0.0 < gap(end, bodies["m"]) <= TOL
    res = ph.sweep("tank", [(30.0, 10.0, 90.0), (30.0, 60.0, 90.0)])
    assert (res.hit, res.hit_kind, res.index) == ("edge:north", "edge", 0)
    assert 48.0 - 2.0 - TOL <= res.pose[1] <= 48.0 - 2.0


def test_clear_sweep_reaches_the_last_pose() -> None:
    ph = physics([], {"tank": Footprint(30.0, 10.0, 90.0, VEHICLE)})
    poses = left_turn_poses(15.0)
    res = ph.sweep("tank", poses)
    last = poses[-1]
    assert res == SweepResult(
        len(poses) - 1, (round(last[0], 2), round(last[1], 2), 270.0), None, None
    )


# --------------------------------------------------------------------------- determinism


def test_same_inputs_give_same_outputs_also_after_resync() -> None:
    rock = terrain("rock1", "rocks", box(24.5, 18.2, 25.5, 19.2))
    bodies = ring_of_chargers(6, rot=7.0)
    bodies["tank"] = Footprint(50.0, 10.0, 90.0, VEHICLE)
    bodies["m"] = Footprint(30.0, 30.0, 0.0, 40)

    def everything(ph: Physics):
        return (
            ph.move("m", [(40.0, 24.3), (50.0, 30.0)]),
            ph.move("c0", [(36.0, 24.0)]),
            ph.place_in_contact_poses("t", [f"c{k}" for k in range(6)]),
            ph.sweep("tank", left_turn_poses(10.0, centre=(40.0, 10.0))),
            ph.skid("tank", 120.0, 5.0),
        )

    ph = physics([rock], bodies)
    once = everything(ph)
    assert everything(ph) == once
    ph.sync(dict(reversed(list(bodies.items()))))
    assert everything(ph) == once
    assert everything(physics([rock], bodies)) == once


def test_incremental_sync_answers_like_a_fresh_build() -> None:
    bodies = ring_of_chargers(6, rot=15.0)
    bodies["tank"] = Footprint(50.0, 10.0, 90.0, VEHICLE)
    ph = physics([WALL], bodies)
    ph.move("c0", [(36.0, 24.0)])
    later = {**bodies, "c3": Footprint(20.0, 40.0, 0.0, 25), "extra": Footprint(30, 5, 0, 40)}
    del later["c5"]
    ph.sync(later)
    fresh = physics([WALL], later)
    for probe in (ph, fresh):
        assert probe.footprint("c3") == later["c3"]
        assert probe.kind_of("c5") is None
    chargers = ["c0", "c1", "c2", "c3", "c4", "extra"]
    assert ph.place_in_contact("t", chargers) == fresh.place_in_contact("t", chargers)
    assert ph.move("c3", [(20.0, 10.0)]) == fresh.move("c3", [(20.0, 10.0)])
    assert ph.skid("tank", 200.0, 8.0) == fresh.skid("tank", 200.0, 8.0)


class _Base:
    """A model as ``Physics.sync_models`` reads it: an id, a place, a facing, a base."""

    def __init__(self, mid: str, fp: Footprint, base: object = None) -> None:
        self.id, self.x, self.y, self.facing = mid, fp.x, fp.y, fp.facing
        self.base = fp.base if base is None else base


def test_sync_from_models_answers_like_a_sync_of_footprints() -> None:
    """``sync_models`` rebuilds only the bases that moved (issue 24), yet answers as a
    full ``sync`` of the same footprints: after one model moves, after none moves, after
    a model leaves and another comes, and with a base read back as a list."""
    bodies = ring_of_chargers(6, rot=15.0)
    bodies["tank"] = Footprint(50.0, 10.0, 90.0, VEHICLE)
    ph = physics([WALL], bodies)
    moved = {**bodies, "c3": Footprint(20.0, 40.0, 0.0, 25)}
    steps = [
        moved,
        moved,
        {k: v for k, v in moved.items() if k != "c5"} | {"extra": Footprint(30, 5, 0, 40)},
    ]
    for later in steps:
        ph.sync_models([_Base(k, fp) for k, fp in later.items()])
        fresh = physics([WALL], later)
        for k, fp in later.items():
            assert ph.footprint(k) == fp
        chargers = [k for k in later if k.startswith("c") or k == "extra"]
        assert ph.place_in_contact("t", chargers) == fresh.place_in_contact("t", chargers)
        assert ph.move("c3", [(20.0, 10.0)]) == fresh.move("c3", [(20.0, 10.0)])
        assert ph.skid("tank", 200.0, 8.0) == fresh.skid("tank", 200.0, 8.0)
    # a rectangular base read back from JSON as a list is the same base
    tank = later["tank"]
    ph.sync_models(
        [_Base(k, fp, list(fp.base) if k == "tank" else None) for k, fp in later.items()]
    )
    assert ph.footprint("tank") == tank and isinstance(ph.footprint("tank").base, tuple)


def test_model_id_clashing_with_terrain_id_is_refused() -> None:
    ph = physics([WALL])
    with pytest.raises(ValueError):
        ph.sync({"w1": Footprint(5.0, 5.0, 0.0, 25)})


# --------------------------------------------------------------------------- property

TABLE = 24.0
OBSTACLE_WALL = terrain("w", "wall", box(11.0, 4.0, 11.4, 20.0))

base_sizes = st.sampled_from([25, 32, 40, 60, (25, 50), (50, 100)])
coord = st.floats(min_value=1.0, max_value=TABLE - 1.0, allow_nan=False)


@st.composite
def scenes(draw):
    """Non-overlapping bases on a 24 in table with one wall, and moves for them."""
    placed: dict[str, Footprint] = {}
    for i in range(draw(st.integers(min_value=2, max_value=8))):
        fp = Footprint(
            draw(coord), draw(coord), draw(st.sampled_from([0, 30, 90])), draw(base_sizes)
        )
        half = base_radius_in(fp.base)
        if not (half <= fp.x <= TABLE - half and half <= fp.y <= TABLE - half):
            continue
        if gap(fp, OBSTACLE_WALL.polygon) <= 0.0:
            continue
        if any(gap(fp, other) <= 0.0 for other in placed.values()):
            continue
        placed[f"m{i:02d}"] = fp
    ids = sorted(placed)
    if not ids:
        return placed, []
    path = st.lists(st.tuples(coord, coord), min_size=1, max_size=3)
    moves = draw(st.lists(st.tuples(st.sampled_from(ids), path), min_size=1, max_size=5))
    return placed, moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(scenes())
def test_random_moves_never_end_overlapping_anything(scene) -> None:
    bodies, moves = scene
    ph = physics([OBSTACLE_WALL], bodies, width=TABLE, depth=TABLE)
    table = ((0.0, 0.0), (TABLE, 0.0), (TABLE, TABLE), (0.0, TABLE))
    for mover, path in moves:
        res = ph.move(mover, path)
        fp = moved(bodies[mover], res.end)
        assert gap(fp, OBSTACLE_WALL.polygon) > 0.0
        for oid, other in bodies.items():
            if oid != mover:
                assert gap(fp, other) > 0.0, (mover, oid, res)
        if isinstance(fp.base, (int, float)):
            inside = all(
                seg_dist((fp.x, fp.y), table[i], table[(i + 1) % 4]) > base_radius_in(fp.base)
                for i in range(4)
            )
        else:
            inside = all(0.0 < x < TABLE and 0.0 < y < TABLE for x, y in rect_corners(*fp))
        assert inside
        if res.complete:
            assert math.dist(res.end, path[-1]) <= 0.015
        bodies = {**bodies, mover: fp}
        ph.sync(bodies)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(scenes(), st.integers(min_value=0, max_value=7), st.floats(min_value=-120, max_value=120))
def test_random_sweeps_never_end_overlapping_anything(scene, pick, turn) -> None:
    bodies, _ = scene
    assume(bodies)
    ph = physics([OBSTACLE_WALL], bodies, width=TABLE, depth=TABLE)
    mover = sorted(bodies)[pick % len(bodies)]
    fp = bodies[mover]
    # A turn of the given angle on a 6 in radius, sampled every 10 degrees.
    sign = 1.0 if turn >= 0 else -1.0
    cx = fp.x - sign * 6.0 * math.sin(math.radians(fp.facing))
    cy = fp.y + sign * 6.0 * math.cos(math.radians(fp.facing))
    poses = []
    for k in range(13):
        a = fp.facing + turn * k / 12
        poses.append(
            (
                cx + sign * 6.0 * math.sin(math.radians(a)),
                cy - sign * 6.0 * math.cos(math.radians(a)),
                a,
            )
        )
    res = ph.sweep(mover, poses)
    end = Footprint(*res.pose, fp.base)
    assert gap(end, OBSTACLE_WALL.polygon) > 0.0
    for oid, other in bodies.items():
        if oid != mover:
            assert gap(end, other) > 0.0, (mover, oid, res)
    if res.hit is not None:
        assert 0 <= res.index < len(poses) - 1
        touched = ph.kind_of(res.hit)
        assert touched == res.hit_kind


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(scenes(), st.lists(base_sizes, min_size=1, max_size=7))
def test_random_charges_place_bases_in_contact_without_overlap(scene, charger_bases) -> None:
    bodies, _ = scene
    assume(bodies)
    target = sorted(bodies)[0]
    chargers = {}
    for k, base in enumerate(charger_bases):
        chargers[f"z{k}"] = Footprint(2.0 + 3.0 * k, 0.8 if k % 2 else 23.2, 0.0, base)
    everyone = {**bodies, **chargers}
    ph = physics([OBSTACLE_WALL], everyone, width=TABLE, depth=TABLE)
    poses = ph.place_in_contact_poses(target, sorted(chargers))
    placed = {c: Footprint(p[0], p[1], p[2], chargers[c].base) for c, p in poses.items()}
    for cid, fp in placed.items():
        assert 0.0 < gap(fp, bodies[target]) <= TOL + 1e-6, cid
        assert gap(fp, OBSTACLE_WALL.polygon) > 0.0
        for oid, other in bodies.items():
            if oid != target:
                assert gap(fp, other) > 0.0, (cid, oid)
        for oid, other in placed.items():
            if oid != cid:
                assert gap(fp, other) > 0.0, (cid, oid)
