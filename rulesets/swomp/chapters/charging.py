"""Charging: who may charge and how far, packing the chargers round the target, the
gang fight's pairing off and "get them off me" (SWOMP "Charging"; "The gang fight and
pairing off"; "The Get them off me! rule"; SWOMP-I-CHARGE).

Why apart: a charge is a move that ends in base contact, so its legality and its
placement must measure the same way (reach.py measures one path; this module decides
who goes where); the close combat contest it leads to stays in melee.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import core, melee, packing, reach, table
from .catalog import TERRAIN

R_CHARGE = "SWOMP-CHARGE"
R_GANG = "SWOMP-GANG"
R_OFF_ME = "SWOMP-OFF-ME"
R_RAM = "SWOMP-RAM"
EPS = 1e-6
Point = tuple[float, float]


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
    return {
        m.id: [(round(x + m.x - lead.x, 2), round(y + m.y - lead.y, 2)) for x, y in pts] for m in ms
    }


def charger_problems(
    state: GameState, ctx: Context, c: Model, t: Model, via: Sequence[tuple[float, float]] = ()
) -> list[str]:
    a = core.act(c)
    if core.is_vehicle(c):
        return [f"{c.id} is a vehicle: vehicles ram ({R_RAM})"]
    if core.engaged(c):
        return [f"{c.id} is already in close combat"]
    if mv(c).get("overwatch"):
        return [f"{c.id} is on overwatch"]
    r = []
    if a["follow"] <= 0:
        if a["shot"]:
            r.append(
                f"{c.id} shot this action: a model cannot shoot and move into close "
                f"combat in the same turn ({R_CHARGE})"
            )
        elif a["moves"] or a["fought"] or a["stood"] or a["clearing"]:
            r.append(f"{c.id} has already acted this action: a charge is a whole Move action")
    if r:
        return r
    d = table.distance(c, t)
    lim = charge_limit(c)
    if d > lim + EPS:
        r.append(f'{t.id} is {d:.1f}" away: {c.id} may charge {lim:g}" ({R_CHARGE})')
    else:
        way = reach.reach(state, ctx, c, t, lim, via)
        if not way.ok:
            r.append(way.why)
    return r


def charge(
    state: GameState,
    ctx: Context,
    chargers: list[Model],
    target: Model,
    allowance: dict[str, float],
    via: dict[str, list[tuple[float, float]]] | None = None,
) -> dict[str, str]:
    """Move chargers into base contact along their paths (SWOMP "Charging"), each to the
    spot the packing gives it (packing.py). A charger that cannot reach its spot pairs
    off with the nearest other model of the target's unit it can reach (SWOMP "The gang
    fight"); failing that it closes in as far as it can (SWOMP-I-CHARGE). Returns
    charger -> the model it now fights."""
    via = via or {}
    out: dict[str, str] = {}
    vehicle = core.is_vehicle(target)
    if not vehicle:
        for a, b in _off_me_drop(state, chargers, target):
            core.disengage(state.models[a], state.models[b])
            ctx.log.emit(
                "note",
                f"{a} leaves its fight with {b} to face its new attacker (no retreat needed)",
                actor=a,
                rule=R_OFF_ME,
            )
    p = packing.plan(state, ctx, target, chargers, allowance, via)
    for cid, r in p.placed.items():
        c = state.models[cid]
        assert r.spot is not None
        melee.put(c, r.spot, target.pos, r.cost)
        if not vehicle:
            core.engage(c, target)
        out[cid] = target.id
    for cid, r in p.short.items():
        c = state.models[cid]
        ctx.log.emit("note", r.why, actor=cid, target=target.id, rule=R_CHARGE)
        foe = None if vehicle else pair_off(state, ctx, c, target, allowance[cid])
        if foe is None and close_in(state, ctx, c, target, r, allowance[cid], via.get(cid, ())):
            foe = target.id
        if foe is not None:
            out[cid] = foe
    for cid, tid in out.items():
        ctx.log.emit(
            "move",
            f"{cid} charges into base contact with {tid}",
            actor=cid,
            target=tid,
            rule=R_CHARGE,
            data={"to": list(state.models[cid].pos)},
        )
    return out


def pair_off(state: GameState, ctx: Context, c: Model, target: Model, limit: float) -> str | None:
    """A charger with no way onto its target pairs off with the nearest other model of
    the target's unit it can reach, keeping the pairing-off rule (SWOMP "The gang
    fight"). Returns the model it now fights, or None."""
    others = [
        m
        for m in core.unit_models(state, target.unit)
        if m.id != target.id and not core.is_vehicle(m)
    ]
    for o in sorted(others, key=lambda o: (table.distance(c, o), o.id)):
        if not core.star_ok(state, [(c.id, o.id)]):
            continue
        way = packing.place_alone(state, ctx, o, c, limit)
        if way is None:
            continue
        assert way.spot is not None
        melee.put(c, way.spot, o.pos, way.cost)
        core.engage(c, o)
        ctx.log.emit(
            "note",
            f"{c.id} finds no room on {target.id} and pairs off with {o.id}",
            actor=c.id,
            target=o.id,
            rule=R_GANG,
        )
        return o.id
    return None


def close_in(
    state: GameState,
    ctx: Context,
    c: Model,
    target: Model,
    way: reach.Reach,
    limit: float,
    via: Sequence[Point] = (),
) -> bool:
    """The text has no failed charge and says nothing of a charger that cannot reach the
    spot it is packed into: it moves as far as its charge allows along its way there
    (toward the target itself when it found no room), stopped by the first base,
    obstacle or table edge met (SWOMP-I-CHARGE). True if that leaves it in base contact
    with the target, which then counts as its charge."""
    dest = way.spot if way.spot is not None else target.pos
    pts = list(way.path) if way.path else [c.pos, *[(p[0], p[1]) for p in via], (dest[0], dest[1])]
    pts = reach.within(ctx, pts, limit)
    melee.sync(state, ctx)
    r = ctx.physics.move(c.id, pts[1:])
    if r.travelled < 0.01:
        ctx.log.emit(
            "note",
            f"{c.id} cannot close in on {target.id}: it stays where it is",
            actor=c.id,
            target=target.id,
            rule=R_CHARGE,
        )
        return False
    cost = table.path_cost(ctx, reach.prefix(pts, r.travelled), TERRAIN["difficult"])
    melee.put(c, r.end, target.pos, cost)
    touching = r.blocked_by == target.id and table.distance(c, target) <= melee.CONTACT
    if touching and not core.is_vehicle(target):
        touching = core.star_ok(state, [(c.id, target.id)])
        if touching:
            core.engage(c, target)
    ctx.log.emit(
        "move",
        f"{c.id} cannot reach its place round {target.id}: it closes in "
        f'{r.travelled:.1f}" to ({c.x:.2f}, {c.y:.2f})'
        + (f", stopped by {r.blocked_by}" if r.blocked_by else ""),
        actor=c.id,
        target=target.id,
        rule=R_CHARGE,
        data={"to": [c.x, c.y], "moved": core.act(c)["moved"]},
    )
    return touching


def _off_me_drop(state: GameState, chargers: list[Model], target: Model) -> list[tuple[str, str]]:
    """ "Get them off me": charging one of several attackers ganging up on a friend pulls
    it out of that fight (SWOMP "The Get them off me! rule")."""
    if len(chargers) != 1:
        return []
    c = chargers[0]
    fs = core.foes(state, target)
    if len(fs) == 1 and fs[0].side == c.side and len(core.foes(state, fs[0])) > 1:
        return [(target.id, fs[0].id)]
    return []


def charge_problem(state: GameState, chargers: list[Model], target: Model) -> str:
    if core.is_vehicle(target):
        return ""
    drop = _off_me_drop(state, chargers, target)
    extra = [(c.id, target.id) for c in chargers]
    if not core.star_ok(state, extra[:6], drop):
        return (
            f"charging {target.id} would make a model both a multiple attacker and a "
            f"multiple defender ({R_GANG})"
        )
    return ""
