"""Taking hits (GEM-1.1 HIT, GEM-2.1.4 casualties from the rear, GEM-3.2 vehicles).

Why one place: missile fire, melee, templates and spells all end in "subtract hits from
HIT; at zero the figure is gone", but a block loses its rearmost figures whichever one
was struck, and a vehicle also rolls for what was hit.
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import gs, is_block, mtype, remove_model
from . import blocks


def apply_hits(
    state: GameState,
    ctx: Context,
    target: Model,
    hits: int,
    *,
    off: int = 5,
    missile: bool = False,
    rule: str = "GEM-2.2.3",
) -> list[str]:
    """Take ``hits`` HIT from the target; returns the ids of figures removed."""
    removed: list[str] = []
    if hits <= 0 or target.removed:
        return removed
    unit = target.unit
    if missile:
        lost = gs(state).setdefault("missile_lost", {})
        before = sum(m.hp for m in state.models.values() if m.unit == unit and not m.removed)
    if is_block(state, unit):
        for _ in range(hits):
            victim = blocks.rear_model(state, unit)
            if victim is None:
                break
            victim.hp -= 1
            if victim.hp <= 0:
                remove_model(state, victim, "slain")
                removed.append(victim.id)
    elif mtype(target) == "vehicle":
        from .vehicles import vehicle_hit

        for _ in range(hits):
            if target.removed:
                break
            vehicle_hit(state, ctx, target, off)
        if target.removed:
            removed.append(target.id)
    else:
        target.hp -= hits
        if target.hp <= 0:
            remove_model(state, target, "slain")
            removed.append(target.id)
    for mid in removed:
        ctx.log.emit("removed", f"{mid} is removed ({rule})", actor=mid, rule=rule)
    if missile:
        after = sum(m.hp for m in state.models.values() if m.unit == unit and not m.removed)
        lost[unit] = lost.get(unit, 0) + (before - after)
    return removed
