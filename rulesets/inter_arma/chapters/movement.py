"""Movement (IA-MOVE, IA-FATIGUE, IA-WEATHER, IA-NIGHT): allowances in cm and their
reductions, the fatigue roll, and the move itself through the physics service.

Why reductions are listed: the window's path preview and every refusal show each cm the
text takes off (dark, getting up, uphill, low obstacle, heavy woods, shot at), so a
player sees why a 12 cm run became 5.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.actions import Move
from engine.ruleset import TOO_FAR, Context, Reason
from engine.state import GameState, Model
from engine.whether import only_whether
from rulesets.inter_arma.build import foot_type, mounted
from rulesets.inter_arma.chapters import combat, formation, goals, measure, night, retreat
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs, mv

MODES = ("walk", "run", "crawl")


def mode_of(m: Model, a: Move) -> str:
    """The move's mode: as given, else walk (a mounted rider runs, IA-MOVE)."""
    return a.mode or ("run" if mounted(m) else "walk")


def base_cm(m: Model, mode: str) -> float | None:
    t = "cavalry" if mounted(m) else foot_type(m)
    return T.MOVES[(t, bool(m.stats.get("armored")))].get(mode)


def reductions(
    state: GameState, ctx: Context, m: Model, mode: str, path: list[tuple[float, float]]
) -> list[tuple[int, str]]:
    """IA-MOVE a-f and IA-WEATHER: (cm, reason) each reduction the path incurs."""
    crawl = mode == "crawl"
    out: list[tuple[int, str]] = []
    cond = measure.conditions(state)
    if cond == "night" and not crawl:
        out.append((T.DARK, "moving in the dark (IA-MOVE a)"))
    if cond in ("rain", "fog"):
        out.append((T.RAIN, f"{cond} (IA-WEATHER)"))
    if "crawling" in m.status and not crawl:
        out.append((T.GET_UP, "getting up (IA-MOVE b)"))
    if len(path) >= 2 and not crawl:
        bf = ctx.battlefield
        if ctx.geo.elevation_at(path[-1]) > ctx.geo.elevation_at(path[0]) + 1e-9:
            out.append((T.UPHILL, "uphill (IA-MOVE c)"))
        from engine.geometry import crossings

        if crossings(path, bf, {"line"}):
            out.append((T.LOW_OBSTACLE, "crossing a low obstacle (IA-MOVE d)"))
        if crossings(path, bf, {"heavy_woods"}) or "heavy_woods" in measure.kinds_under(ctx, m):
            out.append((T.HEAVY_WOODS, "in heavy woods (IA-MOVE e)"))
    if mv(m).get("shot_at") == state.turn - 1:
        out.append((T.SHOT_AT, "shot at in the previous turn (IA-MOVE f)"))
    return out


def allowance_cm(
    state: GameState, ctx: Context, m: Model, mode: str, path: list[tuple[float, float]]
) -> tuple[float, list[tuple[int, str]]]:
    base = base_cm(m, mode) or 0.0
    red = reductions(state, ctx, m, mode, path)
    return max(0.0, base - sum(r for r, _ in red)), red


def length(path: list[tuple[float, float]]) -> float:
    return sum(math.dist(a, b) for a, b in zip(path, path[1:]))


def check(state: GameState, ctx: Context, a: Move) -> list[str]:
    m = state.models[a.actor]
    mode = mode_of(m, a)
    if mode not in MODES:
        return [f"'{mode}' is not a way to move (walk, run, crawl; IA-MOVE)"]
    why: list[str] = []
    if mv(m).get("moved") == state.turn:
        why.append(f"{m.id} has already moved this turn (IA-SEQUENCE)")
    if "wounded" in m.status:
        why.append(f"{m.id} is wounded: it stays in place (IA-WOUNDED)")
    base = base_cm(m, mode)
    if base is None:
        why.append(
            f"{m.id} cannot {mode}: {'cavalry only runs' if mounted(m) else 'not in the table'} (IA-MOVE)"
        )
        return why
    path = list(a.waypoints(m.pos))
    if any(not ctx.battlefield.on_table(x, y) for x, y in path):
        why.append("the path leaves the table")
    if why and only_whether():
        return why  # refused already: the terrain along the path can wait (issue 24)
    why += retreat.check(state, ctx, m, path)
    if mode == "crawl" and len(path) >= 2:
        from engine.geometry import crossings

        if (
            crossings(path, ctx.battlefield, {"line"})
            or ctx.geo.elevation_at(path[-1]) > ctx.geo.elevation_at(path[0]) + 1e-9
        ):
            why.append(
                "a crawling figure cannot go uphill or cross a low obstacle (IA-MOVE c, d; IA-I-CRAWL)"
            )
    ban = formation.woods_ban(state, ctx, m, path)
    if ban:
        why.append(ban)
    allow, red = allowance_cm(state, ctx, m, mode, path)
    far = T.cm(length(path))
    if far > allow + 1e-6:
        detail = "".join(f", \u2212{r} cm {why_}" for r, why_ in red)
        why.append(
            Reason(
                f"too far ({far:.1f} cm > {allow:g} cm: {mode} {base:g} cm{detail})",
                TOO_FAR,
                distance=far,
                limit=allow,
            )
        )
    return why


def fatigue(state: GameState, ctx: Context, m: Model, mode: str) -> str:
    """IA-FATIGUE: every turn after the first a figure that runs rolls a d6 (no dice when
    walking; cavalry has no row and rolls none, IA-I-FATIGUE). Returns '', 'half', 'tired'."""
    t = foot_type(m) if not mounted(m) else "cavalry"
    if state.turn <= 1 or mode != "run" or t not in T.FATIGUE:
        return ""
    half, tired = T.FATIGUE[t]
    bad = len(half | tired)
    r = ctx.dice.roll(6, f"{m.id} fatigue", actor=m.id, rule="IA-FATIGUE", chance=Fraction(6 - bad, 6),
                      need=f"not {'/'.join(str(f) for f in sorted(half | tired))}",
                      result=lambda tot, f: "halved" if tot in half else "tired" if tot in tired else "fresh")  # fmt: skip
    combat.report(ctx, r, actor=m.id, rule="IA-FATIGUE")
    return {"halved": "half", "tired": "tired"}.get(str(r.result), "")


def cut(path: list[tuple[float, float]], limit: float) -> list[tuple[float, float]]:
    """The path up to ``limit`` inches along it."""
    out, left = [path[0]], limit
    for a, b in zip(path, path[1:]):
        d = math.dist(a, b)
        if d <= left + 1e-9:
            out.append(b)
            left -= d
            continue
        k = left / d if d else 0.0
        out.append((a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k))
        break
    return out


def apply(state: GameState, ctx: Context, a: Move) -> None:
    m = state.models[a.actor]
    mode = mode_of(m, a)
    path = list(a.waypoints(m.pos))
    mv(m)["moved"] = state.turn
    m.set_status("tired", False)
    if not retreat.break_away(state, ctx, m):
        return
    allow, _ = allowance_cm(state, ctx, m, mode, path)
    tired = fatigue(state, ctx, m, mode)
    if tired == "tired":
        m.set_status("tired")
        ctx.log.emit(
            "move",
            f"{m.id} is tired and does not move this turn (IA-FATIGUE)",
            actor=m.id,
            rule="IA-FATIGUE",
            outcome="tired",
        )
        return
    if tired == "half":
        allow /= 2
    bf = ctx.battlefield
    path = night.turn_path(
        path, night.direction(state, ctx, m), bf.width, bf.depth, measure.base_radius(m)
    )
    path = cut(path, T.inches(allow))
    ctx.physics.sync({x.id: measure.footprint(x) for x in state.live()})
    res = ctx.physics.move(m.id, path[1:]) if len(path) > 1 else None
    if res is not None:
        m.x, m.y = res.end
    if a.facing is not None:
        m.facing = float(a.facing)
    m.set_status("crawling", mode == "crawl")
    gone = T.cm(res.travelled) if res is not None else 0.0
    stop = f", stopped by {res.blocked_by}" if res is not None and res.blocked_by else ""
    ctx.log.emit("move", f"{m.id} {mode}s {gone:.1f} cm of its {allow:g} cm{' (halved by fatigue)' if tired else ''}{stop} (IA-MOVE)",
                 actor=m.id, rule="IA-MOVE", outcome=mode, data={"cm": round(gone, 2)})  # fmt: skip
    pick_up(state, ctx, m)
    goals.visit(state, m)


def pick_up(state: GameState, ctx: Context, m: Model) -> None:
    """IA-JAVELIN: a figure with a javelin weapon and none in hand picks up a missed
    javelin it ends its move within 2 cm of (a Roman pilum never returns)."""
    marks = gs(state).get("javelin_markers") or []
    if (
        not any(w.get("kind") == "javelin" and not w.get("pilum") for w in m.weapons)
        or int(mv(m).get("javelins", 0)) > 0
    ):
        return
    for i, (x, y) in enumerate(marks):
        if T.cm(math.dist((x, y), m.pos)) <= 2 + T.cm(measure.base_radius(m)):
            marks.pop(i)
            mv(m)["javelins"] = 1
            ctx.log.emit(
                "note", f"{m.id} picks up a javelin (IA-JAVELIN)", actor=m.id, rule="IA-JAVELIN"
            )
            return
