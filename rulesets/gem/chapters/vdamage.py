"""Damage to vehicles (GEM-3.2 to GEM-3.4): the location and effect tables, what each
effect does to each system, wrecks, and sudden deceleration.

Why a damage roll is separate from a hit: a hit takes one HIT and then rolls on the
tables (GEM-I-ARM), while a skid or a spreading fire calls for "another damage roll on
the above tables" — the tables alone. ``off`` is carried along so troops inside a wreck
are rolled for with the OFF of the attack that caused the damage.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import d6_check, damage, has, has_driver, max_speed, mv
from . import measure, transport
from .tables import vehicle as vtable


def _frees(word: str) -> Callable[[int, tuple[int, ...]], str]:
    """The outcome of the d6 to free a jammed or wild system: 4+ (GEM-3.3)."""
    return lambda total, _faces: "frees itself" if total >= 4 else "still " + word


def vehicle_hit(state: GameState, ctx: Context, m: Model, off: int) -> None:
    """GEM-3.2: one HIT, then a damage roll on the tables; at 0 HIT it is destroyed."""
    m.hp -= 1
    damage_roll(state, ctx, m, off)
    if m.hp <= 0 and not m.removed:
        destroy(state, ctx, m, off, "its last HIT is gone")


def damage_roll(state: GameState, ctx: Context, m: Model, off: int) -> None:
    """GEM-3.2/3.3: a d6 for the system struck and a d6 for what happens to it."""
    vt = vtable()
    loc = ctx.dice.roll(6, f"{m.id} hit location", actor=m.id, rule="GEM-3.2")
    eff = ctx.dice.roll(6, f"{m.id} damage effect", actor=m.id, rule="GEM-3.3")
    system = vt["location"][loc.total - 1]
    effect = vt["effect"][eff.total - 1]
    ctx.log.emit(
        "resolution",
        f"{m.id} damage roll: location d6 {loc.total} = "
        f"{system.replace('_', ' ')} (GEM-3.2), effect d6 {eff.total} = "
        f"{effect.replace('_', ' ')} (GEM-3.3)",
        actor=m.id,
        rule="GEM-3.2",
        rolls=[loc.total, eff.total],
        outcome=effect,
        data={"system": system, "effect": effect},
    )
    apply_effect(state, ctx, m, system, effect, off)


def _status(ctx: Context, m: Model, text: str, outcome: str = "") -> None:
    ctx.log.emit("status", text, actor=m.id, rule="GEM-3.3", outcome=outcome)


def apply_effect(
    state: GameState, ctx: Context, m: Model, system: str, effect: str, off: int
) -> None:
    """GEM-3.3: what ``effect`` on ``system`` does (see reference.toml for each case)."""
    before = max_speed(m)
    lst = damage(m).setdefault(system, [])
    if effect not in lst:
        lst.append(effect)
    control = system == "central_control"
    if effect == "explodes" or (effect == "torn_off" and system == "main_body"):
        why = "explodes" if effect == "explodes" else "is torn apart"
        destroy(state, ctx, m, off, f"its {system.replace('_', ' ')} {why}")
        return
    if control and has_driver(m):
        _driver_struck(state, ctx, m, effect)
    elif effect == "broken" and system == "main_body":
        frame_roll(state, ctx, m)
    elif effect == "out_of_control" and system in ("left_mobilizer", "right_mobilizer"):
        mv(m)["random_next"] = True
        _status(ctx, m, f"{m.id} will move at a random speed and turn next turn (GEM-3.3)")
    elif effect == "out_of_control" and system == "main_body":
        _status(ctx, m, f"{m.id}'s main body needs no control: the crew is acting funny (GEM-3.3)")
    elif effect == "out_of_control" and control:
        _status(ctx, m, f"{m.id} runs amok for the rest of the game (GEM-3.3)", "out_of_control")
    elif effect == "torn_off" and control:
        _status(ctx, m, f"{m.id}'s controls are torn off: it coasts to a stop (GEM-3.3)")
    elif effect == "on_fire":
        m.set_status("on_fire")
    after = max_speed(m)
    if after < before:
        sudden_deceleration(state, ctx, m, after, off)


def _driver_struck(state: GameState, ctx: Context, m: Model, effect: str) -> None:
    """GEM-3.3 when the central control is a driver: jammed stuns him (he repeats last
    turn), out of control gives him seizures (amok), broken knocks him out and torn off
    takes him off the vehicle (GEM-I-BROKENCONTROL): either way it has no driver and
    coasts until a replacement climbs in (GEM-I-DRIVER). Knocking out a driver with
    seizures ends the seizures: nobody is at the controls."""
    if effect == "jammed":
        m.set_status("stunned_driver")
        _status(ctx, m, f"{m.id}'s driver is stunned: he repeats last turn (GEM-3.3)")
    elif effect == "out_of_control":
        m.set_status("seizures")
        _status(
            ctx,
            m,
            f"{m.id}'s driver has seizures: it runs amok until he is knocked out or killed "
            f"(GEM-3.3)",
            "out_of_control",
        )
    elif effect in ("broken", "torn_off"):
        lose_driver(state, ctx, m, "knocked out" if effect == "broken" else "thrown off")


def lose_driver(state: GameState, ctx: Context, m: Model, how: str) -> None:
    """The vehicle has no driver from now until one is replaced (GEM-3.3)."""
    cc = damage(m).setdefault("central_control", [])
    if "out_of_control" in cc:
        cc.remove("out_of_control")
    m.set_status("seizures", False)
    m.set_status("stunned_driver", False)
    m.set_status("no_driver")
    mv(m)["driver_out"] = state.turn
    fig = mv(m).pop("driver_figure", None)
    if fig and fig in state.models:
        d = state.models[fig]
        mv(d).pop("driving", None)
        d.hp = 0
        d.set_status("driving", False)
        d.set_status("unconscious")
    _status(
        ctx,
        m,
        f"{m.id}'s driver is {how}: it has no driver and coasts; he may be replaced from "
        f"next turn (GEM-3.3)",
        "no_driver",
    )


def frame_roll(state: GameState, ctx: Context, m: Model) -> None:
    """GEM-3.3 broken main body: a d6 now and each turn, 5+ and the frame is broken."""
    if d6_check(ctx, m, f"{m.id} broken main body", 5, "GEM-3.3", "frame broken", "holds"):
        damage(m).setdefault("main_body", []).append("frame_broken")


def destroy(state: GameState, ctx: Context, m: Model, off: int, why: str) -> None:
    """GEM-3.3: the vehicle is gone, its driver out for the game; each trooper inside
    takes a damage roll at the attack's OFF and the survivors climb out of the wreck."""
    from ..state import remove_model

    remove_model(state, m, "destroyed")
    ctx.log.emit("removed", f"{m.id} is destroyed: {why} (GEM-3.3)", actor=m.id, rule="GEM-3.3")
    transport.wreck(state, ctx, m, off)


def sudden_deceleration(
    state: GameState, ctx: Context, m: Model, new_max: float, off: int = 5
) -> None:
    """GEM-3.4 "Sudden deceleration": last turn's speed less ACC; "if the result is zero or
    less" the vehicle slows safely, otherwise it skids that far straight on, spins to a
    d12 clock facing and rolls a d6 per inch (5+: another damage roll on the tables).
    The skid is the physics service's: it stops at the first base or terrain it meets
    head on, or glances off it (the text leaves the motion to the table, never a
    teleport through other figures)."""
    last = float(mv(m).get("speed", 0))
    if new_max >= last:
        return
    excess = last - float(m.stat("ACC", 0))
    if excess <= 0:
        return
    dist = int(math.ceil(excess))
    clock = ctx.dice.roll(
        12, f"{m.id} sudden deceleration: new facing (clock)", actor=m.id, rule="GEM-3.4"
    )
    hit = _skid(state, ctx, m, dist)
    m.facing = (m.facing - (clock.total % 12) * 30.0) % 360.0
    mv(m)["speed"] = new_max
    from .driving import carry

    carry(state, m)
    ctx.log.emit(
        "status",
        f'{m.id} cannot slow safely: skids {dist}"{hit} and spins to {clock.total} '
        f"o'clock (GEM-3.4)",
        actor=m.id,
        rule="GEM-3.4",
        rolls=list(clock.faces),
    )
    for i in range(dist):
        if m.removed:
            return
        if d6_check(ctx, m, f"{m.id} skid inch {i + 1}", 5, "GEM-3.4", "damage", "safe"):
            damage_roll(state, ctx, m, off)


def _skid(state: GameState, ctx: Context, m: Model, dist: float) -> str:
    """Slide the vehicle ``dist`` inches straight on with the physics service's skid (no
    time step, no clock): it stops against the first base, terrain or table edge it
    meets head on and glances off one met at 30 degrees or less (GEM-I-SKID). Returns
    what it met, for the log ("" if nothing)."""
    res = measure.space(ctx, state).skid(m.id, m.facing, dist)
    m.x, m.y = round(float(res.pose[0]), 3), round(float(res.pose[1]), 3)
    return "".join(
        f", glancing off {hid}" if glanced else f", stopped by {hid}"
        for hid, _kind, glanced in res.hits
    )


def start_of_turn(state: GameState, ctx: Context, m: Model) -> None:
    """GEM-3.3 lasting effects: a broken main body rolls each turn (a broken frame is a
    new top speed of 0: GEM-3.4); a fire burns (and may go out, GEM-I-FIRE); jammed
    systems and wild arms may free themselves (GEM-I-UNJAM, GEM-I-ARMS)."""
    if has(m, "main_body", "broken") and not has(m, "main_body", "frame_broken"):
        before = max_speed(m)
        frame_roll(state, ctx, m)
        if max_speed(m) < before:
            sudden_deceleration(state, ctx, m, max_speed(m))
    if m.removed:
        return
    if "on_fire" in m.status:
        _burn(state, ctx, m)
    if m.removed:
        return
    for system, effs in sorted(damage(m).items()):
        wild = system.endswith("_actuator") and "out_of_control" in effs
        if "jammed" not in effs and not wild:
            continue
        word = "jammed" if "jammed" in effs else "out of control"
        r = ctx.dice.roll(
            6,
            f"{m.id} {system.replace('_', ' ')} {word}",
            need="4+",
            actor=m.id,
            rule="GEM-3.3",
            result=_frees(word),
        )
        ctx.log.emit(
            "resolution",
            r.explain() + (" (GEM-I-UNJAM)" if word == "jammed" else " (GEM-I-ARMS)"),
            actor=m.id,
            rule="GEM-3.3",
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        if r.result == "frees itself":
            effs.remove("jammed" if word == "jammed" else "out_of_control")
            if system == "central_control":
                m.set_status("stunned_driver", False)


def _burn(state: GameState, ctx: Context, m: Model) -> None:
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
        damage_roll(state, ctx, m, 5)
