"""Block infantry formations (GEM-2.1.2, GEM-2.1.3, GEM-2.1.4).

How a block is represented (designer's interpretation GEM-I-BLOCK): one model per figure,
all sharing a ``unit``; the formation record in ``gs(state)["blocks"][unit]``
holds the number of files, how many figures it had when last formed, and the models in
slot order (front rank left to right, then the ranks behind). Positions follow from the
front-centre point, the facing and the files, so a block moves, wheels and changes
frontage as a whole (actor = the unit id). Casualties are always taken from the rear of
that order, so the live models are the first ones and ranks can be counted exactly.
"""

from __future__ import annotations

import math
from typing import Any

from engine.battlefield import base_size_in
from engine.state import GameState, Model

from ..state import gs, roster_memo, unit_models

Point = tuple[float, float]
GAP = 0.02


def record(state: GameState, unit: str) -> dict[str, Any]:
    return gs(state)["blocks"][unit]


def slot_size(models: list[Model]) -> tuple[float, float]:
    """(width, depth) in inches of one slot: the largest base in the block, with a
    hair's gap (GAP) so neighbouring bases touch without overlapping."""
    w = max(base_size_in(m.base)[0] for m in models)
    d = max(base_size_in(m.base)[1] for m in models)
    return w + GAP, d + GAP


def unit_slot(state: GameState, unit: str) -> tuple[float, float]:
    """``slot_size`` of all the unit's models, removed ones included: the size its slots
    keep all game (bases never change), so it is worked out once per roster."""
    memo = roster_memo(state)
    key = ("slot", unit)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = slot_size(unit_models(state, unit, live=False))
    return hit


def derive(models: list[Model]) -> dict[str, Any]:
    """Read a block's formation from where its models stand (scenario start).

    The front rank is the models level with the most forward one (within half a slot);
    files = its size; the order is by rank (front first), then left to right.
    """
    facing = models[0].facing
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    lx, ly = -uy, ux
    w, d = slot_size(models)
    fwd = {m.id: m.x * ux + m.y * uy for m in models}
    lat = {m.id: m.x * lx + m.y * ly for m in models}
    top = max(fwd.values())
    rank_of = {m.id: int(round((top - fwd[m.id]) / d)) if d else 0 for m in models}
    order = sorted(models, key=lambda m: (rank_of[m.id], -lat[m.id], m.id))
    files = sum(1 for m in models if rank_of[m.id] == 0)
    front = [m for m in models if rank_of[m.id] == 0]
    cl = sum(lat[m.id] for m in front) / len(front)
    cf = top + d / 2
    cx, cy = cf * ux + cl * lx, cf * uy + cl * ly
    return {
        "files": files,
        "formed": len(models),
        "order": [m.id for m in order],
        "front": [round(cx, 4), round(cy, 4)],
        "facing": facing,
    }


def shape_problem(n: int, files: int) -> str:
    """'' when n figures in ``files`` files make a legal block (GEM-2.1.2): at least two
    full ranks deep and at least as wide as deep (stragglers are not a rank)."""
    if files < 1:
        return "a block needs at least one file"
    full = n // files
    if full < 2:
        return f"a block must be at least 2 ranks deep ({n} figures in {files} files make {full})"
    if files < full:
        return f"a block must be at least as wide as it is deep ({files} files, {full} ranks)"
    return ""


def layout(front: Point, facing: float, n: int, files: int, w: float, d: float) -> list[Point]:
    """Slot centres for n figures: full ranks behind the front-centre point, stragglers
    centred in the partial rear rank."""
    ux, uy = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    lx, ly = -uy, ux
    out = []
    for i in range(n):
        r, f = divmod(i, files)
        in_rank = min(files, n - r * files)
        lat = ((in_rank - 1) / 2 - f) * w
        back = (r + 0.5) * d
        out.append((front[0] - back * ux + lat * lx, front[1] - back * uy + lat * ly))
    return out


def live_order(state: GameState, unit: str) -> list[Model]:
    rec = record(state, unit)
    return [state.models[i] for i in rec["order"] if not state.models[i].removed]


def ranks(state: GameState, unit: str) -> int:
    """GEM-2.1.4: ranks counted with casualties taken from the rear; a rank that was full
    when formed counts while it keeps half or more of its figures."""
    rec = record(state, unit)
    files = rec["files"]
    full = rec["formed"] // files
    alive = len(live_order(state, unit))
    count = 0
    for r in range(full):
        in_rank = max(0, min(files, alive - r * files))
        if in_rank * 2 >= files:
            count += 1
    return count


def rank_models(state: GameState, unit: str, r: int) -> list[Model]:
    """The live figures of rank ``r`` (0 = front)."""
    files = record(state, unit)["files"]
    return live_order(state, unit)[r * files : (r + 1) * files]


def front_rank(state: GameState, unit: str) -> list[Model]:
    return rank_models(state, unit, 0)


def rear_model(state: GameState, unit: str) -> Model | None:
    order = live_order(state, unit)
    return order[-1] if order else None


def place(
    state: GameState, unit: str, front: Point, facing: float, files: int | None = None
) -> list[tuple[Model, Point]]:
    """Where each live figure stands if the block's front centre is at ``front``."""
    ms = live_order(state, unit)
    rec = record(state, unit)
    files = files or rec["files"]
    w, d = unit_slot(state, unit)
    pts = layout(front, facing, len(ms), files, w, d)
    return list(zip(ms, pts, strict=True))


def apply_place(
    state: GameState, unit: str, front: Point, facing: float, files: int | None = None
) -> None:
    rec = record(state, unit)
    for m, (x, y) in place(state, unit, front, facing, files):
        m.x, m.y, m.facing = round(x, 4), round(y, 4), facing % 360.0
    if files is not None and files != rec["files"]:
        rec["files"] = files
        rec["formed"] = len(live_order(state, unit))
    rec["front"] = [round(front[0], 4), round(front[1], 4)]
    rec["facing"] = facing % 360.0


def frontage_width(state: GameState, unit: str) -> float:
    ms = live_order(state, unit)
    w, _ = unit_slot(state, unit)
    return min(len(ms), record(state, unit)["files"]) * w
