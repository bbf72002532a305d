"""Vehicles: hit locations, the damage table by remaining HP, explosions, speed,
turning and control tests (SWOMP "Vehicles").

Why apart: a vehicle is a model whose HP live in locations, whose DR bonus is its speed
and whose movement is a speed it can only change by its acceleration. Shooting, close
combat and ramming all hand their damage here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from engine.polygons import angle_diff
from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import contest, core, hatch, table
from .catalog import CONTROL, DAMAGE, EXPLOSION

R_DAMAGE = "SWOMP-VEH-DAMAGE"
R_MOVE = "SWOMP-VEH-MOVE"
R_CONTROL = "SWOMP-VEH-CONTROL"


#: a blast marker's procedure (``shooting.blast``: every model under it contests the
#: Blast Rating), passed in because its contests damage the vehicles under the marker,
#: so shooting reads this chapter and this chapter cannot import shooting
Blast = Callable[..., None]


def speed(v: Model) -> float:
    return float(mv(v).get("speed", 0.0))


def accel(v: Model) -> float:
    """How much a vehicle may speed up in one action: 1 x MR (2 x where its card says)."""
    a = float(mv(v)["veh"].get("accel", 1)) * core.mr(v)
    if "half_acc" in mv(v).get("effects", []):
        a /= 2
    return a


def decel(v: Model) -> float:
    d = core.mr(v)
    if "half_acc" in mv(v).get("effects", []):
        d /= 2
    return d


def speed_range(v: Model) -> tuple[float, float]:
    """The speeds a vehicle may move at this action (SWOMP "Movement, turning and
    acceleration"): from its speed less 1 x MR to its speed plus its acceleration."""
    if "immobile" in mv(v).get("effects", []):
        return 0.0, 0.0
    s = speed(v)
    top = float(mv(v)["veh"].get("top", 30))
    return max(0.0, s - decel(v)), min(top, s + accel(v))


def turn_allowance(v: Model, spd: float) -> float:
    """Degrees of heading change allowed in one move at ``spd`` (SWOMP-I-TURNS)."""
    m = max(core.mr(v), 1.0)
    for mult, deg in CONTROL["turn_bands"]:
        if spd <= mult * m + 1e-9:
            return float(deg)
    return float(CONTROL["turn_bands"][-1][1])


def turn_radius(v: Model, spd: float | None = None) -> float:
    """The radius in inches of the tightest steady turn at ``spd`` (default: the
    vehicle's speed), for the window's turning arcs (SWOMP-I-TURN-RADIUS): a move of
    ``spd`` inches that spends its whole allowance turning evenly is an arc of length
    ``spd`` through that many degrees, so r = spd / allowance in radians. Stopped (or
    immobile), it has no arc: 0."""
    s = speed(v) if spd is None else float(spd)
    if s <= 0 or "immobile" in mv(v).get("effects", []):
        return 0.0
    return s / math.radians(turn_allowance(v, s))


def heading_change(facing: float, pts: list[tuple[float, float]]) -> float:
    """Total turning along a path: from the facing to each leg's heading in turn."""
    total, h = 0.0, facing
    for a, b in zip(pts, pts[1:]):
        if math.dist(a, b) < 1e-9:
            continue
        nh = table.bearing(a, b)
        total += angle_diff(nh, h)
        h = nh
    return total


def control_need(v: Model, excess_deg: float) -> int:
    """Control test (SWOMP-I-CONTROL): a d10 at or under SR, less 1 per started 45
    degrees of turning beyond the allowance, keeps control."""
    per = float(CONTROL["per_excess_deg"])
    return core.stat(v, "SR") - max(1, math.ceil(excess_deg / per - 1e-9))


def control_test(
    state: GameState, ctx: Context, v: Model, why: str, need: int, blast: Blast
) -> str:
    """Roll a control test; on a failure roll on the out-of-control table and apply it
    (a crash damages the vehicle: ``blast`` as for ``damage``). Returns the
    out-of-control result word, or "" when control is kept."""
    p = contest.d10_under(need)
    r = ctx.dice.roll(
        10,
        f"control test ({why})",
        need=f"{need} or less",
        chance=p,
        actor=v.id,
        rule=R_CONTROL,
        result=lambda t, f: "kept" if f[0] <= need else "lost",
    )
    ctx.log.emit(
        "resolution",
        f"{v.id} control test ({why}): d10 rolled {r.faces[0]}, needs "
        f"{need} or less: control {r.result}",
        actor=v.id,
        rule=R_CONTROL,
        chance=float(p),
        rolls=list(r.faces),
        outcome=str(r.result),
    )
    if r.result == "kept":
        return ""
    t = ctx.dice.roll(10, "out of control", actor=v.id, rule=R_CONTROL)
    word = CONTROL["out_of_control"][t.faces[0] - 1]
    text = {
        "skid": "skids: it loses its turn and its speed drops by 1 x MR",
        "spin": "spins: it ends facing the way it came and stops",
        "stall": "stalls: its speed drops to 0",
        "crash": "crashes: it stops and takes 1 damage",
    }[word]
    ctx.log.emit(
        "status",
        f"{v.id} is out of control (d10 {t.faces[0]}): {text}",
        actor=v.id,
        target=v.id,
        rule=R_CONTROL,
        rolls=list(t.faces),
        outcome=word,
    )
    if word == "skid":
        mv(v)["speed"] = max(0.0, speed(v) - core.mr(v))
    elif word == "spin":
        v.facing = (v.facing + 180.0) % 360.0
        mv(v)["speed"] = 0.0
    elif word == "stall":
        mv(v)["speed"] = 0.0
    else:
        mv(v)["speed"] = 0.0
        damage(state, ctx, v, 1, None, "crash", v.id, blast)
    return word


# --- damage ---------------------------------------------------------------------------


def band(location: str, left: int, full: int) -> dict[str, Any]:
    """The damage-table row for a location with ``left`` of ``full`` HP remaining."""
    share = left / full if full else 0.0
    rows = sorted(DAMAGE[location], key=lambda r: r["upto"])
    for r in rows:
        if share <= r["upto"] + 1e-9:
            return r
    return rows[-1]


def roll_location(ctx: Context, v: Model, actor: str, why: str = "hit location") -> str:
    tab = mv(v)["veh"]["hit_table"]
    r = ctx.dice.roll(
        10, f"{why} on {v.id}", actor=actor, rule=R_DAMAGE, result=lambda t, f: tab[f[0] - 1]
    )
    loc = str(r.result)
    ctx.log.emit(
        "note",
        f"hit location on {v.id}: d10 rolled {r.faces[0]}: {loc}",
        actor=actor,
        target=v.id,
        rule=R_DAMAGE,
        rolls=list(r.faces),
        outcome=loc,
    )
    return loc


def damage(
    state: GameState,
    ctx: Context,
    v: Model,
    dmg: int,
    location: str | None,
    why: str,
    actor: str,
    blast: Blast,
) -> None:
    """Damage a vehicle location (rolled on its hit table unless called) and apply the
    damage table's result for the HP that location has left (SWOMP "Shooting at
    vehicles"): its text, its effects, its explosion and systems rolls. ``blast`` is the
    blast marker's procedure (``shooting.blast``) an explosion sets off."""
    if v.removed or dmg <= 0:
        return
    if location is None:
        location = roll_location(ctx, v, actor)
    if location in mv(v).get("crew_out", []):
        ctx.log.emit(
            "status",
            f"{v.id}'s {location} is empty (its crewman jumped out): no effect",
            actor=actor,
            target=v.id,
            rule=R_DAMAGE,
            outcome=location,
        )
        return
    full = int(mv(v)["veh"]["locations"][location])
    locs = mv(v)["loc"]
    before = int(locs[location])
    left = max(0, before - dmg)
    locs[location] = left
    v.hp = sum(int(x) for x in locs.values())
    if left <= 0:
        hatch.killed_in(state, ctx, v, location, actor)
    row = band(location, left, full)
    pct = round(100 * left / full) if full else 0
    ctx.log.emit(
        "status",
        f"{v.id} {location} takes {dmg} damage ({why}): {left} of {full} "
        f"HP left ({pct}%): {row['text']}",
        actor=actor,
        target=v.id,
        rule=R_DAMAGE,
        outcome=location,
        data={"location": location, "left": left, "result": row["text"]},
    )
    v.set_status("damaged")
    effects = mv(v).setdefault("effects", [])

    def add(e: str) -> None:
        if e not in effects:
            effects.append(e)
            effects.sort()

    for key in ("half_mr", "half_acc", "immobile", "weapons_lost", "crew_out", "turret_lost"):
        if row.get(key):
            add(key)
    if row.get("weapon_penalty"):
        mv(v)["wpen"] = max(int(mv(v).get("wpen", 0)), int(row["weapon_penalty"]))
    if "immobile" in effects:
        mv(v)["speed"] = 0.0
    if row.get("explode_on"):
        n = int(row["explode_on"])
        p = contest.d10_under(n)
        r = ctx.dice.roll(
            10,
            f"explosion ({v.id})",
            need=f"{n} or less",
            chance=p,
            actor=v.id,
            rule=R_DAMAGE,
            result=lambda t, f: "explodes" if f[0] <= n else "holds",
        )
        ctx.log.emit(
            "resolution",
            f"{v.id} rolls for explosion: d10 rolled {r.faces[0]}, "
            f"explodes on {n} or less: {r.result}",
            actor=v.id,
            target=v.id,
            rule=R_DAMAGE,
            chance=float(p),
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        if r.result == "explodes":
            explode(state, ctx, v, blast)
            return
    for system, n in dict(row.get("systems", {})).items():
        p = contest.d10_under(int(n))
        r = ctx.dice.roll(
            10,
            f"systems damage ({system})",
            need=f"{n} or less",
            chance=p,
            actor=v.id,
            rule=R_DAMAGE,
            result=contest.under_word(int(n), "fails", "holds"),
        )
        ctx.log.emit(
            "resolution",
            f"{v.id} systems damage: d10 rolled {r.faces[0]}, weapon "
            f"{system} fail on {n} or less: {r.result}",
            actor=v.id,
            target=v.id,
            rule=R_DAMAGE,
            chance=float(p),
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        if r.result == "fails":
            add(system)
    if row.get("wrecked") and not v.removed:
        core.remove(state, ctx, v, f"{location} destroyed: wrecked", R_DAMAGE, actor)


def explode(state: GameState, ctx: Context, v: Model, blast: Blast) -> None:
    """The vehicle blows up: it is removed, and everything under a marker centred on it
    contests the explosion's Blast Rating (SWOMP vehicle damage table)."""
    core.remove(state, ctx, v, "exploded", R_DAMAGE, v.id)
    blast(
        state,
        ctx,
        v,
        v.pos,
        {
            "name": "explosion",
            "BR": EXPLOSION["BR"],
            "Dam": EXPLOSION["Dam"],
            "blast": EXPLOSION["blast"],
        },
        exclude=(v.id,),
        rule=R_DAMAGE,
    )


def weapon_usable(v: Model, w: dict) -> str:
    """'' if a vehicle's weapon can fire, else why not."""
    if "weapons_lost" in mv(v).get("effects", []):
        return f"{v.id}'s weapons are out of action"
    from .vehicle_cc import turret_silent

    return turret_silent(v, w)
