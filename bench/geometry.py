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

Then a scaling table (issue 24): 50, 200 and 800 models (half a side) on tables of 20,
80 and 320 terrain pieces, with the time of the whole matrix (every model of one side
against every model of the other), of one model's move re-scored incrementally (its row
as an observer and its column as a target, in one pass: ``visible_cross``; and, as the
baseline of the same run, the two calls it replaces, ``visible_row`` and
``visible_matrix`` with one target, which must agree exactly), the peak memory of the
matrix (tracemalloc), and the growth exponents (log-log slopes) against the number of
models and of terrain pieces.

Targets: matrix at least 15x faster than the naive loop; preview p90 at most 1 ms; one
model's move re-scored in at most 1 ms at 200 models. Times are CPU time
(``time.process_time``): this machine is shared, and the wall clock also counts the time
other processes held the core. ``--scaling`` prints the table
only; ``--no-scaling`` leaves it out; ``--quiet`` hides the progress bars; ``--help``
prints this text. The table ends with what fits a 60 Hz frame: a move re-scored at each
size, and the sizes whose whole matrix would.

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
import tracemalloc
from collections.abc import Sequence
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


def _place_sides(
    rng: random.Random, bf: Battlefield, per_side: int
) -> tuple[list[Footprint], list[Footprint]]:
    """Both sides' bases at random in their deployment bands, clear of terrain and of
    each other (a grid of cells finds the neighbours)."""
    r = base_radius_in(BASE_MM)
    placed: list[Footprint] = []
    cell = 2 * r + 0.05
    grid: dict[tuple[int, int], list[Footprint]] = {}

    def clear(fp: Footprint) -> bool:
        gx, gy = int(fp.x // cell), int(fp.y // cell)
        for i in (gx - 1, gx, gx + 1):
            for j in (gy - 1, gy, gy + 1):
                for o in grid.get((i, j), ()):
                    if math.hypot(fp.x - o.x, fp.y - o.y) < cell:
                        return False
        return True

    def place(y0: float, y1: float, facing: float) -> list[Footprint]:
        side: list[Footprint] = []
        while len(side) < per_side:
            fp = Footprint(
                round(rng.uniform(1, WIDTH - 1), 2), round(rng.uniform(y0, y1), 2), facing, BASE_MM
            )
            if features_under(fp, bf):
                continue
            if not clear(fp):
                continue
            placed.append(fp)
            grid.setdefault((int(fp.x // cell), int(fp.y // cell)), []).append(fp)
            side.append(fp)
        return side

    side_a = place(1, 18, 90.0)
    side_b = place(30, 47, 270.0)
    return side_a, side_b


def build_layout(
    seed: int = SEED, per_side: int = PER_SIDE, n_terrain: int = N_TALL + N_WOODS + N_HEDGES
) -> tuple[Battlefield, list[Footprint], list[Footprint]]:
    """Terrain mostly in the middle band with some in the deployment zones, so that many
    sight lines are partly or wholly blocked; then models placed clear of everything.

    The default is the 40-piece, 100-a-side table of the comparison; the scaling table
    keeps the same mix (7 tall to 1.5 woods to 1.5 hedges) and shrinks the pieces as
    their number grows, so the share of the table they cover stays about the same."""
    rng = random.Random(seed)
    n_woods = round(n_terrain * N_WOODS / 40)
    n_hedges = round(n_terrain * N_HEDGES / 40)
    n_tall = n_terrain - n_woods - n_hedges
    middle = round(n_tall * 18 / N_TALL)
    k_s = math.sqrt(40 / n_terrain)  # piece size: 1 at 40 pieces
    feats: list[TerrainFeature] = []
    for k in range(n_tall):
        cx = rng.uniform(3, WIDTH - 3)
        cy = (
            rng.uniform(15, 33)
            if k < middle
            else rng.choice([rng.uniform(3, 12), rng.uniform(36, 45)])
        )
        kind = ("wall", "building", "rocks")[k % 3]
        if kind == "wall":
            poly = _rot_rect(cx, cy, rng.uniform(2, 5) * k_s, 0.4, rng.uniform(0, math.pi))
        elif kind == "building":
            poly = _rot_rect(
                cx,
                cy,
                rng.uniform(2, 4) * k_s,
                rng.uniform(1.5, 3) * k_s,
                rng.uniform(0, math.pi),
            )
        else:
            poly = _blob(rng, cx, cy, rng.uniform(0.8, 1.8) * k_s, rng.randint(5, 7))
        feats.append(TerrainFeature(f"t{k}", kind, poly))
    for k in range(n_woods):
        cx, cy = rng.uniform(6, WIDTH - 6), rng.uniform(12, 36)
        feats.append(
            TerrainFeature(f"w{k}", "woods", _blob(rng, cx, cy, rng.uniform(1.8, 2.8) * k_s, 7))
        )
    for k in range(n_hedges):
        cx, cy = rng.uniform(4, WIDTH - 4), rng.uniform(8, 40)
        feats.append(
            TerrainFeature(
                f"h{k}",
                "hedge",
                _rot_rect(cx, cy, rng.uniform(4, 8) * k_s, 0.3, rng.uniform(0, 0.5)),
            )
        )
    bf = Battlefield(WIDTH, DEPTH, tuple(feats), name="bench")
    side_a, side_b = _place_sides(rng, bf, per_side)
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
            t0 = time.process_time()
            result = fn()
            times.append(time.process_time() - t0)
            bar.update()
    return statistics.median(times), result


# --------------------------------------------------------------------------- scaling

SCALE_MODELS = (50, 200, 800)
SCALE_TERRAIN = (20, 80, 320)
#: moves re-scored per table size, for the median
MOVES = 30


def _moved(rng: random.Random, fp: Footprint, bf: Battlefield) -> Footprint:
    """Where one model goes: up to 6" away, clear of terrain (not of other models: the
    sight of a base does not care who else stands near it)."""
    while True:
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(1, 6)
        x = min(max(fp.x + d * math.cos(a), 1.0), WIDTH - 1)
        y = min(max(fp.y + d * math.sin(a), 1.0), DEPTH - 1)
        new = Footprint(round(x, 2), round(y, 2), fp.facing, fp.base)
        if not features_under(new, bf):
            return new


def rescore(geo: Geometry, side_b: list[Footprint], new: Footprint):
    """One model of side a moved to ``new``: its row (what it sees of side b) and its
    column (what side b sees of it), the only entries of the matrix that change (models
    never block sight), in one pass (``Geometry.visible_cross``)."""
    return geo.visible_cross(new, side_b)


def rescore_two_calls(geo: Geometry, side_b: list[Footprint], new: Footprint):
    """The old path, the baseline of the same run: the row and the column asked
    separately (``visible_row``, then ``visible_matrix`` with one target)."""
    return geo.visible_row(new, side_b), geo.visible_matrix(side_b, [new])[:, 0]


def scale_point(n_models: int, n_terrain: int) -> tuple[float, float, float, int, float]:
    """(matrix seconds, incremental move seconds, matrix peak MiB, pairs, the old
    two-call move seconds) for one size; the two move paths alternate move by move, so
    both see the same load, and must give the same numbers."""
    bf, side_a, side_b = build_layout(SEED + n_terrain, n_models // 2, n_terrain)
    geo = Geometry(bf)
    geo.visible_matrix(side_a, side_b)  # warm-up: target arrays, imports
    repeats = 3 if n_models >= 800 else 7
    t_matrix, _ = _time(lambda: geo.visible_matrix(side_a, side_b), repeats)
    rng = random.Random(n_models * 1000 + n_terrain)
    times, old_times = [], []
    for k in range(MOVES):
        new = _moved(rng, side_a[k % len(side_a)], bf)
        t0 = time.process_time()
        row, col = rescore(geo, side_b, new)
        t1 = time.process_time()
        old_row, old_col = rescore_two_calls(geo, side_b, new)
        old_times.append(time.process_time() - t1)
        times.append(t1 - t0)
        if not (np.array_equal(row, old_row) and np.array_equal(col, old_col)):
            raise AssertionError(f"the one-pass move differs from the two calls at {new}")
    tracemalloc.start()
    geo.visible_matrix(side_a, side_b)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return (
        t_matrix,
        statistics.median(times),
        peak / 2**20,
        len(side_a) * len(side_b),
        statistics.median(old_times),
    )


def _slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Least-squares slope of log y against log x: the growth exponent."""
    lx, ly = np.log(xs), np.log(ys)
    return float(np.polyfit(lx, ly, 1)[0])


def scaling() -> bool:
    """Print the scaling table; True when one move is re-scored within 1 ms at 200 models
    (on the middle table)."""
    print()
    print("scaling: models (half a side) x terrain pieces on a 72x48 table")
    print(
        f"{'models':>6} {'terrain':>7} {'pairs':>7} {'matrix ms':>10} {'us/pair':>8} "
        f"{'move ms':>8} {'2 calls':>8} {'ratio':>6} {'peak MiB':>9}"
    )
    got: dict[tuple[int, int], tuple[float, float, float, int, float]] = {}
    with progress(len(SCALE_MODELS) * len(SCALE_TERRAIN), "size", quiet=QUIET) as bar:
        for n in SCALE_MODELS:
            for t in SCALE_TERRAIN:
                got[n, t] = scale_point(n, t)
                bar.update()
    for (n, t), (tm, mv, mem, pairs, old) in got.items():
        print(
            f"{n:6d} {t:7d} {pairs:7d} {tm * 1e3:10.2f} {tm / pairs * 1e6:8.2f} "
            f"{mv * 1e3:8.3f} {old * 1e3:8.3f} {old / mv:6.2f} {mem:9.1f}"
        )
    mid = SCALE_TERRAIN[1]
    ns = list(SCALE_MODELS)
    ts = list(SCALE_TERRAIN)
    print(
        f"growth exponent against models (terrain {mid}): matrix "
        f"{_slope(ns, [got[n, mid][0] for n in ns]):.2f}, move "
        f"{_slope(ns, [got[n, mid][1] for n in ns]):.2f}, memory "
        f"{_slope(ns, [got[n, mid][2] for n in ns]):.2f}"
    )
    print(
        f"growth exponent against terrain (200 models): matrix "
        f"{_slope(ts, [got[200, t][0] for t in ts]):.2f}, move "
        f"{_slope(ts, [got[200, t][1] for t in ts]):.2f}"
    )
    frame = 1 / 60
    slow_moves = [(n, t) for (n, t), v in got.items() if v[1] > frame]
    quick_matrix = [(n, t) for (n, t), v in got.items() if v[0] <= frame]
    biggest = max(got, key=lambda k: got[k][1])
    print(
        f"60 Hz (a {frame * 1e3:.1f} ms frame): a move re-scored fits a frame at "
        + ("every size" if not slow_moves else f"all but {slow_moves}")
        + f" (slowest {got[biggest][1] * 1e3:.2f} ms at {biggest[0]} models, {biggest[1]} "
        f"pieces); the whole matrix only at {quick_matrix or 'no size'}: the window asks "
        "rows and moves per frame, never the matrix, so per-frame sight is limited by the "
        "move's growth (exponents above), the matrix by pairs x pieces"
    )
    move, old = got[200, mid][1], got[200, mid][4]
    ok = move <= 0.001
    print(
        f"one move re-scored at 200 models: {move * 1e3:.3f} ms, the two calls "
        f"{old * 1e3:.3f} ms ({old / move:.2f}x) (target <= 1 ms): {'PASS' if ok else 'FAIL'}"
    )
    return ok


def main() -> int:
    if "--help" in sys.argv or "-h" in sys.argv:
        print(__doc__)
        return 0
    if "--scaling" in sys.argv:
        return 0 if scaling() else 1
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
            s0 = time.process_time()
            geo.visible_row(shooter, side_b)
            row_times.append(time.process_time() - s0)
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
    p90 = float(np.percentile(row_times, 90))
    ok = ratio >= 15 and p90 <= 0.001 and differ == 0
    print(f"targets (>= 15x, preview p90 <= 1 ms, 0 band differences): {'PASS' if ok else 'FAIL'}")
    if "--no-scaling" not in sys.argv:
        ok = scaling() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
