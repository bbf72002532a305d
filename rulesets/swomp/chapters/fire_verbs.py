"""The shooting verbs: shoot (a model, or a unit at one target), overwatch and clearing
a jam (SWOMP "Shooting"; "Overwatch"; "Jams"; SWOMP-I-STAND, SWOMP-I-SUSTAINED).

Why apart: what may fire and the bookkeeping of having fired (the action record, who
was fired on for rallying) are shared by a model's own shot and overwatch fire
(answers.py); the contests themselves live in shooting.py.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Shoot
from engine.ruleset import Context
from engine.state import GameState, Model

from ..actions import ClearJam, Overwatch
from ..state import mv
from . import core, morale, shooting, table, vehicles
from .movement import EPS, R_ACTIONS, R_BROKEN, R_HEAVY, R_OVERWATCH, shoot_limit

R_JAM = "SWOMP-JAM"
SHOOT_OPTIONS = ("then_move", "second", "second_target", "fire", "targets", "location")


def weapon_problems(m: Model, w: dict | None, name: str) -> list[str]:
    if w is None:
        names = ", ".join(x["name"] for x in core.ranged(m)) or "none"
        return [f"{m.id} has no ranged weapon '{name}' (it has: {names})"]
    if w["name"] in mv(m).get("jammed", []):
        return [f"{m.id}'s {w['name']} is jammed: a full action clears it ({R_JAM})"]
    if core.is_vehicle(m):
        why = vehicles.weapon_usable(m, w)
        if why:
            return [why]
    return []


def shoot_problems(
    state: GameState,
    ctx: Context,
    m: Model,
    t: Model,
    wname: str,
    options: dict[str, Any],
    overwatch: bool = False,
) -> list[str]:
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
        if mv(m).get("overwatch"):
            r.append(f"{m.id} is on overwatch: it fires when an enemy shows itself ({R_OVERWATCH})")
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
                r.append(
                    f'{m.id} moved {a["moved"]:g}" this action, more than the {lim:g}" '
                    f"it may move and still shoot "
                    f"({R_HEAVY if core.heavy(m) else R_ACTIONS})"
                )
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
            arms = int(mv(m).get("arms", 2))
            if arms <= 2 and (int(w.get("hands", 2)) > 1 or int(w2.get("hands", 2)) > 1):
                r.append(
                    f"standard and heavy weapons need both hands: {m.id} cannot fire "
                    f"{w['name']} and {w2['name']} together ({shooting.R_TWO})"
                )
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
        elif loc not in mv(t)["loc"]:
            r.append(f"{t.id} has no location '{loc}' (locations: {', '.join(mv(t)['loc'])})")
        else:
            r += called_sight_problems(ctx, m, t, str(loc))
    return r


def called_sight_problems(ctx: Context, m: Model, t: Model, loc: str) -> list[str]:
    """SWOMP "Called shots": "only areas that can be sighted by the shooter can be hit
    this way": the shooter's own line of sight (not a spotter's or radar), and a crew
    location only where the crew rides exposed (SWOMP-I-CALLED)."""
    if not table.sight(ctx, m, t)[0]:
        return [f"{m.id} cannot see {t.id} itself: only what the shooter sights may be called"]
    crew = ("crew", "gunner")
    exposed = mv(t)["veh"].get("exposed", [])
    if loc in crew and loc not in exposed:
        return [f"{t.id}'s {loc} rides inside, out of {m.id}'s sight: it cannot be called"]
    return []


def shooters(
    state: GameState, ctx: Context, ms: list[Model], t: Model, wname: str, options: dict[str, Any]
) -> list[tuple[Model, dict]]:
    """For a unit firing at one target: every model that may legally fire the named
    weapon (or, failing that, its first ranged weapon) at it."""
    out = []
    for m in ms:
        names = [wname] if wname and m.weapon(wname) else [w["name"] for w in core.ranged(m)]
        for n in names:
            w = shooting.weapon_of(m, n)
            if w is not None and not shoot_problems(state, ctx, m, t, n, options):
                out.append((m, w))
                break
    return out


def fire(
    state: GameState,
    ctx: Context,
    m: Model,
    t: Model,
    w: dict,
    options: dict[str, Any],
    stance: str,
) -> None:
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


def check_shoot(state, ctx, action: Shoot, ms, unit) -> list[str]:
    t = state.models.get(action.target)
    if t is None or t.removed:
        return [f"no target '{action.target}' on the table"]
    if len(ms) == 1:
        return shoot_problems(state, ctx, ms[0], t, action.weapon, action.options)
    if shooters(state, ctx, ms, t, action.weapon, action.options):
        return []
    return [
        f"no model of {unit} can fire at {t.id}: "
        + "; ".join(shoot_problems(state, ctx, ms[0], t, action.weapon, action.options))
    ]


def apply_shoot(state, ctx, action: Shoot, ms, unit) -> None:
    t = state.models[action.target]
    if len(ms) == 1:
        w = shooting.weapon_of(ms[0], action.weapon)
        assert w is not None, "check() refuses a weapon the model does not carry"
        pairs = [(ms[0], w)]
    else:
        pairs = shooters(state, ctx, ms, t, action.weapon, action.options)
    for m, w in pairs:
        if t.removed or m.removed:
            break
        a = core.act(m)
        stance = "moving"
        if (
            not core.is_vehicle(m)
            and float(a["moved"]) == 0
            and not action.options.get("then_move")
            and not w.get("heavy")
        ):
            stance = "stood"
            a["stood"] = True
        fire(state, ctx, m, t, w, action.options, stance)


def check_overwatch(state, ctx, action: Overwatch, ms, unit) -> list[str]:
    if morale.broken(state, unit):
        return [f"{unit} is broken and may not overwatch ({R_BROKEN})"]
    ok = [m for m in ms if overwatch_problem(m) == ""]
    return [] if ok else [overwatch_problem(ms[0])]


def overwatch_problem(m: Model) -> str:
    a = core.act(m)
    if core.engaged(m):
        return f"{m.id} is in close combat"
    if mv(m).get("overwatch"):
        return f"{m.id} is already on overwatch"
    if a["moves"] or a["shot"] or a["fought"] or a["clearing"]:
        return f"{m.id} has already acted: overwatch is a whole action without moving"
    usable = [w for w in core.ranged(m) if w["name"] not in mv(m).get("jammed", [])]
    if not usable:
        return f"{m.id} has no working ranged weapon"
    return ""


def apply_overwatch(state, ctx, action: Overwatch, ms, unit) -> None:
    for m in ms:
        if overwatch_problem(m) == "":
            mv(m)["overwatch"] = True
            m.set_status("overwatch")
            ctx.log.emit(
                "status",
                f"{m.id} goes on overwatch: it may fire at +1 PR (not heavy "
                f"weapons) until its next action",
                actor=m.id,
                target=m.id,
                rule=R_OVERWATCH,
                outcome="overwatch",
            )


def check_clear(state, ctx, action: ClearJam, ms, unit) -> list[str]:
    if len(ms) != 1:
        return ["jams are cleared model by model"]
    m = ms[0]
    jammed = mv(m).get("jammed", [])
    name = action.weapon or (jammed[0] if jammed else "")
    if name not in jammed:
        return [f"{m.id}'s {name or 'weapon'} is not jammed"]
    a = core.act(m)
    if a["shot"] or a["fought"] or a["clearing"] or core.engaged(m):
        return [f"clearing a jam takes {m.id}'s full action (no shooting or fighting) ({R_JAM})"]
    if a["moved"] > core.mr(m) + EPS:
        return [f"{m.id} moved more than its MR: it cannot also clear a jam"]
    return []


def apply_clear(state, ctx, action: ClearJam, ms, unit) -> None:
    m = ms[0]
    name = action.weapon or mv(m)["jammed"][0]
    jam = [w for w in mv(m)["jammed"] if w != name]
    link = (m.weapon(name) or {}).get("link")
    if link:
        jam = [w for w in jam if (m.weapon(w) or {}).get("link") != link]
    if jam:
        mv(m)["jammed"] = jam
    else:
        mv(m).pop("jammed", None)
        m.set_status("jammed", False)
    core.act(m)["clearing"] = True
    ctx.log.emit(
        "status",
        f"{m.id} spends its action clearing its {name}",
        actor=m.id,
        target=m.id,
        rule=R_JAM,
        outcome="cleared",
    )
