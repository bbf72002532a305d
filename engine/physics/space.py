"""The pymunk space of one battlefield: static terrain, synced bases, probes, snapping.

Why a base class: moving, charging and ramming all ask the same yes/no questions (is
this pose clear? does it touch?) of the same space, so they inherit them from here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pymunk

from engine.battlefield import Battlefield, Footprint, base_is_round, base_radius_in
from engine.physics._common import (
    _BACKOFFS,
    _EPS,
    _KIND_RANK,
    _START_OVERLAP,
    CONTACT_TOLERANCE,
    EDGE_IDS,
    IMPASSABLE_KINDS,
    Point,
    Pose,
    _base_key,
    _norm_deg,
    _r2,
    _Tag,
)
from engine.physics.outlines import _local_corners, _world_corners
from engine.polygons import point_in_polygon


def _hashable(base: Any) -> float | tuple[float, float]:
    """A base as a footprint holds it: one read back from JSON as a list is a tuple."""
    return tuple(base) if isinstance(base, list) else base


class _Space:
    """Bookkeeping and probes of :class:`engine.physics.Physics` (see there)."""

    def __init__(
        self,
        battlefield: Battlefield,
        impassable_kinds: Iterable[str] = IMPASSABLE_KINDS,
    ) -> None:
        self.battlefield = battlefield
        self.impassable_kinds = frozenset(impassable_kinds)
        self._space = pymunk.Space()
        self._tags: dict[pymunk.Shape, _Tag] = {}
        self._shapes_by_id: dict[str, list[pymunk.Shape]] = {}
        self._impassable: list[tuple[str, tuple[Point, ...]]] = []
        self._bodies: dict[str, Footprint] = {}
        self._model_shapes: dict[str, pymunk.Shape] = {}
        self._probes: dict[tuple[object, ...], tuple[pymunk.Body, pymunk.Shape]] = {}
        #: answers of ``move`` since the shapes last changed (see ``Physics.move``)
        self._moved: dict[tuple[object, ...], object] = {}
        static = self._space.static_body
        # Impassable polygons become their boundary segments: pymunk polygons are convex
        # hulls, and walls or buildings often are not. A base can only get inside one by
        # crossing its boundary, and placement checks centres with _inside_impassable.
        for feature in battlefield.terrain:
            if feature.kind not in self.impassable_kinds:
                continue
            pts = tuple(feature.polygon)
            self._impassable.append((feature.id, pts))
            for i, a in enumerate(pts):
                b = pts[(i + 1) % len(pts)]
                if math.dist(a, b) > _EPS:
                    self._add_static(pymunk.Segment(static, a, b, 0.0), _Tag("terrain", feature.id))
        #: (bounding box, id, outline): a point outside the box is outside the outline
        self._impassable_boxed = [
            (
                (min(p[0] for p in pts), min(p[1] for p in pts))
                + (max(p[0] for p in pts), max(p[1] for p in pts)),
                fid,
                pts,
            )
            for fid, pts in self._impassable
        ]
        w, h = battlefield.width, battlefield.depth
        corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        for i, eid in enumerate(EDGE_IDS):
            seg = pymunk.Segment(static, corners[i], corners[(i + 1) % 4], 0.0)
            self._add_static(seg, _Tag("edge", eid))

    def _add_static(self, shape: pymunk.Shape, tag: _Tag) -> None:
        self._moved.clear()
        self._space.add(shape)
        self._tags[shape] = tag
        self._shapes_by_id.setdefault(tag.id, []).append(shape)

    def _remove_static(self, shape: pymunk.Shape) -> None:
        self._moved.clear()
        tag = self._tags.pop(shape)
        self._space.remove(shape)
        shapes = self._shapes_by_id[tag.id]
        shapes.remove(shape)
        if not shapes:
            del self._shapes_by_id[tag.id]

    def _put(self, shape: pymunk.Shape, tag: _Tag) -> None:
        """A passing base (the charge packer's trial spots) into the space, tagged. Every
        change of shapes clears ``move``'s memo, here as in ``_add_static``."""
        self._moved.clear()
        self._space.add(shape)
        self._tags[shape] = tag

    def _take(self, shape: pymunk.Shape) -> None:
        """A base ``_put`` in, out again (and ``move``'s memo cleared)."""
        self._moved.clear()
        self._space.remove(shape)
        del self._tags[shape]

    def _world_shape(self, fp: Footprint) -> pymunk.Shape:
        """A base as a shape on the static body, in table coordinates."""
        static = self._space.static_body
        if base_is_round(fp.base):
            return pymunk.Circle(static, base_radius_in(fp.base), offset=(fp.x, fp.y))
        return pymunk.Poly(static, _world_corners(fp))

    def sync(self, bodies: Mapping[str, Footprint]) -> None:
        """Replace the set of model bases (ids -> footprints).

        Only bases that are new or whose footprint changed are rebuilt, in id order.
        Nothing this service reports depends on the order shapes sit in pymunk's index
        (candidates are always ranked by distance, kind and id), so an incremental sync
        answers exactly as a fresh build would.
        """
        new = {}
        for mid in sorted(bodies):
            fp = bodies[mid]
            new[mid] = fp if type(fp) is Footprint else Footprint(*fp)
        if new == self._bodies:
            return  # nothing moved since the last sync (the same bases, the same ids)
        for mid in new:
            if mid in self._shapes_by_id and mid not in self._model_shapes:
                raise ValueError(f"model id {mid!r} is already a terrain or table-edge id")
        for mid in sorted(self._model_shapes):
            if new.get(mid) != self._bodies[mid]:
                self._remove_static(self._model_shapes.pop(mid))
        for mid, fp in new.items():
            if mid not in self._model_shapes:
                shape = self._world_shape(fp)
                self._add_static(shape, _Tag("model", mid))
                self._model_shapes[mid] = shape
        self._bodies = new

    def sync_models(self, models: Sequence[Any]) -> None:
        """``sync`` from the live models themselves (anything with ``id``, ``x``, ``y``,
        ``facing`` and ``base``): the same bases afterwards, but a footprint is built
        only for a model that moved. Why: the rules re-sync before every move, and in
        between usually one model (the last mover) or none has moved; building every
        model's footprint and comparing them all was most of a sync (issue 24). When the
        set of ids changes it is a plain ``sync``."""
        old = self._bodies
        moved: list[Any] = []
        known = len(models) == len(old)
        for m in models:
            fp = old.get(m.id)
            if fp is None:
                known = False
                break
            if fp.x != m.x or fp.y != m.y or fp.facing != m.facing or fp.base != m.base:
                moved.append(m)
        if not known:
            self.sync({m.id: Footprint(m.x, m.y, m.facing, _hashable(m.base)) for m in models})
            return
        if not moved:
            return
        moved.sort(key=lambda m: m.id)
        new = [(m.id, Footprint(m.x, m.y, m.facing, _hashable(m.base))) for m in moved]
        # as ``sync`` does: the changed bases out in id order, then in again in id order
        # (a base's footprint read back as a list equals its tuple: nothing to rebuild)
        new = [(mid, fp) for mid, fp in new if fp != old[mid]]
        if all(base_is_round(fp.base) and fp.base == old[mid].base for mid, fp in new):
            # round bases of the same size only moved: shift each circle in place
            for mid, fp in new:
                shape = self._model_shapes[mid]
                shape.unsafe_set_offset((fp.x, fp.y))
                self._space.reindex_shape(shape)
                old[mid] = fp
            self._moved.clear()
            return
        for mid, _ in new:
            self._remove_static(self._model_shapes.pop(mid))
        for mid, fp in new:
            shape = self._world_shape(fp)
            self._add_static(shape, _Tag("model", mid))
            self._model_shapes[mid] = shape
            old[mid] = fp

    def kind_of(self, id_: str) -> str | None:
        """The kind ("model", "terrain" or "edge") of an id a result reported, or None."""
        shapes = self._shapes_by_id.get(id_)
        return self._tags[shapes[0]].kind if shapes else None

    def footprint(self, mid: str) -> Footprint:
        """The footprint last synced for a model."""
        return self._bodies[mid]

    def _exclude(self, mover: str, ignore: Iterable[str]) -> set[pymunk.Shape]:
        out = {self._model_shapes[mover]}
        for i in ignore:
            out.update(self._shapes_by_id.get(i, ()))
        return out

    def _sorted_tags(self, shapes: Iterable[pymunk.Shape]) -> list[pymunk.Shape]:
        return sorted(shapes, key=lambda s: (_KIND_RANK[self._tags[s].kind], self._tags[s].id))

    def _probe(
        self, base: float | tuple[float, float], pose: Pose, inflate: float = 0.0
    ) -> pymunk.Shape:
        """A query shape for a base at a pose, grown (or, if negative, shrunk) by inflate.

        Cached per (base, inflate) on a body of its own that is never added to the space:
        pymunk's shape_query reads the body's transform, so moving the body is enough.
        """
        key = (_base_key(base), inflate)
        entry = self._probes.get(key)
        if entry is None:
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            if base_is_round(base):
                shape: pymunk.Shape = pymunk.Circle(body, base_radius_in(base) + inflate)
            elif inflate >= 0:
                shape = pymunk.Poly(body, _local_corners(base), radius=inflate)
            else:
                shape = pymunk.Poly(body, _local_corners(base, inflate))
            entry = (body, shape)
            self._probes[key] = entry
        body, shape = entry
        body.position = (pose[0], pose[1])
        body.angle = math.radians(pose[2])
        return shape

    def _blockers(self, probe: pymunk.Shape, exclude: set[pymunk.Shape]) -> list[pymunk.Shape]:
        """Tagged shapes the probe touches or overlaps, in (kind, id) order."""
        hits = [
            info.shape
            for info in self._space.shape_query(probe)
            if info.shape in self._tags and info.shape not in exclude
        ]
        return self._sorted_tags(hits)

    def _clear(
        self, base: float | tuple[float, float], pose: Pose, exclude: set[pymunk.Shape]
    ) -> bool:
        return not self._blockers(self._probe(base, pose), exclude)

    def _touching(
        self, base: float | tuple[float, float], pose: Pose, exclude: set[pymunk.Shape]
    ) -> bool:
        return bool(self._blockers(self._probe(base, pose, CONTACT_TOLERANCE), exclude))

    def _inside_impassable(self, x: float, y: float) -> str | None:
        for (x0, y0, x1, y1), fid, poly in self._impassable_boxed:
            if x0 <= x <= x1 and y0 <= y <= y1 and point_in_polygon(x, y, poly):
                return fid
        return None

    def _on_table(self, x: float, y: float) -> bool:
        return self.battlefield.on_table(x, y) and self._inside_impassable(x, y) is None

    def _tolerated(
        self, base: float | tuple[float, float], pose: Pose, exclude: set[pymunk.Shape]
    ) -> set[pymunk.Shape]:
        """What a base already overlaps where it starts: it may move out of it freely."""
        return set(self._blockers(self._probe(base, pose, -_START_OVERLAP), exclude))

    @staticmethod
    def _grid_candidates(pose: Pose) -> list[Pose]:
        """The 3x3 grid points (0.01 in) around a pose, nearest first (ties: lower x
        step, then lower y step). Each axis's three values are rounded once, not once
        per point: a stop point is settled on every move (issue 24)."""
        x, y = pose[0], pose[1]
        rx, ry, f = _r2(x), _r2(y), _norm_deg(pose[2])
        xs = [_r2(rx + i * 0.01) for i in (-1, 0, 1)]
        ys = [_r2(ry + j * 0.01) for j in (-1, 0, 1)]
        dx = [(cx - x) ** 2 for cx in xs]
        dy = [(cy - y) ** 2 for cy in ys]
        cands = [(dx[i] + dy[j], i, j) for i in range(3) for j in range(3)]
        cands.sort()
        return [(xs[i], ys[j], f) for _, i, j in cands]

    def _settle(
        self,
        base: float | tuple[float, float],
        exact: Pose,
        exclude: set[pymunk.Shape],
        need_touch: bool,
        back: Callable[[float], Pose],
    ) -> tuple[Pose, float]:
        """Round a stop pose to the 0.01 in grid without creating an overlap.

        Returns the pose and how far back along the path (inches) it had to go. With
        need_touch the first choice must also stay within the contact tolerance of
        something, so a blocked base ends touching what blocked it.
        """
        for k in (0.0, *_BACKOFFS):
            pe = exact if k == 0.0 else back(k)
            for cand in self._grid_candidates(pe):
                if not self._on_table(cand[0], cand[1]) or not self._clear(base, cand, exclude):
                    continue
                if need_touch and k == 0.0 and not self._touching(base, cand, exclude):
                    continue
                return cand, k
        start = back(math.inf)
        return (_r2(start[0]), _r2(start[1]), _norm_deg(start[2])), math.inf
