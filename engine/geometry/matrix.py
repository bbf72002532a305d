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
from engine.geometry.arrays import _expand, _one_target, _target_arrays, _Targets
from engine.geometry.passes import Front, _Passes

#: Elements of the (pairs x features) pre-filter worked on at once. Why a bound: the
#: whole 800 x 800 matrix on 320 pieces of terrain held five such arrays at 1.3 GB each;
#: in blocks of observers the peak stays near 100 MB and the answers do not change (each
#: pair is computed by the same operations in any batch).
CHUNK = 1 << 20
#: Entries of the per-targets and per-eyes caches.
CACHED = 16
#: Target sets compared by equality before the cache's hash (see ``_Matrix._targets``).
RECENT = 2


class _Eyes(NamedTuple):
    """What depends on the observers' eyes alone: ground level, inside which blockers,
    the blockers' edges facing them, and the offsets to each feature's bounding circle
    (x, y, squared length) for the pre-filter."""

    lev: np.ndarray  # (n,)
    inside: np.ndarray  # (n, nb)
    inside_any: bool  # any eye inside any blocker (else every blocker is active)
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
                inside_any=bool(np.count_nonzero(inside)),
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
        x, y = E[:, 0, None], E[:, 1, None]
        near = (x >= self._blk_x0) & (x <= self._blk_x1)
        near &= (y >= self._blk_y0) & (y <= self._blk_y1)
        ii, kk = near.nonzero()
        if ii.size:
            pts = shapely.points(E[ii])
            near[ii, kk] = shapely.dwithin(self._blk_geoms[kk], pts, _EYE_TOL)
        return near

    def _targets(self, tgs: Sequence[Footprint]) -> _Targets:
        """Target arrays, cached: the hover preview asks about the same enemies every frame.

        Least recently used goes first (a hit is moved to the newest place): a move asks
        for the others' arrays and then, in between, one-target sets that must not push
        the others out."""
        key = tuple(tgs)
        recent = self._tlast
        for i, (k, arrays) in enumerate(recent):
            if k == key:
                # one of the last targets asked (the hover preview, a side's moves): an
                # equality test (identity first, element by element) costs less than hashing
                if i:
                    self._tlast = [recent[i], *recent[:i], *recent[i + 1 :]]
                return arrays
        hit: _Targets | None
        try:
            hit = self._tcache.pop(key, None)
            cacheable = True
        except TypeError:  # a base given as a list: unhashable, so not cached
            hit, cacheable = None, False
        if hit is None:
            hit = _target_arrays(tgs)
            hit.lev = self._elev_np(hit.C)
            if self._any_hill:
                gh = self._blk_geoms[None, self._blk_hill]
                hit.on_hill = shapely.intersects_xy(gh, hit.C[:, 0, None], hit.C[:, 1, None])
        if cacheable:
            _remember(self._tcache, key, hit)
            # replaced whole, never changed in place: the window's thread reads it too
            self._tlast = [(key, hit), *recent[: RECENT - 1]]
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
        if not np.logical_and.reduce(L2 > 0, axis=None):  # a target centred on the eye:
            # the nearest point is the eye
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
        self,
        eyes: _Eyes,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        pid: np.ndarray,
        kb: np.ndarray,
    ) -> np.ndarray | None:
        """Per (pair ``pid``, blocker ``kb``) candidate: the blocker casts shadow for this
        pair at all (a tall feature unless it contains the eye; a hill under the rule on
        the class); None when every blocker does (no eye inside one, no hill: the usual
        table)."""
        if not (eyes.inside_any or self._any_hill):
            return None
        pi, pj = pairs[0][pid], pairs[1][pid]
        act = ~eyes.inside[pi, kb]
        if self._any_hill:
            assert T.lev is not None and T.on_hill is not None  # set by _targets
            hill = self._blk_hill
            h = self._blk_h[hill]
            low_o = (eyes.lev[:, None] < h[None, :]) & ~eyes.inside[:, hill]
            low_t = (T.lev[:, None] < h[None, :]) & ~T.on_hill
            on = hill[kb]
            col = (hill.cumsum() - 1)[kb[on]]  # the hill's column among the hills
            act[on] = low_o[pi[on], col] & low_t[pj[on], col]
        return act

    def _solve(
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        near: tuple[np.ndarray, np.ndarray],
        eyes: _Eyes,
    ) -> np.ndarray:
        """Visible fraction of each pair (eye ``pairs[0]``, target ``pairs[1]``) whose
        features near the sight line are ``near``: (pair, feature) candidates, sorted by
        pair, then feature (blockers, then area pieces)."""
        vis = np.empty(len(pairs[0]))
        vis.fill(1.0)
        nb = self._nb
        info = None
        pid, kf = near
        isb = kf < nb
        if nb:
            pid_b, kb = pid[isb], kf[isb]
            act = self._blk_active(eyes, T, pairs, pid_b, kb)
            if act is not None:
                pid_b, kb = pid_b[act], kb[act]
            if pid_b.size:
                info = self._tall_pass(E, T, pairs, pid_b, kb, vis, eyes.front)
        if self._npc:
            isa = ~isb
            self._area_pass(E, T, pairs, pid[isa], kf[isa] - nb, vis, info)
        return vis

    def _near(
        self,
        P: np.ndarray,
        ep: _Eyes,
        Q: np.ndarray,
        Rq: np.ndarray,
        cross: tuple[_Eyes, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The pre-filter of :meth:`_capsule` for the sight lines between one point ``P``
        (1, 2) and each of ``Q`` (n, 2), as sorted (pair, feature) candidates: pairs 0..n-1
        look from ``P`` (eyes ``ep``) at targets ``Q`` (radii ``Rq``); with ``cross`` (the
        eyes at ``Q``, the radius at ``P``) pairs n..2n-1 look back from ``Q`` at ``P``.

        Why: the dense test costs pairs x features; here each feature first picks, by
        angle around ``P``, the few others whose sight line can come near it (a circle of
        radius rho at distance d from P meets a segment from P only within asin(rho / d)
        of it; rho and the angle carry slack far above rounding), then the dense test's
        own arithmetic decides, element by element, so the answer is the same."""
        n, nf = len(Q), len(self._fr)
        px, py = P[0, 0], P[0, 1]
        vx, vy = Q[:, 0] - px, Q[:, 1] - py
        L2 = vx * vx + vy * vy
        rmax = np.maximum.reduce(Rq) if cross is None else max(np.maximum.reduce(Rq), cross[1][0])
        rho = self._rho_cache.get(rmax)
        if rho is None:  # per largest radius: the same bases move after move
            rho = ((self._fr + rmax) * (1 + 1e-7) + 1e-7) * (1 + 1e-6) + 1e-6
            _remember(self._rho_cache, rmax, rho)
        wx, wy, w2 = ep.wx[0], ep.wy[0], ep.w2[0]
        d = np.sqrt(w2)
        beta = np.arcsin(np.minimum(rho / d, 1.0)) + 1e-6
        phi = np.arctan2(wy, wx)
        theta = np.arctan2(vy, vx)
        order = theta.argsort()
        ts = theta[order]
        ring = np.concatenate([ts - 2 * np.pi, ts, ts + 2 * np.pi])
        lo = ring.searchsorted(phi - beta, "left")
        hi = ring.searchsorted(phi + beta, "right")
        full = d <= rho  # the feature reaches P itself: every line
        lo[full], hi[full] = n, 2 * n
        f, item = _expand(hi - lo, lo)
        j = order[item % n]
        flat = j * nf + f
        keys = [self._near_keep(flat, vx[j], vy[j], L2[j], wx[f], wy[f], w2[f], Rq, flat)]
        if cross is not None:
            eq, Rp = cross
            ux, uy = px - Q[:, 0], py - Q[:, 1]
            keys.append(
                self._near_keep(
                    flat + n * nf,  # (j + n) * nf + f: the pairs looking back
                    ux[j],
                    uy[j],
                    L2[j],
                    eq.wx.ravel()[flat],
                    eq.wy.ravel()[flat],
                    eq.w2.ravel()[flat],
                    Rp,
                    f,
                )
            )
        key = np.concatenate(keys) if cross is not None else keys[0]
        key.sort()
        return np.divmod(key, nf)

    def _near_keep(
        self,
        key: np.ndarray,
        dx: np.ndarray,
        dy: np.ndarray,
        L2: np.ndarray,
        wx: np.ndarray,
        wy: np.ndarray,
        w2: np.ndarray,
        R: np.ndarray,
        at: np.ndarray,
    ) -> np.ndarray:
        """The keys (pair * features + feature, given in ``key``) of the candidates the
        dense test keeps: its arithmetic, operation for operation, on the gathered
        elements (``at``: each element's place in the (targets, features) reach table
        of ``R``)."""
        dot = dx * wx
        dot += dy * wy
        t = dot / L2
        if not np.logical_and.reduce(L2 > 0):
            t = np.where(L2 > 0, t, 0.0)
        _unit(t)
        d2 = w2 - 2 * t * dot
        d2 += t * t * L2
        keep = d2 <= self._reach2(R).ravel()[at]
        return key[keep]

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
            if no == 1:  # one observer's row (the hover preview): the angular pre-filter
                pairs = (np.zeros(nt, dtype=np.intp), np.arange(nt))
                vis = self._solve(E, T, pairs, self._near(E, eyes, T.C, T.R), eyes)
                return vis.reshape(1, nt)
            nf = len(self._fr)
            step = max(1, CHUNK // max(nt * nf, 1))
            for i0 in range(0, no, step):
                i1 = min(no, i0 + step)
                cand = self._capsule(_rows(eyes, i0, i1), E[i0:i1], T.C, T.R)
                pairs = (np.repeat(np.arange(i0, i1), nt), np.tile(np.arange(nt), i1 - i0))
                near = np.divmod(cand.reshape(-1).nonzero()[0], nf)
                vis[i0 * nt : i1 * nt] = self._solve(E, T, pairs, near, eyes)
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
        Tm = _one_target(model)
        Tm.lev = self._elev_np(Tm.C)
        if self._any_hill:
            gh = self._blk_geoms[None, self._blk_hill]
            Tm.on_hill = shapely.intersects_xy(gh, Tm.C[:, 0, None], Tm.C[:, 1, None])
        with np.errstate(all="ignore"):
            Eo = self._eye_data(To.C, To.lev)
            Em = self._eye_data(Tm.C, Tm.lev)
            near = self._near(Tm.C, Em, To.C, To.R, (Eo, Tm.R))
            pairs = _cross_pairs(n)
            E = np.concatenate([Tm.C, To.C])
            vis = self._solve(E, _join_targets(Tm, To), pairs, near, _join_eyes(Em, Eo))
        return vis[:n], vis[n:]


_NONE = np.zeros((0, 0))
#: per number of others: the (eye, target) pairs of ``visible_cross``
_CROSS_PAIRS: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _cross_pairs(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The moved model (index 0) looking at each other (1..n), then each looking back:
    the same index arrays for every move with n others, so made once (read only)."""
    got = _CROSS_PAIRS.get(n)
    if got is None:
        idx = np.arange(1, n + 1)
        zero = np.zeros(n, dtype=idx.dtype)
        got = (np.concatenate([zero, idx]), np.concatenate([idx, zero]))
        for a in got:
            a.flags.writeable = False
        if len(_CROSS_PAIRS) > 64:
            _CROSS_PAIRS.clear()
        _CROSS_PAIRS[n] = got
    return got


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
        inside_any=a.inside_any or b.inside_any,
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
