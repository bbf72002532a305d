"""The odds preview: exact chances for a shot, a charge or fight, a retreat, a rally or
a ram, before anything is rolled (the ``odds`` call of the ruleset interface).

Why apart: read-only arithmetic over the contest distributions that the window and the
AI ask for; it never touches the state and shares nothing with apply but the sides of
each contest (shooting.py, melee.py, contest.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.actions import Action, Charge, Fight, Shoot
from engine.dice import percent
from engine.ruleset import Context, Odds
from engine.state import GameState, Model

from .actions import Rally, Ram, Retreat
from .chapters import contest, core, melee, morale, reactions, shooting, vehicle_cc, vehicles
from .flow import resolve_actor
from .state import mv


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
        stance = (
            "overwatch"
            if pend
            else (
                "stood"
                if not core.is_vehicle(m)
                and float(a["moved"]) == 0
                and not action.options.get("then_move")
                else "moving"
            )
        )
        return shot_odds(
            state, ctx, m, t, w, action.options, stance, bool(action.options.get("second"))
        )
    if isinstance(action, (Charge, Fight)):
        ms, _ = resolve_actor(state, action.actor)
        t = state.models.get(action.target)
        if not ms:
            return None
        if t is None and mv(ms[0]).get("foes"):
            t = state.models[mv(ms[0])["foes"][0]]
        if t is None:
            return None
        charging = isinstance(action, Charge)
        dfn = melee.defence(t)
        if core.is_vehicle(t):
            stopped = [("vehicle stopped", melee.STOPPED_VEHICLE)] if vehicles.speed(t) == 0 else []
            att = melee.group_side([(m.id, melee.attack_value(m, charging) + stopped) for m in ms])
            loc = str(
                getattr(action, "options", {}).get("location", "")
            ) or vehicle_cc.default_location(ms[0], t)
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
        return Odds(
            chance=p, lines=[f"retreat: {att.value} + d10 against {dfn.value} + d10: {percent(p)}"]
        )
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
        ram_at = core.stat(v, "DR") + contest.ram_speed_bonus(spd)
        ram_def = core.stat(t, "DR") + (
            contest.ram_speed_bonus(vehicles.speed(t))
            if core.is_vehicle(t)
            else core.stat(t, "AR") + core.stat(t, "FR") + shooting.move_bonus(t)
        )
        dist: dict[int, Any] = {}
        for k, p in contest.margin_dist(ram_at, ram_def).items():
            dmg = 0 if k < 0 else contest.ram_damage(k)
            dist[dmg] = dist.get(dmg, 0) + p
        ch = 1 - dist.get(0, 0)
        return Odds(
            chance=ch,
            dist=dist,
            lines=[f"ram: DR + speed {ram_at} + d10 against {ram_def} + d10: {percent(ch)}"],
        )
    return None


def hits_dist(p: Fraction, n: int) -> dict[int, Fraction]:
    """Exact distribution of the number of won contests in ``n`` independent shots."""
    dist = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for k, q in dist.items():
            nxt[k] = nxt.get(k, Fraction(0)) + q * (1 - p)
            nxt[k + 1] = nxt.get(k + 1, Fraction(0)) + q * p
        dist = nxt
    return dist


def shot_odds(
    state: GameState,
    ctx: Context,
    shooter: Model,
    target: Model,
    weapon: dict,
    options: dict[str, Any],
    stance: str,
    two: bool,
) -> Odds:
    """Chance of at least one hit, the distribution of hits, and the terms of the contest.
    The range is not part of it: it is measured only after the shot is declared."""
    _, cover = shooting.sighted(state, ctx, shooter, target, weapon)
    att = shooting.attack(shooter, weapon, stance, shooting.extra_terms(options, two))
    crew = core.is_vehicle(target) and bool(mv(target)["veh"].get("exposed"))
    dfn = shooting.defence(target, cover, moving=True)
    p = contest.p_win(att.value, dfn.value)
    lines = [
        f"{' + '.join(f'{t.reason} {t.value}' for t in att.terms)} + d10 against "
        f"{' + '.join(f'{t.reason} {t.value}' for t in dfn.terms)} + d10",
        f"one shot wins {percent(p)} (a 1 always loses, a 10 always wins, ties to the defender)",
    ]
    if crew:
        lines.append("exposed crew: the location is rolled first; a crew hit uses the crew's DR")
    n = sum(int(w.get("shots", 1)) for w in shooting.battery(shooter, weapon))
    dist = hits_dist(p, n)
    dam = int(weapon.get("Dam", 1))
    dmg = {k * dam: q for k, q in dist.items()}
    chance = 1 - dist[0]
    if n > 1:
        lines.append(f"{n} shots: at least one hit {percent(chance)}")
    lines.append("range is measured only after the shot is declared (SWOMP-RANGE)")
    exp = sum((k * q for k, q in dmg.items()), Fraction(0))
    return Odds(chance=chance, dist=dmg, lines=lines, expected=exp)
