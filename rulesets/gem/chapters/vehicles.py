"""Vehicles (GEM-3.1 to GEM-3.4): the one name the other rules import.

Why a facade: the vehicle rules are split by job — what damage leaves a vehicle able to
do (state.py), driving and the moves it makes by itself (driving), the damage tables,
wrecks and skids (vdamage), and the troops and drivers inside (transport) — while
missile fire, melee, the dispatcher and the tests keep asking ``vehicles.<rule>``.
"""

from __future__ import annotations

from ..state import (
    actuator_problem,
    amok,
    damage,
    damage_of,
    forced_move,
    has,
    max_speed,
    speed_range,
    turn_radius,
    weapon_problem,
)
from .driving import (
    auto_drive,
    drive,
    drive_checked,
    drive_problems,
    may_act,
    no_order,
    poses,
)
from .vdamage import (
    apply_effect,
    damage_roll,
    destroy,
    frame_roll,
    start_of_turn,
    sudden_deceleration,
    vehicle_hit,
)

__all__ = [
    "actuator_problem",
    "amok",
    "apply_effect",
    "auto_drive",
    "no_order",
    "damage",
    "damage_of",
    "damage_roll",
    "destroy",
    "drive",
    "drive_checked",
    "drive_problems",
    "forced_move",
    "frame_roll",
    "has",
    "max_speed",
    "may_act",
    "poses",
    "speed_range",
    "start_of_turn",
    "sudden_deceleration",
    "turn_radius",
    "vehicle_hit",
    "weapon_problem",
]
