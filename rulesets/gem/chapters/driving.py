"""Driving a vehicle (GEM-3.1, the movement rules of GEM-3.3): speed within ACC, any
number of wheels whose radius is the speed, pivots in place, and the moves a damaged
vehicle makes by itself.

Why a pose list: the wheel is measured with two tapes, one the speed as radius and one
along the arc; turning that into poses (x, y, facing) lets the physics service sweep the
vehicle's real footprint along the curve and stop it at the first contact.
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import (
    d6_check,
    forced_move,
    has,
    in_place_only,
    max_speed,
    mtype,
    mv,
    speed_range,
    turn_radius,
    wheel_dragging,
)
from . import measure

Leg = tuple[float, float]
Pose = tuple[float, float, float]


def may_act(state: GameState, ctx: Context, m: Model, what: str) -> bool:
    """GEM-3.3 jammed main body: a d6 of 3+ to move over half speed, fire a weapon, use a
    mechanical arm or turn (one roll per action, GEM-I-JAMBODY)."""
    if not has(m, "main_body", "jammed"):
        return True
    return d6_check(
        ctx,
        m,
        f"{m.id} jammed main body: {what}",
        3,
        "GEM-3.3",
        "works",
        "stalls",
        " (jammed main body, GEM-3.3)",
    )


# ------------------------------------------------------------------ the path
def poses(m: Model, speed: float, legs: list[Leg], radius: float | None = None) -> list[Pose]:
    """GEM-3.1: straight runs and wheels, then straight on for whatever of the speed is
    left. Each leg is (straight inches, turn degrees, positive = left). A wheel's radius
    is ``radius`` (default ``turn_radius``: the speed, twice it with a dragging wheel) and
    its distance is measured along the arc, so a wheel longer than the speed left is cut
    short. At radius 0 (speed 0, or a vehicle that may only turn in place) a wheel is a
    pivot that covers no distance (GEM-I-PIVOT)."""
    r = turn_radius(m, speed) if radius is None else radius
    x, y, f = m.x, m.y, m.facing
    out: list[Pose] = [(x, y, f)]
    left = speed
    for straight, turn in legs:
        s = max(0.0, min(straight, left))
        if s > 0:
            x += s * math.cos(math.radians(f))
            y += s * math.sin(math.radians(f))
            left -= s
            out.append((x, y, f))
        if not turn:
            continue
        if r <= 1e-9:
            out += _arc(x, y, f, 0.0, turn)[1:]
            x, y, f = out[-1]
            continue
        if left <= 1e-9:
            continue
        arc = r * math.radians(abs(turn))
        ang = turn if arc <= left else math.copysign(math.degrees(left / r), turn)
        out += _arc(x, y, f, r, ang)[1:]
        x, y, f = out[-1]
        left -= r * math.radians(abs(ang))
    if left > 1e-9:
        x += left * math.cos(math.radians(f))
        y += left * math.sin(math.radians(f))
        out.append((x, y, f))
    return out


def _arc(x: float, y: float, f: float, r: float, ang: float) -> list[Pose]:
    """Poses every 10 degrees or less along an arc of radius ``r`` turning ``ang``."""
    steps = max(2, int(abs(ang) / 10) + 1)
    sgn = 1 if ang > 0 else -1
    cx = x - r * math.sin(math.radians(f)) * sgn
    cy = y + r * math.cos(math.radians(f)) * sgn
    out: list[Pose] = [(x, y, f)]
    for k in range(1, steps + 1):
        a = f + ang * k / steps
        px = cx + r * math.sin(math.radians(a)) * sgn
        py = cy - r * math.cos(math.radians(a)) * sgn
        out.append((px, py, a % 360.0))
    return out


def turns(legs: list[Leg]) -> bool:
    return any(abs(t) > 1e-9 for _, t in legs)


# ------------------------------------------------------------------ may it drive so?
def drive_problems(state: GameState, m: Model, speed: float, legs: list[Leg]) -> list[str]:
    """Every reason the vehicle may not drive at ``speed`` with ``legs`` (no dice)."""
    out = []
    if mv(m).get("moved_done"):
        out.append(f"{m.id} has already moved this turn")
    if forced_move(m) is not None:
        out.append(f"{m.id} is not under control this turn: it moves by itself (GEM-3.3)")
        return out
    lo, hi = speed_range(m)
    if not lo - 1e-9 <= speed <= hi + 1e-9:
        if mv(m).get("full_throttle"):
            out.append(f"{m.id} is stuck at full throttle: speed {hi:g} (GEM-3.3)")
        else:
            out.append(
                f"speed {speed:g} is outside {lo:g} to {hi:g}: last turn "
                f"{mv(m).get('speed', 0):g} give or take ACC {m.stat('ACC', 0):g}, at most "
                f"{max_speed(m):g} (GEM-3.1)"
            )
    if in_place_only(m) and speed > 0:
        out.append(
            f"{m.id}'s {mv(m).get('mobilizer')} are damaged: it may only turn in place (GEM-3.3)"
        )
    for i, (straight, turn) in enumerate(legs):
        if straight < 0 or abs(turn) > 360:
            out.append(f"wheel {i + 1}: straight inches >= 0 and a turn of at most 360 degrees")
            break
    return out


# ------------------------------------------------------------------ driving
def drive(
    state: GameState, ctx: Context, m: Model, speed: float, legs: list[Leg], wild: bool = False
) -> str | None:
    """Sweep the vehicle along its poses; it stops at the first contact. A ``wild`` move
    (out of control, GEM-3.3) is nobody's steering: what it meets it may glance off, and
    it slides on for the rest of its speed (GEM-I-SKID). Returns what stopped it."""
    ps = poses(m, speed, legs)
    ph = measure.space(ctx, state)
    res = ph.sweep(m.id, ps) if len(ps) > 1 else None
    end = res.pose if res else (m.x, m.y, m.facing)
    m.x, m.y, m.facing = float(end[0]), float(end[1]), float(end[2]) % 360.0
    glance = ""
    if wild and res is not None and res.hit:
        gone = sum(math.dist(p[:2], q[:2]) for p, q in zip(ps, ps[1 : res.index + 1]))
        left = speed - gone - math.dist(ps[res.index][:2], (m.x, m.y))
        if left > 0.01:
            sk = measure.space(ctx, state).skid(m.id, m.facing, left)
            if sk.hits and sk.hits[0][0] == res.hit and sk.hits[0][2]:
                m.x, m.y = float(sk.pose[0]), float(sk.pose[1])
                glance = f'; glances off {res.hit}, slides {sk.travelled:g}"' + "".join(
                    f", {'glancing off' if g else 'stopped by'} {h}" for h, _k, g in sk.hits[1:]
                )
    mv(m)["last_speed"] = float(mv(m).get("speed", 0.0))
    mv(m)["speed"] = float(speed)
    mv(m)["moved"] = round(math.dist(ps[0][:2], (m.x, m.y)) if res and res.hit else speed, 3)
    mv(m)["moved_done"] = True
    mv(m)["last_legs"] = [list(leg) for leg in legs]
    carry(state, m)
    hit = glance or (f"; stopped by {res.hit}" if res and res.hit else "")
    r = turn_radius(m, speed)
    how = f' with wheels {legs} (radius {r:g}")' if legs else " straight on"
    half = (
        " (a dragging wheel: half the turning arc, GEM-3.3)" if legs and wheel_dragging(m) else ""
    )
    ctx.log.emit(
        "move",
        f'{m.id} drives at {speed:g}"{how}{half} to ({m.x:.2f}, {m.y:.2f}) facing '
        f"{m.facing:.0f}{hit} (GEM-3.1)",
        actor=m.id,
        rule="GEM-3.1",
        data={"speed": speed, "radius": r},
    )
    return None if glance or res is None else res.hit


def carry(state: GameState, m: Model) -> None:
    """The troops and driver inside go where the vehicle goes."""
    for f in state.models.values():
        if mv(f).get("aboard") == m.id or mv(f).get("driving") == m.id:
            f.x, f.y, f.facing = m.x, m.y, m.facing


def drive_checked(state: GameState, ctx: Context, m: Model, speed: float, legs: list[Leg]) -> None:
    """A player's drive: a jammed main body must roll 3+ to go over half its top speed or
    to turn; failing, it goes straight on at no more than half (GEM-3.3, GEM-I-JAMBODY)."""
    half = max_speed(m) / 2
    if has(m, "main_body", "jammed") and (speed > half + 1e-9 or turns(legs)):
        what = "move over half speed" if speed > half + 1e-9 else "turn"
        if speed > half + 1e-9 and turns(legs):
            what = "move over half speed and turn"
        if not may_act(state, ctx, m, what):
            speed, legs = min(speed, half), []
    start = Model.from_dict(m.to_dict())
    hit = drive(state, ctx, m, speed, legs)
    t = state.models.get(hit or "")
    if t is not None and not t.removed and t.side != m.side:
        into_contact(state, ctx, m, start, t)


def into_contact(state: GameState, ctx: Context, m: Model, start: Model, t: Model) -> None:
    """A vehicle driven into contact with an enemy figure charges it: a melee begins, so
    its hand-to-hand weapons and arms fight in the melee segment, with the charge bonus
    and the zone where the drive began (GEM-2.3, GEM-2.3.3; GEM-I-CONTACT)."""
    from ..state import engage, engagement, unit_models
    from .measure import zone_of
    from .morale import contact_fear

    if engagement(state, m.unit, t.unit):
        return
    zone = zone_of(unit_models(state, t.unit), [start], t.facing)
    mv(m)["charged"] = True
    engage(state, m.unit, t.unit, zone, True)
    ctx.log.emit(
        "status",
        f"{m.id} drives into contact with {t.id}: a melee begins, attacking from its "
        f"{zone if zone != 'none' else 'front'} (GEM-2.3, GEM-I-CONTACT)",
        actor=m.unit,
        target=t.unit,
        rule="GEM-2.3",
        data={"zone": zone},
    )
    contact_fear(state, ctx, attacker=m.unit, defender=t.unit, zone=zone)


def auto_drive(state: GameState, ctx: Context, m: Model) -> None:
    """GEM-3.3: out of control (random speed and turn), controls jammed or broken (repeat
    last turn), no controls (coast: half of last turn's move rounded down, unsteered)."""
    why = forced_move(m)
    top = max_speed(m)
    if why == "out of control":
        speed = _random_speed(ctx, m, top)
        t = ctx.dice.roll(6, f"{m.id} random turn", actor=m.id, rule="GEM-3.3")
        turn = 45.0 if t.total <= 2 else (0.0 if t.total <= 4 else -45.0)
        word = {45.0: "left", 0.0: "straight on", -45.0: "right"}[turn]
        ctx.log.emit(
            "resolution",
            f"{m.id} random turn: d6 {t.total} = {word} (1-2 left, 3-4 straight, 5-6 right; "
            f"a 45 degree wheel, GEM-I-RANDOMTURN) (GEM-3.3)",
            actor=m.id,
            rule="GEM-3.3",
            rolls=list(t.faces),
            outcome=word,
        )
        legs: list[Leg] = [(0.0, turn)] if turn else []
        mv(m).pop("random_next", None)
        drive(state, ctx, m, speed, legs, wild=True)
        return
    elif why == "coasting to a stop":
        speed = float(int(float(mv(m).get("speed", 0)) / 2))
        legs = []
    else:
        speed = min(float(mv(m).get("speed", 0)), top)
        legs = [(float(a), float(b)) for a, b in mv(m).get("last_legs", [])]
    drive(state, ctx, m, speed, legs)


def no_order(state: GameState, ctx: Context, side: str) -> None:
    """GEM-3.1 "can only change their last turns movement by their ACC factor": a vehicle
    of ``side`` given no drive order this movement segment slows as hard as it may,
    straight on (to last turn's speed less ACC); one that may stop stops, so its speed is
    0 (GEM-I-NOORDER). Never standing still at speed 14."""
    for m in sorted(state.live(side), key=lambda f: f.id):
        if mtype(m) != "vehicle" or mv(m).get("moved_done") or forced_move(m):
            continue
        if mv(m).get("aboard") or m.removed:
            continue
        lo, _hi = speed_range(m)
        if lo <= 1e-9:
            if float(mv(m).get("speed", 0.0)) > 0:
                mv(m)["last_speed"] = float(mv(m).get("speed", 0.0))
                mv(m)["speed"] = 0.0
            continue
        ctx.log.emit(
            "status",
            f'{m.id} was given no drive order: it slows as hard as it may, to {lo:g}" '
            f"straight on (GEM-3.1, GEM-I-NOORDER)",
            actor=m.id,
            rule="GEM-3.1",
        )
        drive(state, ctx, m, lo, [])


def _random_speed(ctx: Context, m: Model, top: float) -> float:
    """GEM-3.3: top speed / 6 rounded up d6; over the top speed it is stuck at full
    throttle for the rest of the game."""
    if mv(m).get("full_throttle") or top <= 0:
        return top
    n = math.ceil(top / 6)
    r = ctx.dice.roll(6, f"{m.id} random speed", n=n, actor=m.id, rule="GEM-3.3")
    stuck = r.total > top
    ctx.log.emit(
        "resolution",
        f"{m.id} random speed: {n}d6 = {r.total}"
        + (f' > top speed {top:g}": stuck at full throttle' if stuck else '"')
        + " (GEM-3.3)",
        actor=m.id,
        rule="GEM-3.3",
        rolls=list(r.faces),
        outcome="full throttle" if stuck else str(r.total),
    )
    if stuck:
        mv(m)["full_throttle"] = True
        return top
    return float(r.total)
