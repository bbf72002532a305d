"""A broken unit's rally: its whole action (SWOMP "Rallying"; SWOMP-I-RALLY).

Why apart: the only verb that belongs to the unit rather than its models.
"""

from __future__ import annotations

from ..actions import Rally
from ..flow import TURNS, finish
from . import core, morale


def check_rally(state, ctx, action: Rally, ms, unit) -> list[str]:
    if any(
        core.act(m)["moves"] or core.act(m)["shot"] or core.act(m)["fought"]
        for m in ms
        if TURNS.current(state) == unit
    ):
        return ["rallying takes the unit's whole action"]
    return morale.rally_problems(state, ctx, unit)


def apply_rally(state, ctx, action: Rally, ms, unit) -> None:
    morale.rally(state, ctx, unit)
    finish(state, ctx)
