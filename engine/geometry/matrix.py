"""The fast visible fraction in bulk: a matrix, a row, and a moved model's row and column.

Every entry point builds a list of (observer, target) pairs and hands it to the pair
passes (``passes.py``), so each pair's answer is the same whichever call asked for it.
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import shapely

from engine.battlefield import Footprint
from engine.geometry._common import _EYE_TOL, _unit
from engine.geometry.arrays import _target_arrays, _Targets
from engine.geometry.passes import Front, _Passes

#: Elements of the (pairs x features) pre-filter worked on at once. Why a bound: the
#: whole 800 x 800 matrix on 320 pieces of terrain held five such arrays at 1.3 GB each;
#: in blocks of observers the peak stays near 100 MB and the answers do not change (each
#: pair is computed by the same operations in any batch).
CHUNK = 1 << 20
#: Entries of the per-targets and per-eyes caches.
CACHED = 16


class _Eyes(NamedTuple):
    """What depends on the observers' eyes alone: ground level, inside which blockers,
    the blockers' edges facing them, and the offsets to each feature's bounding circle
    (x, y, squared length) for the pre-filter."""

    lev: np.ndarray  # (n,)
    inside: np.ndarray  # (n, nb)
    front: Front
    wx: np.ndarray  # (n, nf)
    wy: np.ndarray  # (n, nf)
    w2: np.ndarray  # (n, nf)


class _Matrix(_Passes):
    """The vectorized path of :class:`Geometry` (see its docstring and ``visible_matrix``)."""

    # ------------------------------------------------------------------ caches
    def _eye_data(self, E: np.ndarray, lev: np.ndarray | None = None) -> _Eyes:
        """The eyes' data, cached per set of eyes: why, a model's move changes one row and
        one column of a matrix, and the column's observers (everyone else) have not
        moved, so re-scoring it reuses all of this. ``lev``: the ground level when the
        caller has it (an eye is its base's centre, whose level the target arrays hold)."""
        key = E.tobytes()
        hit = self._ecache.pop(key, None)
        if hit is not None:
            # kept as the newest: the others' eyes are asked on every move, the moved
            # model's once each, and must not push the others' out (CACHED)
            self._ecache[key] = hit
        else:
            no, nb = len(E), self._nb
            if nb:
                inside = self._inside(E)
                front = self._front_edges(E)
            else:
                inside = np.zeros((no, 0), dtype=bool)
                front = (np.zeros(0, np.intp), np.zeros(0, np.intp), np.zeros(0, np.intp))
            wx = self._fc[None, :, 0] - E[:, 0, None]
            wy = self._fc[None, :, 1] - E[:, 1, None]
            hit = _Eyes(
                lev=self._elev_np(E) if lev is None else lev,
                inside=inside,
                front=front,
                wx=wx,
                wy=wy,
                w2=wx * wx + wy * wy,
            )
            _remember(self._ecache, key, hit)
        return hit

    def _inside(self, E: np.ndarray) -> np.ndarray:
        """(no, nb): the eye is inside the blocker or within ``_EYE_TOL`` of it
        (``_eye_in``), asked of shapely only where the eye is within the blocker's
        envelope widened by more than that tolerance (elsewhere it cannot be)."""
        box = self._fbox[self._blk]
        pad = 2 * _EYE_TOL
        x, y = E[:, 0, None], E[:, 1, None]
        near = (x >= box[:, 0] - pad) & (x <= box[:, 2] + pad)
        near &= (y >= box[:, 1] - pad) & (y <= box[:, 3] + pad)
        ii, kk = np.nonzero(near)
        if ii.size:
            pts = shapely.points(E[ii])
            near[ii, kk] = shapely.dwithin(self._blk_geoms[kk], pts, _EYE_TOL)
        return near

    def _targets(self, tgs: Sequence[Footprint]) -> _Targets:
        """Target arrays, cached: the hover preview asks about the same enemies every frame."""
        key = tuple(tgs)
        hit: _Targets | None
        try:
            hit = self._tcache.get(key)
            cacheable = True
        except TypeError:  # a base given as a list: unhashable, so not cached
            hit, cacheable = None, False
        if hit is None:
            hit = _target_arrays(tgs)
            hit.lev = self._elev_np(hit.C)
            if self._blk_hill.any():
                gh = self._blk_geoms[None, self._blk_hill]
                hit.on_hill = shapely.intersects_xy(gh, hit.C[:, 0, None], hit.C[:, 1, None])
            if cacheable:
                _remember(self._tcache, key, hit)
        return hit

    # ------------------------------------------------------------------ the pre-filters
    def _capsule(self, eyes: _Eyes, E: np.ndarray, C: np.ndarray, R: np.ndarray) -> np.ndarray:
        """(no, nt, nf) mask: the feature's bounding circle comes within the target's bounding
        radius of the eye-to-target-centre segment (a superset of the sight cone).
        Element by element (no matrix product), so a pair's mask never depends on the
        shape of the batch it came in."""
        dx = C[None, :, 0] - E[:, 0, None]  # (no, nt)
        dy = C[None, :, 1] - E[:, 1, None]
        L2 = (dx * dx + dy * dy)[..., None]
        dot = dx[..., None] * eyes.wx[:, None, :]
        dot += dy[..., None] * eyes.wy[:, None, :]  # (no, nt, nf)
        t = dot / L2
        if not (L2 > 0).all():  # a target centred on the eye: the nearest point is the eye
            t = np.where(L2 > 0, t, 0.0)
        _unit(t)
        d2 = eyes.w2[:, None, :] - 2 * t * dot
        d2 += t * t * L2
        return d2 <= self._reach2(R)

    def _reach2(self, R: np.ndarray) -> np.ndarray:
        """(nt, nf) squared reach of the pre-filter: a feature's bounding radius plus a
        target's, with slack; remembered per set of radii (the others' bases are the
        same move after move)."""
        key = R.tobytes()
        hit = self._lim_cache.get(key)
        if hit is None:
            lim = (self._fr[None, :] + R[:, None]) * (1 + 1e-7) + 1e-7
            hit = lim * lim
            _remember(self._lim_cache, key, hit)
        return hit

    def _blk_active(
        self, eyes: _Eyes, T: _Targets, pairs: tuple[np.ndarray, np.ndarray]
    ) -> np.ndarray:
        """(pairs, nb) mask: the blocker casts shadow for this pair at all (a tall feature
        unless it contains the eye; a hill under the rule on the class)."""
        pi, pj = pairs
        act = ~eyes.inside[pi]
        hill = self._blk_hill
        if hill.any():
            assert T.lev is not None and T.on_hill is not None  # set by _targets
            h = self._blk_h[hill]
            low_o = (eyes.lev[:, None] < h[None, :]) & ~eyes.inside[:, hill]
            low_t = (T.lev[:, None] < h[None, :]) & ~T.on_hill
            act[:, hill] = low_o[pi] & low_t[pj]
        return act

    def _solve(
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        cand: np.ndarray,
        eyes: _Eyes,
    ) -> np.ndarray:
        """Visible fraction of each pair (eye ``pairs[0]``, target ``pairs[1]``) whose
        features near the sight line are ``cand`` (pairs, nf)."""
        vis = np.ones(len(pairs[0]))
        nb = self._nb
        info = None
        if nb:
            candB = cand[:, :nb]
            candB &= self._blk_active(eyes, T, pairs)
            if candB.any():
                info = self._tall_pass(E, T, pairs, candB, vis, eyes.front)
        if self._npc:
            self._area_pass(E, T, pairs, cand[:, nb:], vis, info)
        return vis

    # ------------------------------------------------------------------ the entry points
    def visible_row(self, observer: Footprint, targets: Sequence[Footprint]) -> np.ndarray:
        """One observer against many targets (the hover preview): shape (len(targets),)."""
        return self.visible_matrix([observer], targets)[0]

    def visible_matrix(
        self, observers: Sequence[Footprint], targets: Sequence[Footprint]
    ) -> np.ndarray:
        """Visible fractions for every (observer, target) pair: shape (len(observers),
        len(targets)), equal to :meth:`visible_fraction` pair by pair.

        How it is fast (DESIGN.md: numpy on the terrain edges): a bounding-circle pre-filter
        over all pairs x features leaves most pairs at 1.0 at once. For the rest, each
        front-facing edge of a blocker (the eye on its outer side) is clipped to the cone
        the target subtends from the eye. An edge wholly in front of the target hides it
        over the edge's angular interval; an edge wholly behind it hides nothing (the two
        are told apart exactly: triangle eye-edge against the base, edge against the
        base). The hidden area is then the base's area inside the union of the intervals:
        a circular segment in closed form for a disc, half-plane clipping for a rectangle.
        Pairs where an edge cuts into the base itself fall back to the exact shapely
        shadows; pairs touched by area terrain use the sampled method of the class.
        Observers are taken in blocks (``CHUNK``) so memory stays bounded.
        """
        obs, tgs = list(observers), list(targets)
        no, nt = len(obs), len(tgs)
        if no == 0 or nt == 0 or (self._nb == 0 and self._npc == 0):
            return np.ones((no, nt))
        E = np.array([(o.x, o.y) for o in obs], dtype=float).reshape(no, 2)
        T = self._targets(tgs)
        vis = np.empty(no * nt)
        with np.errstate(all="ignore"):
            eyes = self._eye_data(E)
            nf = len(self._fr)
            step = max(1, CHUNK // max(nt * nf, 1))
            for i0 in range(0, no, step):
                i1 = min(no, i0 + step)
                cand = self._capsule(_rows(eyes, i0, i1), E[i0:i1], T.C, T.R)
                pairs = (np.repeat(np.arange(i0, i1), nt), np.tile(np.arange(nt), i1 - i0))
                vis[i0 * nt : i1 * nt] = self._solve(E, T, pairs, cand.reshape(-1, nf), eyes)
        return vis.reshape(no, nt)

    def visible_cross(
        self, model: Footprint, others: Sequence[Footprint]
    ) -> tuple[np.ndarray, np.ndarray]:
        """A moved model re-scored against the others in one pass: (what ``model`` sees
        of each of ``others``, what each of them sees of ``model``), shapes (n,) and (n,).

        Why this is all a move changes: models never block sight (DESIGN.md, the table),
        so every pair without the moved model keeps its fraction. Bit for bit the row
        and the column a full :meth:`visible_matrix` would give; the others' target
        arrays and eyes come from the caches, so only the moved base is new work.
        """
        n = len(others)
        if n == 0 or (self._nb == 0 and self._npc == 0):
            return np.ones(n), np.ones(n)
        To = self._targets(others)
        Tm = _target_arrays([model])
        Tm.lev = self._elev_np(Tm.C)
        if self._blk_hill.any():
            gh = self._blk_geoms[None, self._blk_hill]
            Tm.on_hill = shapely.intersects_xy(gh, Tm.C[:, 0, None], Tm.C[:, 1, None])
        with np.errstate(all="ignore"):
            Eo = self._eye_data(To.C, To.lev)
            Em = self._eye_data(Tm.C, Tm.lev)
            nf = len(self._fr)
            cand = np.concatenate(
                [
                    self._capsule(Em, Tm.C, To.C, To.R).reshape(n, nf),
                    self._capsule(Eo, To.C, Tm.C, Tm.R).reshape(n, nf),
                ]
            )
            idx = np.arange(1, n + 1)
            zero = np.zeros(n, dtype=idx.dtype)
            pairs = (np.concatenate([zero, idx]), np.concatenate([idx, zero]))
            E = np.concatenate([Tm.C, To.C])
            vis = self._solve(E, _join_targets(Tm, To), pairs, cand, _join_eyes(Em, Eo))
        return vis[:n], vis[n:]


_NONE = np.zeros((0, 0))


def _remember(cache: MutableMapping[Any, Any], key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, dropping the oldest entry at ``CACHED`` (another
    thread may have dropped it first: the window and the thinking thread share this)."""
    if len(cache) >= CACHED:
        try:
            cache.pop(next(iter(cache)), None)
        except (StopIteration, RuntimeError):
            pass
    cache[key] = value


def _rows(eyes: _Eyes, i0: int, i1: int) -> _Eyes:
    """The eyes i0..i1 for the pre-filter (the front edges stay whole: pairs index eyes
    of the whole set)."""
    return eyes._replace(wx=eyes.wx[i0:i1], wy=eyes.wy[i0:i1], w2=eyes.w2[i0:i1])


def _join_eyes(a: _Eyes, b: _Eyes) -> _Eyes:
    """Eyes ``a`` then eyes ``b`` as one set for the passes (front-edge offsets of ``b``
    moved on); the pre-filter's offsets are not joined (it has run by then)."""
    fa, fb = a.front, b.front
    return _Eyes(
        lev=np.concatenate([a.lev, b.lev]),
        inside=np.concatenate([a.inside, b.inside]),
        front=(
            np.concatenate([fa[0], fb[0]]),
            np.concatenate([fa[1], fb[1]]),
            np.concatenate([fa[2], fb[2] + len(fa[0])]),
        ),
        wx=_NONE,
        wy=_NONE,
        w2=_NONE,
    )


def _join_targets(a: _Targets, b: _Targets) -> _Targets:
    """Targets ``a`` then targets ``b`` as one set."""

    def cat(x: np.ndarray | None, y: np.ndarray | None) -> np.ndarray | None:
        return None if x is None or y is None else np.concatenate([x, y])

    return _Targets(
        C=np.concatenate([a.C, b.C]),
        R=np.concatenate([a.R, b.R]),
        V=np.concatenate([a.V, b.V]),
        S=np.concatenate([a.S, b.S]),
        area=np.concatenate([a.area, b.area]),
        rnd=np.concatenate([a.rnd, b.rnd]),
        axes=np.concatenate([a.axes, b.axes]),
        fps=a.fps + b.fps,
        lev=cat(a.lev, b.lev),
        on_hill=cat(a.on_hill, b.on_hill),
    )
