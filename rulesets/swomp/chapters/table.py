"""SWOMP's readings of the table: cover from sight, who is under a blast marker, the cost
of a path through difficult ground.

Why a module: the rules ask a handful of questions in SWOMP's words ("what cover does he
have?", "who is under the marker?", "what does this move cost?"); the measuring itself is
the engine's table service (``ctx.table``: distances, arcs, bearings, sight, terrain
paths), and ``distance``, ``bearing`` and ``in_arc`` below are its own functions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from engine import geometry
from engine.ruleset import Context
from engine.state import Model
from engine.table import Table, distance, footprint, in_arc

SOFT = "soft"
HARD = "hard"
NONE = "none"
#: SWOMP-I-TERRAIN: the inside of difficult ground is read every quarter inch along a
#: move, as fine as a tape measure
SAMPLE = 0.25

bearing = Table.bearing
__all__ = ["HARD", "NONE", "SOFT", "bearing", "distance", "in_arc", "offset", "path_cost"]


#: SWOMP-I-SIGHT-SHARE: a target is sighted when more of its base than this share is
#: in view; at or below it, what shows is the measure's rounding, not a sliver of base
HIDDEN = 1e-9


def sight(
    ctx: Context, observer: Model, target: Model, row: Iterable[Model] = ()
) -> tuple[bool, str]:
    """(visible, cover) where cover is none, soft or hard, read from the terrain the line
    of fire meets (SWOMP reads terrain kinds as units.toml says). Whether the target is
    in view is ``visible``'s share (measured with ``row``, the other models the observer
    may look at, in one batch); the cover of a target in view is the engine's exact
    ``Geometry.sight`` (memoised there, per battlefield)."""
    if not in_view(ctx, observer, target, row):
        return False, NONE
    if not ctx.battlefield.terrain:
        return True, NONE
    s = ctx.table.sight(observer, target)
    if s.hard_cover:
        return True, HARD
    if s.soft_cover:
        return True, SOFT
    return True, NONE


def in_view(ctx: Context, observer: Model, target: Model, row: Iterable[Model] = ()) -> bool:
    """``sight``'s first answer alone: is any of the target's base in view (no cover is
    worked out, which takes the exact measure)?"""
    return not ctx.battlefield.terrain or visible(ctx, observer, target, row) > HIDDEN


def visible(ctx: Context, observer: Model, target: Model, row: Iterable[Model] = ()) -> float:
    """The share of the target's base the observer's eye sees (the engine's batched sight
    matrix, equal to the exact measure to its rounding).

    Why a batch: one observer's row against many targets costs about what a single pair
    does, and the rules ask about every enemy of a shooter or a watcher in turn; so a
    pair not yet known is measured with every model of ``row`` not yet known, and each
    share is remembered per battlefield (``swomp.visible``) under the two bases."""
    memo = ctx.table.memo("swomp.visible")
    fo, ft = footprint(observer), footprint(target)
    hit = memo.get((fo, ft))
    if hit is not None:
        return float(hit)
    batch = [ft]
    for m in row:
        f = footprint(m)
        if m.id != target.id and m.id != observer.id and (fo, f) not in memo:
            batch.append(f)
    shares = ctx.table.geo.visible_row(fo, batch)
    for f, v in zip(batch, shares):
        memo.put((fo, f), float(v))
    return float(shares[0])


def under_marker(
    centre: tuple[float, float], diameter: float, models: Iterable[Model]
) -> list[str]:
    """Models whose base is partly or wholly under a round marker (SWOMP "Blast markers"),
    nearest the centre first (the order their contests are rolled in)."""
    ms = list(models)
    shares: Mapping[str, Any] = geometry.template_hits(
        centre, diameter / 2.0, {m.id: footprint(m) for m in ms}
    )
    hit = {k for k, v in shares.items() if v and v > 0}
    order = sorted((math.dist(centre, m.pos), m.id) for m in ms if m.id in hit)
    return [mid for _, mid in order]


def offset(p: tuple[float, float], direction_deg: float, dist: float) -> tuple[float, float]:
    r = math.radians(direction_deg)
    return (round(p[0] + dist * math.cos(r), 2), round(p[1] + dist * math.sin(r), 2))


def path_cost(ctx: Context, pts: list[tuple[float, float]], difficult: Iterable[str]) -> float:
    """Length of a path, each inch inside difficult ground counted twice (SWOMP-I-TERRAIN;
    overlapping pieces once), read every ``SAMPLE`` inches."""
    return ctx.table.path_cost(pts, dict.fromkeys(difficult, 2.0), sample=SAMPLE)
