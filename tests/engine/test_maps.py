"""Checks on the ruleset-neutral battlefields in maps/*.toml (the scenario loader's contract).

The geometry here is deliberately library-free (no shapely): a map that a human edits by
hand must stay valid, and these checks say exactly which piece and which rule broke.
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest

from engine.battlefield import TERRAIN_CLASSES, Battlefield, Footprint, TerrainFeature
from engine.physics import Physics

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"
MAP_FILES = sorted(MAPS_DIR.glob("*.toml"))
TOP_KEYS = {"name", "description", "table", "terrain"}
TERRAIN_KEYS = {"id", "kind", "polygon", "height"}
LINE_KINDS = {k for k, c in TERRAIN_CLASSES.items() if c == "line"} | {"wall"}
DEPLOYMENT_DEPTH = 12.0
# Share of a deployment zone that tall or area terrain may cover and still count as open.
MAX_DEPLOYMENT_COVER = 0.10


def load(path: Path) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def signed_area(poly) -> float:
    return 0.5 * sum(
        poly[i][0] * poly[(i + 1) % len(poly)][1] - poly[(i + 1) % len(poly)][0] * poly[i][1]
        for i in range(len(poly))
    )


def orient(p, q, r) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def on_segment(p, q, r) -> bool:
    """r lies on segment pq, given that the three are collinear."""
    return min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and min(p[1], q[1]) <= r[1] <= max(p[1], q[1])


def segments_touch(a, b, c, d) -> bool:
    """Segments ab and cd share at least one point (crossing, touching or overlapping)."""
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    if ((o1 > 0 and o2 < 0) or (o1 < 0 and o2 > 0)) and (
        (o3 > 0 and o4 < 0) or (o3 < 0 and o4 > 0)
    ):
        return True
    return (
        (o1 == 0 and on_segment(a, b, c))
        or (o2 == 0 and on_segment(a, b, d))
        or (o3 == 0 and on_segment(c, d, a))
        or (o4 == 0 and on_segment(c, d, b))
    )


def simplicity_problem(poly) -> str | None:
    """Why a polygon is not simple, or None if it is."""
    n = len(poly)
    if len(set(map(tuple, poly))) != n:
        return "repeated vertex"
    edges = [(poly[i], poly[(i + 1) % n]) for i in range(n)]
    for i in range(n):
        a, b = edges[i]
        c = edges[(i + 1) % n][1]
        if (
            orient(a, b, c) == 0
            and (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]) < 0
        ):
            return f"edge {i} folds back on the next one"
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue  # neighbours through the closing vertex
            if segments_touch(*edges[i], *edges[j]):
                return f"edges {i} and {j} meet"
    return None


def clip_below(poly, y0: float, keep_below: bool) -> list:
    """Sutherland-Hodgman clip of a polygon to y <= y0 (or y >= y0)."""

    def inside(p) -> bool:
        return p[1] <= y0 if keep_below else p[1] >= y0

    out = []
    for i in range(len(poly)):
        p, q = poly[i], poly[(i + 1) % len(poly)]
        if inside(q):
            if not inside(p):
                out.append((p[0] + (q[0] - p[0]) * (y0 - p[1]) / (q[1] - p[1]), y0))
            out.append(q)
        elif inside(p):
            out.append((p[0] + (q[0] - p[0]) * (y0 - p[1]) / (q[1] - p[1]), y0))
    return out


def perimeter(poly) -> float:
    return sum(math.dist(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly)))


# --------------------------------------------------------------------------- the tests


def test_there_are_at_least_three_maps() -> None:
    assert len(MAP_FILES) >= 3, MAP_FILES


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_map_header(path: Path) -> None:
    data = load(path)
    assert set(data) <= TOP_KEYS, f"{path.name}: unknown keys {set(data) - TOP_KEYS}"
    assert isinstance(data.get("name"), str) and data["name"].strip()
    assert isinstance(data.get("description"), str) and data["description"].strip()
    width, depth = data["table"]
    assert width > 0 and depth > 0
    assert data.get("terrain"), f"{path.name}: no terrain"


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_map_terrain_pieces(path: Path) -> None:
    data = load(path)
    width, depth = data["table"]
    seen: set[str] = set()
    for i, t in enumerate(data["terrain"]):
        where = f"{path.name}: terrain[{i}] ({t.get('id')})"
        assert set(t) <= TERRAIN_KEYS, f"{where}: unknown keys {set(t) - TERRAIN_KEYS}"
        assert isinstance(t.get("id"), str) and t["id"], f"{where}: needs an id"
        assert t["id"] not in seen, f"{where}: duplicate id"
        seen.add(t["id"])
        assert t.get("kind") in TERRAIN_CLASSES, f"{where}: unknown kind {t.get('kind')!r}"
        poly = [tuple(p) for p in t["polygon"]]
        assert len(poly) >= 3, f"{where}: fewer than 3 points"
        assert all(len(p) == 2 for p in poly), f"{where}: points are [x, y]"
        for x, y in poly:
            assert 0 <= x <= width and 0 <= y <= depth, f"{where}: ({x}, {y}) off the table"
        assert signed_area(poly) > 0, f"{where}: not counter-clockwise (or no area)"
        problem = simplicity_problem(poly)
        assert problem is None, f"{where}: not a simple polygon: {problem}"
        if t["kind"] == "hill":
            assert t.get("height", 0) > 0, f"{where}: a hill needs a height > 0"
        else:
            assert "height" not in t, f"{where}: only hills carry a height"
        if t["kind"] in LINE_KINDS:
            # A thin strip: area over half the perimeter is its mean width.
            mean_width = signed_area(poly) / (perimeter(poly) / 2)
            assert 0.2 <= mean_width <= 0.6, f"{where}: line obstacle {mean_width:.2f} in wide"


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_deployment_zones_are_mostly_open(path: Path) -> None:
    data = load(path)
    width, depth = data["table"]
    zone_area = width * DEPLOYMENT_DEPTH
    covered = {"south": 0.0, "north": 0.0}
    for t in data["terrain"]:
        if TERRAIN_CLASSES[t["kind"]] not in ("tall", "area"):
            continue
        poly = [tuple(p) for p in t["polygon"]]
        covered["south"] += abs(signed_area(clip_below(poly, DEPLOYMENT_DEPTH, True) or [(0, 0)]))
        north = clip_below(poly, depth - DEPLOYMENT_DEPTH, False)
        covered["north"] += abs(signed_area(north or [(0, 0)]))
    for zone, area in covered.items():
        assert area / zone_area <= MAX_DEPLOYMENT_COVER, (
            f"{path.name}: {zone} zone {area:.1f} sq in"
        )


def test_clip_and_simplicity_helpers_can_fail() -> None:
    bow_tie = [(0, 0), (2, 2), (2, 0), (0, 2)]
    assert simplicity_problem(bow_tie) is not None
    assert simplicity_problem([(0, 0), (2, 0), (2, 2), (1, 0), (0, 2)]) is not None  # touches
    assert simplicity_problem([(0, 0), (2, 0), (2, 2), (0, 2)]) is None
    square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    assert signed_area(clip_below(square, 1.0, True)) == pytest.approx(4.0)
    assert signed_area(clip_below(square, 1.0, False)) == pytest.approx(12.0)


def test_maps_together_use_every_terrain_kind() -> None:
    kinds = {t["kind"] for path in MAP_FILES for t in load(path)["terrain"]}
    assert kinds == set(TERRAIN_CLASSES), f"missing: {set(TERRAIN_CLASSES) - kinds}"


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.name)
def test_map_builds_a_battlefield_the_physics_service_accepts(path: Path) -> None:
    data = load(path)
    width, depth = data["table"]
    terrain = tuple(TerrainFeature.from_dict(t) for t in data["terrain"])
    field = Battlefield(float(width), float(depth), terrain, data["name"])
    ph = Physics(field)
    # A base crossing the whole table south to north in the west, a strip kept free of
    # tall terrain on every map, is stopped only by the far table edge.
    ph.sync({"scout": Footprint(1.0, 1.0, 90.0, 25)})
    res = ph.move("scout", [(1.0, depth + 5.0)])
    assert res.blocked_by == "edge:north", res
