"""``skills`` and ``observation`` in a game: the scenario's hidden things and tasks.

Why places: the text leaves both to the GM — an observation roll "when a unit enters a
new area", a search when the player declares one, a skill roll "when the result is
crucial". A scenario plays the GM by marking places in its ``[[objectives]]`` table:
``kind = "hidden"`` (something to notice or find, with the area around it) and
``kind = "task"`` (a job needing a skill test: a lock, a bomb, a terminal). A model
entering a hidden thing's area makes its observation roll once; a model may spend its
move searching (every hidden thing within half its M) or attempting a task within reach
(GM-I-TASKS). What was found or done is kept in the ruleset's record (``state.GmVars``) for the log, the
window and the rest of the game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.battlefield import base_size_in
from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.actions import Attempt, Search
from rulesets.gemini.chapters import switches
from rulesets.gemini.chapters.options import observation as O
from rulesets.gemini.chapters.options import skills as S
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.state import gm, mv, objectives

KINDS = ("hidden", "task")
#: the area of a hidden thing whose entering calls the observation roll (GM-I-TASKS)
HIDDEN_RADIUS = 3.0
#: how near (base edge to the spot) a model must be to attempt a task (GM-I-TASKS)
TASK_RADIUS = 1.0
R_TASKS = "GM-I-TASKS"
#: the keys a place may have, per kind (the shared ones first)
SHARED = ("id", "name", "kind", "x", "y", "radius", "side", "by_turn")
KEYS = {"hidden": (*SHARED, "modifier"), "task": (*SHARED, "skill", "difficulty", "modifier", "skilled_only")}  # fmt: skip


# --- the scenario's places ---------------------------------------------------------------


def place_id(o: Mapping[str, Any]) -> str:
    return str(o.get("id", f"{o.get('x')},{o.get('y')}"))


def places(state: GameState, kind: str) -> list[dict[str, Any]]:
    return [o for o in objectives(state) if o.get("kind") == kind]


def place_problems(
    objectives: Sequence[Mapping[str, Any]], options: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """(where, what) for each place Gemini cannot play: an unknown kind, a key its kind
    does not take, a task without a skill or with an unknown difficulty, a place whose
    switch is off."""
    sw = switches.parse(options)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i, o in enumerate(objectives):
        where = f"objectives[{i}]"
        if not isinstance(o, Mapping):
            continue  # the schema has named what is wrong with it
        kind = o.get("kind", "")
        if kind == "options":
            continue  # the old form of the options table
        if kind not in KINDS:
            out.append((f"{where}.kind", f"gemini places are 'hidden' or 'task', got {kind!r} (GM-I-TASKS)"))  # fmt: skip
            continue
        out += [(f"{where}.{k}", f"a {kind} place takes no '{k}' (keys: {', '.join(KEYS[kind])})")
                for k in o if k not in KEYS[kind]]  # fmt: skip
        pid = place_id(o)
        if pid in seen:
            out.append((f"{where}.id", f"'{pid}' names two places"))
        seen.add(pid)
        switch = "observation" if kind == "hidden" else "skills"
        if not getattr(sw, switch):
            out.append((where, f"a {kind} place needs the {switch} switch (options.{switch} = true)"))  # fmt: skip
        if kind == "task":
            if not o.get("skill"):
                out.append((f"{where}.skill", "a task names the skill it tests (GM-SKILLS)"))
            diff = o.get("difficulty", "average")
            if diff not in S.DIFFICULTIES:
                out.append((f"{where}.difficulty", f"{diff!r} is not one of {', '.join(S.DIFFICULTIES)}"))  # fmt: skip
    return out


def skill_problems(value: Any) -> list[tuple[str, str]]:
    """A model's ``stats.skills``: a list of "NAME LEVEL" strings ("lockpicking 12")."""
    entries = value if isinstance(value, list) else [value]
    out = []
    for j, e in enumerate(entries):
        if parse_skill(e) is None:
            out.append((f"stats.skills[{j}]", f'a skill is "NAME LEVEL" with a level of 3 to 30, got {e!r} (GM-SKILLS)'))  # fmt: skip
    return out


def parse_skill(entry: Any) -> tuple[str, int] | None:
    if not isinstance(entry, str) or " " not in entry.strip():
        return None
    name, _, level = entry.strip().rpartition(" ")
    if not level.isdigit() or not 3 <= int(level) <= 30:
        return None
    return name.strip().lower(), int(level)


def skill_level(m: Model, skill: str) -> int | None:
    """The model's level in ``skill`` (None: it has not got it)."""
    given = m.stats.get("skills") or []
    for e in given if isinstance(given, list) else [given]:
        p = parse_skill(e)
        if p is not None and p[0] == skill.strip().lower():
            return p[1]
    return None


# --- the record of what was found and done ----------------------------------------------


def record(state: GameState, what: str) -> dict[str, str]:
    """``found`` (hidden place -> the side that found it) or ``done`` (task -> side)."""
    rec = gm(state)
    got = rec.setdefault("found", {}) if what == "found" else rec.setdefault("done", {})
    return got


def known(state: GameState, what: str, pid: str, side: str) -> bool:
    return record(state, what).get(f"{side}:{pid}") is not None


# --- observation: entering a hidden thing's area ----------------------------------------


def _gap(m: Model, o: Mapping[str, Any]) -> float:
    return math.dist(m.pos, (float(o["x"]), float(o["y"])))


def observe_after_move(state: GameState, ctx: Context, m: Model) -> None:
    """GM-OBSERVATION (GM-I-TASKS): a model that ends a move inside the area of a hidden
    thing its side has not found, and has not looked at it before, makes its d10 roll."""
    if not switches.of(state).observation or m.removed:
        return
    for o in places(state, "hidden"):
        pid = place_id(o)
        if known(state, "found", pid, m.side) or _gap(m, o) > float(o.get("radius", HIDDEN_RADIUS)):
            continue
        looked: list[str] = mv(m).setdefault("observed", [])
        if pid in looked:
            continue
        looked.append(pid)
        _look(state, ctx, m, o, "notices")


def _look(state: GameState, ctx: Context, m: Model, o: Mapping[str, Any], verb: str) -> bool:
    pid = place_id(o)
    what = str(o.get("name", pid))
    test, margin = O.observe(ctx.dice, m, what, int(o.get("modifier", 0)))
    report_all(ctx, test.rolls, m.id)
    if test.failed:
        return False
    record(state, "found")[f"{m.side}:{pid}"] = m.id
    say(ctx, f"{m.id} {verb} {what} (by {margin})", m.id, O.R_OBSERVE, "found")
    return True


# --- the two verbs -------------------------------------------------------------------------


def problems(state: GameState, ctx: Context, a: Action) -> list[str]:
    """Search: the switch on, something unfound in reach is not required (a search may
    come up empty), the model free to move. Attempt: a task within reach, not done."""
    m = state.models[a.actor]
    sw = switches.of(state)
    if isinstance(a, Search):
        return [] if sw.observation else ["searching needs the observation switch (GM-OBSERVATION)"]
    assert isinstance(a, Attempt)
    if not sw.skills:
        return ["tasks need the skills switch (GM-SKILLS)"]
    o = next((p for p in places(state, "task") if place_id(p) == a.place), None)
    if o is None:
        return [f"no task '{a.place}' in this scenario"]
    if known(state, "done", a.place, m.side):
        return [f"{m.side} has done '{a.place}' already"]
    reach = float(o.get("radius", TASK_RADIUS))
    if _edge_gap(m, o) > reach + 1e-9:
        return [f"{m.id} is {_edge_gap(m, o):.1f}\" from '{a.place}': within {reach:g}\" to attempt it ({R_TASKS})"]  # fmt: skip
    if o.get("skilled_only") and skill_level(m, str(o.get("skill", ""))) is None:
        return [f"{m.id} has no {o.get('skill')} skill: '{a.place}' needs it (GM-SKILLS)"]
    if o.get("side") and o.get("side") != m.side:
        return [f"'{a.place}' is {o.get('side')}'s task"]
    return []


def _edge_gap(m: Model, o: Mapping[str, Any]) -> float:
    """From the model's base edge to the place's spot."""
    return max(0.0, _gap(m, o) - max(base_size_in(m.base)) / 2)


def search(state: GameState, ctx: Context, a: Search) -> None:
    """GM-OBSERVATION: a d10 for each hidden thing within half M the side has not found;
    the model has spent its move (GM-I-TASKS)."""
    m = state.models[a.actor]
    mv(m)["moved"] = state.turn
    r = O.search_radius(m)
    near = [o for o in places(state, "hidden") if not known(state, "found", place_id(o), m.side)
            and _edge_gap(m, o) <= r + 1e-9]  # fmt: skip
    say(ctx, f'{m.id} searches within {r:g}"', m.id, O.R_OBSERVE, "search")
    hits = [_look(state, ctx, m, o, "finds") for o in near]
    if not any(hits):
        say(ctx, f"{m.id} finds nothing", m.id, O.R_OBSERVE, "nothing")


def attempt(state: GameState, ctx: Context, a: Attempt) -> None:
    """GM-SKILLS: 3d6 of the skill level (else Ld −2/−3/−4 by difficulty), plus the
    task's modifier; success does it for the side. The model has spent its move."""
    m = state.models[a.actor]
    mv(m)["moved"] = state.turn
    o = next(p for p in places(state, "task") if place_id(p) == a.place)
    skill, diff = str(o.get("skill", "")), str(o.get("difficulty", "average"))
    level = skill_level(m, skill)
    mods = [Modifier(int(o["modifier"]), "the task", S.R_SKILLS)] if o.get("modifier") else []
    how = f"{skill} {level}"
    if level is None:
        level = S.unskilled_level(int(m.stat("Ld", 7)), diff)
        how = f"unskilled at a {diff} task: Ld{level - int(m.stat('Ld', 7)):+d}"
    name = str(o.get("name", a.place))
    test = S.skill_test(ctx.dice, level, f"{m.id}: {name} ({how})", actor=m.id, mods=mods)
    report_all(ctx, test.rolls, m.id)
    if test.passed:
        record(state, "done")[f"{m.side}:{a.place}"] = m.id
        say(ctx, f"{m.id} does {name}", m.id, S.R_SKILLS, "done")
    else:
        say(ctx, f"{m.id} fails at {name}", m.id, S.R_SKILLS, "failed")


def options(state: GameState, ctx: Context, m: Model) -> list[Action]:
    """The computer's tasks and searches: a task within reach, a search when an unfound
    hidden thing lies within half M."""
    out: list[Action] = []
    sw = switches.of(state)
    if sw.skills:
        for o in places(state, "task"):
            a = Attempt(actor=m.id, place=place_id(o))
            if not problems(state, ctx, a):
                out.append(a)
    if sw.observation:
        r = O.search_radius(m)
        if any(not known(state, "found", place_id(o), m.side) and _edge_gap(m, o) <= r
               for o in places(state, "hidden")):  # fmt: skip
            out.append(Search(actor=m.id))
    return out


def tally(state: GameState) -> dict[str, int]:
    """GM-I-TASKS: each side's count of the scenario's places it found or did ({} when
    the scenario has none: the turn limit is judged on wounds alone)."""
    if not places(state, "hidden") and not places(state, "task"):
        return {}
    got = dict.fromkeys(state.sides, 0)
    for what in ("found", "done"):
        for k in record(state, what):
            side = k.split(":", 1)[0]
            got[side] = got.get(side, 0) + 1
    return got
