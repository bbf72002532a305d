"""The terrain index: prepared shapely polygons of a battlefield and the queries on it.

Why cached per battlefield: the module-level queries are called with the same static
table all game long, so its polygons are built and prepared once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from engine.battlefield import (
    Battlefield,
    Footprint,
    TerrainFeature,
    base_is_round,
    base_radius_in,
)
from engine.geometry._common import _TOUCH_TOL, Point
from engine.geometry.bases import _fp_geom

_FEW = 64  # envelopes checked in a Python loop up to this many features
_MEMO_SIZE = 50_000  # answers kept per table before the memo starts again


def _feature_geom(f: TerrainFeature) -> shapely.Geometry:
    """A valid polygonal shapely geometry for a feature (invalid rings are repaired)."""
    if len(f.polygon) < 3:
        raise ValueError(f"terrain feature {f.id!r}: a polygon needs at least 3 points")
    g = shapely.Polygon(f.polygon)
    if not g.is_valid:
        g = shapely.make_valid(g)
        parts = [p for p in shapely.get_parts(g) if isinstance(p, shapely.Polygon)]
        parts += [
            q for p in shapely.get_parts(g) if isinstance(p, shapely.MultiPolygon) for q in p.geoms
        ]
        g = shapely.MultiPolygon(parts) if len(parts) != 1 else parts[0]
    return shapely.orient_polygons(g, exterior_cw=False)


class _TerrainIndex:
    """Shapely geometries of a battlefield's terrain, built once and prepared."""

    def __init__(self, bf: Battlefield):
        self.features = bf.terrain
        self.ids = [f.id for f in bf.terrain]
        self.kinds = [f.kind for f in bf.terrain]
        self.classes = [f.cls for f in bf.terrain]
        self.geoms = np.array([_feature_geom(f) for f in bf.terrain], dtype=object)
        if len(self.geoms):
            shapely.prepare(self.geoms)
        self.tree = shapely.STRtree(self.geoms)
        # envelopes (x0, y0, x1, y1): a numpy pre-filter before the tree, exact because two
        # geometries meet only where their envelopes meet
        self.boxes = shapely.bounds(self.geoms).reshape(-1, 4) if len(self.geoms) else None
        # the same envelopes as Python floats: on a table of a few dozen pieces a loop
        # answers faster than numpy's call overhead (issue 24)
        self.box_list = (
            [tuple(float(v) for v in b) for b in self.boxes]
            if self.boxes is not None and len(self.boxes) <= _FEW
            else None
        )
        #: answers that depend on the static terrain and the question alone, kept
        #: (bounded): a game asks about the same bases and paths again and again
        self.memo: dict[tuple[Any, ...], list[str]] = {}

    def none_near(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """True when no feature's envelope meets the box (then no query can find one)."""
        b = self.boxes
        if b is None:
            return True
        if self.box_list is not None:
            for bx0, by0, bx1, by1 in self.box_list:
                if bx0 <= x1 and bx1 >= x0 and by0 <= y1 and by1 >= y0:
                    return False
            return True
        return not bool(
            ((b[:, 0] <= x1) & (b[:, 2] >= x0) & (b[:, 1] <= y1) & (b[:, 3] >= y0)).any()
        )

    def kept(self, key: tuple[Any, ...], work: Callable[[], list[str]]) -> list[str]:
        """``work()``'s answer for ``key``, worked out once (a copy each time: callers
        may change their list)."""
        try:
            hit = self.memo.get(key)
        except TypeError:  # an unhashable question (a base given as a list)
            return work()
        if hit is None:
            if len(self.memo) > _MEMO_SIZE:
                self.memo.clear()
            hit = self.memo[key] = work()
        return list(hit)

    def query(self, geom: shapely.Geometry, predicate: str = "intersects") -> np.ndarray:
        return np.sort(self.tree.query(geom, predicate=predicate))


@lru_cache(maxsize=16)
def _cached_index(bf: Battlefield) -> _TerrainIndex:
    return _TerrainIndex(bf)


def _index(bf: Battlefield) -> _TerrainIndex:
    """The terrain index of a battlefield, built once per (hashable) battlefield: the
    module-level queries are called with the same static table all game long. Kept on
    the battlefield itself after the first look-up (hashing a whole battlefield on every
    query cost more than many of the queries)."""
    held = bf.__dict__.get("_terrain_index")
    if held is not None and held.index is not None:
        return held.index
    try:
        got = _cached_index(bf)
    except TypeError:  # unhashable contents (lists in polygons): build without caching
        return _TerrainIndex(bf)
    object.__setattr__(bf, "_terrain_index", _Held(got))  # frozen dataclass: not a field
    return got


class _Held:
    """The index kept on a battlefield; a copied or pickled battlefield gets an empty one
    (and builds its own), never the shapely objects."""

    __slots__ = ("index",)

    def __init__(self, index: _TerrainIndex | None = None) -> None:
        self.index = index

    def __reduce__(self) -> tuple[type, tuple[()]]:
        return (_Held, ())


def _path_box(path: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in path]
    ys = [float(p[1]) for p in path]
    return min(xs), min(ys), max(xs), max(ys)


def _path_geom(path: Sequence[Point]) -> shapely.Geometry | None:
    pts = [(float(p[0]), float(p[1])) for p in path]
    if not pts:
        return None
    if len(pts) == 1 or all(p == pts[0] for p in pts):
        return shapely.Point(pts[0])
    return shapely.LineString(pts)


def path_terrain_lengths(path: Sequence[Point], battlefield: Battlefield) -> dict[str, float]:
    """Feature id -> length (inches) of the path inside that feature, for movement costs.

    Overlapping features each get their full length; features the path only touches are
    left out.
    """
    line = _path_geom(path)
    if line is None or isinstance(line, shapely.Point):
        return {}
    idx = _index(battlefield)
    cand = idx.query(line)
    if cand.size == 0:
        return {}
    lengths = shapely.length(shapely.intersection(line, idx.geoms[cand]))
    return {idx.ids[i]: float(v) for i, v in zip(cand, lengths) if v > 1e-12}


def features_at(p: Point, battlefield: Battlefield) -> list[str]:
    """Ids of the features containing a point (boundary included), in battlefield order."""
    idx = _index(battlefield)
    return [idx.ids[i] for i in idx.query(shapely.Point(p), "intersects")]


def _base_hits(fp: Footprint, idx: _TerrainIndex, cand: np.ndarray) -> np.ndarray:
    """Mask over ``cand``: the base overlaps the feature (touching does not count)."""
    if cand.size == 0:
        return np.zeros(0, dtype=bool)
    geoms = idx.geoms[cand]
    if base_is_round(fp.base):
        d = shapely.distance(shapely.Point(fp.x, fp.y), geoms)
        return d < base_radius_in(fp.base) - _TOUCH_TOL
    rect = _fp_geom(fp)
    return shapely.intersects(rect, geoms) & ~shapely.touches(rect, geoms)


def _base_bbox(fp: Footprint) -> shapely.Geometry:
    r = base_radius_in(fp.base)
    return shapely.box(fp.x - r, fp.y - r, fp.x + r, fp.y + r)


def features_under(fp: Footprint, battlefield: Battlefield) -> list[str]:
    """Ids of the features a base overlaps (round bases exactly as discs; touching is not
    overlapping), in battlefield order."""
    idx = _index(battlefield)
    return idx.kept(("under", fp), lambda: _features_under(fp, idx))


def _features_under(fp: Footprint, idx: _TerrainIndex) -> list[str]:
    """``features_under``, worked out."""
    r = base_radius_in(fp.base)
    if idx.none_near(fp.x - r, fp.y - r, fp.x + r, fp.y + r):
        return []
    cand = idx.query(_base_bbox(fp))
    hit = _base_hits(fp, idx, cand)
    return [idx.ids[i] for i in cand[hit]]


def crossings(
    path: Sequence[Point], battlefield: Battlefield, kinds: Iterable[str] | None = None
) -> list[str]:
    """Ids of the features whose interior the path crosses or enters (merely running along
    or touching a boundary does not count), in battlefield order.

    ``kinds`` filters by terrain kind or class name (``{"hedge"}`` or ``{"line"}``).
    """
    if not path:
        return []
    idx = _index(battlefield)
    if idx.none_near(*_path_box(path)):
        return []
    want = frozenset(kinds) if kinds is not None else None
    key = ("cross", tuple((float(p[0]), float(p[1])) for p in path), want)
    return idx.kept(key, lambda: _crossings(path, idx, want))


def _crossings(path: Sequence[Point], idx: _TerrainIndex, want: frozenset[str] | None) -> list[str]:
    """``crossings``, worked out."""
    geom = _path_geom(path)
    if geom is None:
        return []
    cand = idx.query(geom)
    if cand.size == 0:
        return []
    inner = ~shapely.touches(geom, idx.geoms[cand])
    out = []
    for i, ok in zip(cand, inner):
        if ok and (want is None or idx.kinds[i] in want or idx.classes[i] in want):
            out.append(idx.ids[i])
    return out
