"""Moves into cover for the AI's candidate list (SWOMP "Cover"; SWOMP-I-TABLES terrain).

Why a list of its own: the other moves a unit is offered go straight at the nearest
enemy or straight away, so a squad could only find cover by chance, and a +1 or +2 to
its defence (soft or hard cover) is worth more than most shots. A unit moves as one
(every model keeps its offset from the leader), so each spot is tried as a translation
of the whole unit and judged by how many of its models end with a cover piece between
them and the enemy. Plain arithmetic on the terrain's vertices: no sight is measured
here (the shots the agents then sample measure it), so the list stays cheap.
"""

from __future__ import annotations

import math

from engine.actions import Move
from engine.battlefield import base_radius_in
from engine.polygons import closest_point
from engine.ruleset import Context
from engine.state import Model

from .catalog import TERRAIN

#: a model this close (base edge to the piece) with the piece toward the enemy is covered
SNUG = 0.6
#: the gap left between a base and the piece it hides behind
CLEAR = 0.4
#: cover moves offered per unit
OFFERED = 2

Point = tuple[float, float]
Piece = tuple[Point, tuple[Point, ...]]

#: the terrain kinds that give soft or hard cover (SWOMP-I-TABLES)
COVER_KINDS = frozenset(TERRAIN["soft"]) | frozenset(TERRAIN["hard"])


def pieces(ctx: Context) -> list[Piece]:
    """(centroid, polygon) of every terrain piece that gives soft or hard cover (the
    polygons are the table's, cached per battlefield)."""
    out: list[Piece] = []
    for _, f in ctx.table.pieces(COVER_KINDS):
        poly = f.polygon
        if poly:
            out.append(
                ((sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)), poly)
            )
    return out


def covered(p: Point, radius: float, foe: Point, cover: list[Piece]) -> bool:
    """Is a base at p, of this radius, snug against a piece that lies toward the foe?"""
    for _, poly in cover:
        q = closest_point(p, poly)
        gap = math.dist(p, q) - radius
        if gap > SNUG:
            continue
        if (q[0] - p[0]) * (foe[0] - p[0]) + (q[1] - p[1]) * (foe[1] - p[1]) > 0:
            return True
    return False


def behind(piece: Piece, foe: Point, radius: float) -> Point:
    """The spot just behind the piece as the foe sees it, for a base of this radius."""
    (cx, cy), poly = piece
    d = math.dist((cx, cy), foe)
    if d < 1e-9:
        return (cx, cy)
    ux, uy = (cx - foe[0]) / d, (cy - foe[1]) / d
    ext = max((x - cx) * ux + (y - cy) * uy for x, y in poly)
    k = ext + radius + CLEAR
    return (cx + ux * k, cy + uy * k)


def moves(
    ctx: Context, ms: list[Model], actor: str, foe: Model, limit: float, facing: float | None
) -> list[Move]:
    """Up to OFFERED moves of the unit (as one) that put the most of its models in
    cover from ``foe``, each no longer than ``limit``; among equals the shorter move.
    A spot is tried for every model of the unit, since the leader need not be the one
    that reaches it. Legality (difficult ground, the table edge) is ``check``'s.

    Remembered per battlefield (``swomp.cover_moves``) under everything the answer
    reads: a unit that has not moved is offered the same spots at every decision."""
    key = (tuple((m.x, m.y, m.base) for m in ms), actor, foe.pos, limit, facing)
    return list(
        ctx.table.memo("swomp.cover_moves").get_or(
            key, lambda: _moves(ctx, ms, actor, foe, limit, facing)
        )
    )


def _moves(
    ctx: Context, ms: list[Model], actor: str, foe: Model, limit: float, facing: float | None
) -> tuple[Move, ...]:
    cover = pieces(ctx)
    if not cover or not ms:
        return ()
    lead = ms[0]
    fp = foe.pos
    reach = limit + 12.0
    tried: list[tuple[int, float, Point]] = []
    for piece in cover:
        if min(math.dist(m.pos, piece[0]) for m in ms) > reach:
            continue
        for m in ms:
            r = base_radius_in(m.base)
            spot = behind(piece, fp, r)
            tx, ty = spot[0] - m.x, spot[1] - m.y
            length = math.hypot(tx, ty)
            if length > limit or length < 0.5:
                continue
            n = sum(covered((o.x + tx, o.y + ty), base_radius_in(o.base), fp, cover) for o in ms)
            if n:
                tried.append((n, length, (round(lead.x + tx, 2), round(lead.y + ty, 2))))
    tried.sort(key=lambda t: (-t[0], t[1]))
    out: list[Move] = []
    for _, _, to in tried:
        if all(math.dist(to, a.to) > 1.0 for a in out if a.to is not None):
            out.append(Move(actor=actor, to=to, facing=facing))
        if len(out) >= OFFERED:
            break
    return tuple(out)
