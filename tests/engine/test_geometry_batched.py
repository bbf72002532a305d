"""The batched and short-cut paths of the geometry service give exactly the answers of the
pair-by-pair ones (issue 24).

Why exact figures: the speed-ups answer the same questions in bulk (one observer's row,
one target's column, a whole matrix) or skip work when feature envelopes show nothing can
be near; a rule or the window must get bit for bit what the one-pair call gives, so each
test compares with ``==`` (``np.array_equal``), never with a tolerance.
"""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from engine.battlefield import Battlefield, Footprint, TerrainFeature
from engine.geometry import Geometry, crossings, features_under, overlaps, terrain_index
from engine.geometry import bases as geometry_bases


def _rect(cx: float, cy: float, w: float, h: float, ang: float) -> tuple:
    c, s = math.cos(ang), math.sin(ang)
    return tuple(
        (round(cx + x * c - y * s, 3), round(cy + x * s + y * c, 3))
        for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    )


def _table(seed: int = 11) -> tuple[Battlefield, list[Footprint], list[Footprint]]:
    """A 36x24 table with walls, buildings, woods, a hedge and a hill, and eight models a
    side on round and rectangular bases."""
    rng = random.Random(seed)
    feats = []
    for k in range(10):
        kind = ("wall", "building", "rocks", "woods", "hedge")[k % 5]
        w, h = (rng.uniform(2, 4), 0.4) if kind in ("wall", "hedge") else (2.5, 2.0)
        poly = _rect(rng.uniform(4, 32), rng.uniform(8, 16), w, h, rng.uniform(0, math.pi))
        feats.append(TerrainFeature(f"f{k}", kind, poly))
    feats.append(TerrainFeature("hill", "hill", _rect(18, 12, 5, 3, 0.3), 2.0))
    bf = Battlefield(36, 24, tuple(feats))
    bases = (25.0, 32.0, (25.0, 50.0), (60.0, 30.0))
    a = [
        Footprint(round(rng.uniform(1, 35), 2), round(rng.uniform(1, 6), 2), 90.0, bases[i % 4])
        for i in range(8)
    ]
    b = [
        Footprint(round(rng.uniform(1, 35), 2), round(rng.uniform(18, 23), 2), 270.0, bases[i % 4])
        for i in range(8)
    ]
    return bf, a, b


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_row_and_a_column_are_exactly_the_matrix(seed):
    bf, a, b = _table(seed)
    geo = Geometry(bf)
    m = geo.visible_matrix(a, b)
    rows = np.array([geo.visible_row(o, b) for o in a])
    cols = np.array([Geometry(bf).visible_matrix(a, [t])[:, 0] for t in b]).T
    assert np.array_equal(m, rows)
    assert np.array_equal(m, cols)


def test_the_matrix_answers_the_same_when_its_eye_caches_are_warm():
    bf, a, b = _table()
    geo = Geometry(bf)
    cold = geo.visible_matrix(b, [a[0]])
    geo.visible_matrix(b, a)  # the same observers: eyes cached
    warm = geo.visible_matrix(b, [a[0]])
    assert np.array_equal(cold, warm)
    assert np.array_equal(Geometry(bf).visible_matrix(b, a), geo.visible_matrix(b, a))


def test_sight_with_nothing_near_is_the_exact_answer():
    """The envelope short cut ("no feature can be near") says what the exact path says."""
    bf, a, b = _table()
    geo = Geometry(bf)
    checked = 0
    for o in a + b:
        for t in a + b:
            if o != t and geo._nothing_near(o, t):
                assert geo.sight(o, t) == geo._sight(o, t, 0.0, 0.0)
                checked += 1
    assert checked > 10


def test_cover_from_envelopes_is_the_cover_from_every_feature(monkeypatch):
    """Cover read from the envelope pre-filter equals cover read from every feature."""
    bf, a, b = _table()
    fast = Geometry(bf)
    slow = Geometry(bf)
    every = np.flatnonzero(slow._cover_kind)
    monkeypatch.setattr(slow, "_cover_candidates", lambda o, t: every)
    for o in a:
        for t in b:
            assert fast._sight(o, t, 0.0, 0.0) == slow._sight(o, t, 0.0, 0.0)


def test_terrain_queries_skip_the_tree_only_when_it_finds_nothing(monkeypatch):
    bf, a, b = _table()
    rng = random.Random(5)
    paths = [
        [(rng.uniform(0, 36), rng.uniform(0, 24)) for _ in range(rng.randint(1, 3))]
        for _ in range(60)
    ]
    fast = [crossings(p, bf) for p in paths], [features_under(f, bf) for f in a + b]
    monkeypatch.setattr(terrain_index._TerrainIndex, "none_near", lambda self, *box: False)
    slow = [crossings(p, bf) for p in paths], [features_under(f, bf) for f in a + b]
    assert fast == slow
    assert any(fast[0]) and not all(fast[0])  # both branches were taken


def test_the_quick_overlap_test_agrees_with_the_exact_one():
    rng = random.Random(9)
    bases = (25.0, 32.0, (25.0, 50.0), (60.0, 30.0))
    seen = set()
    for _ in range(2000):
        fa = Footprint(rng.uniform(0, 4), rng.uniform(0, 4), rng.uniform(0, 360), rng.choice(bases))
        fb = Footprint(rng.uniform(0, 4), rng.uniform(0, 4), rng.uniform(0, 360), rng.choice(bases))
        p, q = geometry_bases._sorted_pair(fa, fb)
        exact = geometry_bases._penetration(p, q) > 1e-6
        assert overlaps(fa, fb) == exact
        seen.add(exact)
    assert seen == {True, False}


def _moves(rng: random.Random, fp: Footprint, n: int) -> list[Footprint]:
    return [
        Footprint(round(rng.uniform(1, 35), 2), round(rng.uniform(1, 23), 2), fp.facing, fp.base)
        for _ in range(n)
    ]


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_moved_model_rescored_in_one_pass_is_the_full_recompute(seed):
    """Issue 24: a move changes the moved model's row and column only (models never
    block sight); ``visible_cross`` gives them bit for bit as a fresh full matrix does,
    on round and rectangular bases, walls, woods and a hill, so no pair changes band."""
    bf, a, b = _table(seed)
    models = a + b
    geo = Geometry(bf)
    before = geo.visible_matrix(models, models)
    rng = random.Random(seed)
    for k in (0, 5, 9, 14):
        for new in _moves(rng, models[k], 3):
            others = models[:k] + models[k + 1 :]
            row, col = geo.visible_cross(new, others)
            moved = models[:k] + [new] + models[k + 1 :]
            full = Geometry(bf).visible_matrix(moved, moved)  # no caches shared
            rest = [i for i in range(len(models)) if i != k]
            assert np.array_equal(row, full[k, rest])
            assert np.array_equal(col, full[rest, k])
            assert np.array_equal(full[np.ix_(rest, rest)], before[np.ix_(rest, rest)])
            assert 0 < (full[k, rest] < 1).sum() < len(rest)  # some pairs are hidden


def test_the_matrix_in_blocks_is_the_matrix_in_one(monkeypatch):
    """Observers are taken in blocks to bound memory; the blocks change no answer."""
    from engine.geometry import matrix

    bf, a, b = _table(12)
    whole = Geometry(bf).visible_matrix(a + b, a + b)
    monkeypatch.setattr(matrix, "CHUNK", 1)  # one observer a block
    assert np.array_equal(Geometry(bf).visible_matrix(a + b, a + b), whole)


def test_the_table_batches_sight_for_models():
    """The table's batched services take models and give the geometry's answers."""
    from engine.state import Model
    from engine.table import Table

    bf, a, b = _table(13)
    ms = [Model(f"m{i}", "a", "m", f.x, f.y, f.facing, f.base) for i, f in enumerate(a + b)]
    table, geo = Table.of(bf), Geometry(bf)
    assert np.array_equal(table.visible_matrix(ms[:8], ms[8:]), geo.visible_matrix(a, b))
    assert np.array_equal(table.visible_row(ms[0], ms[8:]), geo.visible_row(a[0], b))
    row, col = table.visible_cross(ms[3], ms[8:])
    assert np.array_equal(row, geo.visible_row(a[3], b))
    assert np.array_equal(col, geo.visible_matrix(b, [a[3]])[:, 0])


def _near_and_dense(geo: Geometry, fp: Footprint, others: list[Footprint]):
    """The angular pre-filter's (pair, feature) candidates for ``fp`` against ``others``
    (its row, then their column) and the dense capsule test's, as two pairs of arrays."""
    from engine.geometry.arrays import _target_arrays

    to, tm = geo._targets(others), _target_arrays([fp])
    tm.lev = geo._elev_np(tm.C)
    n, nf = len(others), len(geo._fr)
    with np.errstate(all="ignore"):
        eo, em = geo._eye_data(to.C, to.lev), geo._eye_data(tm.C, tm.lev)
        near = geo._near(tm.C, em, to.C, to.R, (eo, tm.R))
        row = geo._capsule(em, tm.C, to.C, to.R).reshape(n, nf)
        col = geo._capsule(eo, to.C, tm.C, tm.R).reshape(n, nf)
    return near, np.concatenate([row, col]).nonzero()


def _edge_table() -> tuple[Battlefield, Footprint, list[Footprint]]:
    """Sight lines at the edges of the angular pre-filter: one grazing a wall's corner,
    others just inside and outside the reach of a building's bounding circle, one due
    west (the angle's wrap at pi) past a wall there, the observer inside a building and
    a wood, a target on the observer's centre and one a hair from it, features on whole
    inches."""
    feats = (
        TerrainFeature("wall", "wall", ((10.0, 4.0), (14.0, 4.0), (14.0, 4.4), (10.0, 4.4))),
        TerrainFeature("house", "building", _rect(12, 14, 3, 2, 0.0)),
        TerrainFeature("home", "building", _rect(6, 10, 2, 2, 0.0)),
        TerrainFeature("wood", "woods", _rect(6, 10, 6, 5, 0.3)),
        TerrainFeature("west", "wall", ((1.0, 9.0), (1.4, 9.0), (1.4, 11.0), (1.0, 11.0))),
    )
    bf = Battlefield(36, 24, feats)
    eye = Footprint(6.0, 10.0, 0.0, 25.0)  # inside the home and the wood
    r = 25.0 / 25.4 / 2
    # the line from the eye through the wall's corner (10, 4), carried on to x = 18
    corner = Footprint(18.0, 10.0 - 6.0 * 12 / 4, 0.0, 25.0)
    geo = Geometry(bf)
    c, rad = geo._bc[1], geo._br[1]  # the house's bounding circle
    d = math.hypot(c[0] - 6.0, c[1] - 10.0)
    base = math.atan2(c[1] - 10.0, c[0] - 6.0)
    grazing = []
    for slack in (-1e-6, 0.0, 1e-9, 1e-7, 1e-6):
        a = base + math.asin(min((rad + r) / d, 1.0)) + slack
        grazing.append(Footprint(6.0 + 2 * d * math.cos(a), 10.0 + 2 * d * math.sin(a), 0.0, 25.0))
    west = [Footprint(0.5, 10.0, 0.0, 25.0), Footprint(0.5, 10.0 - 1e-12, 0.0, 25.0)]
    close = [Footprint(6.0, 10.0, 0.0, 25.0), Footprint(6.0 + 1e-9, 10.0, 0.0, 25.0)]
    return bf, eye, [corner, *grazing, *west, *close]


def test_the_angular_pre_filter_keeps_exactly_the_dense_tests_pairs():
    """Issue 24: a moved model's row and column (and one observer's row) pick the
    features near each sight line by angle around the model before the capsule test;
    the candidates are exactly the dense test's, at the edges (a corner grazed, a
    bounding circle just touched, the wrap at due west, an eye inside a building and a
    wood, a target on the eye, bases of all sizes) and on random tables with hills."""
    bf, eye, others = _edge_table()
    geo = Geometry(bf)
    rects = [Footprint(30.0, 20.0, 45.0, (25.0, 50.0)), Footprint(20.0, 2.0, 90.0, (60.0, 30.0))]
    cases = [(geo, eye, others), (geo, others[0], [eye, *others[1:]]), (geo, eye, others + rects)]
    for seed in (11, 12, 13):
        tb, a, b = _table(seed)
        g = Geometry(tb)
        cases += [(g, fp, b) for fp in a[:4]] + [(g, fp, a) for fp in b[:4]]
    kept = 0
    for g, fp, group in cases:
        (pid, kf), (dp, dk) = _near_and_dense(g, fp, group)
        assert np.array_equal(pid, dp) and np.array_equal(kf, dk)
        kept += pid.size
    assert kept > 100  # the tables have features near many sight lines


def test_a_row_and_a_move_at_the_pre_filters_edges_are_the_matrix():
    """The same edge cases end to end: the row the hover preview asks and a move's row
    and column are bit for bit rows and columns of the full matrix."""
    bf, eye, others = _edge_table()
    models = [eye, *others]
    full = Geometry(bf).visible_matrix(models, models)
    geo = Geometry(bf)
    assert np.array_equal(geo.visible_row(eye, others), full[0, 1:])
    row, col = geo.visible_cross(eye, others)
    assert np.array_equal(row, full[0, 1:]) and np.array_equal(col, full[1:, 0])
    assert (full[0, 1:] < 1).any() and (full[1:, 0] < 1).any()


def test_the_others_arrays_stay_cached_between_one_target_sets():
    """Issue 24: a move asks for the others' target arrays, then (the baseline's column,
    a charge's check) one-target sets; the cache drops the least recently used, so the
    others' arrays survive any number of those (first in, first out dropped them after
    16, and every such move paid for them again)."""
    bf, a, b = _table(11)
    geo = Geometry(bf)
    first = geo._targets(b)
    for k in range(40):
        geo._targets([Footprint(1.0 + k / 10, 2.0, 90.0, 25.0)])
        geo._targets([Footprint(2.0 + k / 10, 3.0, 90.0, 25.0)])
        assert geo._targets(list(b)) is first


def test_one_moved_base_has_the_arrays_of_the_general_path():
    """A moved model's target arrays come from offsets kept per base and facing; they are
    bit for bit those of the general path, for round bases at any place and facing (whole
    inches and integers included) and for rectangles (which take the general path)."""
    from engine.geometry.arrays import _one_target, _target_arrays

    rng = random.Random(5)
    fps = [Footprint(6, 10, 0, 25.0), Footprint(6.0, 10.0, 90.0, 32.0)]
    fps += [
        Footprint(rng.uniform(-5, 80), rng.uniform(-5, 50), rng.uniform(0, 720), base)
        for base in (25.0, 32.0, 40.0, 60.0, (25.0, 50.0), (60.0, 30.0))
        for _ in range(20)
    ]
    for fp in fps * 2:  # the second time from the kept parts
        one, general = _one_target(fp), _target_arrays([fp])
        for name in ("C", "R", "V", "S", "area", "rnd", "axes"):
            got, want = getattr(one, name), getattr(general, name)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), name
        assert one.fps == (fp,)


def test_one_eye_sees_the_front_edges_of_many_eyes():
    """The front-facing edges of one new eye (the hover preview's, a moved model's), on
    flat arrays, are exactly that eye's row among many."""
    bf, a, b = _table(12)
    geo = Geometry(bf)
    E = np.array([(fp.x, fp.y) for fp in a + b] + [(10.0, 4.0), (14.0, 4.4)])
    many = geo._front_edges(np.vstack([E, E[:1]]))
    nb = geo._nb
    for i in range(len(E)):
        fe, fcount, fstart = geo._front_edges(E[i : i + 1])
        row = slice(i * nb, (i + 1) * nb)
        lo = many[2][i * nb]
        assert np.array_equal(fcount, many[1][row])
        assert np.array_equal(fstart + lo, many[2][row])
        assert np.array_equal(fe, many[0][lo : lo + fcount.sum()])


def test_merged_intervals_are_the_union_even_with_ties():
    """The hidden intervals of each pair are merged after numpy's default (not stable)
    sorts: equal ends, zeros of either sign and touching intervals must still give each
    pair's union, first lo and last hi, as a plain per-pair merge does."""
    from engine.geometry.passes import _merge_intervals

    rng = random.Random(7)
    values = [-1.5, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 2.0]
    for _ in range(200):
        npairs = rng.randint(1, 8)
        rank, lo, hi = [], [], []
        for r in range(npairs):
            for _ in range(rng.randint(1, 6)):
                a, b = rng.choice(values), rng.choice(values)
                rank.append(r)
                lo.append(min(a, b))
                hi.append(max(a, b))
        want = []
        for r in range(npairs):
            cur: list[float] | None = None
            for a, b in sorted((x, y) for x, y, k in zip(lo, hi, rank) if k == r):
                if cur is not None and a <= cur[1]:
                    cur[1] = max(cur[1], b)
                else:
                    if cur is not None:
                        want.append((cur[0], cur[1], r))
                    cur = [a, b]
            assert cur is not None
            want.append((cur[0], cur[1], r))
        perm = list(range(len(rank)))
        rng.shuffle(perm)  # the rows of a pair come in any order
        order = sorted(perm, key=lambda i: rank[i])
        g_lo, g_hi, g_rank = _merge_intervals(
            np.array(rank)[order], np.array(lo)[order], np.array(hi)[order]
        )
        assert np.array_equal(g_lo, [w[0] for w in want])
        assert np.array_equal(g_hi, [w[1] for w in want])
        assert np.array_equal(g_rank, [w[2] for w in want])


def _woods_clip_case() -> tuple[Geometry, Geometry, np.ndarray, np.ndarray, np.ndarray]:
    """A square wood 4..8 x -2..2 and a seven-sided one, as seen from eyes outside,
    on an edge's line and inside them; the same Geometry twice, the second without the
    sample-wide normal table (the broadcast path of ``_piece_lengths``)."""
    blob = tuple(
        (
            round(20 + 2 * math.cos(2 * math.pi * k / 7), 3),
            round(2 * math.sin(2 * math.pi * k / 7), 3),
        )
        for k in range(7)
    )
    bf = Battlefield(
        36,
        24,
        (
            TerrainFeature("sq", "woods", ((4, -2), (8, -2), (8, 2), (4, 2))),
            TerrainFeature("blob", "woods", blob),
        ),
    )
    wide, narrow = Geometry(bf), Geometry(bf)
    narrow._pn_wide = None
    rng = np.random.default_rng(5)
    E = np.array([[0.0, 0.0], [4.0, -3.0], [6.0, 0.0], [0.0, 2.0], [26.0, 1.0], [20.0, 0.5]])
    P = rng.uniform(-4, 28, size=(len(E), 64, 2))
    P[:, 0] = (10.0, 0.0)  # straight through the square: 4" inside
    P[3, 1] = (10.0, 2.0)  # along the square's top edge: parallel to it (n.D == 0)
    return wide, narrow, E, P, np.array([0, 0, 0, 0, 1, 1])


def test_woods_clip_lengths_exact_in_both_layouts():
    """``_piece_lengths`` gives the analytic lengths (4" straight through the square and
    along its top edge, the boundary being inside) and bit for bit the same array with the normals
    broadcast as with the sample-wide table."""
    wide, narrow, E, P, pieces = _woods_clip_case()
    assert wide._pn_wide is not None  # the table is kept on a small battlefield
    with np.errstate(all="ignore"):
        got = wide._piece_lengths(E, P, pieces)
        ref = narrow._piece_lengths(E, P, pieces)
    assert got.tobytes() == ref.tobytes()
    assert got[0, 0] == 4.0
    assert got[1, 0] == pytest.approx(math.sqrt(5), abs=1e-12)  # (6, -2) to (8, -1)
    assert got[3, 1] == 4.0  # along the top edge: the square is closed, its edge inside
    assert got[2, 0] == 2.0  # from inside the square (x = 6) to x = 10: 2" inside
    # every segment against the square: Liang-Barsky on its sides, by hand
    for r in range(4):
        for (px, py), length in zip(P[r], got[r]):
            (ex, ey), dx, dy = E[r], px - E[r][0], py - E[r][1]
            lo, hi = 0.0, 1.0
            for d, a, b in ((dx, 4 - ex, 8 - ex), (dy, -2 - ey, 2 - ey)):
                if d == 0:
                    lo, hi = (lo, hi) if a <= 0 <= b else (1.0, 0.0)
                else:
                    lo, hi = max(lo, min(a / d, b / d)), min(hi, max(a / d, b / d))
            assert length == pytest.approx(max(hi - lo, 0.0) * math.hypot(dx, dy), abs=1e-9)
