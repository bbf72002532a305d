"""Climbing and falling (UMR-CLIMBING, UMR-FALLING): a climb adds several dice, halved
for the inches up or down and whole across the top; a model that drops from high up may
be hurt.

Why apart from movement.py: a climb spans several activations (its progress lives in
the model's vars), and a fall is the one move that rolls damage.
"""

from __future__ import annotations

import math

from engine.polygons import point_in_polygon, polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr.actions import Climb
from rulesets.umr.chapters import combat, common, measure
from rulesets.umr.chapters.attacks import deal, roll_damage
from rulesets.umr.chapters.combat import HIT, SAVED, Defence
from rulesets.umr.chapters.terrain import Point, TerrainIndex, table
from rulesets.umr.chapters.walking import (
    _leave_melee,
    _radius,
    _roll_move,
    _six_text,
    _spend_n,
    move_mods,
)
from rulesets.umr.state import mv

#: A base this close (inches) to a wall, building or rocks may start to climb it.
CLIMB_REACH = 0.5


def _route(
    ctx: Context, m: Model, fid: str, to: Point | None
) -> tuple[list[tuple[str, float]], float]:
    """The climb's stretches ("up", "across", "down") and the starting elevation."""
    idx = table(ctx)
    f = idx.tall_feature(fid)
    assert f is not None
    h = idx.readings.height_of(f)
    on_top = mv(m).get("on") == fid and float(mv(m).get("elev", 0.0)) > 0
    legs: list[tuple[str, float]] = [] if on_top else [("up", float(h))]
    if to is not None:
        legs.append(("across", float(idx.length_inside(f, m.pos, to))))
        legs.append(("down", h))
    return legs, (h if on_top else 0.0)


def check_climb(state: GameState, a: Climb, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    n = a.count or common.dice_for(state, m, "move")
    if a.count < 0:
        return why + ["a climb adds 1 or more dice"]
    why = common.need_die(state, m, "move", max(1, n))
    cur = mv(m).get("climb")
    if cur:
        if a.feature and a.feature != cur["feature"]:
            why.append(
                f"{m.id} is part-way up {cur['feature']}: it must finish that climb (UMR-CLIMBING)"
            )
        if a.to is not None:
            why.append("a climb already under way keeps its destination; leave `to` out")
        return why
    idx = table(ctx)
    f = idx.tall_feature(a.feature) if a.feature else None
    if f is None:
        return why + [f"'{a.feature}' is not a wall, building or rocks to climb (UMR-CLIMBING)"]
    on_top = mv(m).get("on") == f.id and float(mv(m).get("elev", 0.0)) > 0
    if float(mv(m).get("elev", 0.0)) > 0 and not on_top:
        why.append(f"{m.id} is up on {mv(m).get('on')}, not on {f.id}")
    rad = _radius(m)
    if not on_top and polygon_distance(m.pos, f.polygon) - rad > CLIMB_REACH:
        why.append(
            f"{m.id} is not at the foot of {f.id}: its base must be within "
            f'{CLIMB_REACH:g}" of it to climb (UMR-CLIMBING)'
        )
    if on_top and a.to is None:
        why.append(
            f"{m.id} is already on top of {f.id}: give `to`, the ground point to climb down to"
        )
    if a.to is not None:
        why += _landing_problems(state, ctx, m, f.id, a.to, rad, idx)
    if not on_top:
        why += _leave_melee(state, m)
    return why


def _landing_problems(
    state: GameState, ctx: Context, m: Model, fid: str, to: Point, rad: float, idx: TerrainIndex
) -> list[str]:
    why = []
    f = idx.tall_feature(fid)
    assert f is not None
    if not ctx.battlefield.on_table(*to):
        return [f"({to[0]:g}, {to[1]:g}) is off the table"]
    if point_in_polygon(to[0], to[1], f.polygon) or idx.tall_at(to) is not None:
        return [f"({to[0]:g}, {to[1]:g}) is not on the ground: it is inside a tall feature"]
    if polygon_distance(to, f.polygon) - rad > CLIMB_REACH:
        why.append(f'({to[0]:g}, {to[1]:g}) is not at the foot of {f.id} (within {CLIMB_REACH:g}")')
    other = idx.tall_on([m.pos, to], skip=fid)
    if other is not None:
        why.append(f"the way over {f.id} to ({to[0]:g}, {to[1]:g}) runs into {other.id}")
    for o in state.live():
        if o.id != m.id and math.dist(o.pos, to) < rad + _radius(o) - 1e-6:
            why.append(f"({to[0]:g}, {to[1]:g}) is taken by {o.id}")
            break
    return why


def _advance(legs: list[tuple[str, float]], done: float, pips: float) -> float:
    """How far along the climb's route ``pips`` inches of dice carry a model that has
    already covered ``done``: up and down cost two pips an inch (UMR-CLIMBING: the dice
    are halved "to see how many inches you can climb vertically"); the stretch across
    the top is walked, an inch a pip."""
    at = 0.0
    for kind, length in legs:
        if done >= at + length - 1e-12:
            at += length
            continue
        rate = 1.0 if kind == "across" else 2.0
        here = max(done, at)
        step = min(at + length - here, pips / rate)
        done = here + step
        pips -= step * rate
        at += length
        if pips <= 1e-12:
            break
    return done


def pips_needed(legs: list[tuple[str, float]], done: float = 0.0) -> float:
    """Dice pips still needed to finish a climb: two an inch up or down, one across."""
    need, at = 0.0, 0.0
    for kind, length in legs:
        left = max(0.0, at + length - max(done, at))
        need += left * (1.0 if kind == "across" else 2.0)
        at += length
    return need


def _elev_at(legs: list[tuple[str, float]], start: float, done: float) -> float:
    e = start
    left = done
    for kind, length in legs:
        step = min(left, length)
        if kind == "up":
            e += step
        elif kind == "down":
            e -= step
        left -= step
        if left <= 0:
            break
    return max(0.0, e)


def apply_climb(state: GameState, a: Climb, ctx: Context) -> None:
    """Climb (UMR-CLIMBING, UMR-I-CLIMB): the dice are added, +MOVE once; halved, they
    are the inches climbed up or down; the stretch across the top is walked at full rate."""
    m = state.models[a.actor]
    common.start(state, m)
    cur = mv(m).get("climb")
    if not cur:
        legs, e0 = _route(ctx, m, a.feature, a.to)
        cur = {
            "feature": a.feature,
            "to": [float(a.to[0]), float(a.to[1])] if a.to else None,
            "legs": [list(x) for x in legs],
            "start": e0,
            "done": 0.0,
        }
    n = a.count or common.dice_for(state, m, "move")
    mods = move_mods(m, None)
    srcs = _spend_n(m, n)
    total, faces, sixes = _roll_move(ctx, m, f"climb ({n} dice added, halved)", mods, n, srcs, None)
    gain = total / 2
    route = sum(x[1] for x in cur["legs"])
    legs = [(k, float(v)) for k, v in cur["legs"]]
    cur["done"] = min(route, _advance(legs, float(cur["done"]), total))
    elev = _elev_at(legs, float(cur["start"]), cur["done"])
    fid = cur["feature"]
    txt = (
        f"{m.id} climbs {fid}: {n}d6 {' + '.join(map(str, faces))}"
        f'{common.mods_text(mods)} = {total}, halved = {gain:g}" up or down'
        f"{' (the top is walked at full rate)' if any(k == 'across' for k, _ in legs) else ''}; "
    )
    if cur["done"] < route - 1e-9:
        mv(m)["climb"] = cur
        mv(m)["elev"] = round(elev, 2)
        mv(m)["on"] = fid
        txt += f'{cur["done"]:g} of {route:g}" done, {elev:g}" up: still climbing'
        outcome = "climbing"
    else:
        mv(m).pop("climb", None)
        to = cur["to"]
        if to is None:
            mv(m)["elev"] = round(elev, 2)
            mv(m)["on"] = fid
            txt += f'reaches the top of {fid}, {elev:g}" up'
            outcome = "on top"
        else:
            taken = [
                o.id
                for o in state.live()
                if o.id != m.id and math.dist(o.pos, to) < _radius(o) + _radius(m) - 1e-6
            ]
            if taken:
                h = max(float(v) for k, v in cur["legs"] if k == "down")
                mv(m)["elev"] = float(h)
                mv(m)["on"] = fid
                txt += f"the landing spot is taken by {taken[0]}: it waits on top"
                outcome = "on top"
            else:
                m.x, m.y = float(to[0]), float(to[1])
                mv(m)["elev"] = 0.0
                mv(m)["on"] = ""
                txt += f"climbs down at ({to[0]:g}, {to[1]:g})"
                outcome = "down"
    ctx.log.emit(
        "move",
        txt + f" (UMR-CLIMBING){_six_text(m, sixes)}",
        actor=m.id,
        rule="UMR-CLIMBING",
        rolls=faces,
        outcome=outcome,
        data={"elev": mv(m).get("elev", 0.0), "gain": gain},
    )
    common.after_die_action(state, m)
    measure.refresh_status(ctx, m)


def fall(state: GameState, ctx: Context, m: Model) -> None:
    """Drop from a tall feature to the ground (UMR-FALLING): one floor or less is safe
    ("anyone falling from one floor or lower receives no penalties"); a longer fall takes
    "a damage test of one attack dice per floor", one for every whole floor fallen
    (UMR-I-FALL): an attack die against a defence die, no bonuses, damage on a win."""
    elev = float(mv(m).get("elev", 0.0))
    fid = mv(m).get("on", "")
    floor = table(ctx).readings.floor
    floors = int(elev / floor + 1e-9)
    tests = floors if floors > 1 else 0
    mv(m)["elev"] = 0.0
    mv(m)["on"] = ""
    mv(m).pop("climb", None)
    ctx.log.emit(
        "status",
        f'{m.id} drops {elev:g}" ({floors} floor{"s" if floors != 1 else ""}'
        f' of {floor:g}") from {fid}: {tests} falling damage test'
        f"{'s' if tests != 1 else ''} (UMR-FALLING)",
        actor=m.id,
        rule="UMR-FALLING",
        outcome="falls",
        data={"tests": tests},
    )
    p = combat.contest(0, Defence())
    for i in range(tests):
        ar = ctx.dice.roll(
            6, f"falling test {i + 1}", actor=m.id, rule="UMR-FALLING", chance=p[HIT]
        )
        dr = ctx.dice.roll(6, "defence (no bonus)", actor=m.id, rule="UMR-FALLING")
        a, d = ar.faces[0], dr.faces[0]
        if d == 6 or a <= d:
            why = "natural six on defence" if d == 6 else f"{a} does not beat {d}"
            ctx.log.emit(
                "resolution",
                f"{m.id} falling test {i + 1}: attack d6 {a} vs defence "
                f"d6 {d}: {why}, unhurt (UMR-FALLING)",
                actor=m.id,
                target=m.id,
                rule="UMR-FALLING",
                chance=float(p[HIT]),
                rolls=[a, d],
                outcome=SAVED if d == 6 else "miss",
            )
            continue
        ctx.log.emit(
            "resolution",
            f"{m.id} falling test {i + 1}: attack d6 {a} beats defence d6 {d}: hurt (UMR-FALLING)",
            actor=m.id,
            target=m.id,
            rule="UMR-FALLING",
            chance=float(p[HIT]),
            rolls=[a, d],
            outcome=HIT,
        )
        amount, faces = roll_damage(ctx, m.id, 0, "falling damage", "UMR-FALLING")
        deal(
            state,
            ctx,
            m,
            amount,
            f"{m.id} falls: damage {' + '.join(map(str, faces))}",
            m.id,
            "UMR-FALLING",
            faces,
        )
        if m.removed:
            return


def _drop_first(state: GameState, ctx: Context, m: Model) -> bool:
    """A model up on a feature that walks or jumps off falls first; True if it survives."""
    if float(mv(m).get("elev", 0.0)) > 0 and not mv(m).get("climb"):
        fall(state, ctx, m)
    return not m.removed
