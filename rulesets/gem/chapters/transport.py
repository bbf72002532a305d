"""Troops inside vehicles (GEM-3.1, GEM-3.3): getting in and out, replacing a driver,
and the troopers of a wreck (GEM-I-EMBARK, GEM-I-DRIVER, GEM-I-CREW).

Why troops are figures: the rulebook's vehicles are "for transporting troops", it rolls
"for each trooper" when the body is torn apart, and a lost driver is replaced by a
suitable figure in range — so passengers are the army's own figures. A figure inside is
off the table (``removed`` with ``aboard`` = the vehicle's id in its vars and the status
"aboard", its HIT kept); a replacement driver likewise with ``driving``. A
vehicle's ``crew = { count, DEF, HIT }`` is the older form: troops that ride in it from
the start and are never fielded, counted against its ``capacity``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.actions import Action
from engine.battlefield import Footprint, base_size_in
from engine.ruleset import TOO_FAR, Context, Reason
from engine.state import GameState, Model

from ..actions import field_of
from ..state import (
    driverless,
    has_driver,
    in_block_order,
    in_melee,
    mtype,
    mv,
    remove_model,
    unit_models,
)
from . import measure
from .combat import Attack, roll_attack
from .tables import terrain

VERBS = ("embark", "disembark", "replace_driver")
Timing = Callable[[GameState, str, str, str], str]
Pose = tuple[float, float, float]


# ------------------------------------------------------------------ who is inside
def crew_count(v: Model) -> int:
    crew = mv(v).get("crew") or {}
    return max(0, int(crew.get("count", 0)) - int(crew.get("lost", 0)))


def capacity(v: Model) -> int:
    """Figures the vehicle carries (its carrying capacity; the crew record's count when
    no capacity is given)."""
    cap = mv(v).get("capacity")
    return int(cap) if cap is not None else int((mv(v).get("crew") or {}).get("count", 0))


def aboard(state: GameState, v: Model) -> list[Model]:
    """The figures riding in ``v``, in id order."""
    return [m for _, m in sorted(state.models.items()) if mv(m).get("aboard") == v.id and m.hp > 0]


def room(state: GameState, v: Model) -> int:
    return capacity(v) - crew_count(v) - len(aboard(state, v))


def carried(m: Model) -> bool:
    """Is the figure inside a vehicle (a passenger or its driver), alive?"""
    return bool(mv(m).get("aboard") or mv(m).get("driving")) and m.hp > 0


# ------------------------------------------------------------------ checks
def problems(state: GameState, a: Action, ctx: Context, timing: Timing) -> list[str]:
    """Every reason the embark, disembark or replace_driver ``a`` may not be done now."""
    kind = a.KIND
    if kind == "disembark":
        return _disembark_problems(state, a, ctx, timing)
    figs = _on_table(state, a.actor) if kind == "embark" else _any_figure(state, a.actor)
    if not figs:
        return [f"no figure or unit '{a.actor}' that could do that"]
    v = state.models.get(str(field_of(a, "target", "") or ""))
    if v is None or v.removed or mtype(v) != "vehicle":
        return [f"'{field_of(a, 'target', '')}' is not a vehicle on the table"]
    if v.side != figs[0].side:
        return [f"{v.id} is not on your side"]
    unit = figs[0].unit if kind == "embark" else v.unit
    why = timing(state, kind, unit, v.side)
    if why:
        return [why]
    if kind == "embark":
        out = [p for f in figs for p in _fit_problems(state, ctx, f, v)]
        if room(state, v) < len(figs):
            out.append(
                f"{v.id} has room for {max(0, room(state, v))} more (capacity {capacity(v)}, "
                f"{crew_count(v)} crew and {len(aboard(state, v))} aboard) (GEM-I-EMBARK)"
            )
        return out
    return _replace_problems(state, ctx, figs, v)


def _on_table(state: GameState, actor: str) -> list[Model]:
    if actor in state.models:
        m = state.models[actor]
        return [] if m.removed else [m]
    return unit_models(state, actor)


def _any_figure(state: GameState, actor: str) -> list[Model]:
    m = state.models.get(actor)
    return [m] if m is not None and (not m.removed or mv(m).get("aboard")) else []


def _fit_problems(state: GameState, ctx: Context, f: Model, v: Model) -> list[str]:
    """Can figure ``f`` get into ``v`` this turn (GEM-I-EMBARK)?"""
    from .movement import can_move_problems

    if mtype(f) == "vehicle" or in_block_order(f):
        return [f"{f.id} cannot ride in a vehicle: only single figures do (GEM-I-EMBARK)"]
    out = can_move_problems(state, f.unit, f)
    if in_melee(state, f.unit):
        out.append(f"{f.id} is locked in melee")
    if not out:
        out += reach_problems(state, ctx, f, v)
    return out


def reach_problems(state: GameState, ctx: Context, f: Model, v: Model) -> list[str]:
    """GEM-I-EMBARK: a straight walk to the vehicle, priced as a move, within MOV."""
    from .movement import allowance, price

    if measure.distance(f, v) <= 0.05:
        return []
    res = measure.space(ctx, state).move(f.id, [v.pos])
    if res.blocked_by != v.id:
        what = res.blocked_by or "nothing"
        return [f"{f.id} cannot reach {v.id}: the way is blocked by {what}"]
    path = [f.pos, (float(res.end[0]), float(res.end[1]))]
    cost, _, _ = price(ctx, path, f)
    allow, _ = allowance(state, ctx, f, path, False)
    if cost > allow + 0.01:
        return [
            Reason(
                f'{v.id} is too far for {f.id}: {cost:.1f}" to reach it, MOV {allow:g}"',
                TOO_FAR,
                distance=cost,
                limit=allow,
            )
        ]
    return []


def _disembark_problems(state: GameState, a: Action, ctx: Context, timing: Timing) -> list[str]:
    figs = riders(state, a.actor)
    if not figs:
        return [f"'{a.actor}' is not riding in a vehicle"]
    v = state.models[str(mv(figs[0])["aboard"])]
    tgt = field_of(a, "target", "")
    if tgt and tgt != v.id:
        return [f"{a.actor} is riding in {v.id}, not {tgt}"]
    why = timing(state, "disembark", v.unit, v.side)
    if why:
        return [why]
    out = []
    for f in figs:
        if mv(f).get("moved_done"):
            out.append(f"{f.id} got in this turn: it has made its move (GEM-I-EMBARK)")
        if "disorganized" in f.status:
            out.append(f"{f.id} is disorganized and cannot move this turn (GEM-2.4.5)")
    if out:
        return out
    spots = exit_spots(state, ctx, v, figs, _to(a))
    out += [f"no room beside {v.id} for {f.id} to get out" for f in figs if f.id not in spots]
    return out


def riders(state: GameState, actor: str) -> list[Model]:
    """The figures ``actor`` names that ride in one vehicle (a figure, or a unit's)."""
    if actor in state.models:
        m = state.models[actor]
        return [m] if mv(m).get("aboard") and m.hp > 0 else []
    figs = [
        m
        for _, m in sorted(state.models.items())
        if m.unit == actor and mv(m).get("aboard") and m.hp > 0
    ]
    return figs if len({mv(m)["aboard"] for m in figs}) == 1 else []


def _to(a: Action) -> tuple[float, float] | None:
    to = field_of(a, "to", None)
    return (float(to[0]), float(to[1])) if to else None


def _replace_problems(state: GameState, ctx: Context, figs: list[Model], v: Model) -> list[str]:
    """GEM-3.3: a lost driver is replaced the next turn by a suitable figure in range
    (GEM-I-DRIVER); it takes the figure's whole turn."""
    f = figs[0]
    if not has_driver(v):
        return [f"{v.id}'s central control is not a driver (GEM-3.3)"]
    if not driverless(v):
        return [f"{v.id} has its driver"]
    if state.turn <= int(mv(v)["driver_out"]):
        return [f"{v.id}'s driver was lost this turn: he can be replaced from next turn (GEM-3.3)"]
    if mtype(f) == "vehicle" or in_block_order(f):
        return [f"{f.id} cannot drive {v.id}: only single figures do (GEM-I-DRIVER)"]
    busy = [k for k in ("moved_done", "fired", "fought") if f.vars.get(k)]
    if busy:
        return [f"{f.id} has already acted this turn: replacing a driver takes a full turn"]
    if mv(f).get("aboard") == v.id:
        return []
    if mv(f).get("aboard"):
        return [f"{f.id} is riding in {mv(f)['aboard']}"]
    return _fit_problems(state, ctx, f, v)


# ------------------------------------------------------------------ doing it
def apply(state: GameState, a: Action, ctx: Context) -> None:
    kind = a.KIND
    if kind == "embark":
        v = state.models[str(field_of(a, "target"))]
        for f in _on_table(state, a.actor):
            embark(state, ctx, f, v)
    elif kind == "disembark":
        figs = riders(state, a.actor)
        v = state.models[str(mv(figs[0])["aboard"])]
        spots = exit_spots(state, ctx, v, figs, _to(a))
        for f in figs:
            _set_down(state, ctx, f, v, spots[f.id])
    else:
        v = state.models[str(field_of(a, "target"))]
        replace_driver(state, ctx, _any_figure(state, a.actor)[0], v)


def embark(state: GameState, ctx: Context, f: Model, v: Model) -> None:
    """The figure walks to the vehicle and climbs in: off the table, its move made."""
    gap = measure.distance(f, v)
    f.removed = True
    f.set_status("aboard")
    mv(f)["aboard"] = v.id
    mv(f)["moved_done"] = True
    mv(f)["moved"] = round(gap, 3)
    f.x, f.y, f.facing = v.x, v.y, v.facing
    ctx.log.emit(
        "move",
        f'{f.id} walks {gap:.1f}" and gets into {v.id} ({len(aboard(state, v))} of '
        f"{capacity(v) - crew_count(v)} places taken) (GEM-I-EMBARK)",
        actor=f.id,
        target=v.id,
        rule="GEM-3.1",
    )


def _set_down(state: GameState, ctx: Context, f: Model, v: Model, pose: Pose) -> None:
    f.removed = False
    f.set_status("aboard", False)
    mv(f).pop("aboard", None)
    f.x, f.y, f.facing = float(pose[0]), float(pose[1]), float(pose[2]) % 360.0
    mv(f)["moved_done"] = True
    mv(f)["moved"] = round(math.dist(f.pos, v.pos), 3)
    ctx.log.emit(
        "move",
        f"{f.id} gets out of {v.id} to ({f.x:.2f}, {f.y:.2f}), in base contact: its move "
        f"(GEM-I-EMBARK)",
        actor=f.id,
        target=v.id,
        rule="GEM-3.1",
    )


def exit_spots(
    state: GameState, ctx: Context, v: Model, figs: list[Model], to: tuple[float, float] | None
) -> dict[str, Pose]:
    """Where each figure stands when it gets out: in base contact with the vehicle, as
    near ``to`` as there is room (default: behind it), facing away (GEM-I-EMBARK). Asks
    the physics service; the figures are synced at the vehicle only for the question."""
    ph = ctx.physics
    bodies = {m.id: Footprint(m.x, m.y, m.facing, m.base) for m in state.live()}
    for f in figs:
        bodies[f.id] = Footprint(v.x, v.y, v.facing, f.base)
    if to is None:
        back = max(base_size_in(v.base)) / 2 + 1.0
        to = (
            v.x - back * math.cos(math.radians(v.facing)),
            v.y - back * math.sin(math.radians(v.facing)),
        )
    try:
        ph.sync(bodies)
        got = ph.place_in_contact_poses(v.id, [f.id for f in figs], {f.id: to for f in figs})
    finally:
        ctx.table.unsync()
        measure.space(ctx, state)
    return {k: (p[0], p[1], (p[2] + 180.0) % 360.0) for k, p in got.items()}


def replace_driver(state: GameState, ctx: Context, f: Model, v: Model) -> None:
    """GEM-3.3: the figure takes the controls; it takes the full turn, and the vehicle is
    under control again from the next turn (GEM-I-DRIVER)."""
    mv(f).pop("aboard", None)
    f.set_status("aboard", False)
    f.removed = True
    f.set_status("driving")
    mv(f)["driving"] = v.id
    for k in ("moved_done", "fired", "fought"):
        f.vars[k] = True
    f.x, f.y, f.facing = v.x, v.y, v.facing
    mv(v).pop("driver_out", None)
    mv(v)["driver_figure"] = f.id
    mv(v).setdefault("damage", {})["central_control"] = []
    for s in ("no_driver", "seizures", "stunned_driver"):
        v.set_status(s, False)
    for k in ("moved_done", "fired", "fought"):
        v.vars[k] = True
    ctx.log.emit(
        "status",
        f"{f.id} takes {v.id}'s controls: the new driver takes the full turn and drives from "
        f"next turn (GEM-3.3)",
        actor=f.id,
        target=v.id,
        rule="GEM-3.3",
    )


# ------------------------------------------------------------------ wrecks
def wreck(state: GameState, ctx: Context, v: Model, off: int) -> None:
    """GEM-3.3: the driver is out for the game; each trooper inside takes a damage roll
    at the attack's OFF (the crew record's first, then the figures in id order), and the
    figures that live climb out where the wreck lies."""
    from ..build import def_value

    fig = mv(v).pop("driver_figure", None)
    if fig and fig in state.models:
        d = state.models[fig]
        mv(d).pop("driving", None)
        d.set_status("driving", False)
        remove_model(state, d, "unconscious")
        ctx.log.emit(
            "removed",
            f"{d.id}, {v.id}'s driver, is unconscious for the rest of the game (GEM-3.3)",
            actor=d.id,
            rule="GEM-3.3",
        )
    crew = mv(v).get("crew")
    if crew and crew.get("count"):
        a = Attack(off, int(crew.get("DEF", 3)), int(crew["count"]), (), f"troops inside {v.id}")
        hits, faces, txt, chance = roll_attack(ctx, a, actor=v.id, target=v.id, rule="GEM-3.3")
        crew["lost"] = hits
        ctx.log.emit(
            "resolution",
            txt + " (one damage roll per trooper)",
            actor=v.id,
            rule="GEM-3.3",
            rolls=faces,
            chance=float(chance),
            outcome=f"{hits} of {crew['count']} troopers lost",
        )
    out: list[Model] = []
    for f in aboard(state, v):
        a = Attack(off, def_value(f, ""), 1, (), f"{f.id} inside {v.id}")
        hits, faces, txt, chance = roll_attack(ctx, a, actor=v.id, target=f.id, rule="GEM-3.3")
        ctx.log.emit(
            "resolution",
            txt + " (a damage roll for a trooper inside)",
            actor=v.id,
            target=f.id,
            rule="GEM-3.3",
            rolls=faces,
            chance=float(chance),
            outcome="hit" if hits else "miss",
        )
        f.hp -= hits
        mv(f).pop("aboard", None)
        f.set_status("aboard", False)
        if f.hp <= 0:
            remove_model(state, f, "slain")
            ctx.log.emit("removed", f"{f.id} dies in {v.id}", actor=f.id, rule="GEM-3.3")
        else:
            out.append(f)
    for f in out:
        _climb_out(state, ctx, f, v)


def _climb_out(state: GameState, ctx: Context, f: Model, v: Model) -> None:
    """Set a survivor down on the first clear spot in or around the wreck's footprint."""
    w, d = base_size_in(v.base)
    s = max(base_size_in(f.base)) + 0.05
    ux, uy = math.cos(math.radians(v.facing)), math.sin(math.radians(v.facing))
    spots = [
        (v.x + a * ux - b * uy, v.y + a * uy + b * ux) for a in _steps(d, s) for b in _steps(w, s)
    ]
    r0 = max(w, d) / 2 + s / 2
    spots += [_ring(v.pos, r0 + k * s, t) for k in range(4) for t in range(0, 360, 30)]
    bf = ctx.battlefield
    imp = terrain("impassable")
    for x, y in spots:
        fp = Footprint(x, y, v.facing, f.base)
        lo = measure.bounds(fp)
        if lo[0] < 0 or lo[1] < 0 or lo[2] > bf.width or lo[3] > bf.depth:
            continue
        if measure.features_under(bf, fp, imp):
            continue
        if any(measure.overlaps(fp, measure.fp(o)) for o in state.live() if o.id != f.id):
            continue
        f.removed = False
        f.x, f.y, f.facing = x, y, v.facing
        ctx.log.emit(
            "move",
            f"{f.id} climbs out of the wreck of {v.id} at ({x:.2f}, {y:.2f}) (GEM-3.3)",
            actor=f.id,
            rule="GEM-3.3",
        )
        return
    remove_model(state, f, "trapped")
    ctx.log.emit(
        "removed", f"{f.id} finds no room to climb out of {v.id}", actor=f.id, rule="GEM-3.3"
    )


def _steps(length: float, s: float) -> list[float]:
    """Offsets from the centre along a side of ``length`` for figures ``s`` apart."""
    n = max(1, int(length // s))
    return [(i - (n - 1) / 2) * s for i in range(n)]


def _ring(c: tuple[float, float], r: float, deg: float) -> tuple[float, float]:
    return (c[0] + r * math.cos(math.radians(deg)), c[1] + r * math.sin(math.radians(deg)))


def check_army(models: list[Model]) -> list[tuple[str, str]]:
    """A figure that starts ``aboard`` names a vehicle of its side with room for it."""
    out: list[tuple[str, str]] = []
    by_id = {m.id: m for m in models}
    load: dict[str, int] = {}
    for m in models:
        vid = mv(m).get("aboard")
        if not vid:
            continue
        v = by_id.get(str(vid))
        if v is None or mtype(v) != "vehicle":
            out.append((m.id, f"{m.id} is aboard '{vid}', which is not a vehicle here"))
        elif v.side != m.side:
            out.append((m.id, f"{m.id} is aboard {v.id} of another side"))
        elif mtype(m) == "vehicle" or in_block_order(m):
            out.append((m.id, f"{m.id} cannot ride in a vehicle (GEM-I-EMBARK)"))
        else:
            load[v.id] = load.get(v.id, 0) + 1
            if load[v.id] > capacity(v) - crew_count(v):
                out.append(
                    (m.id, f"{v.id} has room for {capacity(v) - crew_count(v)} (GEM-I-EMBARK)")
                )
    return out
