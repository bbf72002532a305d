"""The geometry service against figures worked out by hand (DESIGN.md "The table and its
terrain"). Every expected value below is computed in the test from first principles
(closed-form areas, trigonometry), never by calling the function under test twice."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.battlefield import AREA_SIGHT_DEPTH, Battlefield, Footprint, TerrainFeature
from engine.geometry import (
    Geometry,
    Sight,
    arc_wedge,
    base_samples,
    bearing,
    crossings,
    distance,
    distance_point,
    features_at,
    features_under,
    footprint_outline,
    in_arc,
    overlaps,
    path_length,
    path_terrain_lengths,
    scatter,
    straight_poses,
    template_hits,
    template_outline,
    turn_poses,
    zone_of,
    zone_point,
    zone_polygons,
)

R25 = 25 / 25.4 / 2  # radius of a 25 mm base in inches
INCH = 25.4  # a base of 25.4 mm is 1 inch across


def rect(
    fid: str, kind: str, x0: float, y0: float, x1: float, y1: float, height: float = 0.0
) -> TerrainFeature:
    return TerrainFeature(fid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def table(*features: TerrainFeature) -> Battlefield:
    return Battlefield(width=48.0, depth=48.0, terrain=tuple(features))


def shoelace(poly: list[tuple[float, float]]) -> float:
    a = 0.0
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        a += x0 * y1 - x1 * y0
    return abs(a) / 2


def disc_above(r: float, h: float) -> float:
    """Area of a disc of radius r (centre at 0) above the line y = h, 0 <= h <= r."""
    return r * r * math.acos(h / r) - h * math.sqrt(r * r - h * h)


# --------------------------------------------------------------------------- distances


def test_distance_between_25mm_bases_two_inches_apart():
    a, b = Footprint(0, 0, 0, 25), Footprint(2, 0, 0, 25)
    assert distance(a, b) == pytest.approx(2 - 25 / 25.4, abs=1e-12)


def test_distance_is_zero_touching_and_overlapping():
    a = Footprint(0, 0, 0, 25)
    assert distance(a, Footprint(2 * R25, 0, 0, 25)) == 0.0
    assert distance(a, Footprint(0.3, 0.1, 0, 25)) == 0.0
    assert distance(a, Footprint(2 * R25 + 0.01, 0, 0, 25)) == pytest.approx(0.01)


def test_distance_round_to_rectangle_and_rectangles():
    # 50 mm wide (across the front, along y when facing east), 25 mm deep (along x)
    cav = Footprint(0, 0, 0, (50, 25))
    foot = Footprint(3, 0, 0, 25)
    assert distance(cav, foot) == pytest.approx(3 - 12.5 / 25.4 - R25)
    # diagonal: nearest point is the rectangle's corner (12.5 mm, 25 mm)
    corner = (12.5 / 25.4, 25 / 25.4)
    foot2 = Footprint(2, 3, 0, 25)
    expect = math.hypot(2 - corner[0], 3 - corner[1]) - R25
    assert distance(cav, foot2) == pytest.approx(expect)
    sq1, sq2 = Footprint(0, 0, 0, (INCH, INCH)), Footprint(3, 0, 0, (INCH, INCH))
    assert distance(sq1, sq2) == pytest.approx(2.0)
    # turned 45 degrees, the second square reaches sqrt(2)/2 towards the first
    sq3 = Footprint(3, 0, 45, (INCH, INCH))
    assert distance(sq1, sq3) == pytest.approx(3 - 0.5 - math.sqrt(2) / 2)


def test_distance_point():
    assert distance_point(Footprint(1, 1, 0, 25), (1, 6)) == pytest.approx(5 - R25)
    assert distance_point(Footprint(1, 1, 0, 25), (1, 1.1)) == 0.0
    sq = Footprint(0, 0, 30, (INCH, 2 * INCH))  # 1" wide, 2" deep, facing 30 degrees
    # a point 3" straight ahead of the centre is 3 - 1 = 2" from the front edge
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    assert distance_point(sq, (3 * c, 3 * s)) == pytest.approx(2.0)


def test_overlaps_touching_is_not_overlap():
    a = Footprint(0, 0, 0, 25)
    assert not overlaps(a, Footprint(2 * R25, 0, 0, 25))
    assert overlaps(a, Footprint(2 * R25 - 0.01, 0, 0, 25))
    sq = Footprint(0, 0, 0, (INCH, INCH))
    assert not overlaps(sq, Footprint(1.0, 0, 0, (INCH, INCH)))  # edge to edge
    assert overlaps(sq, Footprint(0.99, 0, 0, (INCH, INCH)))
    # a diamond whose corner pokes 0.05" into the square
    assert overlaps(sq, Footprint(0.5 + math.sqrt(2) / 2 - 0.05, 0, 45, (INCH, INCH)))
    assert not overlaps(sq, Footprint(0.5 + math.sqrt(2) / 2 + 0.05, 0, 45, (INCH, INCH)))
    # round against rectangle: the circle touching the side
    assert not overlaps(sq, Footprint(0.5 + R25, 0.2, 0, 25))
    assert overlaps(sq, Footprint(0.5 + R25 - 0.01, 0.2, 0, 25))


# --------------------------------------------------------------------------- arcs


def test_bearing_quadrants():
    assert bearing((0, 0), (1, 0)) == 0.0
    assert bearing((0, 0), (0, 1)) == 90.0
    assert bearing((0, 0), (-1, 0)) == 180.0
    assert bearing((0, 0), (0, -1)) == 270.0
    assert bearing((1, 1), (2, 2)) == pytest.approx(45.0)
    assert 0.0 <= bearing((0, 0), (1, -1e-300)) < 360.0


def test_in_arc_basic_and_behind():
    shooter = Footprint(0, 0, 0, 25)
    assert in_arc(shooter, Footprint(10, 0, 0, 25), 90)
    assert not in_arc(shooter, Footprint(0, 10, 0, 25), 90)
    assert not in_arc(shooter, Footprint(-10, 0, 0, 25), 90)
    assert in_arc(shooter, Footprint(-10, 0, 0, 25), 360)
    assert in_arc(shooter, Footprint(-10, 0, 0, 25), 90, offset_deg=180)  # rear arc


def test_in_arc_target_straddling_the_boundary():
    shooter = Footprint(0, 0, 0, 25)
    on_edge = Footprint(10 * math.cos(math.radians(45)), 10 * math.sin(math.radians(45)), 0, 25)
    assert in_arc(shooter, on_edge, 90)
    assert not in_arc(shooter, on_edge, 90, whole=True)
    # centre outside by less than a radius (perpendicular distance 0.3 < R25): any part
    ang = math.radians(45) + math.asin(0.3 / 10)
    grazing = Footprint(10 * math.cos(ang), 10 * math.sin(ang), 0, 25)
    assert in_arc(shooter, grazing, 90)
    assert not in_arc(shooter, grazing, 90, whole=True)
    # and by more than a radius: not at all
    ang = math.radians(45) + math.asin(0.6 / 10)
    assert not in_arc(shooter, Footprint(10 * math.cos(ang), 10 * math.sin(ang), 0, 25), 90)
    # inside by more than a radius: whole
    ang = math.radians(45) - math.asin(0.6 / 10)
    inside = Footprint(10 * math.cos(ang), 10 * math.sin(ang), 0, 25)
    assert in_arc(shooter, inside, 90, whole=True)


def test_in_arc_reflex_wedge():
    shooter = Footprint(0, 0, 90, 25)  # facing north; a 270-degree arc misses only the south
    assert in_arc(shooter, Footprint(10, 0, 0, 25), 270)
    assert not in_arc(shooter, Footprint(0, -10, 0, 25), 270)
    # on the boundary ray at -45 degrees (facing 90 - 135): straddling
    edge = Footprint(10 * math.cos(math.radians(-45)), 10 * math.sin(math.radians(-45)), 0, 25)
    assert in_arc(shooter, edge, 270)
    assert not in_arc(shooter, edge, 270, whole=True)
    assert in_arc(shooter, Footprint(-10, 0, 0, 25), 270, whole=True)


def test_in_arc_rectangular_target():
    shooter = Footprint(0, 0, 0, 25)
    # a 2" x 2" square centred on the 45-degree ray straddles a 90-degree arc's edge
    sq = Footprint(10, 10, 0, (2 * INCH, 2 * INCH))
    assert in_arc(shooter, sq, 90)
    assert not in_arc(shooter, sq, 90, whole=True)
    assert in_arc(shooter, Footprint(10, 0, 0, (2 * INCH, 2 * INCH)), 90, whole=True)


def test_arc_wedge_polygon():
    pts = arc_wedge(Footprint(1, 2, 90, 25), 60, 10)
    assert pts[0] == (1, 2)
    for x, y in pts[1:]:
        assert math.hypot(x - 1, y - 2) == pytest.approx(10)
    assert bearing((1, 2), pts[1]) == pytest.approx(60)
    assert bearing((1, 2), pts[-1]) == pytest.approx(120)


# --------------------------------------------------------------------------- zones


def test_zone_of_round_target():
    t = Footprint(0, 0, 0, 25)  # facing east
    assert zone_of(t, Footprint(3, 0, 0, 25)) == "front"
    assert zone_of(t, Footprint(-3, 0.7, 0, 25)) == "rear"
    assert zone_of(t, Footprint(0, 3, 0, 20)) == "flank"
    assert zone_of(t, Footprint(0, -3, 0, 25)) == "flank"  # exactly fits the strip
    assert zone_of(t, Footprint(0.5, 3, 0, 25)) == "none"  # straddles the front line
    # in base contact with the front edge: front
    assert zone_of(t, Footprint(2 * R25, 0, 0, 25)) == "front"


def test_zone_of_rectangular_target_facing_north():
    t = Footprint(10, 10, 90, (50, 25))  # front edge at y = 10 + 12.5 mm
    front_line = 10 + 12.5 / 25.4
    assert zone_of(t, Footprint(10, front_line + R25, 0, 25)) == "front"  # in contact
    assert zone_of(t, Footprint(10, front_line + R25 - 0.01, 0, 25)) == "none"
    assert zone_of(t, Footprint(14, 10, 0, 20)) == "flank"
    assert zone_of(t, Footprint(10, 7, 45, (25, 25))) == "rear"
    assert zone_point(t, (50, front_line + 1e-9)) == "front"
    assert zone_point(t, (50, front_line)) == "flank"  # boundary points belong to the flank
    assert zone_point(t, (-50, 10 - 12.5 / 25.4 - 1e-9)) == "rear"


def test_zone_polygons_areas():
    t = Footprint(5, 5, 0, 25)
    zones = zone_polygons(t, 10.0)
    assert set(zones) == {"front", "flank", "rear"}
    area = {k: sum(shoelace(p) for p in v) for k, v in zones.items()}
    assert area["flank"] == pytest.approx(20 * 2 * R25)
    assert area["front"] == pytest.approx(20 * (10 - R25))
    assert area["rear"] == pytest.approx(20 * (10 - R25))


# --------------------------------------------------------------------------- templates


def test_template_full_and_lens_shares():
    bases = {
        "under": Footprint(0, 0, 0, INCH),  # r = 0.5 inside a template of radius 2
        "lens": Footprint(2.2, 0, 0, INCH),  # template r 2 and base r 0.5 overlap by 0.3"
        "far": Footprint(10, 0, 0, INCH),
    }
    hits = template_hits((0, 0), 2.0, bases)
    assert hits["under"] == 1.0
    assert "far" not in hits
    # lens of circles r1 = 2, r2 = 0.5 at distance 2.2 - closed form
    d, r1, r2 = 2.2, 2.0, 0.5
    lens = (
        r1**2 * math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
        + r2**2 * math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
        - 0.5 * math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))
    )
    assert hits["lens"] == round(lens / (math.pi * r2**2), 4)


def test_template_equal_circles_at_one_radius():
    # two circles of radius r, centres r apart: lens = (2 pi / 3 - sqrt(3) / 2) r^2
    hits = template_hits((0, 0), 0.5, {"a": Footprint(0.5, 0, 0, INCH)})
    assert hits["a"] == round((2 * math.pi / 3 - math.sqrt(3) / 2) / math.pi, 4)


def test_template_on_rectangles_and_touching():
    # a 2" square with the template's centre on its corner: a quarter of the circle
    sq = Footprint(1, 1, 0, (2 * INCH, 2 * INCH))
    hits = template_hits((0, 0), 1.0, {"sq": sq, "touch": Footprint(1 + R25, 0, 0, 25)})
    assert hits["sq"] == round((math.pi / 4) / 4, 4)
    assert hits["touch"] == 0.0001  # touched at a point: under it, with the minimum share
    assert template_hits((0, 0), 5.0, {"sq": sq}) == {"sq": 1.0}


def test_template_outline_radius():
    pts = template_outline((3, 4), 2.0, 12)
    assert len(pts) == 12
    assert all(math.hypot(x - 3, y - 4) == pytest.approx(2.0) for x, y in pts)


# --------------------------------------------------------------------------- scatter and moves


def test_scatter_clock_directions_exact():
    assert scatter((1, 1), 0, 12, 3) == (4.0, 1.0)
    assert scatter((1, 1), 0, 3, 3) == (1.0, -2.0)
    assert scatter((1, 1), 0, 6, 3) == (-2.0, 1.0)
    assert scatter((1, 1), 0, 9, 3) == (1.0, 4.0)
    assert scatter((0, 0), 90, 12, 2) == (0.0, 2.0)
    assert scatter((0, 0), 90, 3, 2) == (2.0, 0.0)
    x, y = scatter((0, 0), 0, 1, 2)  # 1 o'clock: 30 degrees clockwise of the line
    assert (x, y) == pytest.approx(
        (2 * math.cos(math.radians(-30)), 2 * math.sin(math.radians(-30)))
    )
    with pytest.raises(ValueError):
        scatter((0, 0), 0, 13, 1)


def test_turn_quarter_circle_left_and_right():
    poses = turn_poses(0, 0, 0, 6, 90)
    assert poses[0] == (0, 0, 0.0)
    assert poses[-1] == (6.0, 6.0, 90.0)
    assert len(poses) == 19  # 5-degree steps
    for x, y, _ in poses:
        assert math.hypot(x - 0, y - 6) == pytest.approx(6)  # on the circle about (0, 6)
    right = turn_poses(0, 0, 0, 6, -90)
    assert right[-1] == (6.0, -6.0, 270.0)
    back = turn_poses(2, 3, 90, 2, 180)
    assert back[-1] == (-2.0, 3.0, 270.0)


def test_pivot_and_straight():
    pivot = turn_poses(1, 2, 350, 0, 20, step_deg=10)
    assert [p[:2] for p in pivot] == [(1, 2)] * 3
    assert [p[2] for p in pivot] == pytest.approx([350.0, 0.0, 10.0])
    line = straight_poses(1, 1, 90, 2.2, step=0.5)
    assert line[0] == (1, 1, 90.0)
    assert line[-1] == (1.0, 1 + 2.2, 90.0)
    assert len(line) == 6
    assert path_length([(0, 0), (3, 4), (3, 10)]) == 11.0


# --------------------------------------------------------------------------- terrain queries


def test_path_terrain_lengths_through_a_square():
    bf = table(rect("w", "woods", 2, -1, 4, 1), rect("far", "rough", 20, 20, 22, 22))
    assert path_terrain_lengths([(0, 0), (10, 0)], bf) == {"w": pytest.approx(2.0)}
    diag = table(rect("w", "woods", 2, 2, 4, 4))
    assert path_terrain_lengths([(0, 0), (6, 6)], diag)["w"] == pytest.approx(2 * math.sqrt(2))
    # a bent path: in 1" along x, then 0.5" up inside, then out
    got = path_terrain_lengths([(1, 0), (3, 0), (3, 0.5), (10, 0.5)], bf)
    assert got["w"] == pytest.approx(1 + 0.5 + 1)


def test_features_at_under_and_crossings():
    bf = table(
        rect("w", "woods", 2, -1, 4, 1),
        rect("h", "hedge", 6, -3, 6.2, 3),
        rect("wall", "wall", 10, -1, 11, 1),
    )
    assert features_at((3, 0), bf) == ["w"]
    assert features_at((5, 0), bf) == []
    assert features_under(Footprint(4 + R25, 0, 0, 25), bf) == []  # touching the edge
    assert features_under(Footprint(4 + R25 - 0.01, 0, 0, 25), bf) == ["w"]
    path = [(0, 0), (12, 0)]
    assert crossings(path, bf) == ["w", "h", "wall"]
    assert crossings(path, bf, kinds={"hedge"}) == ["h"]
    assert crossings(path, bf, kinds={"line"}) == ["h"]
    assert crossings([(0, 1), (2, 1), (4, 1)], bf) == []  # along the woods' edge only


# --------------------------------------------------------------------------- sight


def test_wall_hiding_exactly_half_a_round_base():
    # The shadow edge is the ray along y = 0 from the eye: it cuts the target in half.
    bf = table(rect("w", "wall", 5, -3, 5.2, 0))
    geo = Geometry(bf)
    eye, target = Footprint(0, 0, 0, 25), Footprint(10, 0, 17, 25)
    assert geo.visible_fraction(eye, target) == pytest.approx(0.5, abs=1e-12)
    assert geo.visible_matrix([eye], [target])[0, 0] == pytest.approx(0.5, abs=1e-12)
    s = geo.sight(eye, target)
    assert isinstance(s, Sight)
    assert s.blockers == ("w",) and s.hard_cover == ("w",) and s.soft_cover == ()
    assert s.distance == pytest.approx(10 - 2 * R25)


def test_square_base_half_and_three_quarters_hidden():
    geo = Geometry(table(rect("w", "wall", 5, -3, 5.2, 0)))
    sq = Footprint(10, 0, 0, (INCH, INCH))
    assert geo.visible_fraction(Footprint(0, 0, 0, 25), sq) == pytest.approx(0.5, abs=1e-12)
    # eye raised to y = 0.25 and the wall's top at 0.25: the shadow's edge is y = 0.25
    geo2 = Geometry(table(rect("w", "wall", 5, -3, 5.2, 0.25)))
    eye = Footprint(0, 0.25, 0, 25)
    assert geo2.visible_fraction(eye, sq) == pytest.approx(0.25, abs=1e-12)
    assert geo2.visible_matrix([eye], [sq])[0, 0] == pytest.approx(0.25, abs=1e-12)


def test_slanted_shadow_edge_on_a_square():
    # The shadow's upper edge is the ray y = 0.02 x through the wall's corner (5, 0.1).
    # Over the square [9.5, 10.5] x [-0.5, 0.5] the hidden area is the integral of
    # (0.02 x + 0.5) dx = 0.02 * (10.5^2 - 9.5^2) / 2 + 0.5 = 0.7.
    geo = Geometry(table(rect("w", "wall", 5, -3, 5.2, 0.1)))
    eye, sq = Footprint(0, 0, 0, 25), Footprint(10, 0, 0, (INCH, INCH))
    assert geo.visible_fraction(eye, sq) == pytest.approx(0.3, abs=1e-12)
    assert geo.visible_matrix([eye], [sq])[0, 0] == pytest.approx(0.3, abs=1e-12)


def test_partial_shadow_on_an_exact_disc():
    # Eye at y = 0.25 and the wall's top at 0.25: hidden below y = 0.25 across a 1" disc
    # centred on y = 0; visible = the circular segment above the chord.
    geo = Geometry(table(rect("w", "building", 5, -3, 6, 0.25)))
    eye, target = Footprint(0, 0.25, 0, 25), Footprint(10, 0, 0, INCH)
    expect = disc_above(0.5, 0.25) / (math.pi * 0.25)
    assert geo.visible_fraction(eye, target) == pytest.approx(expect, abs=1e-9)
    assert geo.visible_matrix([eye], [target])[0, 0] == pytest.approx(expect, abs=1e-9)


def test_fully_behind_a_building_and_clear_line():
    geo = Geometry(table(rect("b", "building", 5, -2, 8, 2)))
    eye = Footprint(0, 0, 0, 25)
    hidden, clear = Footprint(12, 0, 0, 25), Footprint(0, 10, 0, 25)
    assert geo.visible_fraction(eye, hidden) == 0.0
    assert geo.visible_fraction(eye, clear) == 1.0
    m = geo.visible_matrix([eye], [hidden, clear])
    assert m.tolist() == [[0.0, 1.0]]
    assert geo.sight(eye, hidden).blockers == ("b",)
    assert geo.sight(eye, clear).blockers == ()


def test_two_walls_union_is_not_double_counted():
    # Two overlapping shadows each hide the lower half; together still one half.
    geo = Geometry(table(rect("a", "wall", 4, -3, 4.2, 0), rect("b", "wall", 6, -2, 6.2, 0)))
    eye, sq = Footprint(0, 0, 0, 25), Footprint(10, 0, 0, (INCH, INCH))
    assert geo.visible_fraction(eye, sq) == pytest.approx(0.5, abs=1e-12)
    assert geo.visible_matrix([eye], [sq])[0, 0] == pytest.approx(0.5, abs=1e-12)
    assert set(geo.sight(eye, sq).hard_cover) == {"a", "b"}


def test_model_partly_inside_a_building_and_eye_inside_one():
    # The half of the square inside the building is behind its front edge: hidden.
    geo = Geometry(table(rect("b", "building", 10, -5, 20, 5)))
    sq = Footprint(10, 0, 0, (INCH, INCH))
    assert geo.visible_fraction(Footprint(0, 0, 0, 25), sq) == pytest.approx(0.5, abs=1e-12)
    assert geo.visible_matrix([Footprint(0, 0, 0, 25)], [sq])[0, 0] == pytest.approx(0.5)
    # An observer inside the building looks out through it.
    inside = Footprint(15, 0, 0, 25)
    assert geo.visible_fraction(inside, Footprint(30, 0, 0, 25)) == 1.0
    assert geo.visible_matrix([inside], [Footprint(30, 0, 0, 25)])[0, 0] == 1.0


def test_area_terrain_blocks_beyond_two_inches():
    geo = Geometry(table(rect("w", "woods", 4, -2, 8, 2)))
    eye = Footprint(0, 0, 0, 25)
    s = geo.sight(eye, Footprint(9.5, 0, 0, 25))  # 4" of woods, then 1" behind them
    assert s.visible == 0.0 and s.blockers == ("w",) and s.soft_cover == ("w",)
    s = geo.sight(eye, Footprint(12, 0, 0, 25))  # hidden, and too far behind for cover
    assert s.visible == 0.0 and s.blockers == ("w",) and s.soft_cover == ()
    # 1.5" of woods in the way: seen, soft cover within 2" behind
    geo2 = Geometry(table(rect("w", "woods", 4, -2, 5.5, 2)))
    s2 = geo2.sight(eye, Footprint(7, 0, 0, 25))
    assert s2.visible == 1.0 and s2.blockers == () and s2.soft_cover == ("w",)
    s3 = geo2.sight(eye, Footprint(12, 0, 0, 25))  # 6.5" behind: no cover
    assert s3.visible == 1.0 and s3.soft_cover == ()


def test_area_terrain_depth_inside_the_woods_by_samples():
    # Woods from x = 4: sample points more than 2" in (x > 6) are hidden.
    geo = Geometry(table(rect("w", "woods", 4, -5, 20, 5)))
    eye, target = Footprint(0, 0, 0, INCH), Footprint(6.1, 0, 0, INCH)
    samples = base_samples(target)
    assert len(samples) == 64
    expect = 1 - sum(1 for x, _ in samples if x - 4 > AREA_SIGHT_DEPTH) / len(samples)
    assert 0.2 < expect < 0.8
    assert geo.visible_fraction(eye, target) == pytest.approx(expect)
    assert geo.visible_matrix([eye], [target])[0, 0] == pytest.approx(expect)
    s = geo.sight(eye, target)
    assert s.soft_cover == ("w",) and s.blockers == ("w",)


def test_area_and_tall_terrain_combined_on_samples():
    # A wall hides the lower half; the woods hide the samples beyond x = 6.
    geo = Geometry(table(rect("w", "woods", 4, -5, 20, 5), rect("wall", "wall", 2, -3, 2.2, 0)))
    eye, target = Footprint(0, 0, 0, INCH), Footprint(6.1, 0, 0, INCH)
    pts = base_samples(target)
    hidden = sum(1 for x, y in pts if x > 6 or y < 0)
    assert geo.visible_fraction(eye, target) == pytest.approx(1 - hidden / 64)
    assert geo.visible_matrix([eye], [target])[0, 0] == pytest.approx(1 - hidden / 64)


def test_hills_block_between_lower_models_only():
    geo = Geometry(table(rect("hill", "hill", 4, -3, 8, 3, height=1.0)))
    eye, target = Footprint(0, 0, 0, 25), Footprint(12, 0, 0, 25)
    assert geo.visible_fraction(eye, target) == 0.0
    assert geo.visible_matrix([eye], [target])[0, 0] == 0.0
    assert geo.sight(eye, target).blockers == ("hill",)
    assert geo.sight(eye, target).hard_cover == ()
    on_hill = Footprint(5, 0, 0, 25)
    assert geo.visible_fraction(on_hill, target) == 1.0
    assert geo.visible_matrix([on_hill], [target])[0, 0] == 1.0
    assert geo.visible_fraction(target, on_hill) == 1.0
    # a model taller than the hill sees over it
    assert geo.sight(eye, target, observer_height=1.5).visible == 1.0
    assert geo.elevation_at((5, 0)) == 1.0
    assert geo.elevation_at((0, 0)) == 0.0


def test_line_obstacles_give_cover_but_never_block():
    geo = Geometry(table(rect("h", "hedge", 8, -3, 8.2, 3), rect("lw", "low_wall", 8, 5, 8.2, 11)))
    eye = Footprint(0, 0, 0, 25)
    near = geo.sight(eye, Footprint(9.5, 0, 0, 25))
    assert near.visible == 1.0 and near.soft_cover == ("h",) and near.hard_cover == ()
    far = geo.sight(eye, Footprint(14, 0, 0, 25))
    assert far.soft_cover == () and far.hard_cover == ()
    walled = geo.sight(Footprint(0, 8, 0, 25), Footprint(9.5, 8, 0, 25))
    assert walled.hard_cover == ("lw",) and walled.soft_cover == ()


def test_shadow_outline_and_impassable():
    geo = Geometry(table(rect("w", "wall", 5, -3, 5.2, 0), rect("h", "hedge", 1, 5, 2, 6)))
    sq = Footprint(10, 0, 0, (INCH, INCH))
    parts = geo.shadow_outline(Footprint(0, 0, 0, 25), sq)
    assert sum(shoelace(p) for p in parts) == pytest.approx(0.5)
    assert all(y <= 1e-9 for p in parts for _, y in p)
    assert geo.shadow_outline(Footprint(0, 0, 0, 25), Footprint(0, 10, 0, 25)) == []
    assert geo.impassable() == [[(5, -3), (5.2, -3), (5.2, 0), (5, 0)]]


def test_matrix_shape_and_row():
    geo = Geometry(table(rect("b", "building", 5, -2, 8, 2)))
    obs = [Footprint(0, 0, 0, 25), Footprint(0, 5, 0, 25)]
    tgs = [Footprint(12, 0, 0, 25), Footprint(12, 1.5, 0, 25), Footprint(12, 9, 0, 25)]
    m = geo.visible_matrix(obs, tgs)
    assert m.shape == (2, 3)
    ref = np.array([[geo.visible_fraction(o, t) for t in tgs] for o in obs])
    assert np.abs(m - ref).max() < 1e-9
    assert np.abs(geo.visible_row(obs[1], tgs) - ref[1]).max() < 1e-9
    assert geo.visible_matrix([], tgs).shape == (0, 3)


def test_footprint_outline_shapes():
    sq = footprint_outline(Footprint(0, 0, 90, (50, 25)))
    assert len(sq) == 4 and shoelace(sq) == pytest.approx(50 * 25 / 25.4**2)
    # facing north: the front edge (50 mm wide) is at y = +12.5 mm
    assert max(y for _, y in sq) == pytest.approx(12.5 / 25.4)
    assert max(x for x, _ in sq) == pytest.approx(25 / 25.4)
    circle = footprint_outline(Footprint(1, 1, 0, 25), 16)
    assert len(circle) == 16 and circle[0] == (1 + R25, 1.0)
