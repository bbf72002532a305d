"""Benchmark of the visible fraction: Geometry.visible_matrix against a naive shapely loop.

Run from the repo root: ``python bench/geometry.py``. It builds a reproducible 72 x 48
table with 40 terrain pieces (mostly tall terrain, some woods and hedges) and 100 models a
side on 25 mm bases placed clear of terrain and of each other, then times

  (a) a naive per-pair baseline written here: for every pair, the shadow of each piece of
      terrain that meets the sight cone, their union, and a shapely difference with the
      target's footprint (area terrain by the same sample points, with shapely lines);
  (b) ``Geometry.visible_matrix`` for the 100 x 100 pairs;
  (c) the hover preview: one shooter against the 100 targets (``Geometry.visible_row``),

and prints medians, the ratio naive/matrix, and how many pairs fall in a different cover
band (clear: visible >= 3/4, cover: >= 1/4, else hidden), which must be 0.

Targets (the brief): matrix at least 15x faster than the naive loop; preview under 2 ms.

Why shapely is imported here although DESIGN.md reserves it to engine/geometry/: the
baseline must be the straightforward shapely computation measured in the same run, so it
lives in this script (never imported by the engine, rulesets or tests).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from engine.batch import progress  # noqa: E402
from engine.battlefield import (  # noqa: E402
    AREA_SIGHT_DEPTH,
    Battlefield,
    Footprint,
    TerrainFeature,
    base_radius_in,
)
from engine.geometry import (  # noqa: E402
    Geometry,
    base_samples,
    features_under,
)

SEED = 20240611
WIDTH, DEPTH = 72.0, 48.0
N_TALL, N_WOODS, N_HEDGES = 28, 6, 6
PER_SIDE = 100
BASE_MM = 25.0
NAIVE_REPEATS = 3
MATRIX_REPEATS = 9
PREVIEW_PASSES = 3
#: ``--quiet``: no progress bar
QUIET = "--quiet" in sys.argv


# --------------------------------------------------------------------------- the layout


def _rot_rect(cx: float, cy: float, w: float, h: float, ang: float) -> tuple:
    c, s = math.cos(ang), math.sin(ang)
    pts = []
    for lx, ly in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        pts.append((round(cx + lx * c - ly * s, 3), round(cy + lx * s + ly * c, 3)))
    return tuple(pts)


def _blob(rng: random.Random, cx: float, cy: float, r: float, n: int) -> tuple:
    """A convex-ish irregular polygon (woods, rocks)."""
    a0 = rng.uniform(0, 2 * math.pi)
    pts = []
    for k in range(n):
        a = a0 + 2 * math.pi * k / n
        rr = r * rng.uniform(0.8, 1.0)
        pts.append((round(cx + rr * math.cos(a), 3), round(cy + rr * math.sin(a), 3)))
    return tuple(pts)


def build_layout(seed: int = SEED) -> tuple[Battlefield, list[Footprint], list[Footprint]]:
    """Terrain mostly in the middle band with some in the deployment zones, so that many
    sight lines are partly or wholly blocked; then models placed clear of everything."""
    rng = random.Random(seed)
    feats: list[TerrainFeature] = []
    for k in range(N_TALL):
        cx = rng.uniform(3, WIDTH - 3)
        cy = (
            rng.uniform(15, 33) if k < 18 else rng.choice([rng.uniform(3, 12), rng.uniform(36, 45)])
        )
        kind = ("wall", "building", "rocks")[k % 3]
        if kind == "wall":
            poly = _rot_rect(cx, cy, rng.uniform(2, 5), 0.4, rng.uniform(0, math.pi))
        elif kind == "building":
            poly = _rot_rect(
                cx, cy, rng.uniform(2, 4), rng.uniform(1.5, 3), rng.uniform(0, math.pi)
            )
        else:
            poly = _blob(rng, cx, cy, rng.uniform(0.8, 1.8), rng.randint(5, 7))
        feats.append(TerrainFeature(f"t{k}", kind, poly))
    for k in range(N_WOODS):
        cx, cy = rng.uniform(6, WIDTH - 6), rng.uniform(12, 36)
        feats.append(TerrainFeature(f"w{k}", "woods", _blob(rng, cx, cy, rng.uniform(1.8, 2.8), 7)))
    for k in range(N_HEDGES):
        cx, cy = rng.uniform(4, WIDTH - 4), rng.uniform(8, 40)
        feats.append(
            TerrainFeature(
                f"h{k}", "hedge", _rot_rect(cx, cy, rng.uniform(4, 8), 0.3, rng.uniform(0, 0.5))
            )
        )
    bf = Battlefield(WIDTH, DEPTH, tuple(feats), name="bench")
    r = base_radius_in(BASE_MM)
    placed: list[Footprint] = []

    def place(y0: float, y1: float, facing: float) -> list[Footprint]:
        side: list[Footprint] = []
        while len(side) < PER_SIDE:
            fp = Footprint(
                round(rng.uniform(1, WIDTH - 1), 2), round(rng.uniform(y0, y1), 2), facing, BASE_MM
            )
            if features_under(fp, bf):
                continue
            if any(math.hypot(fp.x - o.x, fp.y - o.y) < 2 * r + 0.05 for o in placed):
                continue
            placed.append(fp)
            side.append(fp)
        return side

    side_a = place(1, 18, 90.0)
    side_b = place(30, 47, 270.0)
    return bf, side_a, side_b


# --------------------------------------------------------------------------- the naive baseline


def naive_matrix(
    bf: Battlefield, observers: list[Footprint], targets: list[Footprint]
) -> np.ndarray:
    """For every pair: shadows of the tall terrain meeting the sight cone, union,
    difference with the footprint, area over area; area terrain on the same samples.

    The round footprint is a 256-gon (the engine measures the exact disc; the polygon's
    area is within 1e-4 of it; no pair of this layout is that close to a band boundary)."""
    import shapely  # only the baseline uses the library directly (see module docstring)

    tall = [
        (shapely.Polygon(f.polygon), np.array(f.polygon, dtype=float))
        for f in bf.terrain
        if f.cls == "tall"
    ]
    woods = [shapely.Polygon(f.polygon) for f in bf.terrain if f.cls == "area"]
    out = np.ones((len(observers), len(targets)))
    for i, o in enumerate(observers):
        eye = np.array([o.x, o.y])
        eye_pt = shapely.Point(eye)
        for j, t in enumerate(targets):
            foot = shapely.Point(t.x, t.y).buffer(base_radius_in(t.base), quad_segs=64)
            cone = shapely.convex_hull(shapely.union(foot, eye_pt))
            shadows = []
            for poly, coords in tall:
                if not cone.intersects(poly) or poly.contains(eye_pt):
                    continue
                rel = coords - eye
                far = eye + rel * (1e4 / np.sqrt((rel**2).sum(1)))[:, None]
                shadows.append(shapely.MultiPoint(np.vstack([coords, far])).convex_hull)
            hidden = shapely.union_all(shadows) if shadows else None
            near_woods = [w for w in woods if cone.intersects(w)]
            if near_woods:
                samples = np.array(base_samples(t))
                lines = shapely.linestrings(
                    np.stack([np.broadcast_to(eye, samples.shape), samples], axis=1)
                )
                depth = sum(shapely.length(shapely.intersection(lines, w)) for w in near_woods)
                deep = depth > AREA_SIGHT_DEPTH + 1e-9
                if deep.any():
                    if hidden is not None:
                        deep = deep | shapely.covers(hidden, shapely.points(samples))
                    out[i, j] = 1.0 - deep.sum() / len(samples)
                    continue
            if hidden is not None:
                out[i, j] = foot.difference(hidden).area / foot.area
    return out


def band(v: np.ndarray) -> np.ndarray:
    """0 clear (hidden <= 1/4), 1 cover (hidden <= 3/4), 2 hidden; 1e-9 slack so that a
    sampled 48/64 is the same band whichever way the float rounds."""
    return np.where(v >= 0.75 - 1e-9, 0, np.where(v >= 0.25 - 1e-9, 1, 2))


# --------------------------------------------------------------------------- the run


def _time(fn, repeats: int, label: str = "") -> tuple[float, object]:  # noqa: ANN001
    """Median seconds of ``repeats`` calls and the last result; a progress bar names
    ``label`` when given (the naive loop takes a while)."""
    times, result = [], None
    with progress(repeats, f"{label} run", quiet=not label or QUIET) as bar:
        for _ in range(repeats):
            t0 = time.perf_counter()
            result = fn()
            times.append(time.perf_counter() - t0)
            bar.update()
    return statistics.median(times), result


def main() -> int:
    t0 = time.perf_counter()
    bf, side_a, side_b = build_layout()
    t_layout = time.perf_counter() - t0
    t0 = time.perf_counter()
    geo = Geometry(bf)
    t_build = time.perf_counter() - t0
    kinds: dict[str, int] = {}
    for f in bf.terrain:
        kinds[f.kind] = kinds.get(f.kind, 0) + 1
    print(
        f"layout: {WIDTH:g}x{DEPTH:g} in, {len(bf.terrain)} terrain pieces {kinds}, "
        f"{len(side_a)}+{len(side_b)} models on {BASE_MM:g} mm bases "
        f"(built in {t_layout:.2f} s; Geometry() in {t_build * 1e3:.1f} ms)"
    )

    geo.visible_matrix(side_a, side_b)  # warm-up (imports, caches)
    t_naive, naive = _time(lambda: naive_matrix(bf, side_a, side_b), NAIVE_REPEATS, "naive")
    t_matrix, matrix = _time(lambda: geo.visible_matrix(side_a, side_b), MATRIX_REPEATS)
    row_times = []
    for _ in range(PREVIEW_PASSES):
        for shooter in side_a:
            s0 = time.perf_counter()
            geo.visible_row(shooter, side_b)
            row_times.append(time.perf_counter() - s0)
    t_row = statistics.median(row_times)

    naive = np.asarray(naive)
    matrix = np.asarray(matrix)
    pairs = naive.size
    differ = int((band(naive) != band(matrix)).sum())
    bands = band(matrix)
    partial = int(((matrix > 0) & (matrix < 1)).sum())
    print(
        f"pairs: {pairs}; fully visible {int((matrix == 1).sum())}, "
        f"partly hidden {partial}, fully hidden {int((matrix == 0).sum())}"
    )
    print(
        f"bands: clear {int((bands == 0).sum())}, cover {int((bands == 1).sum())}, "
        f"hidden {int((bands == 2).sum())}"
    )
    print(f"naive per-pair shapely loop : {t_naive * 1e3:9.1f} ms  (median of {NAIVE_REPEATS})")
    print(f"Geometry.visible_matrix     : {t_matrix * 1e3:9.2f} ms  (median of {MATRIX_REPEATS})")
    print(
        f"one shooter x 100 (preview) : {t_row * 1e3:9.3f} ms  (median of {len(row_times)}; "
        f"p90 {np.percentile(row_times, 90) * 1e3:.3f} ms)"
    )
    ratio = t_naive / t_matrix
    print(f"ratio naive/matrix          : {ratio:9.1f}x")
    print(f"max |naive - matrix|        : {np.abs(naive - matrix).max():.2e}")
    print(f"pairs in a different band   : {differ}")
    ok = ratio >= 15 and t_row < 0.002 and differ == 0
    print(f"targets (>= 15x, preview < 2 ms, 0 band differences): {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
