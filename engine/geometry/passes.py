"""The pair passes of the fast visible fraction: tall terrain by angular intervals, area
terrain by samples, for any list of (observer, target) pairs.

Why pairs and not a grid: a whole matrix, one observer's row, one target's column and a
moved model's row *and* column (``visible_cross``) are all lists of pairs, so they share
one code path, and each pair's answer is computed by the same operations whatever else is
in the batch: a row re-scored after a move is bit for bit the row of a full recompute.
Pairs are given as index arrays ``pi`` (into the eyes ``E``) and ``pj`` (into the targets
``T``), sorted by pair; ``vis`` holds one fraction per pair.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.battlefield import AREA_SIGHT_DEPTH
from engine.geometry._common import _DEPTH_EPS, SIGHT_SAMPLES, _cross, _unit
from engine.geometry.arrays import (
    _expand,
    _group_starts,
    _segment_dist2,
    _TallInfo,
    _Targets,
)
from engine.geometry.tables import _SightTables

#: (edge indices, count per (eye, blocker), start of each count): see ``_front_edges``
Front = tuple[np.ndarray, np.ndarray, np.ndarray]


class _Passes(_SightTables):
    """The tall and area passes over a list of pairs (see the module docstring)."""

    def _area_pass(
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        pid: np.ndarray,
        pp: np.ndarray,
        vis: np.ndarray,
        info: _TallInfo | None,
    ) -> None:
        """Sampled visible fraction for pairs where area terrain hides some sample
        (``pid``, ``pp``: the (pair, area piece) candidates whose bounding circles are
        near the sight line, sorted by pair, then piece).

        Runs after the tall pass: pairs already wholly hidden stay 0 (every sample would be
        hidden too); the tall part of each sample comes from the tall pass's intervals.
        """
        live = vis[pid] > 0
        if not np.logical_and.reduce(live):
            pid, pp = pid[live], pp[live]
        if pid.size == 0:
            return
        ii, jj = pairs[0][pid], pairs[1][pid]
        if self._area_small:
            # The depth along any ray is at most the sum of the diameters of the distinct
            # area features in play: skip pairs that can never reach the limit.
            new = np.concatenate(([True], pid[1:] != pid[:-1]))
            starts = new.nonzero()[0]
            owners = self._p_owner[pp]
            first = new.copy()
            first[1:] |= owners[1:] != owners[:-1]
            bound = np.add.reduceat(self._area_diam[owners] * first, starts)
            keep_pair = bound > AREA_SIGHT_DEPTH + _DEPTH_EPS
            if not np.logical_and.reduce(keep_pair):
                rows = keep_pair[new.cumsum() - 1]
                ii, jj, pp, pid = ii[rows], jj[rows], pp[rows], pid[rows]
                if ii.size == 0:
                    return
        starts = _group_starts(pid)
        lengths = self._piece_lengths(E[ii], T.S[jj], pp)
        depth = np.add.reduceat(lengths, starts, axis=0)
        hid = depth > AREA_SIGHT_DEPTH + _DEPTH_EPS
        inv = np.logical_or.reduce(hid, axis=1)
        if not np.logical_or.reduce(inv):
            return
        st = starts[inv]
        hid = hid[inv]
        if info is not None:
            hid |= self._tall_samples(E, T, pid[st], ii[st], jj[st], info)
        vis[pid[st]] = 1.0 - np.add.reduce(hid, axis=1, dtype=np.intp) / hid.shape[1]

    def _tall_samples(
        self,
        E: np.ndarray,
        T: _Targets,
        inv_pid: np.ndarray,
        pi: np.ndarray,
        pj: np.ndarray,
        info: _TallInfo,
    ) -> np.ndarray:
        """The sample points of pairs ``inv_pid`` (sorted; eyes ``pi``, targets ``pj``)
        that tall terrain hides: by the merged angular intervals where the tall pass had
        them, by edge crossings otherwise."""
        tall = np.zeros((len(pi), SIGHT_SAMPLES), dtype=bool)
        if info.g_rank.size:
            gp = info.upid[info.g_rank]
            rowi = np.minimum(inv_pid.searchsorted(gp), len(inv_pid) - 1)
            sel = inv_pid[rowi] == gp
            if np.logical_or.reduce(sel):
                rowi = rowi[sel]
                # 1-D gathers by component (the slow path is a mixed index like [rows, 0])
                ei, ej = pi[rowi], pj[rowi]
                ex, ey = E[:, 0][ei], E[:, 1][ei]
                ux = T.C[:, 0][ej] - ex
                uy = T.C[:, 1][ej] - ey
                S = T.S[ej]
                Px = S[..., 0] - ex[:, None]
                Py = S[..., 1] - ey[:, None]
                phi = np.arctan2(
                    ux[:, None] * Py - uy[:, None] * Px, ux[:, None] * Px + uy[:, None] * Py
                )
                hit = (phi >= info.g_lo[sel][:, None]) & (phi <= info.g_hi[sel][:, None])
                st = _group_starts(rowi)
                tall[rowi[st]] = np.logical_or.reduceat(hit, st, axis=0)
        if info.bad.size:
            rowb = np.minimum(inv_pid.searchsorted(info.bad), len(inv_pid) - 1)
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
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        pid_all: np.ndarray,
        kk: np.ndarray,
        vis: np.ndarray,
        front: Front,
    ) -> _TallInfo:
        """Exact visible fraction against tall terrain (and crested hills) for the candidate
        pairs, by angular intervals, with an exact shapely fallback.

        Three steps: the blockers' front-facing edges clipped to each pair's cone
        (``_cone_rows``); each clipped edge found in front of the target, behind it, or
        reaching into it (``_edge_sides``); the hidden angular intervals merged and
        measured per pair (``_hide_by_intervals``). Pairs an edge reaches into are
        measured exactly with shapely. ``pid_all``, ``kk``: the (pair, blocker)
        candidates, sorted by pair, then blocker.
        """
        rows = self._cone_rows(E, T, pairs, pid_all, kk, front)
        front_ok, seg_clear = _edge_sides(E, T, rows)
        up, q = rows.cone.up, rows.q
        # Rows in front hide; rows behind are dropped; a pair with a row reaching into
        # its target goes wholly to the exact fallback.
        ok = front_ok | seg_clear
        if np.logical_and.reduce(
            ok
        ):  # the usual case: nothing reaches in, the rows in front are kept
            bad_pids, sel = np.zeros(0, dtype=np.intp), front_ok
        else:
            keep = front_ok | ~seg_clear
            bad_pids, good = _bad_pairs(up[q[keep]], ok[keep])
            sel = keep.nonzero()[0][good]
        info = _TallInfo(
            upid=np.zeros(0, np.intp),
            g_rank=np.zeros(0, np.intp),
            g_lo=np.zeros(0),
            g_hi=np.zeros(0),
            bad=bad_pids,
            pid=pid_all,
            kk=kk,
        )
        qs = q[sel]
        gpid = up[qs]
        if gpid.size:
            edges = (rows.cone.ux[qs], rows.cone.uy[qs], rows.P[:, sel])
            self._hide_by_intervals(E, T, pairs, gpid, edges, vis, info)
        # Exact fallback for the pairs an edge reaches into.
        for pidv in bad_pids:
            i, j = int(pairs[0][pidv]), int(pairs[1][pidv])
            feats = kk[pid_all == pidv]
            hid_area, _ = self._exact_hidden(E[i], T.fps[j], feats, front_only=True)
            vis[pidv] = min(max(1.0 - hid_area / T.area[j], 0.0), 1.0)
        return info

    def _cone_rows(
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        pp: np.ndarray,
        kk: np.ndarray,
        front: Front,
    ) -> _Rows:
        """One row per (candidate pair ``pp``, front-facing edge of its candidate blocker
        ``kk``) whose edge enters the cone the target's bounding circle subtends from the
        eye, the edge clipped to that cone (``pa``-``pb``, relative to the eye). The cone
        is worked out once per pair (``_Cones``), then the rows point to it."""
        nb = self._nb
        new = np.empty(pp.size, dtype=bool)
        new[:1] = True
        np.not_equal(pp[1:], pp[:-1], out=new[1:])
        rank = new.cumsum() - 1
        up = pp[new]
        pi, pj = pairs[0][up], pairs[1][up]
        # The cone of each pair's target's bounding circle (the disc itself when round).
        Dp = T.C[pj] - E[pi]
        d = np.sqrt(Dp[:, 0] * Dp[:, 0] + Dp[:, 1] * Dp[:, 1])  # = (Dp**2).sum(1), bit for bit
        R = T.R[pj]
        too_close = d <= R * (1 + 1e-9) + 1e-12
        ux, uy = Dp[:, 0] / d, Dp[:, 1] / d
        sa = R / d
        sa[too_close] = 1.0
        ca = 1.0 - sa * sa
        np.maximum(ca, 0.0, out=ca)
        np.sqrt(ca, out=ca)
        p1, p2, p3, p4 = ux * ca, uy * sa, ux * sa, uy * ca
        # Front-facing edges (the eye on their outer side) cast the shadow; they depend on
        # the eye only, so they are found per eye and each (pair, feature) expands to them.
        fe, fcount, fstart = front
        fk = pi[rank] * nb + kk
        rep, pos = _expand(fcount[fk], fstart[fk])
        edge = fe[pos]
        q = rank[rep]
        # by component (1-D gathers; the same numbers as on (k, 2) rows, element by element)
        eq = pi[q]
        ex, ey = E[:, 0][eq], E[:, 1][eq]
        ax = self._eax[edge] - ex
        ay = self._eay[edge] - ey
        bx = self._ebx[edge] - ex
        by = self._eby[edge] - ey
        d1x, d1y, d2x, d2y = (p1 + p2)[q], (p4 - p3)[q], (p1 - p2)[q], (p3 + p4)[q]
        # the part of the edge on the inner side of both of the cone's rays
        lo1, hi1 = _lin_range(_cross(d1x, d1y, ax, ay), _cross(d1x, d1y, bx, by))
        lo2, hi2 = _lin_range(_cross(ax, ay, d2x, d2y), _cross(bx, by, d2x, d2y))
        s0, s1 = np.maximum(lo1, lo2), np.minimum(hi1, hi2)
        inside = s1 - s0 > 1e-12
        inside |= too_close[q]
        sel = inside.nonzero()[0]
        ax, ay, bx, by, s0, s1 = ax[sel], ay[sel], bx[sel], by[sel], s0[sel], s1[sel]
        bx -= ax
        by -= ay
        P = np.empty((4, sel.size))
        np.add(ax, s0 * bx, out=P[0])
        np.add(ay, s0 * by, out=P[1])
        np.add(ax, s1 * bx, out=P[2])
        np.add(ay, s1 * by, out=P[3])
        return _Rows(
            q=q[sel],
            P=P,
            cone=_Cones(up=up, pi=pi, pj=pj, ux=ux, uy=uy, d=d, R=R, too_close=too_close),
        )

    def _front_edges(self, E: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(edge indices, count per (observer, blocker), start of each count) of the
        blockers' edges each eye sees from outside, observer by observer."""
        if len(E) == 1:  # one new eye (the hover preview's, a moved model's): flat arrays
            ex, ey = E[0, 0], E[0, 1]
            fm1 = _cross(self._eax - ex, self._eay - ey, self._ebx - ex, self._eby - ey) < 0
            fcount = np.add.reduceat(fm1, self._e_start, dtype=np.intp)
            return fm1.nonzero()[0], fcount, fcount.cumsum() - fcount
        ax_ = self._ea[None, :, 0] - E[:, 0, None]
        ay_ = self._ea[None, :, 1] - E[:, 1, None]
        bx_ = self._eb[None, :, 0] - E[:, 0, None]
        by_ = self._eb[None, :, 1] - E[:, 1, None]
        fm = _cross(ax_, ay_, bx_, by_) < 0  # (no, m)
        _, fe = fm.nonzero()
        fcount = np.add.reduceat(fm, self._e_start, axis=1, dtype=np.intp).ravel()
        fstart = fcount.cumsum() - fcount
        return fe, fcount, fstart

    def _hide_by_intervals(
        self,
        E: np.ndarray,
        T: _Targets,
        pairs: tuple[np.ndarray, np.ndarray],
        gpid: np.ndarray,
        edges: tuple[np.ndarray, np.ndarray, np.ndarray],
        vis: np.ndarray,
        info: _TallInfo,
    ) -> None:
        """Angular intervals relative to the direction of the target, merged per pair; the
        target's area between each merged interval's rays is hidden. ``edges``: per row of
        ``gpid`` the unit direction to the target and the clipped edge (ux, uy, and the
        ends' components as in ``_Rows.P``).
        Writes ``vis`` and the merged intervals into ``info`` (the area pass reuses them)."""
        ux_g, uy_g, (pax, pay, pbx, pby) = edges
        fa = np.arctan2(_cross(ux_g, uy_g, pax, pay), ux_g * pax + uy_g * pay)
        fb = np.arctan2(_cross(ux_g, uy_g, pbx, pby), ux_g * pbx + uy_g * pby)
        lo, hi = np.minimum(fa, fb), np.maximum(fa, fb)
        newp = np.concatenate(([True], gpid[1:] != gpid[:-1]))
        rank = newp.cumsum() - 1
        upid = gpid[newp]
        g_lo, g_hi, g_rank = _merge_intervals(rank, lo, hi)
        gi, gj = pairs[0][upid[g_rank]], pairs[1][upid[g_rank]]
        uxx = T.C[:, 0][gj] - E[:, 0][gi]
        uyy = T.C[:, 1][gj] - E[:, 1][gi]
        nn = np.sqrt(uxx**2 + uyy**2)
        # Area of the target on the clockwise side of the ray at each merged endpoint.
        # A disc in closed form (a circular segment), a rectangle by clipping.
        rg = T.rnd[gj]
        if np.logical_and.reduce(rg):  # the usual case: round bases alone, no masks
            # both ends of every interval in one pass (element by element the same)
            r = T.R[gj]
            r2 = np.concatenate((r, r))
            sv = np.concatenate((g_lo, g_hi))
            np.sin(sv, out=sv)
            sv *= -np.concatenate((nn, nn))
            sv /= r2
            _unit(sv, -1.0)
            A2 = r2 * r2 * (np.arccos(sv) - sv * np.sqrt(1.0 - sv * sv))
            A_lo, A_hi = A2[: g_lo.size], A2[g_lo.size :]
        else:
            A_lo = np.empty(g_lo.size)
            A_hi = np.empty(g_hi.size)
            if np.logical_or.reduce(rg):
                r = T.R[gj[rg]]
                for g_phi, A in ((g_lo, A_lo), (g_hi, A_hi)):
                    sv = _unit(-nn[rg] * np.sin(g_phi[rg]) / r, -1.0)
                    A[rg] = r * r * (np.arccos(sv) - sv * np.sqrt(1.0 - sv * sv))
            sel = (~rg).nonzero()[0]
            Vrel = T.V[gj[sel]] - E[gi[sel]][:, None, :]
            ux1, uy1 = uxx[sel] / nn[sel], uyy[sel] / nn[sel]
            A_lo[sel] = self._clip_area(Vrel, ux1, uy1, g_lo[sel])
            A_hi[sel] = self._clip_area(Vrel, ux1, uy1, g_hi[sel])
        hidden = np.bincount(g_rank, weights=A_hi - A_lo, minlength=upid.size)
        vis[upid] = _unit(1.0 - hidden / T.area[pairs[1][upid]])
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
        _unit(f)
        f *= cpq
        return 0.5 * f.sum(-1)


def _merge_intervals(
    rank: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Union of the intervals [lo, hi] of each pair (``rank``, sorted, from 0): the merged
    intervals' (lo, hi, rank). Why a running maximum on the places of the hi values
    and not on the angles with an offset per pair added: that offset grows with the
    number of pairs and rounds the angles, so a pair's answer would depend on what else
    is in the batch; this way ``visible_row`` is exactly a row of ``visible_matrix``.

    The sorts are numpy's default (vectorized, not stable; faster than the stable merge
    sort by a third of this function): the order within a pair is by lo through the
    place of each lo in one sort, made unique by the pair's rank, so only equal values
    can come in either order, and equal values give the same union, the same first lo
    and the same running maximum (a zero's sign aside, which no comparison sees and no
    area keeps: sin(-0) measures as sin(0))."""
    n = rank.size
    place = np.empty(n, dtype=np.intp)
    place[lo.argsort()] = np.arange(n)
    base = rank * n
    order = (base + place).argsort()  # by pair, then lo: unique keys
    lo_s, hi_s, rank_s = lo[order], hi[order], rank[order]
    first = np.empty(n, dtype=bool)
    first[:1] = True
    np.not_equal(rank_s[1:], rank_s[:-1], out=first[1:])
    # The running maximum of hi within each pair, on integers: each hi's place in the
    # sorted order, offset by its pair's rank times the count, so that one running
    # maximum over everything restarts at each pair (ranks ascend) and rounds nothing.
    by_hi = hi_s.argsort()
    place[by_hi] = np.arange(n)
    base = rank_s * n
    top = np.maximum.accumulate(base + place)
    top -= base
    run = hi_s[by_hi[top]]
    new = first
    new[1:] |= lo_s[1:] > run[:-1]
    st = new.nonzero()[0]
    return lo_s[st], np.maximum.reduceat(hi_s, st), rank_s[st]


class _Cones(NamedTuple):
    """Per candidate pair of the tall pass: its id, eye and target, the unit direction
    and distance from the eye to the target's centre, the target's bounding radius and
    whether the eye is within it."""

    up: np.ndarray
    pi: np.ndarray
    pj: np.ndarray
    ux: np.ndarray
    uy: np.ndarray
    d: np.ndarray
    R: np.ndarray
    too_close: np.ndarray


class _Rows(NamedTuple):
    """Per (pair, clipped edge) arrays of the tall pass: the pair (an index into
    ``cone``) and the clipped edge ``pa``-``pb`` relative to the eye, by component in
    ``P``: rows pa.x, pa.y, pb.x, pb.y (each contiguous: the passes work on them alone)."""

    q: np.ndarray
    P: np.ndarray
    cone: _Cones


def _lin_range(f0: np.ndarray, f1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parameter range [lo, hi] of a segment where a linear function going from f0 to f1
    is >= 0: empty (lo >= hi, or NaN) where both ends are negative, a case the caller
    only ever intersects with other ranges and tests for length."""
    cut = f0 / (f0 - f1)
    return np.where(f0 >= 0, 0.0, cut), np.where(f1 >= 0, 1.0, cut)


def _edge_sides(E: np.ndarray, T: _Targets, rows: _Rows) -> tuple[np.ndarray, np.ndarray]:
    """(front_ok, seg_clear) per row: where is the clipped edge relative to the target?

    If the triangle (eye, pa, pb) misses the target, the edge is wholly in front of it and
    shadows the target's whole depth over its angular interval. If the triangle reaches
    the target but the edge itself does not touch it, the edge is wholly behind it (by
    continuity along the rays) and hides nothing. Otherwise the pair goes to the exact
    fallback. Discs by distances, rectangles by separating axes; near-contacts (1e-9")
    count as contacts, which only sends a pair to the fallback.
    """
    c, q, P = rows.cone, rows.q, rows.P
    front_ok = np.zeros(len(q), dtype=bool)
    seg_clear = np.zeros(len(q), dtype=bool)
    rnd = T.rnd[c.pj]
    if np.logical_or.reduce(rnd):
        mp = rnd & ~c.too_close
        cx, cy, lim = c.ux * c.d, c.uy * c.d, c.R + 1e-9
        if np.logical_and.reduce(mp):  # the usual case: round bases, no eye within one
            return _disc_sides(cx[q], cy[q], P, lim[q])
        m = mp[q].nonzero()[0]
        qm = q[m]
        front_ok[m], seg_clear[m] = _disc_sides(cx[qm], cy[qm], P[:, m], lim[qm])
    if not np.logical_and.reduce(rnd):
        m = (((~rnd) & ~c.too_close)[q]).nonzero()[0]
        qm = q[m]
        V4 = T.V[c.pj[qm], :4, :] - E[c.pi[qm]][:, None, :]
        Pm = P[:, m]
        front_ok[m], seg_clear[m] = _rect_sides(V4, Pm[:2].T, Pm[2:].T, T.axes[c.pj[qm]])
    return front_ok, seg_clear


def _disc_sides(
    cx: np.ndarray, cy: np.ndarray, P: np.ndarray, lim: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_edge_sides` for discs of radius ``lim`` centred (cx, cy) from the eye.

    Why one end point tells front from behind: the edge lies in the cone of rays that
    meet the disc, so on each ray the edge's point is before the disc, in it, or beyond
    it; an edge that touches the disc nowhere is, by continuity, before it on every ray
    or beyond it on every ray. Before it means the disc's centre is further along the
    ray than the point: ``pa . c > pa . pa``."""
    ax_, ay_, bx_, by_ = P
    seg_clear = _segment_dist2(cx, cy, ax_, ay_, bx_, by_) > lim * lim
    ahead = ax_ * cx + ay_ * cy > ax_ * ax_ + ay_ * ay_
    return seg_clear & ahead, seg_clear


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
    if np.logical_and.reduce(ok):
        return np.zeros(0, dtype=row_pid.dtype), ok
    newg = np.concatenate(([True], row_pid[1:] != row_pid[:-1]))
    grp = newg.cumsum() - 1
    bad_grp = np.zeros(int(grp[-1]) + 1, dtype=bool)
    bad_grp[grp[~ok]] = True
    return row_pid[newg][bad_grp], ~bad_grp[grp]
