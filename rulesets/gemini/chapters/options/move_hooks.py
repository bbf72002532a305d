"""The movement switches in play: how far a model may go now (its statuses, running),
where a run halts, breaking off from combat, follow-up and reserve moves.

Why these and not the core: the core measures and moves; these answer the allowance,
the refusals, the truncation of a run and the moves out of the movement phase, each
from the switch that grants or limits it.
"""

from __future__ import annotations

import math

from engine.polygons import path_prefix
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import movement_extras as MX
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.chapters.options.sides import nearest_enemy
from rulesets.gemini.state import mv, stamp

Point = tuple[float, float]
RUN_MODES = ("run", "running")
#: the most a d6 run may add (the check allows it; the roll on the move truncates it)
D6_MAX = 6.0


def allowance(state: GameState, m: Model, mode: str, base: float) -> float:
    """The inches ``m`` may move now: its statuses' limits (half, a 2" crawl, none),
    and a run (GM-RUNNING) twice the move or the move and up to a d6."""
    sw = switches.of(state)
    lim = C.limits(m, sw.injuries, bool(sw.combat_score))
    if lim.move == "none":
        return 0.0
    if lim.move == "crawl":
        return min(base, C.CRAWL_INCHES)
    if lim.move == "half":
        return base / 2
    if mode in RUN_MODES and sw.running != "none":
        return 2 * base if sw.running == "double" else base + D6_MAX
    return base


def move_problems(state: GameState, m: Model, mode: str) -> list[str]:
    """Refusals the switches add to a move: running where it may not start, or for a
    model whose statuses forbid it, or with the switch off."""
    sw = switches.of(state)
    if mode not in RUN_MODES:
        return []
    if sw.running == "none":
        return [f"running is not in play in this scenario ({MX.R_RUN})"]
    lim = C.limits(m, sw.injuries, bool(sw.combat_score))
    if not lim.run:
        return [f"{m.id} cannot run now: {'; '.join(lim.reasons)}"]
    why = MX.run_problem(nearest_enemy(state, m), sw.turns)
    return [why] if why else []


def _halt(state: GameState, m: Model, path: list[Point]) -> list[Point]:
    """GM-RUNNING: cut the run where it first comes within 8" of an enemy."""
    foes = [e for e in state.live() if e.side != m.side]
    if not foes:
        return path
    here = (m.x, m.y)
    out = [path[0]]
    for a, b in zip(path, path[1:]):
        seg = math.dist(a, b)
        steps = max(1, int(seg / 0.05))
        for k in range(1, steps + 1):
            p = (a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
            m.x, m.y = p
            near = min(measure.gap(m, e) for e in foes)
            if near <= MX.RUN_CLEAR:
                m.x, m.y = here
                out.append(p)
                return out
        out.append(b)
    m.x, m.y = here
    return out


def run_path(state: GameState, ctx: Context, m: Model, mode: str, path: list[Point]) -> list[Point]:
    """The path a run really takes: with a d6 run the d6 is rolled and the path cut to
    M + d6; either way it halts on coming within 8" of an enemy. Marks the model as
    having run (no shooting this turn)."""
    sw = switches.of(state)
    if mode not in RUN_MODES or sw.running == "none":
        return path
    mv(m)["ran"] = state.turn
    if sw.running == "d6":
        extra, rolls = MX.run_allowance(ctx.dice, m, "d6", float(m.stats.get("M", 4)))
        report_all(ctx, rolls, m.id)
        path = path_prefix(path, extra)
    cut = _halt(state, m, path)
    if len(cut) < len(path) or cut[-1] != path[-1]:
        say(ctx, f'{m.id} comes within 8" of the enemy and halts', m.id, MX.R_RUN, "halted")
    return cut


def shoot_problem(state: GameState, m: Model) -> str:
    """Statuses that forbid shooting (ran, down, pinned, stupid, running for cover...)."""
    sw = switches.of(state)
    lim = C.limits(m, sw.injuries, bool(sw.combat_score))
    return "" if lim.shoot else f"{m.id} cannot shoot now: {'; '.join(lim.reasons)}"


def charge_problem(state: GameState, m: Model) -> str:
    """Statuses that forbid charging (frozen, dazed, reeling, routing...)."""
    sw = switches.of(state)
    lim = C.limits(m, sw.injuries, bool(sw.combat_score))
    if "routing" in m.status:
        return f"{m.id} is routing: it cannot charge (GM-I-ROUT)"
    return "" if lim.charge else f"{m.id} cannot charge now: {'; '.join(lim.reasons)}"


# --- moves out of the movement phase -----------------------------------------------------


def follow_up_after_fight(state: GameState, ctx: Context, m: Model, foe: Model) -> None:
    """GM-FOLLOW-UP: after a fight, a model whose foe is down, stunned or out of action
    and who has no other standing foe in contact may make a bonus move of its M now (no
    charge)."""
    if not switches.of(state).follow_up:
        return
    for x, other in ((m, foe), (foe, m)):
        if x.removed or not MX.follow_up_due([None if other.removed else other.status]):
            continue
        standing = [
            e for e in measure.foes_in_contact(state, x) if not set(e.status) & MX.OUT_OF_FIGHT
        ]
        if standing:
            continue
        mv(x)["follow_up"] = stamp(state)
        say(ctx, f"{x.id} may follow up: a bonus move of its M", x.id, MX.R_FOLLOW, "follow up")


def bonus_move(state: GameState, m: Model) -> str:
    """The out-of-phase move ``m`` may make now: "follow_up" (granted in this phase),
    "reserve" (GM-RESERVE-MOVES, in its side's recovery phase) or ""."""
    sw = switches.of(state)
    if sw.follow_up and mv(m).get("follow_up") == stamp(state):
        return "follow_up"
    if sw.reserve_moves and state.phase == "recovery":
        return "reserve"
    return ""


def may_break_off(state: GameState, m: Model) -> bool:
    """GM-BREAKING-OFF: with the switch, a model in close combat may move away."""
    return bool(switches.of(state).breaking_off)


def break_off(state: GameState, ctx: Context, m: Model) -> Model | None:
    """GM-BREAKING-OFF: a model leaving combat tests Ld (a failure routs it; Ld−1 to
    break off from a hated foe), then its opponent strikes it once on a 3+. Returns the
    opponent who gets the automatic hit (None: none)."""
    from rulesets.gemini.chapters.options import psychology as P

    foes = measure.foes_in_contact(state, m)
    if not foes:
        return None
    foe = foes[0]
    psy = bool(switches.of(state).psychology)
    mods = P.hatred_ld_mod(m, foe, "break_off") if psy else []
    steady = _never_routs(m) if psy else ""
    ld, hit = MX.break_off(ctx.dice, m, mods, bool(switches.of(state).snake_eyes), steady)
    if steady:
        say(ctx, steady, m.id, P.R_FEARLESS if P.fearless(m) else P.R_DOGGED, "steady")
    report_all(ctx, ld.rolls + hit.rolls, m.id, foe.id)
    if ld.failed:
        say(ctx, f"{m.id} breaks off in a rout", m.id, MX.R_BREAK, "routing")
    return foe if hit.passed else None


def _never_routs(m: Model) -> str:
    """GM-FEARLESS, GM-DOGGED: such a model never routs from close combat (why)."""
    from rulesets.gemini.chapters.options import psychology as P

    if P.fearless(m):
        return f"{m.id} is fearless: it never routs from close combat (GM-FEARLESS)"
    if P.dogged(m):
        return f"{m.id} is dogged: it never routs from close combat (GM-DOGGED)"
    return ""


def reserve_problems(state: GameState, m: Model, end: Point) -> list[str]:
    """GM-RESERVE-MOVES: who may, and not to within 4" of an enemy."""
    marks = mv(m)
    acted = state.turn in (
        marks.get("moved"),
        marks.get("shot"),
        marks.get("fought_turn"),
        marks.get("charged"),
    )
    why = MX.reserve_problem(m, acted, nearest_enemy(state, m), measure.engaged(state, m))
    if why:
        return [why]
    here = m.pos
    m.x, m.y = end
    after = nearest_enemy(state, m)
    m.x, m.y = here
    why = MX.reserve_end_problem(after)
    return [why] if why else []


# --- agility (movement_save) -------------------------------------------------------------


def _entry(ctx: Context, path: list[Point], kinds: tuple[str, ...]) -> Point | None:
    """The first point of the path inside a feature of ``kinds`` (None: it never is)."""
    for a, b in zip(path, path[1:]):
        steps = max(1, int(math.dist(a, b) / 0.05))
        for k in range(steps + 1):
            p = (a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps)
            if ctx.table.feature_at(p, kinds) is not None:
                return p
    return None


def agility(state: GameState, ctx: Context, m: Model, fast: bool, path: list[Point]) -> list[Point]:
    """GM-MOVEMENT-SAVE as an agility test (GM-I-AGILITY): a model running or charging
    across difficult ground rolls a d6 of its I or less; failing, it falls over where
    it enters that ground and may neither move on nor strike this turn. Returns the
    path it really takes."""
    if not switches.of(state).movement_save or not fast or len(path) < 2:
        return path
    spot = _entry(ctx, path, tuple(T.DIFFICULT))
    if spot is None:
        return path
    t = MX.movement_save(ctx.dice, m, why="agility on difficult ground")
    report_all(ctx, t.rolls, m.id)
    if t.passed:
        return path
    mv(m)["fell"] = state.turn
    say(ctx, f"{m.id} falls over on the difficult ground", m.id, MX.R_MSAVE, "fell")
    return [path[0], spot] if math.dist(path[0], spot) > 1e-9 else [path[0]]


def fell(state: GameState, m: Model) -> bool:
    """A model that fell over this turn may not strike (GM-I-AGILITY)."""
    return mv(m).get("fell") == state.turn
