"""Vehicles (GEM-3.1 to GEM-3.4): speed changed by ACC, wheels with the speed as radius,
hit location and effect tables, and sudden deceleration.

Why damage is a record per system: GEM's effects depend on which system was struck
(actuator, mobilizer, main body, central control) and some last ("stuck at full
throttle", "frame broken"), so each vehicle keeps ``vars['damage'][system] = [effects]``
and the movement and firing rules read it.
"""

from __future__ import annotations

import math
from typing import Any

from engine.ruleset import Context
from engine.state import GameState, Model

from .combat import Attack, roll_attack
from .gstate import remove_model
from .tables import vehicle as vtable

Point = tuple[float, float]


def damage(m: Model) -> dict[str, list[str]]:
    return m.vars.setdefault("damage", {})


def has(m: Model, system: str, effect: str) -> bool:
    return effect in damage(m).get(system, [])


def amok(m: Model) -> bool:
    return has(m, "central_control", "out_of_control")


def max_speed(m: Model) -> float:
    """MOV, cut by damage: a wheel jammed, broken or torn halves it; a tread or leg in the
    same state leaves only turning in place (GEM-3.3)."""
    top = float(m.stat("MOV", 0))
    for side in ("left_mobilizer", "right_mobilizer"):
        eff = damage(m).get(side, [])
        if any(e in eff for e in ("jammed", "broken", "torn_off")):
            if m.vars.get("mobilizer") == "wheels":
                top = top / 2
            else:
                top = 0.0
    if has(m, "main_body", "frame_broken") or has(m, "central_control", "torn_off"):
        top = 0.0
    return top


def speed_range(m: Model) -> tuple[float, float]:
    """GEM-3.1: this turn's speed is last turn's give or take ACC, within the maximum."""
    last = float(m.vars.get("speed", 0.0))
    acc = float(m.stat("ACC", 0))
    return max(0.0, last - acc), min(max_speed(m), last + acc)


def weapon_problem(m: Model, w: dict[str, Any]) -> str:
    side = w.get("side")
    if side:
        sysname = f"{side}_actuator"
        eff = damage(m).get(sysname, [])
        for e in ("jammed", "broken", "torn_off"):
            if e in eff:
                return (
                    f"{m.id}'s {side} actuator is {e.replace('_', ' ')}: "
                    f"{w.get('name')} cannot fire (GEM-3.3)"
                )
    if has(m, "central_control", "torn_off"):
        return f"{m.id} has lost its controls: no weapons can fire (GEM-3.3)"
    return ""


def may_act(state: GameState, ctx: Context, m: Model, what: str) -> bool:
    """GEM-3.3 jammed main body: a d6 of 3+ to move over half speed, fire, or turn."""
    if not has(m, "main_body", "jammed"):
        return True
    r = ctx.dice.roll(
        6,
        f"{m.id} jammed main body: {what}",
        need="3+",
        actor=m.id,
        rule="GEM-3.3",
        result=lambda t, _f: "works" if t >= 3 else "stalls",
    )
    ctx.log.emit(
        "resolution",
        r.explain(),
        actor=m.id,
        rule="GEM-3.3",
        rolls=list(r.faces),
        chance=4 / 6,
        outcome=str(r.result),
    )
    return r.result == "works"


# ------------------------------------------------------------------ moving
def poses(
    m: Model, speed: float, legs: list[tuple[float, float]]
) -> list[tuple[float, float, float]]:
    """GEM-3.1: straight runs and wheels (arcs whose radius is the speed), then straight
    on for whatever of the speed is left. Each leg is (straight inches, turn degrees,
    positive = left)."""
    x, y, f = m.x, m.y, m.facing
    out = [(x, y, f)]
    left = speed
    r = max(speed, 0.01)
    for straight, turn in legs:
        s = max(0.0, min(straight, left))
        if s > 0:
            x += s * math.cos(math.radians(f))
            y += s * math.sin(math.radians(f))
            left -= s
            out.append((x, y, f))
        arc = r * math.radians(abs(turn))
        if turn and left > 1e-9:
            ang = turn if arc <= left else math.copysign(math.degrees(left / r), turn)
            steps = max(2, int(abs(ang) / 10) + 1)
            cxn = x - r * math.sin(math.radians(f)) * (1 if ang > 0 else -1)
            cyn = y + r * math.cos(math.radians(f)) * (1 if ang > 0 else -1)
            for k in range(1, steps + 1):
                a = f + ang * k / steps
                sgn = 1 if ang > 0 else -1
                px = cxn + r * math.sin(math.radians(a)) * sgn
                py = cyn - r * math.cos(math.radians(a)) * sgn
                out.append((px, py, a % 360.0))
            x, y, f = out[-1]
            left -= r * math.radians(abs(ang))
    if left > 1e-9:
        x += left * math.cos(math.radians(f))
        y += left * math.sin(math.radians(f))
        out.append((x, y, f))
    return out


def drive_problems(
    state: GameState, m: Model, speed: float, legs: list[tuple[float, float]]
) -> list[str]:
    out = []
    if m.vars.get("moved_done"):
        out.append(f"{m.id} has already moved this turn")
    forced = forced_move(m)
    if forced is not None:
        out.append(f"{m.id} is not under control this turn: it moves by itself (GEM-3.3)")
        return out
    lo, hi = speed_range(m)
    if not lo - 1e-9 <= speed <= hi + 1e-9:
        out.append(
            f"speed {speed:g} is outside {lo:g} to {hi:g}: last turn {m.vars.get('speed', 0):g}"
            f" give or take ACC {m.stat('ACC', 0):g}, at most {max_speed(m):g} (GEM-3.1)"
        )
    if (
        has(m, "left_mobilizer", "broken")
        or has(m, "right_mobilizer", "broken")
        or any(has(m, s, "jammed") for s in ("left_mobilizer", "right_mobilizer"))
    ):
        if m.vars.get("mobilizer") != "wheels" and speed > 0:
            out.append(
                f"{m.id}'s {m.vars.get('mobilizer')} are damaged: it may only turn in "
                f"place (GEM-3.3)"
            )
    if has(m, "central_control", "torn_off") and legs:
        out.append(f"{m.id} has no controls and cannot be steered (GEM-3.3)")
    return out


def forced_move(m: Model) -> str | None:
    """Why the vehicle drives itself this turn, or None."""
    if amok(m) or m.vars.get("random_next"):
        return "out of control"
    if has(m, "central_control", "jammed"):
        return "repeats last turn (control jammed)"
    if has(m, "central_control", "torn_off"):
        return "coasting to a stop"
    return None


def drive(
    state: GameState, ctx: Context, m: Model, speed: float, legs: list[tuple[float, float]]
) -> None:
    from .movement import _phys

    ps = poses(m, speed, legs)
    ph = _phys(ctx, state)
    res = ph.sweep(m.id, ps) if len(ps) > 1 else None
    end = res.pose if res else (m.x, m.y, m.facing)
    m.x, m.y, m.facing = float(end[0]), float(end[1]), float(end[2]) % 360.0
    m.vars["last_speed"] = float(m.vars.get("speed", 0.0))
    m.vars["speed"] = float(speed)
    m.vars["moved"] = round(math.dist(ps[0][:2], (m.x, m.y)) if res and res.hit else speed, 3)
    m.vars["moved_done"] = True
    m.vars["last_legs"] = [list(leg) for leg in legs]
    hit = f"; stopped by {res.hit}" if res and res.hit else ""
    ctx.log.emit(
        "move",
        f'{m.id} drives at {speed:g}" with wheels {legs} to '
        f"({m.x:.2f}, {m.y:.2f}) facing {m.facing:.0f}{hit} (GEM-3.1)",
        actor=m.id,
        rule="GEM-3.1",
    )


def auto_drive(state: GameState, ctx: Context, m: Model) -> None:
    """GEM-3.3: out of control (random speed and turn), control jammed (repeat last
    turn), controls torn off (coast: half of last turn's move, no steering)."""
    why = forced_move(m)
    top = float(m.stat("MOV", 0))
    if why == "out of control":
        if m.vars.get("full_throttle"):
            speed = top
        else:
            n = math.ceil(top / 6) if top > 0 else 0
            r = ctx.dice.roll(6, f"{m.id} random speed", n=max(n, 1), actor=m.id, rule="GEM-3.3")
            speed = float(r.total)
            if speed > top:
                m.vars["full_throttle"] = True
                speed = top
                ctx.log.emit(
                    "status",
                    f"{m.id} is stuck at full throttle (GEM-3.3)",
                    actor=m.id,
                    rule="GEM-3.3",
                    rolls=list(r.faces),
                )
        t = ctx.dice.roll(6, f"{m.id} random turn", actor=m.id, rule="GEM-3.3")
        turn = 45.0 if t.total <= 2 else (0.0 if t.total <= 4 else -45.0)
        legs = [(0.0, turn)] if turn else []
        m.vars.pop("random_next", None)
    elif why == "coasting to a stop":
        speed = float(int(float(m.vars.get("speed", 0)) / 2))
        legs = []
    else:
        speed = float(m.vars.get("speed", 0))
        legs = [tuple(x) for x in m.vars.get("last_legs", [])]  # type: ignore[misc]
    drive(state, ctx, m, min(speed, top), legs)  # type: ignore[arg-type]


# ------------------------------------------------------------------ damage
def vehicle_hit(state: GameState, ctx: Context, m: Model, off: int) -> None:
    """GEM-3.2: one HIT, then a d6 for the system struck and a d6 for what happens."""
    m.hp -= 1
    vt = vtable()
    loc = ctx.dice.roll(6, f"{m.id} hit location", actor=m.id, rule="GEM-3.2")
    eff = ctx.dice.roll(6, f"{m.id} damage effect", actor=m.id, rule="GEM-3.3")
    system = vt["location"][loc.total - 1]
    effect = vt["effect"][eff.total - 1]
    ctx.log.emit(
        "resolution",
        f"{m.id} is hit: location d6 {loc.total} = "
        f"{system.replace('_', ' ')} (GEM-3.2), effect d6 {eff.total} = "
        f"{effect.replace('_', ' ')} (GEM-3.3)",
        actor=m.id,
        rule="GEM-3.2",
        rolls=[loc.total, eff.total],
        outcome=effect,
        data={"system": system, "effect": effect},
    )
    apply_effect(state, ctx, m, system, effect, off)
    if m.hp <= 0 and not m.removed:
        destroy(state, ctx, m, off, "its last HIT is gone")


def apply_effect(
    state: GameState, ctx: Context, m: Model, system: str, effect: str, off: int
) -> None:
    before = max_speed(m)
    dmg = damage(m)
    lst = dmg.setdefault(system, [])
    if effect not in lst:
        lst.append(effect)
    if effect == "broken" and system == "main_body":
        frame_roll(state, ctx, m)
    elif effect == "out_of_control":
        if system in ("left_mobilizer", "right_mobilizer"):
            m.vars["random_next"] = True
        elif system == "central_control":
            ctx.log.emit(
                "status",
                f"{m.id} runs amok for the rest of the game (GEM-3.3)",
                actor=m.id,
                rule="GEM-3.3",
                outcome="out_of_control",
            )
    elif effect == "on_fire":
        m.set_status("on_fire")
    elif effect == "torn_off" and system == "main_body":
        destroy(state, ctx, m, off, "its main body is torn apart")
        return
    elif effect == "explodes":
        destroy(state, ctx, m, off, f"its {system.replace('_', ' ')} explodes")
        return
    after = max_speed(m)
    if after < before:
        sudden_deceleration(state, ctx, m, after)


def frame_roll(state: GameState, ctx: Context, m: Model) -> None:
    r = ctx.dice.roll(
        6,
        f"{m.id} broken main body",
        need="5+ breaks the frame",
        actor=m.id,
        rule="GEM-3.3",
        result=lambda t, _f: "frame broken" if t >= 5 else "holds",
    )
    ctx.log.emit(
        "resolution",
        r.explain(),
        actor=m.id,
        rule="GEM-3.3",
        rolls=list(r.faces),
        outcome=str(r.result),
    )
    if r.result == "frame broken":
        damage(m).setdefault("main_body", []).append("frame_broken")


def destroy(state: GameState, ctx: Context, m: Model, off: int, why: str) -> None:
    """The vehicle is gone; each trooper inside takes a damage roll at the attack's OFF."""
    remove_model(state, m, "destroyed")
    ctx.log.emit("removed", f"{m.id} is destroyed: {why} (GEM-3.3)", actor=m.id, rule="GEM-3.3")
    crew = m.vars.get("crew")
    if crew and crew.get("count"):
        a = Attack(off, int(crew.get("DEF", 3)), int(crew["count"]), (), f"troops inside {m.id}")
        hits, faces, txt, chance = roll_attack(ctx, a, actor=m.id, target=m.id, rule="GEM-3.3")
        crew["lost"] = hits
        ctx.log.emit(
            "resolution",
            txt + " (one damage roll per trooper)",
            actor=m.id,
            rule="GEM-3.3",
            rolls=faces,
            chance=float(chance),
            outcome=f"{hits} of {crew['count']} troopers lost",
        )


def sudden_deceleration(state: GameState, ctx: Context, m: Model, new_max: float) -> None:
    """GEM-3.4: last turn's speed less ACC; if still above the new maximum the vehicle
    lurches on that far, spins to a d12 clock facing, and rolls a d6 per inch (5+: another
    damage roll)."""
    excess = float(m.vars.get("speed", 0)) - float(m.stat("ACC", 0)) - new_max
    if excess <= 0:
        return
    dist = int(math.ceil(excess))
    clock = ctx.dice.roll(
        12, f"{m.id} sudden deceleration: new facing (clock)", actor=m.id, rule="GEM-3.4"
    )
    nx = m.x + dist * math.cos(math.radians(m.facing))
    ny = m.y + dist * math.sin(math.radians(m.facing))
    m.x = round(min(max(nx, 0.5), ctx.battlefield.width - 0.5), 3)
    m.y = round(min(max(ny, 0.5), ctx.battlefield.depth - 0.5), 3)
    m.facing = (m.facing - (clock.total % 12) * 30.0) % 360.0
    m.vars["speed"] = new_max
    ctx.log.emit(
        "status",
        f"{m.id} cannot slow safely: skids {dist}\" and spins to {clock.total} o'clock (GEM-3.4)",
        actor=m.id,
        rule="GEM-3.4",
        rolls=list(clock.faces),
    )
    for i in range(dist):
        if m.removed:
            return
        r = ctx.dice.roll(
            6,
            f"{m.id} skid inch {i + 1}",
            need="5+",
            actor=m.id,
            rule="GEM-3.4",
            result=lambda t, _f: "damage" if t >= 5 else "safe",
        )
        ctx.log.emit(
            "resolution",
            r.explain(),
            actor=m.id,
            rule="GEM-3.4",
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        if r.result == "damage":
            vehicle_hit(state, ctx, m, 5)


def start_of_turn(state: GameState, ctx: Context, m: Model) -> None:
    """GEM-3.3 lasting effects: a broken main body rolls each turn; a fire burns (and may
    go out); jammed systems may free themselves (GEM-I-UNJAM)."""
    if has(m, "main_body", "broken") and not has(m, "main_body", "frame_broken"):
        frame_roll(state, ctx, m)
    if "on_fire" in m.status:
        r = ctx.dice.roll(
            6,
            f"{m.id} on fire",
            actor=m.id,
            rule="GEM-3.3",
            result=lambda t, _f: "goes out" if t <= 2 else ("burns" if t <= 4 else "spreads"),
        )
        ctx.log.emit(
            "resolution",
            r.explain() + " (1-2 out, 3-4 burns, 5-6 another damage roll: GEM-I-FIRE)",
            actor=m.id,
            rule="GEM-3.3",
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        if r.result == "goes out":
            m.set_status("on_fire", False)
        elif r.result == "spreads":
            vehicle_hit(state, ctx, m, 5)
    if m.removed:
        return
    for system, effs in sorted(damage(m).items()):
        if "jammed" in effs:
            r = ctx.dice.roll(
                6,
                f"{m.id} {system.replace('_', ' ')} jammed",
                need="4+",
                actor=m.id,
                rule="GEM-3.3",
                result=lambda t, _f: "unjammed" if t >= 4 else "still jammed",
            )
            ctx.log.emit(
                "resolution",
                r.explain() + " (GEM-I-UNJAM)",
                actor=m.id,
                rule="GEM-3.3",
                rolls=list(r.faces),
                outcome=str(r.result),
            )
            if r.result == "unjammed":
                effs.remove("jammed")
