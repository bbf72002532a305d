"""What a vehicle's damage leaves it able to do (GEM-3.1 to GEM-3.3), asked without dice.

Why a record per system: GEM's effects depend on which system was struck (actuator,
mobilizer, main body, central control) and some last ("stuck at full throttle", "frame
broken"), so each vehicle keeps ``vars['damage'][system] = [effects]``; the rules for
driving, firing, arms and drivers all read it here, and ``check`` may ask without
writing anything (``damage_of`` never creates the record).

Vehicle vars: mobilizer ("wheels", "tracks", "legs"), speed and last_speed, damage,
last_legs, random_next, full_throttle, driver (the central control is a driver, as on a
motorcycle), driver_out (turn the driver was lost), driver_figure, capacity, crew.
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import Context
from engine.state import Model

#: effects that put a system out of use (GEM-3.3; torn off mobilizers count as broken,
#: GEM-I-EXPLODE)
DISABLED = ("jammed", "broken", "torn_off")
MOBILIZERS = ("left_mobilizer", "right_mobilizer")


def damage(m: Model) -> dict[str, list[str]]:
    """The damage record, created when missing (only for code that applies effects)."""
    return m.vars.setdefault("damage", {})


def damage_of(m: Model) -> dict[str, list[str]]:
    """The damage record, read-only: an empty one when the vehicle has none yet."""
    return m.vars.get("damage") or {}


def has(m: Model, system: str, effect: str) -> bool:
    return effect in damage_of(m).get(system, [])


def amok(m: Model) -> bool:
    """GEM-3.3: central control out of control: every system runs amok for good."""
    return has(m, "central_control", "out_of_control")


def wheels(m: Model) -> bool:
    return m.vars.get("mobilizer") == "wheels"


def mobilizer_hit(m: Model) -> bool:
    """Is a mobilizer jammed, broken or torn off (GEM-3.3)?"""
    return any(e in damage_of(m).get(s, []) for s in MOBILIZERS for e in DISABLED)


def in_place_only(m: Model) -> bool:
    """GEM-3.3: a tread or leg jammed or broken leaves only turning in place."""
    return mobilizer_hit(m) and not wheels(m)


def wheel_dragging(m: Model) -> bool:
    """GEM-3.3: a jammed or broken wheel halves speed and the turning arc."""
    return mobilizer_hit(m) and wheels(m)


def has_driver(m: Model) -> bool:
    """Is the central control a driver (a rider, as on a motorcycle; GEM-3.3)?"""
    return bool(m.vars.get("driver"))


def driverless(m: Model) -> bool:
    """The driver was lost (knocked out, killed, torn off) and not yet replaced."""
    return m.vars.get("driver_out") is not None


def no_controls(m: Model) -> bool:
    """GEM-3.3: controls torn off (or a driver lost): it coasts, unsteered, unarmed."""
    return has(m, "central_control", "torn_off") or driverless(m)


def max_speed(m: Model) -> float:
    """MOV, cut by damage: a wheel jammed, broken or torn halves it; a tread or leg in the
    same state, or a broken frame, leaves nothing (GEM-3.3). Lost controls do not lower
    it: the vehicle coasts to a stop instead (so no sudden deceleration, GEM-3.4)."""
    top = float(m.stat("MOV", 0))
    if wheel_dragging(m):
        top /= 2
    if in_place_only(m) or has(m, "main_body", "frame_broken"):
        top = 0.0
    return top


def speed_range(m: Model) -> tuple[float, float]:
    """GEM-3.1: this turn's speed is last turn's give or take ACC, within the maximum;
    stuck at full throttle it is the maximum (GEM-3.3)."""
    top = max_speed(m)
    if m.vars.get("full_throttle"):
        return top, top
    last = float(m.vars.get("speed", 0.0))
    acc = float(m.stat("ACC", 0))
    hi = min(top, last + acc)
    return min(max(0.0, last - acc), hi), hi


def turn_radius(m: Model, speed: float | None = None) -> float:
    """GEM-3.1: a wheel's radius is the current speed in inches; a dragging wheel turns
    in half the arc, so its radius is twice the speed (GEM-I-HALFARC); a vehicle limited
    to turning in place pivots (radius 0)."""
    s = float(m.vars.get("speed", 0.0)) if speed is None else float(speed)
    if in_place_only(m):
        return 0.0
    return 2.0 * s if wheel_dragging(m) else s


def actuator_problem(m: Model, side: str) -> str:
    """GEM-3.3 (GEM-I-ARMS): why the arm (actuator) on ``side`` cannot be used, or ""."""
    effs = damage_of(m).get(f"{side}_actuator", [])
    for e in DISABLED + ("out_of_control",):
        if e in effs:
            return f"{m.id}'s {side} actuator (arm) is {e.replace('_', ' ')} (GEM-3.3)"
    return ""


def weapon_problem(m: Model, w: dict[str, Any]) -> str:
    """Why a vehicle may not use weapon ``w``: its arm is out of use, or it has no
    controls ("without controls, no weapons can be fired", GEM-3.3)."""
    side = w.get("side")
    if side:
        why = actuator_problem(m, str(side))
        if why:
            return f"{why}: {w.get('name')} cannot be used"
    if no_controls(m):
        return f"{m.id} has lost its controls: no weapons can be used (GEM-3.3)"
    return ""


def forced_move(m: Model) -> str | None:
    """Why the vehicle drives itself this turn, or None (GEM-3.3)."""
    if no_controls(m):
        return "coasting to a stop"
    if amok(m) or m.vars.get("random_next"):
        return "out of control"
    if has(m, "central_control", "jammed") or has(m, "central_control", "broken"):
        return "repeats last turn (controls jammed)"
    return None


def d6_check(
    ctx: Context, m: Model, purpose: str, need: int, rule: str, yes: str, no: str, note: str = ""
) -> bool:
    """One d6 that succeeds on ``need``+ (the vehicle rolls of GEM-3.3/3.4), logged with
    its exact chance; True when it succeeds. Why one helper: these rolls all read alike
    and each must carry the chance before the roll in its event."""
    from fractions import Fraction

    chance = Fraction(7 - need, 6)
    r = ctx.dice.roll(
        6,
        purpose,
        need=f"{need}+",
        chance=chance,
        actor=m.id,
        rule=rule,
        result=lambda t, _f: yes if t >= need else no,
    )
    ctx.log.emit(
        "resolution",
        r.explain() + note,
        actor=m.id,
        rule=rule,
        rolls=list(r.faces),
        chance=float(chance),
        outcome=str(r.result),
    )
    return r.result == yes
