"""The SWOMP round: initiative, alternating unit actions, and check/apply per verb.

Why this shape: SWOMP's round is "roll a d10 for initiative, then alternate choosing a
unit and playing out one action until every unit has acted" (SWOMP "Game Sequence"),
which is ``engine.turns.Alternating``. A unit's action is what its models do between
its first act and ``end_activation``: each model may move and shoot within the limits
of the action it is taking (Move, Move and Shoot, Shoot and Move, Shoot), fight or
retreat, go on overwatch, or wait. Reactions are pending decisions (reactions.py) that
``to_act`` hands to the side owing them: overwatch fire when enemy models end a move in
view (SWOMP-I-OVERWATCH), the defender's -2 retreat before each close combat round
(SWOMP-I-RETREAT), an exposed gunner jumping out (SWOMP-I-VEH-CC); what the interrupted
action still has to roll waits as a continuation. With the deployment option, the
round is preceded by deployment (deploy.py).
"""

from __future__ import annotations

import math
from typing import Any

from engine.actions import (
    Action,
    Charge,
    Choose,
    Concede,
    EndActivation,
    EndPhase,
    EndTurn,
    Fight,
    Move,
    Shoot,
    Turn,
)
from engine.dice import percent
from engine.ruleset import Context, Legality, Odds
from engine.state import GameState, Model
from engine.turns import Alternating, roll_off

from . import (
    contest,
    core,
    deploy,
    melee,
    morale,
    reach,
    reactions,
    shooting,
    table,
    vehicle_cc,
    vehicles,
)
from .actions import ClearJam, Deploy, Overwatch, Rally, Ram, Retreat, SwompCharge, Wait
from .catalog import TERRAIN

TURNS = Alternating()

R_ROUND = "SWOMP-ROUND"
R_ACTIONS = "SWOMP-ACTIONS"
R_HEAVY = "SWOMP-HEAVY"
R_OVERWATCH = "SWOMP-OVERWATCH"
R_VICTORY = "SWOMP-VICTORY"
R_JAM = "SWOMP-JAM"
R_RAM = "SWOMP-RAM"
R_BROKEN = "SWOMP-BROKEN"

SHOOT_OPTIONS = ("then_move", "second", "second_target", "fire", "targets", "location")
EPS = 1e-6


# --- turn structure -----------------------------------------------------------------------

def setup(state: GameState, ctx: Context, first: str | None) -> None:
    core.sw(state)
    morale.setup(state)
    for m in state.models.values():
        core.act(m)  # every record exists from the start: check() must never create state
    if deploy.wanted(state):
        deploy.start(state, ctx, first)
        return
    new_round(state, ctx, first)


def new_round(state: GameState, ctx: Context, first: str | None = None) -> None:
    """Initiative (SWOMP "Game Sequence"): every side rolls a d10, ties reroll, highest
    first; with more than two sides, play goes from highest to lowest."""
    sides = [s for s in state.sides if state.live(s)]
    if first:
        order = [first] + [s for s in sides if s != first]
    else:
        order = roll_off(ctx.dice, sides, 10, rule=R_ROUND, log=ctx.log)
    TURNS.start_round(state, order)
    core.sw(state)["order"] = order


def to_act(state: GameState) -> str | None:
    if state.over:
        return None
    if deploy.active(state):
        return deploy.next_side(state)
    pend = core.sw(state)["pending"]
    if pend:
        return pend[0]["side"]
    return state.active


def resolve_actor(state: GameState, actor: str) -> tuple[list[Model], str]:
    """A model id or a unit id -> its live models and its unit."""
    m = state.models.get(actor)
    if m is not None:
        return ([] if m.removed else [m]), m.unit
    ms = state.units().get(actor)
    if ms:
        return ms, actor
    return [], ""


def turn_problem(state: GameState, unit: str, side: str) -> str:
    if state.over:
        return "the game is over"
    owed = reactions.owed(state)
    if owed:
        return reactions.describe(owed)
    if side != state.active:
        return f"it is {state.active}'s action, not {side}'s ({R_ROUND})"
    cur = TURNS.current(state)
    if cur is not None and cur != unit:
        return f"{cur} is acting: end its action first ({R_ROUND})"
    if unit not in TURNS.ready_units(state, side):
        return f"{unit} has already acted this round ({R_ROUND})"
    return ""


def begin(state: GameState, unit: str) -> None:
    """A unit starts its action: the movement bonus of its last action ends, overwatch
    ends, and each model gets a fresh action record."""
    if TURNS.current(state) == unit:
        return
    TURNS.begin(state, unit)
    info = core.unit_info(state, unit)
    info["under_fire"] = bool(info.get("fired_on"))
    info["fired_on"] = False
    for m in core.unit_models(state, unit):
        core.fresh(m)
        if not core.is_vehicle(m):
            m.vars["moved"] = 0.0
        m.vars.pop("overwatch", None)
        m.set_status("overwatch", False)
        m.vars.pop("left", None)


def finish(state: GameState, ctx: Context) -> None:
    """End the current unit's action (vehicles that have not moved coast on first)."""
    cur = TURNS.current(state)
    if cur is not None:
        for v in core.unit_models(state, cur):
            if core.is_vehicle(v) and not core.act(v)["moves"] and vehicles.speed(v) > 0:
                coast(state, ctx, v)
        for m in core.unit_models(state, cur):
            core.fresh(m)
    TURNS.finish(state)


def after_action(state: GameState, ctx: Context) -> None:
    """Bookkeeping once an action has resolved: break tests, the end of the game, a unit
    wiped out in its own action, the end of the round."""
    morale.break_tests(state, ctx)
    check_over(state, ctx)
    if state.over or core.sw(state)["pending"]:
        return
    cur = TURNS.current(state)
    if cur is not None and cur not in state.units():
        TURNS.finish(state)
        cur = None
    for m in state.live():
        if m.unit != cur and m.vars.get("act") != core.FRESH_ACT:
            core.fresh(m)  # reactions outside a model's own action leave no trace on it
    if state.active is None:
        end_round(state, ctx)


def end_round(state: GameState, ctx: Context) -> None:
    limit = int(state.vars.get("turn_limit", 0) or 0)
    if limit and state.turn >= limit:
        finish_on_points(state, ctx, f"turn limit ({limit}) reached")
        return
    state.turn += 1
    ctx.log.emit("turn", f"round {state.turn} begins", rule=R_ROUND)
    new_round(state, ctx)


def casualty_points(state: GameState, side: str) -> int:
    """Points of enemy models this side has removed (SWOMP-I-VICTORY)."""
    return sum(int(m.vars.get("points", 0)) for m in state.models.values()
               if m.removed and m.side != side)


def finish_on_points(state: GameState, ctx: Context, why: str) -> None:
    scores = {s: casualty_points(state, s) for s in state.sides}
    best = max(scores.values())
    top = [s for s, v in scores.items() if v == best]
    winner = top[0] if len(top) == 1 else None
    text = ", ".join(f"{s} {v}" for s, v in scores.items())
    state.over = {"winner": winner, "reason": f"{why}: points of casualties inflicted {text}"}
    state.active = None
    ctx.log.emit("note", f"game over: {why}; casualties inflicted (points): {text}: "
                 f"{winner or 'a draw'}", rule=R_VICTORY)


def check_over(state: GameState, ctx: Context) -> None:
    if state.over:
        return
    alive = [s for s in state.sides if state.live(s)]
    if len(alive) <= 1:
        state.over = {"winner": alive[0] if alive else None, "reason": "last side standing"}
        state.active = None
        ctx.log.emit("note", f"game over: {alive[0] if alive else 'nobody'} is the last side "
                     f"standing", rule=R_VICTORY)
        return


# --- overwatch: the pending reaction --------------------------------------------------------

def can_fire_at(state: GameState, ctx: Context, w: Model, t: Model) -> bool:
    for wpn in core.ranged(w):
        if wpn["name"] in w.vars.get("jammed", []):
            continue
        if shooting.target_problem(state, ctx, w, t, wpn) == "":
            return True
    return False


def trigger_overwatch(state: GameState, ctx: Context, movers: list[Model],
                      after: dict[str, Any] | None) -> None:
    """Enemy models ending a move where an overwatching model could fire at them hand
    play to the overwatching side; ``after`` (e.g. the charge's close combat) runs once
    every reaction is answered."""
    entries = []
    movers = [m for m in movers if not m.removed]
    for side in state.sides:
        if not movers or side == movers[0].side:
            continue
        watchers = [w.id for w in state.live(side) if w.vars.get("overwatch")
                    and not core.engaged(w) and any(can_fire_at(state, ctx, w, t) for t in movers)]
        if watchers:
            entries.append({"kind": "overwatch", "side": side, "watchers": watchers,
                            "targets": [m.id for m in movers]})
            ctx.log.emit("note", f"{', '.join(watchers)} on overwatch may fire at "
                         f"{', '.join(m.id for m in movers)} ({side} shoots or passes)",
                         rule=R_OVERWATCH)
    reactions.defer(state, after)
    reactions.push(state, entries)
    settle(state, ctx)


def settle(state: GameState, ctx: Context) -> None:
    """Run the continuations of interrupted actions while nothing is owed."""
    while not state.over:
        cont = reactions.next_continuation(state)
        if cont is None:
            return
        run_continuation(state, ctx, cont)


def run_continuation(state: GameState, ctx: Context, cont: dict[str, Any]) -> None:
    if cont["kind"] == "charge_fight":
        open_combat(state, ctx, melee.charge_groups(cont["pairs"], cont.get("location", "")))
    elif cont["kind"] == "strike":
        for group in cont["groups"]:
            if state.over:
                return
            melee.strike(state, ctx, group)


def open_combat(state: GameState, ctx: Context, groups: list[dict[str, Any]]) -> None:
    """A close combat is about to be rolled: each trooper defender may first try to
    retreat at -2 CR (SWOMP "Retreating from close combat", SWOMP-I-RETREAT), and an
    exposed gunner may jump out to meet an attack he could not otherwise defend
    (SWOMP "Exposed crewmen/riders"). The strikes wait until those are answered."""
    entries: list[dict[str, Any]] = []
    for g in groups:
        d = state.models[g["defender"]]
        if d.removed:
            continue
        if core.is_vehicle(d):
            entries += vehicle_cc.jump_offers(state, g)
            continue
        held = [a for a in g["attackers"] if a in d.vars.get("foes", [])]
        if held:
            entries.append({"kind": "retreat", "side": d.side, "defender": d.id,
                            "attackers": held})
    reactions.defer(state, {"kind": "strike", "groups": groups})
    reactions.push(state, entries)


def pending_done(state: GameState, ctx: Context) -> None:
    sw = core.sw(state)
    sw["pending"] = [p for p in sw["pending"]
                     if reactions.kind(p) != "overwatch" or p["watchers"]]
    settle(state, ctx)


# --- movement -------------------------------------------------------------------------------

def allowance(m: Model) -> tuple[float, str]:
    """How far a trooper may still move this action, and why (SWOMP "Actions")."""
    a = core.act(m)
    base = core.mr(m)
    if a["follow"] > 0:
        return float(a["follow"]), "follow-up move, half MR"
    if a["shot"] or a["clearing"]:
        if core.heavy(m):
            return base / 2, "heavy weapon after shooting, half MR"
        return base, "after shooting, 1 x MR"
    if core.heavy(m):
        return base, "heavy weapon, Move only: 1 x MR"
    return 2 * base, "Move only: 2 x MR (no shooting after more than 1 x MR)"


def shoot_limit(m: Model) -> float:
    """The farthest a trooper may have moved and still shoot this action."""
    return core.mr(m) / 2 if core.heavy(m) else core.mr(m)


def nearest_enemy(state: GameState, m: Model, at: tuple[float, float] | None = None) -> float:
    ghost = m if at is None else Model.from_dict({**m.to_dict(), "x": at[0], "y": at[1]})
    ds = [table.distance(ghost, e) for e in state.live() if e.side != m.side]
    return min(ds) if ds else math.inf


def move_problems(state: GameState, ctx: Context, m: Model, pts: list[tuple[float, float]],
                  unit_move: bool = False) -> list[str]:
    a = core.act(m)
    if core.is_vehicle(m):
        return vehicle_move_problems(state, ctx, m, pts)
    if core.engaged(m):
        return [f"{m.id} is in close combat: it may fight or retreat ({melee.R_CC})"]
    if m.vars.get("overwatch"):
        return [f"{m.id} is on overwatch and may not move ({R_OVERWATCH})"]
    r: list[str] = []
    if a["follow"] <= 0:
        if a["moves"]:
            r.append(f"{m.id} has already moved this action")
        if a["stood"]:
            r.append(f"{m.id} stood still to shoot (+1 PR): it may not move this action "
                     f"({R_ACTIONS})")
        if a["fought"]:
            r.append(f"{m.id} fought this action")
    if r:
        return r
    cost = table.path_cost(ctx, pts, TERRAIN["difficult"])
    lim, why = allowance(m)
    if cost > lim + EPS:
        r.append(f"{m.id} may move {lim:g}\" ({why}), not {cost:.1f}\" "
                 f"({R_HEAVY if core.heavy(m) else R_ACTIONS})")
    end = pts[-1]
    if not table.on_table(ctx, end):
        r.append(f"({end[0]:g}, {end[1]:g}) is off the table")
    if morale.broken(state, m.unit) and nearest_enemy(state, m, end) < nearest_enemy(state, m) - EPS:
        r.append(f"{m.unit} is broken: it may not move closer to the enemy ({R_BROKEN})")
    if not unit_move and not r:
        why_not = morale.coherency_problem(state, m, end)
        if why_not:
            r.append(why_not)
    return r


def vehicle_move_problems(state: GameState, ctx: Context, v: Model,
                          pts: list[tuple[float, float]]) -> list[str]:
    a = core.act(v)
    if a["moves"]:
        return [f"{v.id} has already moved this action"]
    if "crew_out" in v.vars.get("effects", []):
        return [f"{v.id}'s crew is out of action: it coasts ({vehicles.R_DAMAGE})"]
    lo, hi = vehicles.speed_range(v)
    length = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    r = []
    if length < lo - 0.05 or length > hi + 0.05:
        r.append(f"{v.id} is moving at {vehicles.speed(v):g}\": this action it must move "
                 f"{lo:g}\" to {hi:g}\" (speed changes by its acceleration), not {length:.1f}\" "
                 f"({vehicles.R_MOVE})")
    if not table.on_table(ctx, pts[-1]):
        r.append(f"({pts[-1][0]:g}, {pts[-1][1]:g}) is off the table")
    return r


def do_move(state: GameState, ctx: Context, m: Model, pts: list[tuple[float, float]],
            facing: float | None) -> None:
    """Move along the path with the physics service: the base stops at its first
    contact; the inches spent (difficult ground counted twice) are what it moved."""
    melee.sync(state, ctx)
    r = ctx.physics.move(m.id, pts[1:])
    full = sum(math.dist(p, q) for p, q in zip(pts, pts[1:]))
    cost = table.path_cost(ctx, pts, TERRAIN["difficult"])
    spent = cost * (r.travelled / full) if full > 0 else 0.0
    start = m.pos
    m.x, m.y = round(r.end[0], 2), round(r.end[1], 2)
    if facing is not None:
        m.facing = float(facing) % 360
    elif math.dist(start, m.pos) > 1e-6:
        m.facing = round(table.bearing(pts[-2] if len(pts) > 1 else start, pts[-1]), 1)
    a = core.act(m)
    if a["follow"] > 0:
        a["follow"] = 0.0
    else:
        a["moves"] = int(a["moves"]) + 1
    a["moved"] = round(float(a["moved"]) + spent, 2)
    m.vars["moved"] = a["moved"]
    stop = "" if r.complete else f", stopped by {r.blocked_by}"
    ctx.log.emit("move", f"{m.id} moves {r.travelled:.1f}\" to ({m.x:.2f}, {m.y:.2f}){stop}",
                 actor=m.id, rule=R_ACTIONS, data={"to": [m.x, m.y], "moved": a["moved"]})
    if "crew_of" in m.vars:
        vehicle_cc.climb_back(state, ctx, m)


def unit_paths(ms: list[Model], action: Move) -> dict[str, list[tuple[float, float]]]:
    """A unit moving as one: every model follows the leader's path at its own offset."""
    lead = ms[0]
    lp = list(action.waypoints(lead.pos))
    out = {}
    for m in ms:
        dx, dy = m.x - lead.x, m.y - lead.y
        out[m.id] = [(round(x + dx, 2), round(y + dy, 2)) for x, y in lp]
    out[lead.id][0] = lead.pos
    return out


# --- vehicles moving and ramming ------------------------------------------------------------

def poses_along(v: Model, pts: list[tuple[float, float]]) -> list[tuple[float, float, float]]:
    """Poses for the physics sweep: at each waypoint the vehicle turns to the new leg."""
    poses = [(v.x, v.y, v.facing)]
    h = v.facing
    for a, b in zip(pts, pts[1:]):
        if math.dist(a, b) < 1e-9:
            continue
        h = table.bearing(a, b)
        poses.append((a[0], a[1], h))
        poses.append((b[0], b[1], h))
    return poses


def drive(state: GameState, ctx: Context, v: Model, pts: list[tuple[float, float]],
          why: str = "moves") -> list[Model]:
    """Drive a vehicle along a path at the path's length as its new speed; a turn beyond
    the speed's allowance needs a control test; the first model met is rammed, the
    first terrain or table edge stops it (SWOMP "Ramming and Collisions")."""
    spd = round(sum(math.dist(p, q) for p, q in zip(pts, pts[1:])), 2)
    turned = vehicles.heading_change(v.facing, pts)
    allowed = vehicles.turn_allowance(v, spd)
    a = core.act(v)
    a["moves"] = int(a["moves"]) + 1
    v.vars["speed"] = spd
    v.vars["moved"] = spd
    a["moved"] = spd
    lost = ""
    if turned > allowed + 0.5:
        lost = vehicles.control_test(state, ctx, v, f"turned {turned:.0f}\u00b0, {allowed:g}\u00b0 "
                                     f"allowed at {spd:g}\"",
                                     vehicles.control_need(v, turned - allowed))
        if v.removed:
            return []
        if lost in ("skid", "crash", "stall"):
            pts = [pts[0], table.offset(pts[0], v.facing, vehicles.speed(v))]
        elif lost == "spin":
            ctx.log.emit("move", f"{v.id} spins in place", actor=v.id, rule=vehicles.R_CONTROL)
            return [v]
    melee.sync(state, ctx)
    poses = poses_along(v, pts)
    if len(poses) < 2:
        return [v]
    res = ctx.physics.sweep(v.id, poses)
    v.x, v.y, v.facing = round(res.pose[0], 2), round(res.pose[1], 2), round(res.pose[2], 2)
    ctx.log.emit("move", f"{v.id} {why} at {spd:g}\" to ({v.x:.2f}, {v.y:.2f})"
                 + (f", meeting {res.hit}" if res.hit else ""), actor=v.id,
                 rule=vehicles.R_MOVE, data={"to": [v.x, v.y], "speed": spd})
    if res.hit_kind == "model":
        ram(state, ctx, v, state.models[res.hit], spd)
    elif res.hit is not None:
        v.vars["speed"] = 0.0
        ctx.log.emit("status", f"{v.id} hits {res.hit} and stops", actor=v.id, target=v.id,
                     rule=R_RAM, outcome="stopped")
        vehicles.control_test(state, ctx, v, f"collision with {res.hit}", core.stat(v, "SR"))
    return [v]


def ram(state: GameState, ctx: Context, v: Model, t: Model, spd: float) -> None:
    """The ramming contest: the vehicle's DR plus speed / 10 against the target's DR and
    modifiers; a win does 1 damage per 5 points; a trooper who wins dives aside; two
    vehicles end touching and both test for control."""
    att = contest.side(("DR", core.stat(v, "DR")), ("speed", contest.speed_bonus(spd)))
    if core.is_vehicle(t):
        dfn = contest.side(("DR", core.stat(t, "DR")),
                           ("speed", contest.speed_bonus(vehicles.speed(t))))
    else:
        dfn = contest.side(("DR", core.stat(t, "DR")), ("armour", core.stat(t, "AR")),
                           ("field", core.stat(t, "FR")), ("moving", shooting.move_bonus(t)))
    res = contest.roll(ctx, att, dfn, "ramming contest", R_RAM, v.id, t.id)
    dmg = contest.ram_damage(res.margin) if res.won else 0
    ctx.log.emit("resolution", f"{v.id} rams {t.id} at {spd:g}\": {res.text}: "
                 f"{'won by ' + str(max(0, res.margin)) + f', {dmg} damage' if res.won else 'no damage'}",
                 actor=v.id, target=t.id, rule=R_RAM, chance=float(res.chance), rolls=res.rolls,
                 outcome="hit" if res.won else "miss", data={"damage": dmg})
    if core.is_vehicle(t):
        if res.won:
            vehicles.damage(state, ctx, t, dmg, None, "rammed", v.id)
        v.vars["speed"] = 0.0
        for x in (v, t):
            if not x.removed:
                vehicles.control_test(state, ctx, x, "collision", core.stat(x, "SR"))
        return
    if res.won:
        core.wound(state, ctx, t, dmg, f"rammed by {v.id}", R_RAM, v.id)
        return
    dive_aside(state, ctx, v, t)


def dive_aside(state: GameState, ctx: Context, v: Model, t: Model) -> None:
    """The trooper jumps to the side of the vehicle's path."""
    from engine.battlefield import base_radius_in, base_size_in

    h = math.radians(v.facing)
    ux, uy = math.cos(h), math.sin(h)
    side = (t.x - v.x) * -uy + (t.y - v.y) * ux
    sgn = 1.0 if side >= 0 else -1.0
    half = base_size_in(v.base)[0] / 2 if isinstance(v.base, tuple) else base_radius_in(v.base)
    need = half + base_radius_in(t.base) + 0.1 - abs(side)
    if need <= 0:
        return
    dest = (t.x - uy * sgn * need, t.y + ux * sgn * need)
    melee.sync(state, ctx)
    r = ctx.physics.move(t.id, [dest], ignore=[v.id])
    t.x, t.y = round(r.end[0], 2), round(r.end[1], 2)
    ctx.log.emit("move", f"{t.id} dives aside to ({t.x:.2f}, {t.y:.2f})", actor=t.id,
                 rule=R_RAM)


def coast(state: GameState, ctx: Context, v: Model) -> None:
    """A vehicle that did not move this action slows as hard as it can, straight on."""
    lo, _ = vehicles.speed_range(v)
    if lo <= 0:
        v.vars["speed"] = 0.0
        v.vars["moved"] = 0.0
        return
    drive(state, ctx, v, [v.pos, table.offset(v.pos, v.facing, lo)], why="coasts")


def ram_path(v: Model, t: Model, spd: float) -> list[tuple[float, float]]:
    h = table.bearing(v.pos, t.pos)
    return [v.pos, table.offset(v.pos, h, spd)]


# --- check ------------------------------------------------------------------------------------

def check(state: GameState, action: Action, ctx: Context) -> Legality:
    why = problems(state, action, ctx)
    return Legality.no(*why) if why else Legality.yes()


def problems(state: GameState, action: Action, ctx: Context) -> list[str]:
    if state.over:
        return ["the game is over"]
    if isinstance(action, (EndTurn, EndPhase)):
        return ["SWOMP plays unit by unit: end the unit's action (end_activation)"]
    if isinstance(action, Concede):
        return []
    if deploy.active(state):
        if isinstance(action, Deploy):
            return deploy.problems(state, ctx, action)
        return [f"deployment comes first: {deploy.next_side(state)} places "
                f"{' or '.join(deploy.ready_units(state))} with deploy ({deploy.R_DEPLOY})"]
    if isinstance(action, Deploy):
        return ["deployment is over (or this scenario sets its models out: no deployment "
                "phase)"]
    sw = core.sw(state)
    if sw["pending"]:
        return pending_problems(state, action, ctx)
    if isinstance(action, (EndActivation, Wait)):
        if not action.actor:
            return []
        ms, unit = resolve_actor(state, action.actor)
        if not ms:
            return [f"no model or unit '{action.actor}' on the table"]
        why = turn_problem(state, unit, ms[0].side)
        return [why] if why else []
    if isinstance(action, Choose):
        return ["there is no decision to answer now"]
    ms, unit = resolve_actor(state, action.actor)
    if not ms:
        return [f"no model or unit '{action.actor}' on the table"]
    why = turn_problem(state, unit, ms[0].side)
    if why:
        return [why]
    fn = CHECKS.get(type(action))
    if fn is None:
        return [f"SWOMP has no '{action.KIND}' action"]
    return fn(state, ctx, action, ms, unit)


def pending_problems(state: GameState, action: Action, ctx: Context) -> list[str]:
    p = core.sw(state)["pending"][0]
    k = reactions.kind(p)
    if isinstance(action, Choose):
        if action.option not in reactions.ANSWERS[k]:
            return [f"{reactions.describe(p)}; '{action.option}' is not an answer"]
        if k == "jump" and action.option == "jump_out":
            v, a = state.models[p["vehicle"]], state.models[p["attacker"]]
            if vehicle_cc.jump_spot(state, ctx, v, p["gunner"], a) is None:
                return [f"there is no room beside {a.id} for {v.id}'s {p['gunner']} to land"]
        return []
    if k == "retreat":
        if not isinstance(action, Retreat) or action.actor != p["defender"]:
            return [reactions.describe(p)]
        return retreat_problems(state, ctx, action, state.models[p["defender"]])
    if k == "jump":
        return [reactions.describe(p)]
    if not isinstance(action, Shoot):
        return [f"{p['side']} must first answer the overwatch reaction: shoot with "
                f"{', '.join(p['watchers'])} or choose pass ({R_OVERWATCH})"]
    if action.actor not in p["watchers"]:
        return [f"{action.actor} is not an overwatching model that may fire now "
                f"(may fire: {', '.join(p['watchers'])}) ({R_OVERWATCH})"]
    m = state.models[action.actor]
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    return shoot_problems(state, ctx, m, t, action.weapon, action.options, overwatch=True)


def check_move(state, ctx, action: Move, ms, unit) -> list[str]:
    if action.to is None and not action.path:
        return ["a move needs 'to' or 'path'"]
    if action.mode and action.mode not in ("run", "charge"):
        return [f"SWOMP moves have no mode '{action.mode}'"]
    if len(ms) == 1:
        return move_problems(state, ctx, ms[0], list(action.waypoints(ms[0].pos)))
    if any(core.is_vehicle(m) for m in ms):
        return [f"{unit} includes vehicles: move its models one by one"]
    out = []
    for m in ms:
        out += move_problems(state, ctx, m, unit_paths(ms, action)[m.id], unit_move=True)
    return out


def check_turn(state, ctx, action: Turn, ms, unit) -> list[str]:
    out = []
    for m in ms:
        if core.is_vehicle(m):
            out.append(f"{m.id} is a vehicle: it turns only as it moves ({vehicles.R_MOVE})")
        elif core.engaged(m):
            out.append(f"{m.id} is in close combat")
        elif m.vars.get("overwatch"):
            out.append(f"{m.id} is on overwatch: its arc is set")
    return out


def weapon_problems(m: Model, w: dict | None, name: str) -> list[str]:
    if w is None:
        names = ", ".join(x["name"] for x in core.ranged(m)) or "none"
        return [f"{m.id} has no ranged weapon '{name}' (it has: {names})"]
    if w["name"] in m.vars.get("jammed", []):
        return [f"{m.id}'s {w['name']} is jammed: a full action clears it ({R_JAM})"]
    if core.is_vehicle(m):
        why = vehicles.weapon_usable(m, w)
        if why:
            return [why]
    return []


def shoot_problems(state: GameState, ctx: Context, m: Model, t: Model, wname: str,
                   options: dict[str, Any], overwatch: bool = False) -> list[str]:
    w = shooting.weapon_of(m, wname)
    r = weapon_problems(m, w, wname)
    if r:
        return r
    assert w is not None
    a = core.act(m)
    for k in options:
        if k not in SHOOT_OPTIONS:
            r.append(f"unknown shooting option '{k}' (options: {', '.join(SHOOT_OPTIONS)})")
    if core.engaged(m):
        r.append(f"{m.id} is in close combat and cannot shoot")
    if morale.broken(state, m.unit):
        r.append(f"{m.unit} is broken and does not shoot ({R_BROKEN})")
    if not overwatch:
        if m.vars.get("overwatch"):
            r.append(f"{m.id} is on overwatch: it fires when an enemy shows itself "
                     f"({R_OVERWATCH})")
        if core.is_vehicle(m):
            if w["name"] in a["fired"]:
                r.append(f"{m.id} has already fired its {w['name']} this action")
        else:
            if a["shot"]:
                r.append(f"{m.id} has already shot this action")
            if a["clearing"]:
                r.append(f"{m.id} is clearing a jam this action ({R_JAM})")
            if a["fought"]:
                r.append(f"{m.id} fought this action")
            lim = shoot_limit(m)
            if float(a["moved"]) > lim + EPS:
                r.append(f"{m.id} moved {a['moved']:g}\" this action, more than the {lim:g}\" "
                         f"it may move and still shoot "
                         f"({R_HEAVY if core.heavy(m) else R_ACTIONS})")
    if r:
        return r
    why = shooting.target_problem(state, ctx, m, t, w)
    if why:
        return [why]
    second = options.get("second")
    if second:
        w2 = shooting.weapon_of(m, str(second))
        r += weapon_problems(m, w2, str(second))
        if w2 is not None and not r:
            if w2["name"] == w["name"]:
                r.append("the second weapon must be another weapon")
            arms = int(m.vars.get("arms", 2))
            if arms <= 2 and (int(w.get("hands", 2)) > 1 or int(w2.get("hands", 2)) > 1):
                r.append(f"standard and heavy weapons need both hands: {m.id} cannot fire "
                         f"{w['name']} and {w2['name']} together ({shooting.R_TWO})")
            t2 = state.models.get(str(options.get("second_target") or t.id))
            if t2 is None or t2.removed:
                r.append("no such second target")
            elif not r:
                why2 = shooting.target_problem(state, ctx, m, t2, w2)
                if why2:
                    r.append(why2)
    if options.get("fire") not in (None, "focus", "spread"):
        r.append(f"sustained fire options are focus or spread, not '{options.get('fire')}'")
    for tid in options.get("targets", []) or []:
        if options.get("fire") != "spread" or int(w.get("shots", 1)) < 2:
            r.append("extra targets need a sustained-fire weapon fired with fire = 'spread'")
            break
        t2 = state.models.get(str(tid))
        if t2 is None or t2.removed:
            r.append(f"no target '{tid}' on the table")
            continue
        spread = frozenset([t.id, *map(str, options.get("targets", []))]) - {t2.id}
        why2 = shooting.target_problem(state, ctx, m, t2, w, spread)
        if why2:
            r.append(why2)
    loc = options.get("location")
    if loc:
        if not core.is_vehicle(t):
            r.append("called shots pick a location on a vehicle or building")
        elif loc not in t.vars["loc"]:
            r.append(f"{t.id} has no location '{loc}' (locations: {', '.join(t.vars['loc'])})")
    return r


def shooters(state: GameState, ctx: Context, ms: list[Model], t: Model, wname: str,
             options: dict[str, Any]) -> list[tuple[Model, dict]]:
    """For a unit firing at one target: every model that may legally fire the named
    weapon (or, failing that, its first ranged weapon) at it."""
    out = []
    for m in ms:
        names = [wname] if wname and m.weapon(wname) else [w["name"] for w in core.ranged(m)]
        for n in names:
            if not shoot_problems(state, ctx, m, t, n, options):
                out.append((m, shooting.weapon_of(m, n)))
                break
    return out


def check_shoot(state, ctx, action: Shoot, ms, unit) -> list[str]:
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    if len(ms) == 1:
        return shoot_problems(state, ctx, ms[0], t, action.weapon, action.options)
    if shooters(state, ctx, ms, t, action.weapon, action.options):
        return []
    return [f"no model of {unit} can fire at {t.id}: "
            + "; ".join(shoot_problems(state, ctx, ms[0], t, action.weapon, action.options))]


def charge_limit(m: Model) -> float:
    a = core.act(m)
    if a["follow"] > 0:
        return float(a["follow"])
    return core.mr(m) if core.heavy(m) else 2 * core.mr(m)


def charge_via(ms: list[Model], path: tuple) -> dict[str, list[tuple[float, float]]]:
    """Waypoints each charger takes: the charge's path for its first model, the same path
    at each other model's offset (a unit moving as one)."""
    if not path or not ms:
        return {}
    lead = ms[0]
    pts = [tuple(p) for p in path]
    if pts and math.dist(pts[0], lead.pos) < 1e-6:
        pts = pts[1:]
    return {m.id: [(round(x + m.x - lead.x, 2), round(y + m.y - lead.y, 2)) for x, y in pts]
            for m in ms}


def charger_problems(state: GameState, ctx: Context, c: Model, t: Model,
                     via: list[tuple[float, float]] = ()) -> list[str]:
    a = core.act(c)
    if core.is_vehicle(c):
        return [f"{c.id} is a vehicle: vehicles ram ({R_RAM})"]
    if core.engaged(c):
        return [f"{c.id} is already in close combat"]
    if c.vars.get("overwatch"):
        return [f"{c.id} is on overwatch"]
    r = []
    if a["follow"] <= 0:
        if a["shot"]:
            r.append(f"{c.id} shot this action: a model cannot shoot and move into close "
                     f"combat in the same turn ({melee.R_CHARGE})")
        elif a["moves"] or a["fought"] or a["stood"] or a["clearing"]:
            r.append(f"{c.id} has already acted this action: a charge is a whole Move action")
    if r:
        return r
    d = table.distance(c, t)
    lim = charge_limit(c)
    if d > lim + EPS:
        r.append(f"{t.id} is {d:.1f}\" away: {c.id} may charge {lim:g}\" ({melee.R_CHARGE})")
    else:
        way = reach.reach(state, ctx, c, t, lim, via)
        if not way.ok:
            r.append(way.why)
    return r


def check_charge(state, ctx, action: Charge, ms, unit) -> list[str]:
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    if t.side == ms[0].side:
        return [f"{t.id} is on your side"]
    if morale.broken(state, unit):
        return [f"{unit} is broken and may not charge ({R_BROKEN})"]
    via = charge_via(ms, action.path)
    ok = [c for c in ms if not charger_problems(state, ctx, c, t, via.get(c.id, []))]
    if not ok:
        return charger_problems(state, ctx, ms[0], t, via.get(ms[0].id, []))
    why = melee.charge_problem(state, ok, t)
    if why:
        return [why]
    return vehicle_option_problems(state, getattr(action, "options", {}), ok, t.id)


def check_fight(state, ctx, action: Fight, ms, unit) -> list[str]:
    able = [m for m in ms if fight_problem(state, m, action.target) == ""]
    if not able:
        return [fight_problem(state, ms[0], action.target)]
    return vehicle_option_problems(state, action.options, able, action.target)


def vehicle_option_problems(state: GameState, options: dict[str, Any], ms: list[Model],
                            target: str) -> list[str]:
    """Close combat options: only ``location``, only against a vehicle, and one each
    attacker may go for (SWOMP "Close combat with vehicles")."""
    bad = [k for k in options if k != "location"]
    if bad:
        return [f"unknown close combat option '{bad[0]}' (options: location)"]
    loc = str(options.get("location", ""))
    if not loc:
        return []
    v = state.models.get(target)
    if v is None or not core.is_vehicle(v):
        return ["a location is picked only when attacking a vehicle"]
    why = [vehicle_cc.location_problem(m, v, loc) for m in ms]
    return [w for w in why if w][:1]


def fight_problem(state: GameState, m: Model, target: str) -> str:
    a = core.act(m)
    if a["fought"]:
        return f"{m.id} has already fought this action"
    if a["clearing"]:
        return f"{m.id} is clearing a jam and may not fight ({R_JAM})"
    if core.engaged(m):
        if target and target not in m.vars["foes"] and target not in state.models:
            return f"no model '{target}'"
        return ""
    t = state.models.get(target)
    if t is not None and not t.removed and core.is_vehicle(t) and t.side != m.side \
            and table.distance(m, t) <= melee.CONTACT:
        return ""
    return f"{m.id} is not in close combat"


def check_retreat(state, ctx, action: Retreat, ms, unit) -> list[str]:
    if len(ms) != 1:
        return ["a retreat is made model by model"]
    m = ms[0]
    if core.engaged(m) and core.act(m)["fought"]:
        return [f"{m.id} has already fought this action"]
    return retreat_problems(state, ctx, action, m)


def retreat_problems(state: GameState, ctx: Context, action: Retreat, m: Model) -> list[str]:
    """Where a retreat may go: half MR in any direction, or a charge at a model outside
    the fight just left (SWOMP "Retreating from close combat")."""
    if not core.engaged(m):
        return [f"{m.id} is not in close combat"]
    lim = core.mr(m) / 2
    if action.target:
        t = state.models.get(action.target)
        if t is None or t.removed or t.side == m.side:
            return [f"no enemy '{action.target}' to charge"]
        if t.id in m.vars["foes"]:
            return [f"{m.id} may not leave and return to the same close combat "
                    f"({melee.R_RETREAT})"]
        d = table.distance(m, t)
        if d > lim + EPS:
            return [f"{t.id} is {d:.1f}\" away: a retreat moves {lim:g}\" (half MR)"]
        way = reach.reach(state, ctx, m, t, lim)
        return [] if way.ok else [way.why]
    if action.to is None:
        return ["a retreat needs 'to' (where to fall back) or 'target' (whom to charge)"]
    d = math.dist(m.pos, action.to)
    if d > lim + EPS:
        return [f"a retreat moves up to {lim:g}\" (half MR), not {d:.2f}\" ({melee.R_RETREAT})"]
    if not table.on_table(ctx, action.to):
        return ["off the table"]
    return []


def check_overwatch(state, ctx, action: Overwatch, ms, unit) -> list[str]:
    if morale.broken(state, unit):
        return [f"{unit} is broken and may not overwatch ({R_BROKEN})"]
    ok = [m for m in ms if overwatch_problem(m) == ""]
    return [] if ok else [overwatch_problem(ms[0])]


def overwatch_problem(m: Model) -> str:
    a = core.act(m)
    if core.engaged(m):
        return f"{m.id} is in close combat"
    if m.vars.get("overwatch"):
        return f"{m.id} is already on overwatch"
    if a["moves"] or a["shot"] or a["fought"] or a["clearing"]:
        return f"{m.id} has already acted: overwatch is a whole action without moving"
    usable = [w for w in core.ranged(m) if w["name"] not in m.vars.get("jammed", [])]
    if not usable:
        return f"{m.id} has no working ranged weapon"
    return ""


def check_clear(state, ctx, action: ClearJam, ms, unit) -> list[str]:
    if len(ms) != 1:
        return ["jams are cleared model by model"]
    m = ms[0]
    jammed = m.vars.get("jammed", [])
    name = action.weapon or (jammed[0] if jammed else "")
    if name not in jammed:
        return [f"{m.id}'s {name or 'weapon'} is not jammed"]
    a = core.act(m)
    if a["shot"] or a["fought"] or a["clearing"] or core.engaged(m):
        return [f"clearing a jam takes {m.id}'s full action (no shooting or fighting) "
                f"({R_JAM})"]
    if a["moved"] > core.mr(m) + EPS:
        return [f"{m.id} moved more than its MR: it cannot also clear a jam"]
    return []


def check_rally(state, ctx, action: Rally, ms, unit) -> list[str]:
    if any(core.act(m)["moves"] or core.act(m)["shot"] or core.act(m)["fought"]
           for m in ms if TURNS.current(state) == unit):
        return ["rallying takes the unit's whole action"]
    return morale.rally_problems(state, ctx, unit)


def check_ram(state, ctx, action: Ram, ms, unit) -> list[str]:
    if len(ms) != 1 or not core.is_vehicle(ms[0]):
        return ["only a vehicle rams"]
    v = ms[0]
    t = state.models.get(action.target)
    if t is None or t.removed or t.id == v.id:
        return [f"no target '{action.target}' on the table"]
    lo, hi = vehicles.speed_range(v)
    spd = hi if action.speed is None else float(action.speed)
    r = vehicle_move_problems(state, ctx, v, ram_path(v, t, spd))
    if not r:
        d = table.distance(v, t)
        if d > spd + EPS:
            r.append(f"{t.id} is {d:.1f}\" away, beyond {spd:g}\" this action ({R_RAM})")
    return r


CHECKS = {
    Move: check_move, Turn: check_turn, Shoot: check_shoot, Charge: check_charge,
    SwompCharge: check_charge, Fight: check_fight, Retreat: check_retreat, Overwatch: check_overwatch,
    ClearJam: check_clear, Rally: check_rally, Ram: check_ram,
}


# --- apply ------------------------------------------------------------------------------------

def apply(state: GameState, action: Action, ctx: Context) -> None:
    sw = core.sw(state)
    if isinstance(action, Concede):
        side = to_act(state)
        others = [s for s in state.sides if s != side]
        state.over = {"winner": others[0] if len(others) == 1 else None,
                      "reason": f"{side} concedes"}
        state.active = None
        ctx.log.emit("note", f"{side} concedes the battle", rule=R_VICTORY)
        return
    if isinstance(action, Deploy):
        if deploy.apply(state, ctx, action):
            new_round(state, ctx, deploy.data(state).get("first"))
        return
    if sw["pending"]:
        apply_pending(state, action, ctx)
        after_action(state, ctx)
        return
    if isinstance(action, (EndActivation, Wait)):
        unit = TURNS.current(state)
        if unit is None:
            if action.actor:
                unit = resolve_actor(state, action.actor)[1]
            else:
                unit = TURNS.ready_units(state, state.active)[0]
            begin(state, unit)
            ctx.log.emit("note", f"{unit} waits", actor=unit, rule=R_ACTIONS)
        finish(state, ctx)
        after_action(state, ctx)
        return
    ms, unit = resolve_actor(state, action.actor)
    begin(state, unit)
    APPLY[type(action)](state, ctx, action, ms, unit)
    after_action(state, ctx)


def apply_pending(state: GameState, action: Action, ctx: Context) -> None:
    p = core.sw(state)["pending"][0]
    k = reactions.kind(p)
    if k == "retreat":
        answer_retreat(state, ctx, action)
        return
    if k == "jump":
        answer_jump(state, ctx, action)
        return
    if isinstance(action, Choose):
        ctx.log.emit("note", f"{p['side']} holds its overwatch fire", rule=R_OVERWATCH)
        p["watchers"] = []
        pending_done(state, ctx)
        return
    assert isinstance(action, Shoot)
    m = state.models[action.actor]
    t = state.models[action.target]
    w = shooting.weapon_of(m, action.weapon)
    assert w is not None
    ctx.log.emit("note", f"{m.id} fires from overwatch", actor=m.id, rule=R_OVERWATCH)
    fire(state, ctx, m, t, w, action.options, "overwatch")
    m.vars.pop("overwatch", None)
    m.set_status("overwatch", False)
    p["watchers"] = [x for x in p["watchers"] if x != m.id and not state.models[x].removed]
    if all(state.models[x].removed for x in p["targets"]):
        p["watchers"] = []
    pending_done(state, ctx)


def answer_retreat(state: GameState, ctx: Context, action: Action) -> None:
    """The defender's answer to being attacked: stand, or retreat at -2 CR (SWOMP
    "Retreating from close combat"); a successful retreat may be a charge elsewhere."""
    p = reactions.drop_first(state)
    if isinstance(action, Choose) or not isinstance(action, Retreat):
        ctx.log.emit("note", f"{p['defender']} stands and fights", actor=p["defender"],
                     rule=melee.R_RETREAT)
        settle(state, ctx)
        return
    m = state.models[p["defender"]]
    ok = melee.retreat(state, ctx, m, action.to if not action.target else None,
                       as_defender=True)
    if ok and action.target:
        pairs = melee.charge(state, ctx, [m], state.models[action.target], {m.id: core.mr(m) / 2})
        trigger_overwatch(state, ctx, [m], {"kind": "charge_fight", "pairs": pairs}
                          if pairs else None)
    elif ok:
        trigger_overwatch(state, ctx, [m], None)
    else:
        settle(state, ctx)


def answer_jump(state: GameState, ctx: Context, action: Action) -> None:
    """The vehicle's side decides whether its exposed gunner jumps out (SWOMP "Exposed
    crewmen/riders")."""
    p = reactions.drop_first(state)
    if isinstance(action, Choose) and action.option == "jump_out":
        groups = [c["groups"] for c in reactions.stack(state) if c["kind"] == "strike"]
        vehicle_cc.jump_out(state, ctx, p, groups)
    else:
        ctx.log.emit("note", f"{p['vehicle']}'s {p['gunner']} stays in his hatch",
                     actor=p["vehicle"], rule=vehicle_cc.R_CREW)
    settle(state, ctx)


def fire(state: GameState, ctx: Context, m: Model, t: Model, w: dict,
         options: dict[str, Any], stance: str) -> None:
    two = bool(options.get("second"))
    shooting.fire(state, ctx, m, t, w, options, stance, two)
    core.unit_info(state, t.unit)["fired_on"] = True
    for tid in options.get("targets", []) or []:
        core.unit_info(state, state.models[tid].unit)["fired_on"] = True
    a = core.act(m)
    if two:
        w2 = shooting.weapon_of(m, str(options["second"]))
        t2 = state.models[str(options.get("second_target") or t.id)]
        if w2 is not None and not t2.removed and not m.removed:
            shooting.fire(state, ctx, m, t2, w2, {}, stance, True)
            core.unit_info(state, t2.unit)["fired_on"] = True
    if stance != "overwatch":
        a["shot"] = True
        a["fired"] = sorted(set(a["fired"]) | {x["name"] for x in shooting.battery(m, w)})


def apply_move(state, ctx, action: Move, ms, unit) -> None:
    if len(ms) == 1:
        m = ms[0]
        pts = list(action.waypoints(m.pos))
        moved = drive(state, ctx, m, pts) if core.is_vehicle(m) else \
            (do_move(state, ctx, m, pts, action.facing) or [m])
        trigger_overwatch(state, ctx, moved, None)
        return
    paths = unit_paths(ms, action)
    lead = ms[0]
    end = paths[lead.id][-1]
    ux, uy = end[0] - lead.x, end[1] - lead.y
    for m in sorted(ms, key=lambda m: (-(m.x * ux + m.y * uy), m.id)):
        do_move(state, ctx, m, paths[m.id], action.facing)
    trigger_overwatch(state, ctx, ms, None)


def apply_turn(state, ctx, action: Turn, ms, unit) -> None:
    for m in ms:
        m.facing = float(action.facing) % 360
    ctx.log.emit("move", f"{', '.join(m.id for m in ms)} turn to face {action.facing:g}\u00b0",
                 actor=action.actor, rule=R_ACTIONS)


def apply_shoot(state, ctx, action: Shoot, ms, unit) -> None:
    t = state.models[action.target]
    if len(ms) == 1:
        pairs = [(ms[0], shooting.weapon_of(ms[0], action.weapon))]
    else:
        pairs = shooters(state, ctx, ms, t, action.weapon, action.options)
    for m, w in pairs:
        if t.removed or m.removed:
            break
        a = core.act(m)
        stance = "moving"
        if not core.is_vehicle(m) and float(a["moved"]) == 0 and not action.options.get(
                "then_move") and not w.get("heavy"):
            stance = "stood"
            a["stood"] = True
        fire(state, ctx, m, t, w, action.options, stance)


def apply_charge(state, ctx, action: Charge, ms, unit) -> None:
    t = state.models[action.target]
    via = charge_via(ms, action.path)
    chargers = [c for c in ms if not charger_problems(state, ctx, c, t, via.get(c.id, []))]
    follow = {c.id for c in chargers if core.act(c)["follow"] > 0}
    limits = {c.id: charge_limit(c) for c in chargers}
    pairs = melee.charge(state, ctx, chargers, t, limits, via)
    for c in chargers:
        a = core.act(c)
        if c.id in follow:
            a["follow"] = 0.0
            if c.id in pairs:
                c.vars["charge_bonus"] = True
        else:
            a["moves"] = max(1, int(a["moves"]))
    now = {c: tid for c, tid in pairs.items() if c not in follow}
    moved = [state.models[c] for c in pairs]
    loc = str(getattr(action, "options", {}).get("location", ""))
    trigger_overwatch(state, ctx, moved, {"kind": "charge_fight", "pairs": now, "location": loc}
                      if now else None)


def apply_fight(state, ctx, action: Fight, ms, unit) -> None:
    """Plan who strikes whom, give each defender its chance to retreat, then strike."""
    planned: set[str] = set()
    groups = []
    for m in ms:
        if m.removed or fight_problem(state, m, action.target):
            continue
        g = melee.plan_fight(state, m, action.target, unit, planned)
        if g is not None:
            if core.is_vehicle(state.models[g["defender"]]):
                g["location"] = str(action.options.get("location", ""))
            groups.append(g)
    open_combat(state, ctx, groups)
    settle(state, ctx)


def apply_retreat(state, ctx, action: Retreat, ms, unit) -> None:
    m = ms[0]
    ok = melee.retreat(state, ctx, m, action.to if not action.target else None)
    if not ok:
        return
    if action.target:
        t = state.models[action.target]
        pairs = melee.charge(state, ctx, [m], t, {m.id: core.mr(m) / 2})
        trigger_overwatch(state, ctx, [m], {"kind": "charge_fight", "pairs": pairs})
    else:
        trigger_overwatch(state, ctx, [m], None)


def apply_overwatch(state, ctx, action: Overwatch, ms, unit) -> None:
    for m in ms:
        if overwatch_problem(m) == "":
            m.vars["overwatch"] = True
            m.set_status("overwatch")
            ctx.log.emit("status", f"{m.id} goes on overwatch: it may fire at +1 PR (not heavy "
                         f"weapons) until its next action", actor=m.id, target=m.id,
                         rule=R_OVERWATCH, outcome="overwatch")


def apply_clear(state, ctx, action: ClearJam, ms, unit) -> None:
    m = ms[0]
    name = action.weapon or m.vars["jammed"][0]
    jam = [w for w in m.vars["jammed"] if w != name]
    link = (m.weapon(name) or {}).get("link")
    if link:
        jam = [w for w in jam if (m.weapon(w) or {}).get("link") != link]
    if jam:
        m.vars["jammed"] = jam
    else:
        m.vars.pop("jammed", None)
        m.set_status("jammed", False)
    core.act(m)["clearing"] = True
    ctx.log.emit("status", f"{m.id} spends its action clearing its {name}", actor=m.id,
                 target=m.id, rule=R_JAM, outcome="cleared")


def apply_rally(state, ctx, action: Rally, ms, unit) -> None:
    morale.rally(state, ctx, unit)
    finish(state, ctx)


def apply_ram(state, ctx, action: Ram, ms, unit) -> None:
    v = ms[0]
    t = state.models[action.target]
    _, hi = vehicles.speed_range(v)
    spd = hi if action.speed is None else float(action.speed)
    moved = drive(state, ctx, v, ram_path(v, t, spd), why=f"drives at {t.id}")
    trigger_overwatch(state, ctx, moved, None)


APPLY = {
    Move: apply_move, Turn: apply_turn, Shoot: apply_shoot, Charge: apply_charge,
    SwompCharge: apply_charge, Fight: apply_fight, Retreat: apply_retreat, Overwatch: apply_overwatch,
    ClearJam: apply_clear, Rally: apply_rally, Ram: apply_ram,
}


def advance(state: GameState, ctx: Context) -> Action | None:
    if state.over:
        return None
    if deploy.active(state):
        return None  # nothing to end: every model must be placed with its own deploy
    owed = reactions.owed(state)
    if owed:
        return Choose(option=reactions.DECLINE[reactions.kind(owed)])
    return EndActivation()


# --- odds ---------------------------------------------------------------------------------------

def odds(state: GameState, action: Action, ctx: Context) -> Odds | None:
    if isinstance(action, Shoot):
        m, t = state.models.get(action.actor), state.models.get(action.target)
        if m is None or t is None:
            return None
        w = shooting.weapon_of(m, action.weapon)
        if w is None:
            return None
        a = core.act(m)
        owed = reactions.owed(state)
        pend = owed is not None and reactions.kind(owed) == "overwatch"
        stance = "overwatch" if pend else (
            "stood" if not core.is_vehicle(m) and float(a["moved"]) == 0
            and not action.options.get("then_move") else "moving")
        return shooting.odds(state, ctx, m, t, w, action.options, stance,
                             bool(action.options.get("second")))
    if isinstance(action, (Charge, Fight)):
        ms, _ = resolve_actor(state, action.actor)
        t = state.models.get(action.target)
        if not ms:
            return None
        if t is None and ms[0].vars.get("foes"):
            t = state.models[ms[0].vars["foes"][0]]
        if t is None:
            return None
        charging = isinstance(action, Charge)
        dfn = melee.defence(t)
        if core.is_vehicle(t):
            terms = melee.attack_value(ms[0], charging)
            if vehicles.speed(t) == 0:
                terms.append(("vehicle stopped", melee.STOPPED_VEHICLE))
            att = contest.side(*terms)
            loc = str(getattr(action, "options", {}).get("location", "")) \
                or vehicle_cc.default_location(ms[0], t)
            if loc in vehicle_cc.crewmen(t):
                dfn = melee.crew_defence(t)
        else:
            att = melee.group_side([(m.id, melee.attack_value(m, charging)) for m in ms])
        return melee.odds(att, dfn, melee.weapon_extra(ms[0]), "close combat")
    if isinstance(action, Retreat):
        m = state.models.get(action.actor)
        if m is None or not core.engaged(m):
            return None
        att, dfn = melee.retreat_sides(state, m, False)
        p = contest.p_win(att.value, dfn.value)
        return Odds(chance=p, lines=[f"retreat: {att.value} + d10 against {dfn.value} + d10: "
                                     f"{percent(p)}"])
    if isinstance(action, Rally):
        ms, unit = resolve_actor(state, action.actor)
        _, need = morale.break_need(state, unit)
        p = contest.d10_under(need)
        return Odds(chance=p, lines=[f"rally: d10 at or under SR + 2 = {need}: {percent(p)}"])
    if isinstance(action, Ram):
        v, t = state.models.get(action.actor), state.models.get(action.target)
        if v is None or t is None:
            return None
        _, hi = vehicles.speed_range(v)
        spd = hi if action.speed is None else float(action.speed)
        a = core.stat(v, "DR") + contest.speed_bonus(spd)
        d = core.stat(t, "DR") + (contest.speed_bonus(vehicles.speed(t)) if core.is_vehicle(t)
                                  else core.stat(t, "AR") + core.stat(t, "FR")
                                  + shooting.move_bonus(t))
        dist: dict[int, Any] = {}
        for k, p in contest.margin_dist(a, d).items():
            dmg = 0 if k < 0 else contest.ram_damage(k)
            dist[dmg] = dist.get(dmg, 0) + p
        ch = 1 - dist.get(0, 0)
        return Odds(chance=ch, dist=dist, lines=[f"ram: DR + speed {a} + d10 against {d} + d10: "
                                                 f"{percent(ch)}"])
    return None
