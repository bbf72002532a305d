"""GEM's formation changes (GEM-2.1.3): a block's frontage and a unit's order.

Why apart from movement.py: these change a unit's shape in place instead of moving it
along a path; room.py tries them on a copy to check there is room first.
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState

from ..state import gs, in_melee, is_block, mtype, mv, unit_models
from . import blocks
from .movement import can_move_problems


# ------------------------------------------------------------------ frontage and order
def frontage_problems(state: GameState, unit: str, files: int) -> list[str]:
    """GEM-2.1.3: up to two figures more or fewer on each side, instead of moving."""
    out = []
    if not is_block(state, unit):
        return [f"{unit} is not a block"]
    lead = blocks.live_order(state, unit)[0]
    out += [p for p in can_move_problems(state, unit, lead)]
    rec = blocks.record(state, unit)
    if files == rec["files"]:
        out.append(f"{unit} already has {files} files")
    if abs(files - rec["files"]) > 4:
        out.append(
            f"frontage changes by up to two figures on each side: {rec['files']} "
            f"files can become {max(1, rec['files'] - 4)} to {rec['files'] + 4} "
            f"(GEM-2.1.3)"
        )
    why = blocks.shape_problem(len(blocks.live_order(state, unit)), files)
    if why:
        out.append(why + " (GEM-2.1.2)")
    return out


def change_frontage(state: GameState, ctx: Context, unit: str, files: int) -> None:
    rec = blocks.record(state, unit)
    old = rec["files"]
    front = (float(rec["front"][0]), float(rec["front"][1]))
    blocks.apply_place(state, unit, front, rec["facing"], files)
    for m in blocks.live_order(state, unit):
        mv(m)["frontage"] = True
        mv(m)["moved_done"] = True
    ctx.log.emit(
        "status",
        f"{unit} changes frontage from {old} to {files} files instead of moving (GEM-2.1.3)",
        actor=unit,
        rule="GEM-2.1.3",
    )


def order_problems(state: GameState, unit: str, order: str) -> list[str]:
    """GEM-2.3.4: peltasts switch between block and skirmish order instead of moving."""
    ms = unit_models(state, unit)
    if not ms or any(mtype(m) != "peltast" for m in ms):
        return ["only peltasts change order (GEM-2.3.4)"]
    out = [p for p in can_move_problems(state, unit, ms[0]) if "block" not in p or "melee" not in p]
    if in_melee(state, unit):
        out.append(f"{unit} is in a melee")
    if order not in ("block", "skirmish"):
        out.append("order is 'block' or 'skirmish'")
    elif all(mv(m).get("order") == order for m in ms):
        out.append(f"{unit} is already in {order} order")
    elif order == "block":
        files = max(2, math.ceil(math.sqrt(len(ms))))
        why = blocks.shape_problem(len(ms), files)
        if why:
            out.append(why + " (GEM-2.1.2)")
    return out


def form_block(state: GameState, unit: str) -> None:
    """Form peltasts into a block around their centre, facing as the first does."""
    ms = unit_models(state, unit)
    files = max(2, math.ceil(math.sqrt(len(ms))))
    lead = ms[0]
    ux, uy = math.cos(math.radians(lead.facing)), math.sin(math.radians(lead.facing))
    cx = sum(m.x for m in ms) / len(ms)
    cy = sum(m.y for m in ms) / len(ms)
    w, d = blocks.slot_size(ms)
    depth = (len(ms) // files) * d
    front = (cx + ux * depth / 2, cy + uy * depth / 2)
    for m in ms:
        mv(m)["order"] = "block"
    gs(state).setdefault("blocks", {})[unit] = {
        "files": files,
        "formed": len(ms),
        "order": [m.id for m in ms],
        "front": [front[0], front[1]],
        "facing": lead.facing,
    }
    blocks.apply_place(state, unit, front, lead.facing)


def change_order(state: GameState, ctx: Context, unit: str, order: str) -> None:
    ms = unit_models(state, unit)
    if order == "block":
        form_block(state, unit)
    else:
        for m in ms:
            mv(m)["order"] = "skirmish"
        gs(state).get("blocks", {}).pop(unit, None)
    for m in ms:
        mv(m)["frontage"] = True
        mv(m)["moved_done"] = True
    ctx.log.emit(
        "status",
        f"peltasts {unit} change to {order} order instead of moving (GEM-2.3.4)",
        actor=unit,
        rule="GEM-2.3.4",
    )
