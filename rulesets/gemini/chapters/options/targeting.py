"""``gasr_targeting``: which nearer enemies a shooter may pass over.

Why a switch on the closest-target rule: the core makes a shooter take the closest
enemy it can shoot (GM-TARGET); GASR lets downed fighters and those in cover be
overlooked for a farther enemy in the open, and picks bikes and cavalry out of foot.
"""

from __future__ import annotations

from engine.state import Model

R_TARGET = "GM-GASR-TARGETING"

DOWNED = frozenset({"down", "reeling", "knocked_down", "stunned"})
MOUNTED = ("bike", "cavalry")


def may_pass_over(
    nearer: Model, nearer_in_cover: bool, target: Model, target_in_cover: bool
) -> bool:
    """GM-GASR-TARGETING: a nearer enemy does not bar ``target`` when it is downed, when
    it is in cover and the target is in the open, or when the target is a bike or
    cavalry (picked out among foot)."""
    if DOWNED & set(nearer.status):
        return True
    if nearer_in_cover and not target_in_cover:
        return True
    return (
        target.stats.get("type", "infantry") in MOUNTED
        and nearer.stats.get("type", "infantry") not in MOUNTED
    )


def why_passed(nearer: Model, nearer_in_cover: bool, target: Model) -> str:
    """The reason a nearer enemy was passed over, for the log."""
    if DOWNED & set(nearer.status):
        return f"{nearer.id} is downed ({R_TARGET})"
    if nearer_in_cover:
        return f"{nearer.id} is in cover, {target.id} in the open ({R_TARGET})"
    return f"{target.id} is mounted and picked out ({R_TARGET})"
