"""Close combat: the close combat contest, damage by margin, parrying, multiple
attackers, the outnumbered model, follow-up moves, retreats, and close combat against
vehicles (SWOMP "Close Combat"); getting into base contact is charging.py's job.

Why the engagement graph: who fights whom is what the rulebook's pairing-off rule
constrains (no model both a multiple attacker and a multiple defender), so engagements
are stored as each model's ``foes`` and every charge is checked against that rule.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from engine.battlefield import Footprint
from engine.dice import percent
from engine.ruleset import Context, Odds
from engine.state import GameState, Model
from engine.table import footprint
from engine.turns import AlternatingFlow

from ..state import mv
from . import contest, core, shooting, table, vehicle_cc, vehicles

R_CC = "SWOMP-CC"
R_CC_DAMAGE = "SWOMP-CC-DAMAGE"
R_CHARGE = "SWOMP-CHARGE"
R_PARRY = "SWOMP-PARRY"
R_FOLLOW = "SWOMP-FOLLOW"
R_RETREAT = "SWOMP-RETREAT"
R_MULTI = "SWOMP-MULTI-ATT"
R_GANG = "SWOMP-GANG"
R_OFF_ME = "SWOMP-OFF-ME"
R_VEH_CC = "SWOMP-VEH-CC"

CHARGE_BONUS = 1
OUTNUMBERED = -1
RETREAT_DEFENDER = -2
RETREAT_ATTACKER = -1
STOPPED_VEHICLE = 5
CONTACT = 0.05  # inches: base contact, allowing for the physics service's 0.01 in gap


def attack_value(
    m: Model, charging: bool, outnumbered: bool = False, weapon: str = ""
) -> list[tuple[str, int]]:
    """The attacker's terms: CR, the melee weapon's WR, +1 when charging, -1 when the
    outnumbered model strikes back at one of its opponents."""
    w = core.best_melee(m, weapon)
    terms = [("CR", core.stat(m, "CR"))]
    if w is not None and int(w.get("WR", 0)):
        terms.append((w["name"], int(w["WR"])))
    if charging or mv(m).get("charge_bonus"):
        terms.append(("charging", CHARGE_BONUS))
    if outnumbered:
        terms.append(("outnumbered", OUTNUMBERED))
    return terms


def defence(d: Model) -> contest.Side:
    """The defender's value: DR, armour, field, +1 for a parrying weapon; a vehicle adds
    its speed in inches (SWOMP "Close combat with vehicles")."""
    if core.is_vehicle(d):
        return contest.side(("DR", core.stat(d, "DR")), ("speed", int(vehicles.speed(d))))
    w = core.best_melee(d)
    parry = 1 if w is not None and w.get("parry") else 0
    return contest.side(
        ("DR", core.stat(d, "DR")),
        ("armour", core.stat(d, "AR")),
        ("field", core.stat(d, "FR")),
        ("parry", parry),
    )


def crew_defence(v: Model) -> contest.Side:
    """An exposed crewman fought in close combat: his own DR, armour and field, plus the
    vehicle's speed in inches (SWOMP-I-VEH-CC)."""
    c = mv(v)["veh"].get("crew", {})
    return contest.side(
        ("crew DR", int(c.get("DR", 3))),
        ("armour", int(c.get("AR", 0))),
        ("field", int(c.get("FR", 0))),
        ("speed", int(vehicles.speed(v))),
    )


def group_side(values: list[tuple[str, list[tuple[str, int]]]]) -> contest.Side:
    """Multiple attackers: the highest CR plus half of each other's, rounded down."""
    totals = [(mid, sum(v for _, v in terms)) for mid, terms in values]
    if len(totals) == 1:
        return contest.side(*values[0][1])
    best = contest.best_terms(totals)
    lead = best[0][0]
    lead_terms = next(t for mid, t in values if mid == lead)
    return contest.side(*lead_terms, *[(name, v) for name, v in best[1:]])


def weapon_extra(m: Model) -> int:
    w = core.best_melee(m)
    return int(w.get("Dam", 1)) - 1 if w is not None else 0


def round_(
    state: GameState,
    ctx: Context,
    attackers: list[Model],
    d: Model,
    charging: bool,
    outnumbered: bool = False,
    rule: str = R_CC,
    late: frozenset[str] = frozenset(),
) -> contest.Result | None:
    """One close combat contest of one or more attackers against one defender; the loser
    of a won contest takes 1, 2 or 3 HP (won by 5, by 10) plus any weapon damage above 1.
    ``late``: attackers already in contact who join a charge's round without its bonus."""
    attackers = [a for a in attackers if not a.removed]
    if not attackers or d.removed:
        return None
    if core.is_vehicle(d):
        return vehicle_attack(state, ctx, attackers, d, charging, "", late)
    values = [
        (a.id, attack_value(a, charging and a.id not in late, outnumbered)) for a in attackers
    ]
    att = group_side(values)
    totals = {mid: sum(v for _, v in terms) for mid, terms in values}
    lead = min(attackers, key=lambda a: (-totals[a.id], a.id))
    dfn = defence(d)
    names = ", ".join(a.id for a in attackers)
    res = contest.roll(ctx, att, dfn, "close combat contest", rule, lead.id, d.id)
    for a in attackers:
        core.act(a)["fought"] = True
        mv(a).pop("charge_bonus", None)
    if res.won:
        dmg = contest.melee_damage(res.margin) + weapon_extra(lead)
        outcome = f"{dmg} HP"
    else:
        dmg, outcome = 0, "held"
    ctx.log.emit(
        "resolution",
        f"{names} {'charge' if charging else 'attack'} {d.id}: {res.text}: "
        f"{'won by ' + str(max(0, res.margin)) + ', ' + outcome if res.won else outcome}",
        actor=lead.id,
        target=d.id,
        rule=rule,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome="hit" if res.won else "miss",
        data={
            "attackers": [a.id for a in attackers],
            "damage": dmg,
            "value": att.value,
            "attacker": res.a_total,
            "defender": res.d_total,
        },
    )
    if dmg:
        core.wound(
            state,
            ctx,
            d,
            dmg,
            f"lost the close combat by {max(0, res.margin)}",
            R_CC_DAMAGE,
            lead.id,
        )
    for a in attackers:
        if not a.removed and not core.foes(state, a) and d.removed:
            core.act(a)["follow"] = core.mr(a) / 2
            ctx.log.emit(
                "note",
                f"{a.id} has killed all its opponents: a follow-up move of "
                f'up to {core.mr(a) / 2:g}" (it may charge)',
                actor=a.id,
                rule=R_FOLLOW,
            )
    return res


def vehicle_attack(
    state: GameState,
    ctx: Context,
    attackers: list[Model],
    v: Model,
    charging: bool,
    location: str,
    late: frozenset[str] = frozenset(),
) -> contest.Result:
    """Models attack a vehicle: CR against DR plus speed in inches (+5 CR against a
    stopped vehicle); several attackers roll one contest, the highest plus half of each
    other's (SWOMP "Multiple attackers": "the same rules apply ... against a vehicle").
    A win damages the chosen location by the lead attacker's weapon damage; a loss means
    the vehicle may run the lead attacker over (a second contest at once,
    SWOMP-I-VEH-MULTI)."""
    values = []
    for a in attackers:
        terms = attack_value(a, charging and a.id not in late)
        if vehicles.speed(v) == 0:
            terms.append(("vehicle stopped", STOPPED_VEHICLE))
        values.append((a.id, terms))
    att = group_side(values)
    totals = {mid: sum(x for _, x in terms) for mid, terms in values}
    a = min(attackers, key=lambda x: (-totals[x.id], x.id))
    location = location or vehicle_cc.default_location(a, v)
    dfn = crew_defence(v) if location in vehicle_cc.crewmen(v) else defence(v)
    rule = R_VEH_CC if len(attackers) == 1 else R_MULTI
    res = contest.roll(ctx, att, dfn, "close combat contest (vehicle)", rule, a.id, v.id)
    for x in attackers:
        core.act(x)["fought"] = True
        mv(x).pop("charge_bonus", None)
    ctx.log.emit(
        "resolution",
        f"{', '.join(x.id for x in attackers)} attack{'s' if len(attackers) == 1 else ''} "
        f"{v.id}'s {location}: {res.text}: {'hit' if res.won else 'fended off'}",
        actor=a.id,
        target=v.id,
        rule=rule,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome="hit" if res.won else "miss",
    )
    if res.won:
        w = core.best_melee(a)
        dam = int(w.get("Dam", 1)) if w else 1
        vehicles.damage(state, ctx, v, dam, location, "close combat", a.id, shooting.blast)
        return res
    run = contest.side(("DR", core.stat(v, "DR")), ("speed", int(vehicles.speed(v))))
    back = contest.side(
        ("DR", core.stat(a, "DR")), ("armour", core.stat(a, "AR")), ("field", core.stat(a, "FR"))
    )
    r2 = contest.roll(ctx, run, back, "run-over contest", R_VEH_CC, v.id, a.id)
    ctx.log.emit(
        "resolution",
        f"{v.id} hits back at {a.id}: {r2.text}: {'run over' if r2.won else 'jumps clear'}",
        actor=v.id,
        target=a.id,
        rule=R_VEH_CC,
        chance=float(r2.chance),
        rolls=r2.rolls,
        outcome="hit" if r2.won else "miss",
    )
    if r2.won:
        core.wound(state, ctx, a, contest.melee_damage(r2.margin), "run over", R_VEH_CC, v.id)
    return res


def plan_fight(
    state: GameState, m: Model, target: str, unit: str, planned: set[str]
) -> dict | None:
    """Who strikes whom when ``m`` takes its close combat action: as one of several
    attackers on one defender, the whole group of its unit strikes together; as the
    outnumbered model it strikes one opponent at -1 CR (SWOMP "Multiple attackers").
    Returns a strike group (plain data) or None; ``planned`` collects the attackers
    already in a group so one action rolls each contest once."""
    if m.id in planned:
        return None
    fs = core.foes(state, m)
    if not fs:
        v = state.models.get(target)
        if v is None or not core.is_vehicle(v):
            return None
        # the side's models on the vehicle strike together (SWOMP "Multiple attackers")
        group = [m] + [
            x
            for x in state.live(m.side)
            if may_join(state, x, unit)
            and x.id not in planned
            and x.id != m.id
            and not core.foes(state, x)
            and not core.act(x)["fought"]
            and not core.is_vehicle(x)
            and table.distance(x, v) <= CONTACT
        ]
        planned.update(x.id for x in group)
        joined(state, [x for x in group if x.unit != unit])
        rule = R_VEH_CC if len(group) == 1 else R_MULTI
        return {
            "attackers": [x.id for x in group],
            "defender": v.id,
            "charging": False,
            "rule": rule,
        }
    if len(fs) > 1:
        d = state.models[target] if target in {f.id for f in fs} else fs[0]
        planned.add(m.id)
        return {
            "attackers": [m.id],
            "defender": d.id,
            "charging": False,
            "outnumbered": True,
            "rule": R_MULTI,
        }
    d = fs[0]
    group = [
        x
        for x in core.foes(state, d)
        if x.side == m.side
        and may_join(state, x, unit)
        and not core.act(x)["fought"]
        and x.id not in planned
        and (x.unit == unit or len(core.foes(state, x)) == 1)  # never a multiple defender too
    ]
    if m not in group:
        group.insert(0, m)
    planned.update(x.id for x in group)
    joined(state, [x for x in group if x.unit != unit])
    return {
        "attackers": [x.id for x in group],
        "defender": d.id,
        "charging": False,
        "rule": R_MULTI if len(group) > 1 else R_CC,
    }


def may_join(state: GameState, x: Model, unit: str) -> bool:
    """``x`` may strike in ``unit``'s close combat: one of its models, or a model of
    another unit of the side that has not yet taken its action this round and has not
    already fought this round (SWOMP "Multiple attackers": "only one contest is
    required", whatever their units; SWOMP-I-MULTI-UNITS)."""
    if x.unit == unit:
        return True
    done = state.vars.get(AlternatingFlow.KEY, {}).get("done", [])
    return x.unit not in done and not fought_this_round(state, x)


def fought_this_round(state: GameState, x: Model) -> bool:
    """``x`` struck this round in another unit's close combat (the per-round record)."""
    rec: dict[str, Any] = core.sw(state).get("joined") or {}
    return rec.get("turn") == state.turn and x.id in rec.get("ids", [])


def joined(state: GameState, ms: list[Model]) -> None:
    """Record the models that strike in another unit's combat: each model fights once
    per round, so their own action may not fight again. The record lives only while
    it matters (dropped at the next round), so games without it checksum as before."""
    if not ms:
        return
    sw = core.sw(state)
    rec = sw.get("joined")
    if not rec or rec["turn"] != state.turn:
        rec = sw["joined"] = {"turn": state.turn, "ids": []}
    rec["ids"] += [x.id for x in ms if x.id not in rec["ids"]]


def charge_groups(pairs: dict[str, str], location: str = "") -> list[dict]:
    """The immediate round after a charge: chargers on each defender strike together
    (at a vehicle, at the ``location`` the charge named)."""
    by_target: dict[str, list[str]] = {}
    for c, t in sorted(pairs.items()):
        by_target.setdefault(t, []).append(c)
    return [
        {
            "attackers": cs,
            "defender": t,
            "charging": True,
            "location": location,
            "rule": R_CHARGE if len(cs) == 1 else R_MULTI,
        }
        for t, cs in sorted(by_target.items())
    ]


def join_charge(state: GameState, groups: list[dict]) -> list[dict]:
    """Friends already in contact with a charged defender strike in the charge's round
    with the chargers: one contest, the highest plus half of each other's (SWOMP
    "Multiple attackers": "only one contest is required"). They join as they would the
    unit's own fight (``may_join``; never a multiple defender too, unless of the
    charging unit) and without the charge bonus, which is the chargers' alone
    (SWOMP-I-MULTI-UNITS)."""
    for g in groups:
        d = state.models[g["defender"]]
        lead = state.models[g["attackers"][0]]
        if d.removed or lead.removed:
            continue
        unit = lead.unit
        if core.is_vehicle(d):
            near = [
                x
                for x in state.live(lead.side)
                if not core.is_vehicle(x)
                and not core.foes(state, x)
                and table.distance(x, d) <= CONTACT
            ]
        else:
            near = [
                x
                for x in core.foes(state, d)
                if x.side == lead.side and (x.unit == unit or len(core.foes(state, x)) == 1)
            ]
        late = [
            x
            for x in near
            if x.id not in g["attackers"] and may_join(state, x, unit) and not core.act(x)["fought"]
        ]
        if late:
            g["attackers"] = g["attackers"] + [x.id for x in late]
            g["late"] = [x.id for x in late]
            g["rule"] = R_MULTI
            joined(state, [x for x in late if x.unit != unit])
    return groups


def strike(state: GameState, ctx: Context, group: dict) -> None:
    """Roll one planned strike group. Attackers whose defender got away (a retreat, or
    death) have lost this attack."""
    d = state.models[group["defender"]]
    attackers = [state.models[a] for a in group["attackers"] if not state.models[a].removed]
    if d.removed or not attackers:
        return
    late = frozenset(group.get("late", ()))
    if core.is_vehicle(d):
        loc = str(group.get("location", ""))
        vehicle_attack(state, ctx, attackers, d, bool(group["charging"]), loc, late)
        return
    held = [a for a in attackers if d.id in mv(a).get("foes", [])]
    for a in attackers:
        if a not in held:
            core.act(a)["fought"] = True
            mv(a).pop("charge_bonus", None)
            ctx.log.emit(
                "note",
                f"{a.id}'s attack is lost: {d.id} is no longer in combat with it",
                actor=a.id,
                target=d.id,
                rule=R_RETREAT,
            )
    if held:
        round_(
            state,
            ctx,
            held,
            d,
            bool(group["charging"]),
            outnumbered=bool(group.get("outnumbered")),
            rule=str(group["rule"]),
            late=late,
        )


# --- placing models (charges and retreats) ----------------------------------------------------


def sync(state: GameState, ctx: Context) -> None:
    ctx.physics.sync({m.id: footprint(m) for m in state.live()})


def put(
    m: Model, p: tuple[float, float], facing_to: tuple[float, float], cost: float | None = None
) -> float:
    """Set a model down after a charge or retreat; ``cost`` is the inches it spent (the
    straight distance unless given)."""
    d = math.dist(m.pos, p)
    if d > 1e-9:
        m.facing = round(table.bearing(p, facing_to), 1) if not core.is_vehicle(m) else m.facing
    m.x, m.y = round(p[0], 2), round(p[1], 2)
    a = core.act(m)
    a["moved"] = round(float(a["moved"]) + (d if cost is None else cost), 2)
    a["moves"] = int(a["moves"]) + 1
    mv(m)["moved"] = a["moved"]
    return d


# --- retreating --------------------------------------------------------------------------------


def retreat_sides(
    state: GameState, m: Model, as_defender: bool
) -> tuple[contest.Side, contest.Side]:
    """The retreat contest: the retreating model's CR (-1 as the attacker, -2 as the
    defender) against its opponents' CR, combined as multiple attackers (SWOMP-I-RETREAT)."""
    pen = RETREAT_DEFENDER if as_defender else RETREAT_ATTACKER
    att = contest.side(("CR", core.stat(m, "CR")), ("retreating", pen))
    fs = core.foes(state, m)
    dfn = group_side([(f.id, [("CR", core.stat(f, "CR"))]) for f in fs])
    return att, dfn


def retreat(
    state: GameState,
    ctx: Context,
    m: Model,
    to: tuple[float, float] | None,
    as_defender: bool = False,
) -> bool:
    """Try to leave every fight the model is in; as the defender (a reaction to being
    attacked, SWOMP-I-RETREAT) it is not the model's own action, so its record of what
    it has done this round is left alone."""
    att, dfn = retreat_sides(state, m, as_defender)
    fs = core.foes(state, m)
    res = contest.roll(ctx, att, dfn, "retreat contest", R_RETREAT, m.id, fs[0].id if fs else "")
    if not as_defender:
        core.act(m)["fought"] = True
    ctx.log.emit(
        "resolution",
        f"{m.id} tries to retreat from {', '.join(f.id for f in fs)}: "
        f"{res.text}: {'gets away' if res.won else 'is held'}",
        actor=m.id,
        target=fs[0].id if fs else "",
        rule=R_RETREAT,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome="retreated" if res.won else "held",
    )
    if not res.won:
        return False
    mv(m)["left"] = [f.id for f in fs]
    for f in fs:
        core.disengage(m, f)
    if to is not None:
        fall_back(state, ctx, m, to)
    return True


def fall_back(state: GameState, ctx: Context, m: Model, to: tuple[float, float]) -> None:
    """The retreat's move: straight toward ``to``, stopped by the first base or obstacle,
    facing away from where it came from."""
    sync(state, ctx)
    r = ctx.physics.move(m.id, [to])
    put(m, r.end, (2 * r.end[0] - m.x, 2 * r.end[1] - m.y))
    ctx.log.emit(
        "move",
        f'{m.id} falls back {r.travelled:.1f}" to ({r.end[0]:.2f}, {r.end[1]:.2f})',
        actor=m.id,
        rule=R_RETREAT,
    )


# --- odds --------------------------------------------------------------------------------------


def damage_dist(att: contest.Side, dfn: contest.Side, extra: int = 0) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for k, p in contest.margin_dist(att.value, dfn.value).items():
        dmg = 0 if k < 0 else contest.melee_damage(k) + extra
        out[dmg] = out.get(dmg, Fraction(0)) + p
    return out


def odds(att: contest.Side, dfn: contest.Side, extra: int, what: str) -> Odds:
    dist = damage_dist(att, dfn, extra)
    p = 1 - dist.get(0, Fraction(0))
    lines = [
        f"{what}: {' + '.join(f'{t.reason} {t.value}' for t in att.terms)} + d10 against "
        f"{' + '.join(f'{t.reason} {t.value}' for t in dfn.terms)} + d10",
        f"win {percent(p)}; "
        + ", ".join(f"{k} HP {percent(v)}" for k, v in sorted(dist.items()) if k),
    ]
    exp = sum((k * v for k, v in dist.items()), Fraction(0))
    return Odds(chance=p, dist=dist, lines=lines, expected=exp)


def footprint_at(m: Model, p: tuple[float, float]) -> Footprint:
    return Footprint(p[0], p[1], m.facing, m.base)
