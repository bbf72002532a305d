"""Sight's result type and the per-target arrays and numpy kernels its fast path shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from engine.battlefield import (
    Footprint,
    base_is_round,
    base_radius_in,
    base_size_in,
)
from engine.geometry._common import _EYE_TOL, Num, _cos_sin_np, _unit
from engine.geometry.bases import _fp_samples, _fp_vertices, _round_samples


@dataclass(frozen=True)
class Sight:
    """What an observer sees of a target (DESIGN.md: the 1/4-3/4 method).

    ``visible`` is the visible fraction of the target's base; ``blockers`` the features
    casting shadow on it (tall terrain, hills crested, area terrain beyond 2");
    ``soft_cover``/``hard_cover`` the features that give cover by their class; ``distance``
    base edge to base edge. Rulesets map these to their own bands and modifiers.
    """

    visible: float
    blockers: tuple[str, ...]
    soft_cover: tuple[str, ...]
    hard_cover: tuple[str, ...]
    distance: float


@dataclass
class _Targets:
    """Per-target arrays for the vectorized sight code."""

    C: np.ndarray  # (n, 2) centres
    R: np.ndarray  # (n,) bounding radius
    V: np.ndarray  # (n, 4, 2) corners of rectangular bases, counter-clockwise (round: 0)
    S: np.ndarray  # (n, SIGHT_SAMPLES, 2) sample points
    area: np.ndarray  # (n,) exact base area (pi r^2 for round bases)
    rnd: np.ndarray  # (n,) round base?
    axes: np.ndarray  # (n, 2, 2) facing unit vector and its left normal (round: 0)
    fps: tuple[Footprint, ...] = ()
    lev: np.ndarray | None = None  # (n,) ground elevation (set by Geometry)
    on_hill: np.ndarray | None = None  # (n, hills among blockers) centre on it (by Geometry)


@dataclass
class _TallInfo:
    """What the tall pass leaves for the area pass: merged hidden angular intervals of the
    pairs it solved by intervals (groups ranked into ``upid``), and the pairs it sent to
    the shapely fallback (with the candidate features of every pair)."""

    upid: np.ndarray
    g_rank: np.ndarray
    g_lo: np.ndarray
    g_hi: np.ndarray
    bad: np.ndarray
    pid: np.ndarray
    kk: np.ndarray


def _target_arrays(tgs: Sequence[Footprint]) -> _Targets:
    """Arrays of the targets. Corners and facing axes are filled for rectangular bases
    only (the passes read them for rectangles alone; a round base leaves zeros)."""
    k = len(tgs)
    rnd = np.array([base_is_round(t.base) for t in tgs], dtype=bool)
    R = np.array([base_radius_in(t.base) for t in tgs], dtype=float)
    wd = np.array([base_size_in(t.base) for t in tgs], dtype=float).reshape(k, 2)
    area = np.where(rnd, np.pi * R**2, wd[:, 0] * wd[:, 1])
    V = np.zeros((k, 4, 2))
    axes = np.zeros((k, 2, 2))
    if not rnd.all():
        idx = (~rnd).nonzero()[0]
        rects = [tgs[i] for i in idx]
        V[idx] = _fp_vertices(rects, 4)
        cs, sn = _cos_sin_np(np.array([t.facing for t in rects], dtype=float))
        axes[idx] = np.stack([np.stack([cs, sn], -1), np.stack([-sn, cs], -1)], axis=1)
    return _Targets(
        C=np.array([(t.x, t.y) for t in tgs], dtype=float).reshape(k, 2),
        R=R,
        V=V,
        S=_fp_samples(tgs),
        area=area,
        rnd=rnd,
        axes=axes,
        fps=tuple(tgs),
    )


#: per round base: its (R, area, rnd, V, axes) arrays for one target (see _one_target)
_ROUND_ONE: dict[object, tuple[np.ndarray, ...]] = {}


def _one_target(fp: Footprint) -> _Targets:
    """``_target_arrays([fp])``, bit for bit, with a round base's fixed arrays kept per
    base and its samples from kept offsets (``_round_samples``): a move asks this of
    the moved model every time. The kept arrays are shared, so never written to."""
    if not base_is_round(fp.base):
        return _target_arrays([fp])
    fixed = _ROUND_ONE.get(fp.base)
    if fixed is None:
        t = _target_arrays([fp])
        fixed = (t.R, t.area, t.rnd, t.V, t.axes)
        for a in fixed:
            a.flags.writeable = False
        if len(_ROUND_ONE) > 64:
            _ROUND_ONE.clear()
        _ROUND_ONE[fp.base] = fixed
    R, area, rnd, V, axes = fixed
    return _Targets(
        C=np.array([(fp.x, fp.y)], dtype=float),
        R=R,
        V=V,
        S=_round_samples(fp),
        area=area,
        rnd=rnd,
        axes=axes,
        fps=(fp,),
    )


def _group_starts(key: np.ndarray) -> np.ndarray:
    """Start offsets of runs of equal values in a sorted key array."""
    if key.size == 0:
        return np.zeros(0, dtype=np.intp)
    return np.concatenate(([True], key[1:] != key[:-1])).nonzero()[0]


def _expand(counts: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows with ``counts[i]`` items starting at ``starts[i]``: (row of each item, item)."""
    total = int(np.add.reduce(counts))
    rep = np.arange(counts.size).repeat(counts)
    first = counts.cumsum() - counts
    item = starts[rep] + (np.arange(total) - first[rep])
    return rep, item


def _segment_dist2(px: Num, py: Num, ax: Num, ay: Num, bx: Num, by: Num) -> np.ndarray:
    """Squared distance from points p to segments ab (arrays broadcast)."""
    dx, dy = bx - ax, by - ay
    l2 = dx * dx + dy * dy
    t = np.where(l2 > 0, ((px - ax) * dx + (py - ay) * dy) / l2, 0.0)  # caller ignores 0/0
    t = _unit(t)
    qx, qy = ax + t * dx - px, ay + t * dy - py
    return qx * qx + qy * qy


def _eye_in(geoms: np.ndarray, E: np.ndarray) -> np.ndarray:
    """(len(E), geoms.shape[-1]) mask: the eye is inside the feature or within _EYE_TOL of
    it. Such a feature does not block that observer: it looks out of it. The tolerance
    keeps an eye lying on (or a rounding error off) a boundary from casting the whole
    polygon's shadow in one code path and none in another."""
    pts = shapely.points(E)
    return shapely.dwithin(geoms.reshape(1, -1), pts[:, None], _EYE_TOL)
