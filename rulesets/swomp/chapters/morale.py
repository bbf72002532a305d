"""Units and morale: coherency, break tests, broken behaviour and rallying (SWOMP "Units").

Why apart: a unit's state (its original points, what it has lost, whether it is broken
and since when) outlives any one action; the rules read it when a unit moves, shoots,
charges or rallies, and every casualty may trigger a test.
"""

from __future__ import annotations

from engine.battlefield import base_radius_in
from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import contest, core, table

R_UNITS = "SWOMP-UNITS"
R_COHERENCY = "SWOMP-COHERENCY"
R_BREAK = "SWOMP-BREAK"
R_BROKEN = "SWOMP-BROKEN"
R_RALLY = "SWOMP-RALLY"

COHERENCY = 4.0
COHERENCY_BROKEN = 2.0
BREAK_STEP = 0.25
BREAK_MARGIN = 2


def setup(state: GameState) -> None:
    """Record each unit's original points and commander (the highest SR model)."""
    for unit, ms in state.units(live=False).items():
        info = core.unit_info(state, unit)
        info["points"] = sum(int(mv(m).get("points", 0)) for m in ms)
        best = core.commander(state, unit)
        info["commander"] = best.id if best else ""


def broken(state: GameState, unit: str) -> bool:
    return bool(core.unit_info(state, unit).get("broken"))


def coherency(state: GameState, unit: str) -> float:
    """Coherency distance (SWOMP-I-COHERENCY): 4" normally, 2" for a broken unit."""
    return COHERENCY_BROKEN if broken(state, unit) else COHERENCY


def coherency_problem(state: GameState, m: Model, at: tuple[float, float]) -> str:
    """A model may not end a move farther than the coherency distance from every other
    model of its unit (measured base edge to base edge)."""
    mates = [x for x in core.unit_models(state, m.unit) if x.id != m.id]
    if not mates:
        return ""
    ghost = Model.from_dict({**m.to_dict(), "x": at[0], "y": at[1]})
    limit = coherency(state, m.unit)
    gap = min(table.distance(ghost, x) for x in mates)
    if gap > limit + 1e-6:
        return (
            f'{m.id} would be {gap:.1f}" from the nearest model of {m.unit}, beyond its '
            f'{limit:g}" coherency ({R_COHERENCY})'
        )
    ms = core.unit_models(state, m.unit)
    after = [ghost if x.id == m.id else x for x in ms]
    if len(groups(after, limit)) > len(groups(ms, limit)):
        return (
            f"{m.id} moving to ({at[0]:g}, {at[1]:g}) would split {m.unit}: every model "
            f'must stay within {limit:g}" of the unit ({R_COHERENCY})'
        )
    return ""


def groups(ms: list[Model], limit: float) -> list[set[str]]:
    """The unit's models in chains whose neighbours are within ``limit`` (base edge to
    base edge): one group when the unit is in coherency (SWOMP "Units")."""
    out: list[set[str]] = []
    left = {x.id: x for x in ms}
    while left:
        first = next(iter(left.values()))
        seen = {first.id}
        frontier = [first]
        del left[first.id]
        while frontier:
            a = frontier.pop()
            for b in list(left.values()):
                if table.distance(a, b) <= limit + 1e-6:
                    seen.add(b.id)
                    frontier.append(b)
                    del left[b.id]
        out.append(seen)
    return out


def in_coherency(state: GameState, unit: str, limit: float) -> bool:
    return len(groups(core.unit_models(state, unit), limit)) <= 1


def break_need(state: GameState, unit: str) -> tuple[Model | None, int]:
    c = core.commander(state, unit)
    return c, (core.stat(c, "SR") + BREAK_MARGIN if c else 0)


def break_tests(state: GameState, ctx: Context) -> None:
    """After casualties: a unit that has lost another 25% of its original points tests
    (SWOMP "Break Tests"): a d10 above the commander's SR + 2 breaks it."""
    for unit in sorted(core.sw(state)["units"]):
        info = core.unit_info(state, unit)
        pts = int(info.get("points", 0))
        if pts <= 0 or info.get("broken") or not core.unit_models(state, unit):
            continue
        steps = int(int(info.get("lost", 0)) / (pts * BREAK_STEP) + 1e-9)
        steps = min(steps, 3)
        while int(info.get("tests", 0)) < steps and not info.get("broken"):
            info["tests"] = int(info.get("tests", 0)) + 1
            test(state, ctx, unit, f"{info['lost']} of {pts} points lost")


def test(state: GameState, ctx: Context, unit: str, why: str, rule: str = R_BREAK) -> bool:
    """Roll one break test; True when passed."""
    c, need = break_need(state, unit)
    if c is None:
        return False
    p = contest.d10_under(need)
    r = ctx.dice.roll(
        10,
        f"break test ({unit})",
        need=f"{need} or less",
        chance=p,
        actor=c.id,
        rule=rule,
        result=lambda t, f: "holds" if f[0] <= need else "breaks",
    )
    ok = r.result == "holds"
    info = core.unit_info(state, unit)
    ctx.log.emit(
        "morale",
        f"{unit} break test ({why}): d10 rolled {r.faces[0]} against "
        f"commander {c.id}'s SR {core.stat(c, 'SR')} + 2 = {need}: "
        f"{'holds' if ok else 'breaks'} (chance {round(float(p) * 100)}%)",
        actor=c.id,
        target=unit,
        rule=rule,
        chance=float(p),
        rolls=list(r.faces),
        outcome="passed" if ok else "broken",
    )
    if not ok and rule == R_BREAK:
        info["broken"] = True
        info["broken_turn"] = state.turn
        for m in core.unit_models(state, unit):
            m.set_status("broken")
            mv(m).pop("overwatch", None)
            m.set_status("overwatch", False)
    return ok


def rally_problems(state: GameState, ctx: Context, unit: str) -> list[str]:
    """SWOMP "Rallying": broken for a full turn, in cover, not under fire, not in close
    combat, every model within the 2" broken coherency."""
    info = core.unit_info(state, unit)
    out = []
    if not info.get("broken"):
        return [f"{unit} is not broken"]
    if state.turn < int(info.get("broken_turn", 0)) + 2:
        out.append(
            f"{unit} broke in turn {info['broken_turn']}: it must stay broken for a "
            f"full turn (rally from turn {int(info['broken_turn']) + 2}) ({R_RALLY})"
        )
    ms = core.unit_models(state, unit)
    soft_or_hard = set(core_cover_kinds())
    for m in ms:
        if mv(m).get("cover") in ("soft", "hard"):
            continue
        if not soft_or_hard & set(ctx.table.near(m.pos, base_radius_in(m.base) + 1.0)):
            out.append(f"{m.id} is not in cover ({R_RALLY})")
            break
    if info.get("fired_on") or info.get("under_fire"):
        out.append(f"{unit} has been under enemy fire since its last action ({R_RALLY})")
    if any(core.engaged(m) for m in ms):
        out.append(f"{unit} is engaged in close combat ({R_RALLY})")
    if not in_coherency(state, unit, COHERENCY_BROKEN):
        out.append(f"{unit}'s models are not all within {COHERENCY_BROKEN:g}\" ({R_RALLY})")
    return out


def core_cover_kinds() -> list[str]:
    from .catalog import TERRAIN

    return list(TERRAIN["soft"]) + list(TERRAIN["hard"])


def rally(state: GameState, ctx: Context, unit: str) -> None:
    info = core.unit_info(state, unit)
    old = state.models.get(info.get("commander", ""))
    if old is None or old.removed:
        new = core.commander(state, unit)
        if new is not None:
            info["commander"] = new.id
            ctx.log.emit(
                "morale",
                f"{unit} designates {new.id} (SR {core.stat(new, 'SR')}) as its new commander",
                actor=new.id,
                target=unit,
                rule=R_RALLY,
            )
    ok = test(state, ctx, unit, "rally", rule=R_RALLY)
    if ok:
        info["broken"] = False
        for m in core.unit_models(state, unit):
            m.set_status("broken", False)
        ctx.log.emit(
            "status",
            f"{unit} rallies: it moves and fights as normal again",
            target=unit,
            rule=R_RALLY,
            outcome="rallied",
        )
