"""The fast visible-fraction matrix: many observers against many targets in numpy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

import numpy as np
import shapely

from engine.battlefield import (
    AREA_SIGHT_DEPTH,
    Footprint,
)
from engine.geometry._common import _DEPTH_EPS, SIGHT_SAMPLES, _cross
from engine.geometry.arrays import (
    _expand,
    _eye_in,
    _group_starts,
    _segment_dist2,
    _TallInfo,
    _target_arrays,
    _Targets,
)
from engine.geometry.tables import _SightTables

V = TypeVar("V")


class _Matrix(_SightTables):
    """The vectorized path of :class:`Geometry` (see its docstring and ``visible_matrix``)."""

    def _blk_active(
        self, E: np.ndarray, Ct: np.ndarray, lev_o: np.ndarray, lev_t: np.ndarray
    ) -> np.ndarray:
        """Mask broadcastable to (no, nt, nb): the blocker casts shadow for this pair at all
        (a tall feature unless it contains the eye; a hill under the rule on the class)."""
        no, nt, nb = len(E), len(Ct), self._nb
        hill = self._blk_hill
        inside = self._eyes(E, "inside", lambda: _eye_in(self._blk_geoms[None, :], E))
        if not hill.any():
            return ~inside[:, None, :]
        eye_in = np.zeros((no, nb), dtype=bool)
        if (~hill).any():
            eye_in[:, ~hill] = inside[:, ~hill]
        act = np.broadcast_to(~eye_in[:, None, :], (no, nt, nb)).copy()
        gh = self._blk_geoms[None, hill]
        o_on = inside[:, hill]  # (no, nh)
        t_on = shapely.intersects_xy(gh, Ct[:, 0, None], Ct[:, 1, None])  # (nt, nh)
        h = self._blk_h[hill]
        low_o = (lev_o[:, None] < h[None, :]) & ~o_on
        low_t = (lev_t[:, None] < h[None, :]) & ~t_on
        act[:, :, hill] = low_o[:, None, :] & low_t[None, :, :]
        return act

    def _eyes(self, E: np.ndarray, what: str, compute: Callable[[], V]) -> V:
        """What depends on the observers' eyes alone (inside which blockers, ground
        level, front-facing edges), cached per set of eyes: why, a model's move changes
        one row and one column of a matrix, and the column's observers (everyone else)
        have not moved, so re-scoring it reuses all of this."""
        key = E.tobytes()
        hit = self._ecache.get(key)
        if hit is None:
            if len(self._ecache) >= 8:
                self._ecache.pop(next(iter(self._ecache)))
            hit = self._ecache[key] = {}
        if what not in hit:
            hit[what] = compute()
        return hit[what]

    @staticmethod
    def _capsule(
        E: np.ndarray, D: np.ndarray, L2: np.ndarray, R: np.ndarray, fc: np.ndarray, fr: np.ndarray
    ) -> np.ndarray:
        """(no, nt, nf) mask: the feature's bounding circle comes within the target's bounding
        radius of the eye-to-target-centre segment (a superset of the sight cone)."""
        W = fc[None, :, :] - E[:, None, :]  # (no, nf, 2)
        W2 = (W**2).sum(-1)  # (no, nf)
        dot = np.matmul(D, W.transpose(0, 2, 1))  # (no, nt, nf)
        t = np.where(L2[..., None] > 0, dot / L2[..., None], 0.0)
        t = np.clip(t, 0.0, 1.0)
        d2 = W2[:, None, :] - 2 * t * dot + t * t * L2[..., None]
        lim = (fr[None, None, :] + R[None, :, None]) * (1 + 1e-7) + 1e-7
        return d2 <= lim * lim

    def _targets(self, tgs: list[Footprint]) -> _Targets:
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
            if cacheable:
                if len(self._tcache) >= 8:
                    self._tcache.pop(next(iter(self._tcache)))
                self._tcache[key] = hit
        return hit

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
        """
        obs, tgs = list(observers), list(targets)
        no, nt = len(obs), len(tgs)
        vis = np.ones((no, nt))
        if no == 0 or nt == 0 or (self._nb == 0 and self._npc == 0):
            return vis
        E = np.array([(o.x, o.y) for o in obs], dtype=float).reshape(no, 2)
        T = self._targets(tgs)
        with np.errstate(all="ignore"):
            D = T.C[None, :, :] - E[:, None, :]
            L2 = (D**2).sum(-1)
            cand = self._capsule(E, D, L2, T.R, self._fc, self._fr)
            nb = self._nb
            info = None
            if nb:
                candB = cand[:, :, :nb]
                assert T.lev is not None  # set by _targets
                lev_o = self._eyes(E, "level", lambda: self._elev_np(E))
                candB &= self._blk_active(E, T.C, lev_o, T.lev)
                if candB.any():
                    info = self._tall_pass(E, T, candB, vis)
            if self._npc:
                self._area_pass(E, T, cand[:, :, nb:], vis, info)
        return vis

    def _area_pass(
        self, E: np.ndarray, T: _Targets, candP: np.ndarray, vis: np.ndarray, info: _TallInfo | None
    ) -> None:
        """Sampled visible fraction for pairs where area terrain hides some sample.

        Runs after the tall pass: pairs already wholly hidden stay 0 (every sample would be
        hidden too); the tall part of each sample comes from the tall pass's intervals.
        """
        nt = len(T.C)
        candP &= (vis > 0)[..., None]
        ii, jj, pp = np.nonzero(candP)
        if ii.size == 0:
            return
        pid = ii * nt + jj
        if self._area_small:
            # The depth along any ray is at most the sum of the diameters of the distinct
            # area features in play: skip pairs that can never reach the limit.
            new = np.concatenate(([True], pid[1:] != pid[:-1]))
            starts = np.flatnonzero(new)
            owners = self._p_owner[pp]
            first = new.copy()
            first[1:] |= owners[1:] != owners[:-1]
            bound = np.add.reduceat(self._area_diam[owners] * first, starts)
            keep_pair = bound > AREA_SIGHT_DEPTH + _DEPTH_EPS
            if not keep_pair.all():
                rows = keep_pair[np.cumsum(new) - 1]
                ii, jj, pp, pid = ii[rows], jj[rows], pp[rows], pid[rows]
                if ii.size == 0:
                    return
        starts = _group_starts(pid)
        lengths = self._piece_lengths(E[ii], T.S[jj], pp)
        depth = np.add.reduceat(lengths, starts, axis=0)
        hid = depth > AREA_SIGHT_DEPTH + _DEPTH_EPS
        inv = hid.any(1)
        if not inv.any():
            return
        st = starts[inv]
        pi, pj = ii[st], jj[st]
        hid = hid[inv]
        if info is not None:
            hid |= self._tall_samples(E, T, pi, pj, info)
        vis[pi, pj] = 1.0 - hid.sum(1) / hid.shape[1]

    def _tall_samples(
        self, E: np.ndarray, T: _Targets, pi: np.ndarray, pj: np.ndarray, info: _TallInfo
    ) -> np.ndarray:
        """The sample points of pairs (pi, pj) (sorted) that tall terrain hides: by the
        merged angular intervals where the tall pass had them, by edge crossings
        otherwise."""
        nt = len(T.C)
        inv_pid = pi * nt + pj
        tall = np.zeros((len(pi), SIGHT_SAMPLES), dtype=bool)
        if info.g_rank.size:
            gp = info.upid[info.g_rank]
            rowi = np.minimum(np.searchsorted(inv_pid, gp), len(inv_pid) - 1)
            sel = inv_pid[rowi] == gp
            if sel.any():
                rowi = rowi[sel]
                Ei = E[pi[rowi]]
                ux = T.C[pj[rowi], 0] - Ei[:, 0]
                uy = T.C[pj[rowi], 1] - Ei[:, 1]
                Px = T.S[pj[rowi], :, 0] - Ei[:, 0, None]
                Py = T.S[pj[rowi], :, 1] - Ei[:, 1, None]
                phi = np.arctan2(
                    ux[:, None] * Py - uy[:, None] * Px, ux[:, None] * Px + uy[:, None] * Py
                )
                hit = (phi >= info.g_lo[sel][:, None]) & (phi <= info.g_hi[sel][:, None])
                st = _group_starts(rowi)
                tall[rowi[st]] = np.logical_or.reduceat(hit, st, axis=0)
        if info.bad.size:
            rowb = np.minimum(np.searchsorted(inv_pid, info.bad), len(inv_pid) - 1)
            for r in rowb[inv_pid[rowb] == info.bad]:
                feats = info.kk[info.pid == inv_pid[r]]
                _, edge = _expand(self._e_count[feats], self._e_start[feats])
                n = edge.size
                cr = self._crossed(
                    np.repeat(E[pi[r]][None], n, 0),
                    np.repeat(T.S[pj[r]][None], n, 0),
                    self._ea[edge],
                    self._eb[edge],
                )
                tall[r] |= cr.any(0)
        return tall

    def _tall_pass(
        self, E: np.ndarray, T: _Targets, cand: np.ndarray, vis: np.ndarray
    ) -> _TallInfo:
        """Exact visible fraction against tall terrain (and crested hills) for the candidate
        pairs, by angular intervals, with an exact shapely fallback.

        Three steps: the blockers' front-facing edges clipped to each pair's cone
        (``_cone_rows``); each clipped edge found in front of the target, behind it, or
        reaching into it (``_edge_sides``); the hidden angular intervals merged and
        measured per pair (``_hide_by_intervals``). Pairs an edge reaches into are
        measured exactly with shapely.
        """
        nt = len(T.C)
        ii, jj, kk = np.nonzero(cand)
        pid_all = ii * nt + jj
        rows = self._cone_rows(E, T, ii, jj, kk)
        front_ok, seg_clear = _edge_sides(E, T, rows)
        ri, rj, pa, pb, ux, uy = rows.ri, rows.rj, rows.pa, rows.pb, rows.ux, rows.uy
        ok = front_ok | seg_clear
        behind = seg_clear & ~front_ok
        if behind.any():
            keep = ~behind
            ri, rj, pa, pb, ok = ri[keep], rj[keep], pa[keep], pb[keep], ok[keep]
            ux, uy = ux[keep], uy[keep]
        row_pid = ri * nt + rj
        bad_pids, good = _bad_pairs(row_pid, ok)
        info = _TallInfo(
            upid=np.zeros(0, np.intp),
            g_rank=np.zeros(0, np.intp),
            g_lo=np.zeros(0),
            g_hi=np.zeros(0),
            bad=bad_pids,
            pid=pid_all,
            kk=kk,
        )
        gpid = row_pid[good]
        if gpid.size:
            self._hide_by_intervals(E, T, gpid, ux[good], uy[good], pa[good], pb[good], vis, info)
        # Exact fallback for the pairs an edge reaches into.
        for pidv in bad_pids:
            i, j = divmod(int(pidv), nt)
            feats = kk[pid_all == pidv]
            hid_area, _ = self._exact_hidden(E[i], T.fps[j], feats, front_only=True)
            vis[i, j] = min(max(1.0 - hid_area / T.area[j], 0.0), 1.0)
        return info

    def _cone_rows(
        self, E: np.ndarray, T: _Targets, ii: np.ndarray, jj: np.ndarray, kk: np.ndarray
    ) -> _Rows:
        """One row per (pair, front-facing edge of a candidate blocker) whose edge enters
        the cone the target's bounding circle subtends from the eye, the edge clipped to
        that cone (``pa``-``pb``, relative to the eye)."""
        nb = self._nb
        # Front-facing edges (the eye on their outer side) cast the shadow; they depend on
        # the eye only, so find them per observer and expand each (pair, feature) to them.
        fe, fcount, fstart = self._eyes(E, "front", lambda: self._front_edges(E))
        fk = ii * nb + kk
        rep, pos = _expand(fcount[fk], fstart[fk])
        edge = fe[pos]
        ri, rj = ii[rep], jj[rep]
        Er = E[ri]
        a = self._ea[edge] - Er
        b = self._eb[edge] - Er
        # Per-row cone of the target's bounding circle (the disc itself for a round base).
        Dr = T.C[rj] - E[ri]
        d = np.sqrt((Dr**2).sum(1))
        Rr = T.R[rj]
        too_close = d <= Rr * (1 + 1e-9) + 1e-12
        ux, uy = Dr[:, 0] / d, Dr[:, 1] / d
        sa = np.where(too_close, 1.0, Rr / d)
        ca = np.sqrt(np.clip(1.0 - sa * sa, 0.0, None))
        d1x, d1y = ux * ca + uy * sa, -ux * sa + uy * ca
        d2x, d2y = ux * ca - uy * sa, ux * sa + uy * ca
        lo1, hi1 = _lin_range(
            _cross(d1x, d1y, a[:, 0], a[:, 1]), _cross(d1x, d1y, b[:, 0], b[:, 1])
        )
        lo2, hi2 = _lin_range(
            _cross(a[:, 0], a[:, 1], d2x, d2y), _cross(b[:, 0], b[:, 1], d2x, d2y)
        )
        s0, s1 = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
        inside = (s1 - s0 > 1e-12) | too_close
        a, b, s0, s1 = a[inside], b[inside], s0[inside], s1[inside]
        ab = b - a
        return _Rows(
            ri=ri[inside],
            rj=rj[inside],
            pa=a + s0[:, None] * ab,
            pb=a + s1[:, None] * ab,
            too_close=too_close[inside],
            ux=ux[inside],
            uy=uy[inside],
            d=d[inside],
            R=Rr[inside],
        )

    def _front_edges(self, E: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(edge indices, count per (observer, blocker), start of each count) of the
        blockers' edges each eye sees from outside, observer by observer."""
        ax_ = self._ea[None, :, 0] - E[:, 0, None]
        ay_ = self._ea[None, :, 1] - E[:, 1, None]
        bx_ = self._eb[None, :, 0] - E[:, 0, None]
        by_ = self._eb[None, :, 1] - E[:, 1, None]
        fm = _cross(ax_, ay_, bx_, by_) < 0  # (no, m)
        _, fe = np.nonzero(fm)
        fcount = np.add.reduceat(fm, self._e_start, axis=1, dtype=np.intp).ravel()
        fstart = np.cumsum(fcount) - fcount
        return fe, fcount, fstart

    def _hide_by_intervals(
        self,
        E: np.ndarray,
        T: _Targets,
        gpid: np.ndarray,
        ux_g: np.ndarray,
        uy_g: np.ndarray,
        pa_g: np.ndarray,
        pb_g: np.ndarray,
        vis: np.ndarray,
        info: _TallInfo,
    ) -> None:
        """Angular intervals relative to the direction of the target, merged per pair; the
        target's area between each merged interval's rays is hidden. Writes ``vis`` and the
        merged intervals into ``info`` (the area pass reuses them)."""
        nt = len(T.C)
        fa = np.arctan2(
            _cross(ux_g, uy_g, pa_g[:, 0], pa_g[:, 1]), ux_g * pa_g[:, 0] + uy_g * pa_g[:, 1]
        )
        fb = np.arctan2(
            _cross(ux_g, uy_g, pb_g[:, 0], pb_g[:, 1]), ux_g * pb_g[:, 0] + uy_g * pb_g[:, 1]
        )
        lo, hi = np.minimum(fa, fb), np.maximum(fa, fb)
        newp = np.concatenate(([True], gpid[1:] != gpid[:-1]))
        rank = np.cumsum(newp) - 1
        upid = gpid[newp]
        g_lo, g_hi, g_rank = _merge_intervals(rank, lo, hi)
        gi, gj = upid[g_rank] // nt, upid[g_rank] % nt
        uxx = T.C[gj, 0] - E[gi, 0]
        uyy = T.C[gj, 1] - E[gi, 1]
        nn = np.sqrt(uxx**2 + uyy**2)
        # Area of the target on the clockwise side of the ray at each merged endpoint.
        # A disc in closed form (a circular segment), a rectangle by clipping.
        A_lo = np.empty(g_lo.size)
        A_hi = np.empty(g_hi.size)
        rg = T.rnd[gj]
        if rg.any():
            r = T.R[gj[rg]]
            for g_phi, A in ((g_lo, A_lo), (g_hi, A_hi)):
                sv = np.clip(-nn[rg] * np.sin(g_phi[rg]) / r, -1.0, 1.0)
                A[rg] = r * r * (np.arccos(sv) - sv * np.sqrt(1.0 - sv * sv))
        if (~rg).any():
            sel = np.flatnonzero(~rg)
            Vrel = T.V[gj[sel]] - E[gi[sel]][:, None, :]
            ux1, uy1 = uxx[sel] / nn[sel], uyy[sel] / nn[sel]
            A_lo[sel] = self._clip_area(Vrel, ux1, uy1, g_lo[sel])
            A_hi[sel] = self._clip_area(Vrel, ux1, uy1, g_hi[sel])
        hidden = np.bincount(g_rank, weights=A_hi - A_lo, minlength=upid.size)
        pi, pj = upid // nt, upid % nt
        vis[pi, pj] = np.clip(1.0 - hidden / T.area[pj], 0.0, 1.0)
        info.upid, info.g_rank, info.g_lo, info.g_hi = upid, g_rank, g_lo, g_hi

    @staticmethod
    def _clip_area(Vrel: np.ndarray, ux: np.ndarray, uy: np.ndarray, phi: np.ndarray) -> np.ndarray:
        """Area of each polygon (eye at the origin) on the clockwise side of the ray at angle
        ``phi`` from direction u. Shoelace over the clipped edges; the cut itself runs
        through the origin and adds nothing, so each edge contributes its cross product
        times the share of it on that side."""
        c, s = np.cos(phi), np.sin(phi)
        wx, wy = ux * c - uy * s, ux * s + uy * c
        X = np.ascontiguousarray(Vrel[..., 0])
        Y = np.ascontiguousarray(Vrel[..., 1])
        sv = wx[:, None] * Y
        sv -= wy[:, None] * X  # side of each vertex: <= 0 is the clockwise side
        Xn, Yn, sn = np.roll(X, -1, 1), np.roll(Y, -1, 1), np.roll(sv, -1, 1)
        cpq = X * Yn
        cpq -= Y * Xn
        # share of each edge on the side <= 0, branch-free: -min(sv, sn) / |sn - sv|, clipped
        den = sn - sv
        np.abs(den, out=den)
        den += 1e-300
        f = np.minimum(sv, sn)
        np.negative(f, out=f)
        f /= den
        np.clip(f, 0.0, 1.0, out=f)
        f *= cpq
        return 0.5 * f.sum(-1)


def _merge_intervals(
    rank: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Union of the intervals [lo, hi] of each pair (``rank``, sorted, from 0): the merged
    intervals' (lo, hi, rank). Why a running maximum per pair (a segmented scan by
    doubling) and not one over all pairs with an offset per pair added to the angles:
    the offset grows with the number of pairs and rounds the angles, so a pair's answer
    would depend on what else is in the batch; this way ``visible_row`` is exactly a row
    of ``visible_matrix``."""
    order = np.lexsort((lo, rank))
    lo_s, hi_s, rank_s = lo[order], hi[order], rank[order]
    first = np.concatenate(([True], rank_s[1:] != rank_s[:-1]))
    starts = np.flatnonzero(first)
    pos = np.arange(rank_s.size) - starts[np.cumsum(first) - 1]
    run = hi_s.copy()  # running max of hi within each pair
    d = 1
    while d <= pos.max(initial=0):
        k = np.flatnonzero(pos >= d)
        run[k] = np.maximum(run[k], run[k - d])
        d *= 2
    new = first.copy()
    new[1:] |= lo_s[1:] > run[:-1]
    st = np.flatnonzero(new)
    return lo_s[st], np.maximum.reduceat(hi_s, st), rank_s[st]


class _Rows(NamedTuple):
    """Per (pair, clipped edge) arrays of the tall pass: observer and target indices, the
    clipped edge ``pa``-``pb`` relative to the eye, whether the eye is within the target's
    bounding circle, the unit direction and distance to the target, its bounding radius."""

    ri: np.ndarray
    rj: np.ndarray
    pa: np.ndarray
    pb: np.ndarray
    too_close: np.ndarray
    ux: np.ndarray
    uy: np.ndarray
    d: np.ndarray
    R: np.ndarray


def _lin_range(f0: np.ndarray, f1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parameter range [lo, hi] of a segment where a linear function going from f0 to f1
    is >= 0 (empty as lo > hi)."""
    cut = f0 / (f0 - f1)
    lo = np.where(f0 >= 0, 0.0, np.where(f1 >= 0, cut, 2.0))
    hi = np.where(f1 >= 0, 1.0, np.where(f0 >= 0, cut, -1.0))
    return lo, hi


def _edge_sides(E: np.ndarray, T: _Targets, rows: _Rows) -> tuple[np.ndarray, np.ndarray]:
    """(front_ok, seg_clear) per row: where is the clipped edge relative to the target?

    If the triangle (eye, pa, pb) misses the target, the edge is wholly in front of it and
    shadows the target's whole depth over its angular interval. If the triangle reaches
    the target but the edge itself does not touch it, the edge is wholly behind it (by
    continuity along the rays) and hides nothing. Otherwise the pair goes to the exact
    fallback. Discs by distances, rectangles by separating axes; near-contacts (1e-9")
    count as contacts, which only sends a pair to the fallback.
    """
    ri, rj, pa, pb = rows.ri, rows.rj, rows.pa, rows.pb
    front_ok = np.zeros(len(ri), dtype=bool)
    seg_clear = np.zeros(len(ri), dtype=bool)
    rnd = T.rnd[rj]
    if rnd.any():
        m = rnd & ~rows.too_close
        cx, cy = (rows.ux * rows.d)[m], (rows.uy * rows.d)[m]
        front_ok[m], seg_clear[m] = _disc_sides(cx, cy, pa[m], pb[m], rows.R[m] + 1e-9)
    if (~rnd).any():
        m = (~rnd) & ~rows.too_close
        V4 = T.V[rj[m], :4, :] - E[ri[m]][:, None, :]
        front_ok[m], seg_clear[m] = _rect_sides(V4, pa[m], pb[m], T.axes[rj[m]])
    return front_ok, seg_clear


def _disc_sides(
    cx: np.ndarray, cy: np.ndarray, pa: np.ndarray, pb: np.ndarray, lim: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_edge_sides` for discs of radius ``lim`` centred (cx, cy) from the eye."""
    ax_, ay_, bx_, by_ = pa[:, 0], pa[:, 1], pb[:, 0], pb[:, 1]
    zx = np.zeros_like(ax_)
    dseg = _segment_dist2(cx, cy, ax_, ay_, bx_, by_)
    d2 = np.minimum.reduce(
        [
            _segment_dist2(cx, cy, zx, zx, ax_, ay_),
            dseg,
            _segment_dist2(cx, cy, bx_, by_, zx, zx),
        ]
    )
    c1 = _cross(ax_, ay_, cx, cy)
    c2 = _cross(bx_ - ax_, by_ - ay_, cx - ax_, cy - ay_)
    c3 = _cross(-bx_, -by_, cx - bx_, cy - by_)
    tri_in = ((c1 <= 0) & (c2 <= 0) & (c3 <= 0)) | ((c1 >= 0) & (c2 >= 0) & (c3 >= 0))
    return (~tri_in) & (d2 > lim * lim), dseg > lim * lim


def _rect_sides(
    V4: np.ndarray, pa: np.ndarray, pb: np.ndarray, taxes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_edge_sides` for rectangles with corners ``V4`` (eye at the origin) and
    facing axes ``taxes``, by separating axes."""
    tri = np.stack([np.zeros_like(pa), pa, pb], axis=1)  # (k, 3, 2)
    seg = tri[:, 1:, :]
    te = np.roll(tri, -1, axis=1) - tri
    axes = [np.stack([-te[:, q, 1], te[:, q, 0]], -1) for q in range(3)]
    axes += [taxes[:, 0], taxes[:, 1]]
    sep_t = np.zeros(len(pa), dtype=bool)
    sep_s = np.zeros(len(pa), dtype=bool)
    for q, ax in enumerate(axes):
        p2 = (V4 * ax[:, None, :]).sum(-1)
        ln = np.sqrt((ax**2).sum(-1)) * 1e-9 + 1e-12
        p1 = (tri * ax[:, None, :]).sum(-1)
        sep_t |= (p1.max(1) < p2.min(1) - ln) | (p2.max(1) < p1.min(1) - ln)
        if q != 0 and q != 2:  # the segment's own normal is axis 1; skip eye sides
            p3 = (seg * ax[:, None, :]).sum(-1)
            sep_s |= (p3.max(1) < p2.min(1) - ln) | (p2.max(1) < p3.min(1) - ln)
    return sep_t, sep_s


def _bad_pairs(row_pid: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pair ids with any row not ``ok``, mask of rows whose pair has none): a pair with
    one edge reaching into its target goes wholly to the exact fallback."""
    if ok.all():
        return np.zeros(0, dtype=row_pid.dtype), ok
    newg = np.concatenate(([True], row_pid[1:] != row_pid[:-1]))
    grp = np.cumsum(newg) - 1
    bad_grp = np.zeros(int(grp[-1]) + 1, dtype=bool)
    bad_grp[grp[~ok]] = True
    return row_pid[newg][bad_grp], ~bad_grp[grp]
