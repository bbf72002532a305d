"""Sight: the Geometry service, its per-pair reference path, cover and shadow drawing."""

from __future__ import annotations

import math

import numpy as np
import shapely

from engine.battlefield import (
    AREA_SIGHT_DEPTH,
    COVER_PROXIMITY,
    Footprint,
    base_is_round,
    base_radius_in,
)
from engine.geometry._common import _DEPTH_EPS, _GRID, Point
from engine.geometry.arrays import Sight, _eye_in
from engine.geometry.bases import (
    _base_area,
    _cone_vertices,
    _fp_geom,
    _fp_samples,
    _hull_with_eye,
    _sight_cone,
    distance,
)
from engine.geometry.matrix import _Matrix
from engine.geometry.proofs import _Proofs
from engine.geometry.terrain_index import _base_hits
from engine.geometry.zones import _rings


class Geometry(_Proofs, _Matrix):
    """Everything that depends on the terrain, precomputed once per battlefield.

    Sight model (DESIGN.md): the eye is the centre of the observer's base.

    * Tall terrain (wall, building, rocks) casts the shadow ``{q : segment eye->q meets the
      polygon}``: the union of the "shadow quads" behind the polygon's edges, the polygon
      itself included, so the part of a target standing inside a tall feature is hidden.
      A tall feature containing the eye (or within 1e-9" of it) does not block that
      observer (it looks out).
    * A hill blocks exactly like a tall polygon between two models that are both lower
      than it (eye level = ground elevation + the given height) and neither of whose
      centres is on it; a model on the hill sees and is seen across it.
    * Area terrain (woods, heavy_woods, brush, wheat_field): a point of the target is
      hidden when the segment eye->point runs more than ``AREA_SIGHT_DEPTH`` inside area
      polygons (lengths summed over features). That shadow is bounded by curves, so it is
      measured on ``SIGHT_SAMPLES`` fixed equal-area sample points of the target base
      (:func:`base_samples`). When at least one sample is hidden by area terrain, the
      visible fraction is the share of samples hidden neither by area terrain nor by the
      exact tall shadows; otherwise (tall terrain only) it is the exact area ratio.
    * Line obstacles, ground, water and roads never block sight; models never block.

    ``visible_fraction``/``sight`` compute one pair straightforwardly with shapely (the
    reference); ``visible_matrix`` computes many pairs with numpy on the terrain edges
    and agrees with the reference to rounding error.
    """

    def impassable(self) -> list[list[Point]]:
        """Polygons of tall terrain, for the physics service."""
        return [
            [(float(x), float(y)) for x, y in f.polygon]
            for f in self.battlefield.terrain
            if f.cls == "tall"
        ]

    def visible_fraction(self, observer: Footprint, target: Footprint) -> float:
        """Visible fraction of the target's base from the observer's eye (reference path)."""
        return self._reference(observer, target, 0.0, 0.0)[0]

    def _active_blockers(
        self,
        observer: Footprint,
        target: Footprint,
        lev_o: float,
        lev_t: float,
        cone: shapely.Geometry,
    ) -> list[int]:
        """Blockers (indices into the blocker list) casting shadow for this pair whose
        polygon meets the sight cone (convex hull of the eye and the target)."""
        out: list[int] = []
        if not self._nb:
            return out
        hit = shapely.intersects(self._blk_geoms, cone)
        for k in np.flatnonzero(hit):
            g = self._blk_geoms[k]
            if self._blk_hill[k]:
                h = self._blk_h[k]
                on_o = _eye_in(np.array([g], dtype=object), np.array([[observer.x, observer.y]]))[
                    0, 0
                ]
                on_t = shapely.intersects_xy(g, target.x, target.y)
                if on_o or on_t or lev_o >= h or lev_t >= h:
                    continue
            elif _eye_in(np.array([g], dtype=object), np.array([[observer.x, observer.y]]))[0, 0]:
                continue
            out.append(int(k))
        return out

    def _reference(
        self, observer: Footprint, target: Footprint, ho: float, ht: float, detail: bool = False
    ) -> tuple[float, list[int], list[int]]:
        """Straightforward visible fraction of one pair (see the class docstring).

        Returns (visible, blocker indices hiding part of the target, area feature indices
        whose depth hides samples).
        """
        E = np.array([observer.x, observer.y], dtype=float)
        cv, lev_t0 = self._target_parts(target)
        cone = _hull_with_eye(cv, observer)
        area_t = _base_area(target)
        lev_o = self.elevation_at((observer.x, observer.y)) + ho
        lev_t = lev_t0 + ht
        blk = self._active_blockers(observer, target, lev_o, lev_t, cone)
        area_hid = None
        area_feats: list[int] = []
        S = np.zeros((0, 2))  # the target's sample points, once area terrain is in play
        if self._area:
            hit = shapely.intersects(self._idx.geoms[self._area], cone)
            ais = [ai for ai in np.flatnonzero(hit)]
            pcs = (
                np.concatenate([self._area_pieces[ai] for ai in ais])
                if ais
                else np.zeros(0, dtype=np.intp)
            )
            if pcs.size:
                S = self._target_samples(target)
                with np.errstate(all="ignore"):
                    L = self._piece_lengths(
                        np.repeat(E[None], pcs.size, 0), np.repeat(S[None], pcs.size, 0), pcs
                    )
                area_hid = L.sum(0) > AREA_SIGHT_DEPTH + _DEPTH_EPS
                if area_hid.any():
                    own = self._p_owner[pcs]
                    for ai in ais:
                        if (L[own == ai][:, area_hid] > 0).any():
                            area_feats.append(self._area[ai])
                else:
                    area_hid = None
        if area_hid is not None:
            tall = np.zeros(len(S), dtype=bool)
            for k in blk:
                s, n = self._e_start[k], self._e_count[k]
                A, B = self._ea[s : s + n], self._eb[s : s + n]
                cr = self._crossed(np.repeat(E[None], n, 0), np.repeat(S[None], n, 0), A, B)
                tall |= cr.any(0)
            visible = 1.0 - float((area_hid | tall).sum()) / len(S)
            hiders = []
            if detail:
                _, per = self._exact_hidden(E, target, blk, front_only=False)
                hiders = [k for k, v in per.items() if v > 1e-9 * area_t]
            return visible, hiders, area_feats
        if not blk:
            return 1.0, [], []
        total, per = self._exact_hidden(E, target, blk, front_only=False)
        visible = min(max(1.0 - total / area_t, 0.0), 1.0)
        hiders = [k for k, v in per.items() if v > 1e-9 * area_t]
        return visible, hiders, area_feats

    def _target_parts(self, target: Footprint) -> tuple[np.ndarray, float]:
        """(sight-cone vertices, ground elevation) of a target base, cached: every
        observer on the table asks about the same few target bases."""
        hit = self._target_hit(target)
        if hit is None:
            return _cone_vertices(target), self.elevation_at((target.x, target.y))
        return hit[0], hit[2]

    def _target_samples(self, target: Footprint) -> np.ndarray:
        """The target's area-terrain sample points (``_fp_samples``), cached likewise."""
        hit = self._target_hit(target)
        if hit is None:
            return _fp_samples([target])[0]
        if hit[1] is None:
            S = _fp_samples([target])[0]
            S.setflags(write=False)
            hit = self._pcache[target] = (hit[0], S, hit[2])
        assert hit[1] is not None
        return hit[1]

    def _target_hit(self, target: Footprint) -> tuple[np.ndarray, np.ndarray | None, float] | None:
        """The cache entry of a target base (made on first use; samples come lazily, as
        only pairs near area terrain need them), or None for an unhashable base."""
        try:
            hit = self._pcache.get(target)
        except TypeError:  # a base given as a list: unhashable, so not cached
            return None
        if hit is None:
            cv = _cone_vertices(target)
            cv.setflags(write=False)
            if len(self._pcache) > 4096:
                self._pcache.clear()
            hit = self._pcache[target] = (cv, None, self.elevation_at((target.x, target.y)))
        return hit

    def sight(
        self,
        observer: Footprint,
        target: Footprint,
        observer_height: float = 0.0,
        target_height: float = 0.0,
    ) -> Sight:
        """Visible fraction, blockers and cover of one shot (memoised; see ``_sight``).

        Why a cache: rules ask about the same pairs over and over (the AI's candidate
        filter, the window's hover, each clone of a search), and terrain never changes.
        A pair with no sight-relevant terrain anywhere near the line and the target's
        base answers at once without the exact computation.

        A wall whose bottom edge lies on the line from the eye to the target's centre
        hides exactly the northern half of the target's base: in cover, not invisible.

        >>> from engine.battlefield import Battlefield, Footprint, TerrainFeature
        >>> wall = TerrainFeature("wall", "wall", ((5, 0), (5.5, 0), (5.5, 5), (5, 5)))
        >>> geo = Geometry(Battlefield(24, 24, (wall,)))
        >>> eye, target = Footprint(0, 0, 0, 25.4), Footprint(10, 0, 0, 25.4)
        >>> geo.sight(eye, target)
        Sight(visible=0.5, blockers=('wall',), soft_cover=(), hard_cover=('wall',), distance=9.0)

        The fast matrix gives the same fractions for many pairs at once (here the same
        target, one wholly behind the wall, and one in the open):

        >>> others = [target, Footprint(10, 3, 0, 25.4), Footprint(10, -3, 0, 25.4)]
        >>> geo.visible_matrix([eye], others).tolist()
        [[0.5, 0.0, 1.0]]
        """
        key = (observer, target, observer_height, target_height)
        hit = self._sight_cache.get(key)
        if hit is not None:
            return hit
        if self._nothing_near(observer, target):
            hit = Sight(1.0, (), (), (), distance(observer, target))
        else:
            hit = self._sight(observer, target, observer_height, target_height)
        return self._remember(key, hit)

    def _remember(self, key: tuple[object, ...], hit: Sight) -> Sight:
        """Keep ``hit`` in the memo that ``sight`` and ``quick_sight`` share (they give the
        same answer for a key, so either may fill it), cleared whole past 50,000 pairs
        so a long game's memory stays bounded; returns ``hit``."""
        if len(self._sight_cache) > 50_000:
            self._sight_cache.clear()
        self._sight_cache[key] = hit
        return hit

    def _nothing_near(self, observer: Footprint, target: Footprint) -> bool:
        """True when no sight-relevant feature touches the box around the eye and the
        target's base grown by the cover distance (then: fully visible, no cover)."""
        r = base_radius_in(target.base) + COVER_PROXIMITY
        x0, y0 = min(observer.x, target.x - r), min(observer.y, target.y - r)
        x1, y1 = max(observer.x, target.x + r), max(observer.y, target.y + r)
        boxed = self._boxed(x0, y0, x1, y1)
        if not self._sight_relevant[boxed].any():
            return True  # no envelope even meets the box: the exact query finds nothing
        near = self._idx.query(shapely.box(x0, y0, x1, y1))
        return not bool(np.any(self._sight_relevant[near])) if len(near) else True

    def _sight(
        self, observer: Footprint, target: Footprint, observer_height: float, target_height: float
    ) -> Sight:
        """Visible fraction, blockers and cover of one shot, computed exactly.

        Heights are added to the ground elevation of each model for hills only (a model
        taller than a hill sees over it). Cover: an area feature gives soft cover when the
        target's base overlaps it, or when the line of fire (eye to the target's centre)
        passes through it, the eye is not inside it and the target's base is within
        ``COVER_PROXIMITY``; a hedge or fence gives soft cover, a low wall hard cover, when
        the line of fire crosses it and the target is within ``COVER_PROXIMITY``; tall
        features hiding part of the target give hard cover.
        """
        visible, hiders, area_feats = self._reference(
            observer, target, observer_height, target_height, detail=True
        )
        feats = self.battlefield.terrain
        hider_ids = {self._blk[k] for k in hiders}
        blockers = sorted(hider_ids | set(area_feats))
        tall = [fi for fi in sorted(hider_ids) if feats[fi].cls == "tall"]
        soft, hard = self._cover(observer, target, tall)
        ids = self._idx.ids
        return Sight(
            visible=float(visible),
            blockers=tuple(ids[i] for i in blockers),
            soft_cover=soft,
            hard_cover=hard,
            distance=distance(observer, target),
        )

    def _cover(
        self, observer: Footprint, target: Footprint, hard: list[int]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(soft cover, hard cover) ids of one shot (see ``_sight``), ``hard`` holding
        the tall features that hide part of the target already."""
        feats = self.battlefield.terrain
        ids = self._idx.ids
        soft: list[int] = []
        near = self._cover_candidates(observer, target)
        if not len(near):
            return (), tuple(ids[i] for i in sorted(set(hard)))
        lof = shapely.LineString([(observer.x, observer.y), (target.x, target.y)])
        if lof.length == 0:
            lof = shapely.Point(observer.x, observer.y)
        for fi in near:
            f = feats[fi]
            if f.cls == "area":
                g = self._idx.geoms[fi]
                under = bool(_base_hits(target, self._idx, np.array([fi]))[0])
                if under:
                    soft.append(int(fi))
                    continue
                if shapely.contains_xy(g, observer.x, observer.y):
                    continue
                if shapely.intersects(lof, g) and self._base_gap(target, g) <= COVER_PROXIMITY:
                    soft.append(int(fi))
            elif f.kind in ("hedge", "fence", "low_wall"):
                g = self._idx.geoms[fi]
                if shapely.intersects(lof, g) and self._base_gap(target, g) <= COVER_PROXIMITY:
                    (hard if f.kind == "low_wall" else soft).append(int(fi))
        return tuple(ids[i] for i in sorted(set(soft))), tuple(ids[i] for i in sorted(set(hard)))

    def quick_sight(self, observer: Footprint, target: Footprint) -> Sight:
        """``sight(observer, target)``'s very answer, measuring the cover alone when
        ``surely_in_view`` proves the whole target in view (then the exact measure would
        find it wholly visible and hidden by nothing). Why: a shot's line of fire needs
        the cover of pairs its check already found in the open, and the exact visible
        fraction was most of what their sight cost (issue 24). Shares ``sight``'s memo.

        >>> from engine.battlefield import Battlefield, Footprint, TerrainFeature
        >>> hedge = TerrainFeature("hedge", "hedge", ((9, -3), (9.3, -3), (9.3, 3), (9, 3)))
        >>> geo = Geometry(Battlefield(24, 24, (hedge,)))
        >>> eye, target = Footprint(0, 0, 0, 25.4), Footprint(10, 0, 0, 25.4)
        >>> geo.surely_in_view(eye, target)
        True
        >>> geo.quick_sight(eye, target)
        Sight(visible=1.0, blockers=(), soft_cover=('hedge',), hard_cover=(), distance=9.0)
        >>> Geometry(Battlefield(24, 24, (hedge,))).sight(eye, target)
        Sight(visible=1.0, blockers=(), soft_cover=('hedge',), hard_cover=(), distance=9.0)
        """
        key = (observer, target, 0.0, 0.0)
        hit = self._sight_cache.get(key)
        if hit is not None:
            return hit
        if not self.surely_in_view(observer, target):
            return self.sight(observer, target)
        soft, hard = self._cover(observer, target, [])
        return self._remember(key, Sight(1.0, (), soft, hard, distance(observer, target)))

    def _cover_candidates(self, observer: Footprint, target: Footprint) -> np.ndarray:
        """Area and line features that may give this shot cover: those whose envelope
        meets the envelope of the line of fire and of the target's base grown by
        ``COVER_PROXIMITY``. A superset of the features the cover tests of ``_sight``
        accept (each needs the line of fire to cross it or the base to be within that
        distance), so the answer is the same as with an exact query, without building
        the grown shape."""
        r = base_radius_in(target.base) + COVER_PROXIMITY + 1e-6
        b = self._boxed(
            min(observer.x, target.x - r),
            min(observer.y, target.y - r),
            max(observer.x, target.x + r),
            max(observer.y, target.y + r),
        )
        return b[self._cover_kind[b]]

    @staticmethod
    def _base_gap(fp: Footprint, g: shapely.Geometry) -> float:
        """Base edge to polygon distance (exact for round bases)."""
        if base_is_round(fp.base):
            d = float(shapely.distance(shapely.Point(fp.x, fp.y), g))
            return max(d - base_radius_in(fp.base), 0.0)
        return float(shapely.distance(_fp_geom(fp), g))

    def shadow_outline(self, observer: Footprint, target: Footprint) -> list[list[Point]]:
        """The hidden part(s) of the target's base as polygons, for the window to draw.

        Exact for tall terrain and hills; the part hidden by area terrain is traced along
        48 rays across the target (an approximation for drawing only).
        """
        E = np.array([observer.x, observer.y], dtype=float)
        tgeom = _fp_geom(target)
        cone = _sight_cone(observer, target)
        lev_o = self.elevation_at((observer.x, observer.y))
        lev_t = self.elevation_at((target.x, target.y))
        blk = self._active_blockers(observer, target, lev_o, lev_t, cone)
        parts = []
        if blk:
            parts.append(self._shadow_geom(E, tgeom, blk))
        area = self._area_shadow(E, target, tgeom, cone)
        if area is not None:
            parts.append(area)
        if not parts:
            return []
        return _rings(
            shapely.intersection(tgeom, shapely.union_all(parts, grid_size=_GRID), grid_size=_GRID)
        )

    def _shadow_geom(
        self, E: np.ndarray, tgeom: shapely.Geometry, feats: list[int]
    ) -> shapely.Geometry:
        """Union of the exact shadows of blockers ``feats`` reaching past the target."""
        tb = shapely.get_coordinates(tgeom)
        reach = float(np.sqrt(((tb - E) ** 2).sum(1)).max())
        polys = [
            p for k in feats if (p := self._edge_shadows(E, k, reach, front_only=False)) is not None
        ]
        if not polys:
            return shapely.Polygon()
        return shapely.union_all(np.concatenate(polys), grid_size=_GRID)

    def _area_shadow(
        self, E: np.ndarray, target: Footprint, tgeom: shapely.Geometry, cone: shapely.Geometry
    ) -> shapely.Geometry | None:
        """Approximate region hidden by area terrain: along 48 rays across the target, the
        distance where the in-area length passes AREA_SIGHT_DEPTH, joined into quads."""
        if not self._area:
            return None
        hit = shapely.intersects(self._idx.geoms[self._area], cone)
        ais = list(np.flatnonzero(hit))
        if not ais:
            return None
        tb = shapely.get_coordinates(tgeom) - E
        ang = np.arctan2(tb[:, 1], tb[:, 0])
        ref = math.atan2(target.y - E[1], target.x - E[0])
        rel = (ang - ref + np.pi) % (2 * np.pi) - np.pi
        far = float(np.sqrt((tb**2).sum(1)).max()) + 1.0
        nray = 48
        phis = ref + np.linspace(rel.min(), rel.max(), nray)
        ends = E + far * np.stack([np.cos(phis), np.sin(phis)], 1)
        # Per ray: the in-area intervals, then where their running total passes the limit.
        cut = np.full(nray, np.inf)
        for r in range(nray):
            seg = shapely.LineString([E, ends[r]])
            ivs = []
            for ai in ais:
                inter = shapely.intersection(seg, self._idx.geoms[self._area[ai]])
                for part in shapely.get_parts(inter):
                    if isinstance(part, shapely.LineString) and part.length > 0:
                        c = np.asarray(part.coords)
                        dd = np.sqrt(((c - E) ** 2).sum(1))
                        ivs.append((dd.min(), dd.max()))
            if not ivs:
                continue
            iv = np.array(ivs)
            bps = np.unique(iv.ravel())
            cum = np.clip(bps[:, None] - iv[None, :, 0], 0.0, (iv[:, 1] - iv[:, 0])[None]).sum(1)
            over = np.flatnonzero(cum > AREA_SIGHT_DEPTH)
            if over.size:
                q = over[0]
                slope = max(((bps[q - 1] >= iv[:, 0]) & (bps[q - 1] < iv[:, 1])).sum(), 1)
                cut[r] = bps[q - 1] + (AREA_SIGHT_DEPTH - cum[q - 1]) / slope
        quads = []
        for r in range(nray - 1):
            if np.isfinite(cut[r]) and np.isfinite(cut[r + 1]):
                d0 = np.array([math.cos(phis[r]), math.sin(phis[r])])
                d1 = np.array([math.cos(phis[r + 1]), math.sin(phis[r + 1])])
                quads.append(
                    shapely.Polygon(
                        [E + d0 * cut[r], E + d1 * cut[r + 1], E + d1 * far, E + d0 * far]
                    )
                )
        if not quads:
            return None
        return shapely.union_all(quads, grid_size=_GRID)
