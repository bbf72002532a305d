"""The spells in effect this turn (GEM-3.5.4, GEM-I-SPELLS): what the magic segment's
cards did to a unit, as the other chapters read it — a point of MOV per power level for
movement, OFF and DEF for melee, a morale modifier, a to-hit modifier for missile fire.

Why apart from magic.py: movement, melee, morale and missile fire read these effects,
and magic itself rolls attacks and morale checks; reading them from magic.py tied those
chapters into one import cycle with it.
"""

from __future__ import annotations

from engine.dice import Modifier
from engine.state import GameState, Model

from ..state import gs


def effects(state: GameState, unit: str) -> dict[str, int]:
    """The effects cast on ``unit`` this turn (none once the turn has moved on)."""
    mg = gs(state).get("magic")
    if not mg or mg.get("turn") != state.turn:
        return {}
    found: dict[str, int] = mg.get("effects", {}).get(unit, {})
    return found


def mov_bonus(state: GameState, unit: str) -> float:
    return float(effects(state, unit).get("mov", 0))


def off_bonus(state: GameState, unit: str) -> int:
    return int(effects(state, unit).get("off", 0))


def def_bonus(state: GameState, unit: str) -> int:
    return int(effects(state, unit).get("def", 0))


def morale_bonus(state: GameState, unit: str) -> list[Modifier]:
    v = int(effects(state, unit).get("morale", 0))
    return [Modifier(v, "Peace of Jude", "GEM-3.5.4")] if v else []


def target_bonus(state: GameState, t: Model) -> list[Modifier]:
    v = int(effects(state, t.unit).get("to_hit", 0))
    return [Modifier(v, "Eye of Smaug on the target", "GEM-3.5.4")] if v else []
