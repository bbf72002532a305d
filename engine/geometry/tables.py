"""Per-battlefield sight tables: blocker edges, convex area pieces, and the kernels on them.

Why a base class: the fast matrix (``matrix.py``) and the per-pair reference
(``sight.py``) measure against the same precomputed edges and pieces, so both inherit
them from here and cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import shapely

from engine.battlefield import (
    AREA_SIGHT_DEPTH,
    Battlefield,
    Footprint,
    base_is_round,
    base_radius_in,
)
from engine.geometry._common import (
    _AREA_CLASSES,
    _BLOCK_CLASSES,
    _DEPTH_EPS,
    _EYE_TOL,
    _GRID,
    SIGHT_SAMPLES,
    Point,
    _cross,
)
from engine.geometry.arrays import Sight, _Targets
from engine.geometry.bases import _fp_geom
from engine.geometry.templates import _circle_geom_area
from engine.geometry.terrain_index import _index

#: Elements of the sample-wide normal tables kept per battlefield (``_piece_lengths``):
#: 4 MB each at most; beyond (thousands of many-sided pieces) the normals are broadcast.
_WIDE = 1 << 19


class _SightTables:
    """Terrain precomputed once per battlefield for sight (see :class:`Geometry`)."""

    def __init__(self, battlefield: Battlefield):
        self.battlefield = battlefield
        self._idx = _index(battlefield)
        feats = battlefield.terrain
        self._blk = [i for i, f in enumerate(feats) if f.cls in _BLOCK_CLASSES]
        self._area = [i for i, f in enumerate(feats) if f.cls in _AREA_CLASSES]
        self._hills = [i for i, f in enumerate(feats) if f.cls == "elevation"]
        self._nb = len(self._blk)
        self._blk_geoms = self._idx.geoms[self._blk] if self._nb else np.zeros(0, object)
        self._blk_hill = np.array([feats[i].cls == "elevation" for i in self._blk], dtype=bool)
        self._blk_h = np.array([feats[i].height for i in self._blk], dtype=float)
        self._hill_geoms = self._idx.geoms[self._hills] if self._hills else np.zeros(0, object)
        self._hill_h = np.array([feats[i].height for i in self._hills], dtype=float)
        self._build_edges()
        self._build_pieces()
        self._tcache: dict[tuple[Footprint, ...], _Targets] = {}
        # the last targets asked and their arrays, newest first (see _Matrix._targets)
        self._tlast: list[tuple[tuple[Footprint, ...], _Targets]] = []
        # per set of observers' eyes (bytes of their array): see _Matrix._eye_data
        self._ecache: dict[bytes, Any] = {}
        # the pre-filter's squared reach per set of target radii: see _Matrix._reach2
        self._lim_cache: dict[bytes, np.ndarray] = {}
        # the angular pre-filter's reach per largest radius: see _Matrix._near
        self._rho_cache: dict[float, np.ndarray] = {}
        # per target base: cone vertices, sample points, ground elevation (see _target_parts)
        self._pcache: dict[Footprint, tuple[np.ndarray, np.ndarray | None, float]] = {}
        self._sight_cache: dict[tuple[object, ...], Sight] = {}
        # terrain that can matter to a shot: blocks sight, hides, or gives cover
        self._sight_relevant = np.array(
            [f.cls in ("tall", "area", "elevation", "line") for f in feats], dtype=bool
        )
        # features the cover rules of ``Geometry._sight`` read (area terrain, hedges...)
        self._cover_kind = np.array(
            [f.cls == "area" or f.kind in ("hedge", "fence", "low_wall") for f in feats],
            dtype=bool,
        )
        # every feature's envelope (x0, y0, x1, y1): a numpy pre-filter before the STRtree,
        # exact because a geometry meets another only where their envelopes meet
        self._fbox = (
            shapely.bounds(self._idx.geoms).reshape(-1, 4) if len(feats) else np.zeros((0, 4))
        )
        self._fc = np.vstack([self._bc, self._pc])
        self._fr = np.concatenate([self._br, self._pr])
        # the blockers' envelopes widened by twice the eye tolerance, by component
        # (``_Matrix._inside`` asks them of every new eye)
        pad = 2 * _EYE_TOL
        box = self._fbox[self._blk] if self._nb else np.zeros((0, 4))
        self._blk_x0, self._blk_x1 = box[:, 0] - pad, box[:, 2] + pad
        self._blk_y0, self._blk_y1 = box[:, 1] - pad, box[:, 3] + pad
        self._any_hill = bool(self._blk_hill.any())

    def _build_edges(self) -> None:
        """Edge arrays of sight-blocking polygons, rings oriented with the inside on the
        left; plus a bounding circle per feature for the pre-filter."""
        ea, eb, start, count, bc, br = [], [], [], [], [], []
        n = 0
        for g in self._blk_geoms:
            k0 = n
            pts = []
            for poly in shapely.get_parts(g):
                rings = [poly.exterior, *poly.interiors]
                for ring in rings:
                    c = np.asarray(ring.coords)[:, :2]
                    a, b = c[:-1], c[1:]
                    keep = np.any(a != b, axis=1)
                    ea.append(a[keep])
                    eb.append(b[keep])
                    n += int(keep.sum())
                pts.append(np.asarray(poly.exterior.coords)[:, :2])
            start.append(k0)
            count.append(n - k0)
            allp = np.vstack(pts)
            mn, mx = allp.min(0), allp.max(0)
            cen = (mn + mx) / 2
            bc.append(cen)
            br.append(float(np.sqrt(((allp - cen) ** 2).sum(1)).max()))
        self._ea = np.vstack(ea) if ea else np.zeros((0, 2))
        self._eb = np.vstack(eb) if eb else np.zeros((0, 2))
        # the same ends by component, contiguous: gathering rows of an (m, 2) array takes
        # numpy's slow fancy-index path, a 1-D gather its fast one (the tall pass's rows)
        self._eax, self._eay = self._ea[:, 0].copy(), self._ea[:, 1].copy()
        self._ebx, self._eby = self._eb[:, 0].copy(), self._eb[:, 1].copy()
        self._e_start = np.array(start, dtype=np.intp)
        self._e_count = np.array(count, dtype=np.intp)
        self._bc = np.array(bc, dtype=float).reshape(-1, 2)
        self._br = np.array(br, dtype=float) * (1 + 1e-9) + 1e-9

    def _build_pieces(self) -> None:
        """Convex pieces of area polygons (the polygon itself when convex, else a
        constrained triangulation) as padded inward half-planes, so the length of a
        segment inside a polygon is a sum of Cyrus-Beck clips in numpy."""
        normals, offsets, owner, pc, pr = [], [], [], [], []
        diameters: list[float] = []
        for ai, fi in enumerate(self._area):
            g = self._idx.geoms[fi]
            hull = shapely.convex_hull(g)
            allp = shapely.get_coordinates(g)
            diam = float(np.sqrt(((allp[:, None] - allp[None]) ** 2).sum(-1)).max())
            diameters.append(diam)
            convex = (
                isinstance(g, shapely.Polygon)
                and not list(g.interiors)
                and abs(hull.area - g.area) <= 1e-12 * max(hull.area, 1.0)
            )
            pieces = (
                [g]
                if convex
                else list(shapely.get_parts(shapely.constrained_delaunay_triangles(g)))
            )
            for piece in pieces:
                piece = shapely.orient_polygons(piece, exterior_cw=False)
                c = np.asarray(piece.exterior.coords)[:, :2]
                a, b = c[:-1], c[1:]
                keep = np.any(a != b, axis=1)
                a, b = a[keep], b[keep]
                if len(a) < 3:
                    continue
                nrm = np.stack([-(b[:, 1] - a[:, 1]), b[:, 0] - a[:, 0]], axis=1)
                normals.append(nrm)
                offsets.append((nrm * a).sum(1))
                owner.append(ai)
                mn, mx = c.min(0), c.max(0)
                cen = (mn + mx) / 2
                pc.append(cen)
                pr.append(float(np.sqrt(((c - cen) ** 2).sum(1)).max()))
        self._npc = len(normals)
        mx = max((len(x) for x in normals), default=3)
        self._pnx = np.zeros((self._npc, mx))
        self._pny = np.zeros((self._npc, mx))
        self._po = np.zeros((self._npc, mx))
        for k, (nrm, off) in enumerate(zip(normals, offsets)):
            pad = mx - len(nrm)  # repeat the last half-plane: it constrains nothing new
            self._pnx[k] = np.r_[nrm[:, 0], np.repeat(nrm[-1, 0], pad)]
            self._pny[k] = np.r_[nrm[:, 1], np.repeat(nrm[-1, 1], pad)]
            self._po[k] = np.r_[off, np.repeat(off[-1], pad)]
        # by half-plane first, (half-plane, piece): the clip works on (half-plane, row, sample)
        self._pnxT = np.ascontiguousarray(self._pnx.T)
        self._pnyT = np.ascontiguousarray(self._pny.T)
        self._poT = np.ascontiguousarray(self._po.T)
        # the normals repeated along the samples, (half-plane, piece, sample): the clip's
        # products then run on whole rows (numpy broadcasting a factor along the samples,
        # the innermost axis, costs some three times a plain product)
        wide = 0 < self._npc * mx * SIGHT_SAMPLES <= _WIDE
        self._pn_wide = (
            (
                np.repeat(self._pnxT[:, :, None], SIGHT_SAMPLES, 2),
                np.repeat(self._pnyT[:, :, None], SIGHT_SAMPLES, 2),
            )
            if wide
            else None
        )
        self._p_owner = np.array(owner, dtype=np.intp)
        self._pc = np.array(pc, dtype=float).reshape(-1, 2)
        self._pr = np.array(pr, dtype=float) * (1 + 1e-9) + 1e-9
        self._area_pieces = [np.flatnonzero(self._p_owner == ai) for ai in range(len(self._area))]
        self._area_diam = np.asarray(diameters, dtype=float)
        # Only features no wider than the sight depth can make the diameter bound useful.
        self._area_small = bool(
            self._area_diam.size and self._area_diam.min() <= AREA_SIGHT_DEPTH + _DEPTH_EPS
        )

    def _boxed(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """Indices of the features whose envelope meets the box (closed; a superset of
        those whose geometry does, in battlefield order)."""
        b = self._fbox
        return np.flatnonzero((b[:, 0] <= x1) & (b[:, 2] >= x0) & (b[:, 1] <= y1) & (b[:, 3] >= y0))

    def elevation_at(self, p: Point) -> float:
        """Height of the highest hill containing p (boundary included), else 0."""
        if not self._hills:
            return 0.0
        hit = shapely.intersects_xy(self._hill_geoms, p[0], p[1])
        return float(self._hill_h[hit].max()) if hit.any() else 0.0

    def _elev_np(self, P: np.ndarray) -> np.ndarray:
        out = np.zeros(len(P))
        for g, h in zip(self._hill_geoms, self._hill_h):
            hit = shapely.intersects_xy(g, P[:, 0], P[:, 1])
            out = np.where(hit, np.maximum(out, h), out)
        return out

    def _piece_lengths(self, E: np.ndarray, P: np.ndarray, pieces: np.ndarray) -> np.ndarray:
        """Length of segments E[r] -> P[r, s] inside convex piece ``pieces[r]``: (R, S).

        Cyrus-Beck clipping against the piece's inward half-planes (pieces with fewer edges
        repeat their last half-plane). A segment parallel to an edge gets a tiny positive
        slope there, so it is cut away exactly when it runs outside that edge.

        Laid out (half-plane, row, sample): the products with the normals take whole
        sample-wide rows of ``_pn_wide`` (or broadcast them where that table is not
        kept), and the entering and leaving reductions run over the first axis. Element
        by element the same operations in either layout, so the same lengths.
        """
        out = np.empty(P.shape[:2])
        wide = self._pn_wide if P.shape[1] == SIGHT_SAMPLES else None
        chunk = 4096
        for s in range(0, len(pieces), chunk):
            e, p, pc = E[s : s + chunk], P[s : s + chunk], pieces[s : s + chunk]
            nx, ny = self._pnxT.take(pc, axis=1), self._pnyT.take(pc, axis=1)  # (m, r)
            dx = p[..., 0] - e[:, 0, None]  # (r, S)
            dy = p[..., 1] - e[:, 1, None]
            ng = self._poT.take(pc, axis=1) - nx * e[:, 0] - ny * e[:, 1]  # -(n.E - o)
            if wide is not None:
                h = wide[0].take(pc, axis=1)  # (m, r, S)
                h *= dx
                hy = wide[1].take(pc, axis=1)
                hy *= dy
            else:
                h = nx[:, :, None] * dx
                hy = ny[:, :, None] * dy
            h += hy  # n.D
            zero = h == 0.0
            if np.count_nonzero(zero):
                h[zero] = 1e-300
            pos = h > 0.0
            t = np.divide(ng[:, :, None], h, out=h)  # in place: h is not read again
            # enter at the latest crossing inward, leave at the first outward, within 0..1
            # (masked reductions: no select copies; a zero's sign, the only thing that
            # can differ from selecting first, never reaches a length's comparison)
            enter = np.maximum.reduce(t, axis=0, where=pos, initial=0.0)
            leave = np.minimum.reduce(t, axis=0, where=np.logical_not(pos, out=pos), initial=1.0)
            np.subtract(leave, enter, out=leave)
            np.maximum(leave, 0.0, out=leave)
            out[s : s + chunk] = leave * np.sqrt(dx * dx + dy * dy)
        return out

    @staticmethod
    def _crossed(E: np.ndarray, P: np.ndarray, A: np.ndarray, B: np.ndarray) -> np.ndarray:
        """Whether segment E[r] -> P[r, s] crosses edge A[r] B[r]: (R, S) bool."""
        dx = P[..., 0] - E[:, None, 0]
        dy = P[..., 1] - E[:, None, 1]
        ax, ay = (A - E)[:, 0, None], (A - E)[:, 1, None]
        bx, by = (B - E)[:, 0, None], (B - E)[:, 1, None]
        o1 = _cross(dx, dy, ax, ay)
        o2 = _cross(dx, dy, bx, by)
        ex, ey = (B - A)[:, 0], (B - A)[:, 1]
        o3 = _cross(ex, ey, (E - A)[:, 0], (E - A)[:, 1])[:, None]
        o4 = _cross(ex[:, None], ey[:, None], P[..., 0] - A[:, 0, None], P[..., 1] - A[:, 1, None])
        return (o1 * o2 <= 0) & (o3 * o4 < 0)

    def _exact_hidden(
        self, eye: np.ndarray, target: Footprint, feats: Iterable[int], front_only: bool
    ) -> tuple[float, dict[int, float]]:
        """Exact hidden area of a target base behind blockers ``feats`` (indices into the
        blocker list): base ∩ union of the edges' shadow pentagons (shapely), measured
        exactly against the disc of a round base. Returns the total and the area each
        feature hides on its own."""
        feats = [int(k) for k in feats]
        if not feats:
            return 0.0, {}
        E = np.asarray(eye, dtype=float)
        rnd = base_is_round(target.base)
        rad = base_radius_in(target.base)
        reach = math.hypot(target.x - E[0], target.y - E[1]) + rad
        tgeom = None if rnd else _fp_geom(target)
        box = (target.x - rad, target.y - rad, target.x + rad, target.y + rad)
        pieces, owner = [], []
        for k in feats:
            polys = self._edge_shadows(E, k, reach, front_only)
            if polys is None:
                continue
            if rnd:
                pieces.append(shapely.clip_by_rect(polys, *box))
            else:
                pieces.append(shapely.intersection(tgeom, polys, grid_size=_GRID))
            owner.append(k)
        if not pieces:
            return 0.0, {}

        def measure(g: shapely.Geometry) -> float:
            if rnd:
                return _circle_geom_area((target.x, target.y), rad, g)
            return float(g.area)

        per: dict[int, float] = {}
        unions = []
        for k, pc in zip(owner, pieces):
            u = shapely.union_all(pc, grid_size=_GRID)
            per[k] = measure(u)
            unions.append(u)
        if len(unions) > 1:
            total = measure(shapely.union_all(unions, grid_size=_GRID))
        else:
            total = per[owner[0]]
        return total, per

    def _edge_shadows(
        self, E: np.ndarray, k: int, reach: float, front_only: bool
    ) -> np.ndarray | None:
        """Shadow pentagons of blocker k's edges from eye E, long enough to pass ``reach``:
        edge a-b, then out along the rays through b, their bisector and a (the bisector
        keeps the far side beyond reach for edges spanning up to 180 degrees)."""
        s, n = self._e_start[k], self._e_count[k]
        a = self._ea[s : s + n] - E
        b = self._eb[s : s + n] - E
        na = np.sqrt((a**2).sum(1))
        nb = np.sqrt((b**2).sum(1))
        cr = _cross(a[:, 0], a[:, 1], b[:, 0], b[:, 1])
        keep = (cr < 0) if front_only else np.ones(len(a), dtype=bool)
        keep &= np.abs(cr) > 1e-12 * na * nb
        keep &= (na > 0) & (nb > 0)
        if not keep.any():
            return None
        a, b, na, nb = a[keep], b[keep], na[keep], nb[keep]
        ah, bh = a / na[:, None], b / nb[:, None]
        mh = ah + bh
        mh /= np.sqrt((mh**2).sum(1))[:, None]
        R = np.maximum(1.5 * reach + 1.0, 1.5 * np.maximum(na, nb) + 1.0)[:, None]
        return shapely.polygons(np.stack([a, b, bh * R, mh * R, ah * R], axis=1) + E)
