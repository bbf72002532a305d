"""Movement and charges (GM-MOVE, GM-CHARGE): M inches, difficult ground at half rate,
no moving through another base; a charge of up to twice M into base contact, the
contact found by the physics service.

Why the physics service: it sweeps the base along the path and stops it at the first
base or impassable feature, and packs a charger against its target's base, so no model
ever ends inside another and the window's drag shows the same stop.
"""

from __future__ import annotations

import math

from engine.actions import Charge, Move
from engine.physics import Physics
from engine.ruleset import TOO_FAR, Context, Reason
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.gemini import build
from rulesets.gemini.chapters import measure, switches, wounds
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import fight_hooks, move_hooks, react_hooks, tasks
from rulesets.gemini.chapters.options.moving import move_toward, offer_pursuit
from rulesets.gemini.state import mv

#: statuses that keep a model where it is (the switches set them)
STILL = ("down", "stunned", "pinned", "frozen", "hiding")
#: the low obstacles a foe may shelter behind against a charge (GM-COMBAT-SCORE)
OBSTACLES = ("hedge", "fence", "low_wall")


def physics(state: GameState, ctx: Context) -> Physics:
    """The physics space holding every live base as it stands now."""
    live = state.live()
    key = tuple((m.id, m.x, m.y, m.facing, str(m.base)) for m in live)
    return ctx.table.synced(key, lambda: {m.id: footprint(m) for m in live})


def allowance(state: GameState, m: Model, mode: str = "") -> float:
    """GM-MOVE: M inches, less what the model's state allows (half, a 2" crawl) and
    more for a run (GM-RUNNING: double or up to +d6), ``options.move_hooks``."""
    return move_hooks.allowance(state, m, mode, float(m.stat("M", 4)))


def cost(ctx: Context, path: list[tuple[float, float]]) -> float:
    """GM-MOVE: inches of allowance a path takes, difficult ground counting double."""
    return ctx.table.path_cost(path, T.DIFFICULT)


def stuck(state: GameState, m: Model, moving: bool = False) -> str:
    """Why the model cannot move or charge at all ("" when it can). ``moving``: a move,
    which a follow-up or breaking off (``options.move_hooks``) may allow."""
    bonus = move_hooks.bonus_move(state, m) if moving else ""
    again = switches.of(state).turns == "arap" or bonus == "follow_up"
    if mv(m).get("moved") == state.turn and not again:
        return f"{m.id} has already moved this turn (GM-MOVE)"
    locked = bonus != "follow_up" and not (moving and move_hooks.may_break_off(state, m))
    if measure.engaged(state, m) and locked:
        return f"{m.id} is locked in close combat (GM-I-LOCKED)"
    for s in STILL:
        if s in m.status:
            return f"{m.id} is {s.replace('_', ' ')}: it cannot move"
    return ""


def move_problems(state: GameState, ctx: Context, a: Move) -> list[str]:
    m = state.models[a.actor]
    why = stuck(state, m, moving=True)
    if why:
        return [why]
    switched = move_hooks.move_problems(state, m, a.mode)
    if move_hooks.bonus_move(state, m) == "reserve" and a.waypoints(m.pos):
        switched += move_hooks.reserve_problems(state, m, a.waypoints(m.pos)[-1])
    if switched:
        return list(switched)
    path = list(a.waypoints(m.pos))
    if any(not ctx.battlefield.on_table(x, y) for x, y in path):
        return ["the path leaves the table"]
    limit = allowance(state, m, a.mode)
    far = cost(ctx, path)
    if far > limit + 1e-6:
        return [
            Reason(
                f'too far ({far:.1f}" > {limit:g}"; difficult ground counts double) (GM-MOVE)',
                TOO_FAR,
                distance=far,
                limit=limit,
            )
        ]
    if len(path) > 1:
        res = physics(state, ctx).move(m.id, path[1:])
        foe = state.models.get(res.blocked_by or "")
        if foe is not None and foe.side != m.side:
            return [f"the move ends against {foe.id}: moving into contact is a charge (GM-CHARGE)"]
    return []


def resolve_move(state: GameState, ctx: Context, a: Move) -> None:
    m = state.models[a.actor]
    held = measure.foes_in_contact(state, m)
    if move_hooks.bonus_move(state, m) == "follow_up":
        mv(m).pop("follow_up")
    elif measure.engaged(state, m):  # GM-BREAKING-OFF: the Ld test and the parting blow
        foe = move_hooks.break_off(state, ctx, m)
        if foe is not None:
            w = build.melee_weapon(foe)
            hit = wounds.Hit(int(w.get("S", foe.stat("S"))), int(w.get("save", 0)), w, "melee")
            wounds.resolve_hits(state, ctx, foe, m, [hit], "GM-BREAKING-OFF")
        if m.removed or not move_hooks.allowance(state, m, a.mode, float(m.stat("M", 4))):
            mv(m)["moved"] = state.turn
            return
    path = move_hooks.run_path(state, ctx, m, a.mode, list(a.waypoints(m.pos)))
    path = move_hooks.agility(state, ctx, m, a.mode in move_hooks.RUN_MODES, path)
    mv(m)["moved"] = state.turn
    ph = physics(state, ctx)
    res = ph.move(m.id, path[1:]) if len(path) > 1 else None
    if res is not None:
        if math.dist(res.end, m.pos) > 1e-9:
            m.facing = ctx.table.bearing(m.pos, res.end)
        react_hooks.moved_off_overwatch(state, ctx, m, math.dist(res.end, m.pos))
        m.x, m.y = res.end
    if a.facing is not None:
        m.facing = float(a.facing)
    ctx.table.unsync()
    gone = res.travelled if res is not None else 0.0
    stop = f", stopped by {res.blocked_by}" if res is not None and res.blocked_by else ""
    ctx.log.emit("move", f'{m.id} moves {gone:.1f}"{stop} (GM-MOVE)', actor=m.id,
                 rule="GM-MOVE", data={"inches": round(gone, 2)})  # fmt: skip
    offer_pursuit(state, m, held)  # GM-PURSUIT: a rout out of combat may be pursued
    tasks.observe_after_move(state, ctx, m)  # GM-OBSERVATION: entering a hidden thing's area
    react_hooks.after_move(state, ctx, m, path)


def contact_spot(state: GameState, ctx: Context, m: Model, t: Model) -> tuple[float, float] | None:
    """Where the charger's base would touch the target's (nearest its own side)."""
    spots = physics(state, ctx).place_in_contact(t.id, [m.id], {m.id: m.pos})
    return spots.get(m.id)


def charge_problems(state: GameState, ctx: Context, a: Charge) -> list[str]:
    m, t = state.models[a.actor], state.models.get(a.target)
    if t is None or t.removed or t.side == m.side:
        return [f"{a.target} is not an enemy model on the table"]
    why = stuck(state, m) or move_hooks.charge_problem(state, m)
    if why:
        return [why]
    limit = 2 * allowance(state, m)
    gap = measure.gap(m, t)
    if gap > limit + 1e-6:
        return [Reason(f'{t.id} is out of charge reach ({gap:.1f}" > 2 × M = {limit:g}") (GM-CHARGE)',
                       TOO_FAR, distance=gap, limit=limit)]  # fmt: skip
    spot = contact_spot(state, ctx, m, t)
    if spot is None:
        return [f"no room to reach {t.id}'s base (GM-CHARGE)"]
    path = [m.pos, *a.path, spot]
    far = cost(ctx, path)
    if far > limit + 1e-6:
        return [Reason(f'too far to charge ({far:.1f}" > {limit:g}"; difficult ground counts double) (GM-CHARGE)',
                       TOO_FAR, distance=far, limit=limit)]  # fmt: skip
    res = physics(state, ctx).move(m.id, path[1:])
    if res.blocked_by not in (None, t.id) and math.dist(res.end, spot) > 0.05:
        return [f"the way to {t.id} is blocked by {res.blocked_by} (GM-CHARGE)"]
    return []


def resolve_charge(state: GameState, ctx: Context, a: Charge) -> None:
    """GM-CHARGE: the charger dares (psychology), the charged model may react (run or
    stand and fire, GM-CHARGE-REACTIONS: the charge waits for the answer), then the
    charger moves into contact (``complete_charge``)."""
    m, t = state.models[a.actor], state.models[a.target]
    if not fight_hooks.dares_charge(state, ctx, m, t):
        mv(m)["moved"] = state.turn
        return
    asked = react_hooks.ask_overwatch_at_charge(state, ctx, m, t)  # GM-OVERWATCH-ARAP
    if asked or react_hooks.ask_charge_reaction(state, ctx, m, t):
        mv(m)["moved"] = state.turn  # the charge is declared: it goes in on the answer
        return
    complete_charge(state, ctx, m, t)


def complete_charge(state: GameState, ctx: Context, m: Model, t: Model) -> None:
    """The charger moves into base contact, or, when the target ran out of its reach
    (GM-I-CHARGE-REACT), its full charge distance toward it and no further."""
    mv(m)["moved"] = state.turn
    if m.removed or t.removed:
        return
    spot = contact_spot(state, ctx, m, t)
    limit = 2 * allowance(state, m)
    if spot is None or cost(ctx, [m.pos, spot]) > limit + 1e-6:
        move_toward(state, ctx, m, t.pos, limit, "GM-CHARGE", f"falls short of {t.id}:")
        react_hooks.after_move(state, ctx, m, [])
        return
    way = move_hooks.agility(state, ctx, m, True, [m.pos, spot])
    if way[-1] != spot:  # fell over on the way (GM-I-AGILITY): no charge
        m.facing = ctx.table.bearing(m.pos, t.pos)
        m.x, m.y = way[-1]
        ctx.table.unsync()
        return
    m.facing = ctx.table.bearing(m.pos, t.pos)
    gone = math.dist(m.pos, spot)
    if ctx.table.first_touched([m.pos, spot], OBSTACLES) is not None:
        mv(m)["charge_obstacle"] = state.turn  # GM-COMBAT-SCORE: charged over a wall
    react_hooks.moved_off_overwatch(state, ctx, m, gone)
    m.x, m.y = spot
    ctx.table.unsync()
    mv(m)["charged"] = state.turn
    ctx.log.emit("move", f'{m.id} charges {t.id} ({gone:.1f}") (GM-CHARGE)', actor=m.id,
                 target=t.id, rule="GM-CHARGE", outcome="charge")  # fmt: skip
    tasks.observe_after_move(state, ctx, m)
    react_hooks.after_move(state, ctx, m, [])
