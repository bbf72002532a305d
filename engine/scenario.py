"""Scenario files (SCENARIO_FORMAT.md): load, validate, build a Game, play the script.

Why in the engine: every ruleset shares the file layout, the error lines and the way a
script is played "as a player would" (ending activations and phases until the next
action can be taken). Ruleset specifics — which stats, which army limits — are asked of
the ruleset through ``build_model`` and ``check_army``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import actions as act
from engine.battlefield import TERRAIN_CLASSES, Battlefield, TerrainFeature, base_size_in
from engine.data import Checker, DataError, Problem, load_toml
from engine.dice import Dice, ForcedDieError
from engine.events import Event
from engine.game import Game
from engine.ruleset import Ruleset, UnknownRuleset, available, load
from engine.state import GameState, Model

ROOT = Path(__file__).resolve().parent.parent

TOP_KEYS = (
    "title",
    "description",
    "ruleset",
    "seed",
    "table",
    "map",
    "first",
    "terrain",
    "models",
    "actions",
    "turn_limit",
    "objectives",
    "options",
    "conditions",
)
#: the light and weather a scenario may set (SCENARIO_FORMAT.md; inter_arma reads them)
CONDITIONS = ("day", "rain", "fog", "night")
MODEL_KEYS = (
    "id",
    "side",
    "unit",
    "profile",
    "name",
    "x",
    "y",
    "facing",
    "base",
    "stats",
    "weapons",
    "state",
)
TERRAIN_KEYS = ("id", "kind", "polygon", "height")
COMMON_VERBS = (
    "move",
    "charge",
    "shoot",
    "fight",
    "end_turn",
    "end_activation",
    "end_phase",
    "turn",
    "concede",
    "choose",
)


@dataclass
class Scenario:
    """A validated scenario: everything needed to start a game and play its script."""

    path: str
    title: str
    ruleset: str
    seed: int
    battlefield: Battlefield
    models: list[Model]
    first: str | None = None
    actions: list[tuple[act.Action, list[int]]] = field(default_factory=list)
    raw: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    turn_limit: int = 0
    objectives: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    conditions: str = ""

    @property
    def sides(self) -> list[str]:
        out: list[str] = []
        for m in self.models:
            if m.side not in out:
                out.append(m.side)
        return out


def _resolve(path: str) -> Path:
    p = Path(path)
    if p.is_absolute() or p.exists():
        return p
    return ROOT / p


def load_map(ref: str, chk: Checker, where: str) -> tuple[tuple[float, float] | None, list[dict]]:
    """Read a map file; problems are reported against the scenario key that names it."""
    p = _resolve(ref)
    try:
        data = load_toml(p, display=ref)
    except DataError as e:
        for pr in e.problems:
            chk.add(where, f"bad map reference '{ref}': {pr.where}: {pr.what}")
        return None, []
    sub = Checker(ref)
    sub.known_keys(data, ("name", "description", "table", "terrain"), "")
    table = data.get("table")
    tsize = None
    if table is not None:
        tsize = sub.point(table, "table")
    terrain = sub.array(data, "terrain", "terrain", default=[]) or []
    for pr in sub.problems:
        chk.add(where, f"bad map '{ref}': {pr.where}: {pr.what}")
    return tsize, terrain


def _terrain(chk: Checker, items: list, prefix: str, ids: set[str]) -> list[TerrainFeature]:
    out = []
    for i, t in enumerate(items):
        where = f"{prefix}[{i}]"
        if not isinstance(t, dict):
            chk.add(where, "expected a table")
            continue
        chk.known_keys(t, TERRAIN_KEYS, where)
        kind = chk.string(t, "kind", f"{where}.kind", choices=list(TERRAIN_CLASSES))
        poly = chk.array(t, "polygon", f"{where}.polygon")
        pts = []
        if poly is not None:
            for j, p in enumerate(poly):
                q = chk.point(p, f"{where}.polygon[{j}]")
                if q is not None:
                    pts.append(q)
            if len(poly) < 3:
                chk.add(f"{where}.polygon", f"a polygon needs at least 3 points, got {len(poly)}")
        height = chk.number(t, "height", f"{where}.height", default=0.0, minimum=0)
        if kind == "hill" and "height" not in t:
            height = 1.0
        tid = chk.string(t, "id", f"{where}.id", default=f"{kind or 'terrain'}{len(ids) + 1}")
        if tid in ids:
            chk.add(f"{where}.id", f"duplicate terrain id '{tid}'")
        ids.add(tid or "")
        if kind and len(pts) >= 3 and tid:
            out.append(TerrainFeature(tid, kind, tuple(pts), float(height or 0.0)))
    return out


def _corners(x: float, y: float, facing: float, base: Any) -> list[tuple[float, float]]:
    w, d = base_size_in(base)
    if not isinstance(base, tuple):
        r = w / 2
        return [(x - r, y), (x + r, y), (x, y - r), (x, y + r)]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    pts = []
    for fx, fy in ((d / 2, w / 2), (d / 2, -w / 2), (-d / 2, w / 2), (-d / 2, -w / 2)):
        pts.append((x + fx * c - fy * s, y + fx * s + fy * c))
    return pts


def load_scenario(path: str | Path, display: str | None = None) -> Scenario:
    """Read and validate a scenario file; raises DataError listing every problem."""
    name = display or str(path)
    data = load_toml(path, display=name)
    chk = Checker(name)
    chk.known_keys(data, TOP_KEYS, "")

    title = chk.string(data, "title", "title", default=Path(name).stem) or ""
    rkey = chk.string(data, "ruleset", "ruleset")
    ruleset: Ruleset | None = None
    if rkey is not None:
        try:
            ruleset = load(rkey)
        except UnknownRuleset:
            known = ", ".join(available())
            chk.add("ruleset", f"unknown ruleset '{rkey}' (known: {known})")
    seed = chk.integer(data, "seed", "seed", default=1)
    table = (72.0, 48.0)
    terrain_items: list = []
    if "map" in data:
        ref = chk.string(data, "map", "map")
        if ref is not None:
            msize, terrain_items = load_map(ref, chk, "map")
            if msize:
                table = msize
    if "table" in data:
        t = chk.point(data["table"], "table")
        if t is not None:
            if t[0] <= 0 or t[1] <= 0:
                chk.add("table", "width and depth must be positive")
            else:
                table = t
    ids: set[str] = set()
    features = _terrain(chk, terrain_items, "map.terrain", ids)
    extra = chk.array(data, "terrain", "terrain", default=[]) or []
    features += _terrain(chk, extra, "terrain", ids)
    bf = Battlefield(
        table[0],
        table[1],
        tuple(features),
        name=str(data.get("map", "")) if isinstance(data.get("map"), str) else "",
    )

    models: list[Model] = []
    specs = chk.array(data, "models", "models")
    seen: set[str] = set()
    if specs is not None and not specs:
        chk.add("models", "no models: a scenario needs at least one model per side")
    for i, spec in enumerate(specs or []):
        where = f"models[{i}]"
        if not isinstance(spec, dict):
            chk.add(where, "expected a table")
            continue
        allowed = MODEL_KEYS + (ruleset.model_keys if ruleset else ())
        chk.known_keys(spec, allowed, where)
        mid = chk.string(spec, "id", f"{where}.id")
        side = chk.string(spec, "side", f"{where}.side")
        x = chk.number(spec, "x", f"{where}.x")
        y = chk.number(spec, "y", f"{where}.y")
        facing = chk.number(spec, "facing", f"{where}.facing", default=0.0)
        base: Any = 25.0
        if "base" in spec:
            b = spec["base"]
            if isinstance(b, bool) or not (
                isinstance(b, (int, float))
                or (
                    isinstance(b, list)
                    and len(b) == 2
                    and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in b)
                )
            ):
                chk.add(f"{where}.base", "expected a diameter in mm or [width, depth] in mm")
                base = None
            else:
                base = float(b) if not isinstance(b, list) else (float(b[0]), float(b[1]))
                if (base if isinstance(base, float) else min(base)) <= 0:
                    chk.add(f"{where}.base", "base size must be positive")
                    base = None
        for key in ("stats", "state"):
            if key in spec:
                chk.table(spec, key, f"{where}.{key}")
        if "weapons" in spec:
            ws = chk.array(spec, "weapons", f"{where}.weapons")
            for j, w in enumerate(ws or []):
                if not isinstance(w, dict):
                    chk.add(f"{where}.weapons[{j}]", "expected a table")
                elif not isinstance(w.get("name"), str):
                    chk.add(f"{where}.weapons[{j}].name", "missing (a string is required)")
        if "unit" in spec:
            chk.string(spec, "unit", f"{where}.unit")
        if mid is not None:
            if mid in seen:
                chk.add(f"{where}.id", f"duplicate model id '{mid}'")
            seen.add(mid)
        if None in (mid, side, x, y, facing, base):
            continue
        assert x is not None and y is not None and base is not None
        if not bf.on_table(x, y):
            chk.add(
                where,
                f"model '{mid}' is off the table ({x:g}, {y:g}) on a "
                f"{bf.width:g}x{bf.depth:g} table",
            )
            continue
        if ruleset is None:
            continue
        given = {"x": x, "y": y, "facing": facing}
        if "base" in spec:
            given["base"] = base  # else the ruleset's profile decides the base
        model, probs = ruleset.build_model({**spec, **given})
        for w, what in probs:
            chk.add(f"{where}.{w}" if w else where, what)
        if model is None:
            continue
        if not all(bf.on_table(px, py) for px, py in _corners(x, y, model.facing, model.base)):
            chk.add(
                where,
                f"model '{mid}' is off the table: its base crosses the edge at "
                f"({x:g}, {y:g}) on a {bf.width:g}x{bf.depth:g} table",
            )
            continue
        models.append(model)

    sides = []
    for m in models:
        if m.side not in sides:
            sides.append(m.side)
    if models and len(sides) < 2 and not chk.problems:
        chk.add("models", f"a game needs two or more sides, found only '{sides[0]}'")
    # Overlapping bases: only measured when everything else about the models is sound.
    if models and not chk.problems:
        from engine import geometry

        fps = [(m.id, geometry.Footprint(m.x, m.y, m.facing, m.base)) for m in models]
        index = {s.get("id"): i for i, s in enumerate(specs or []) if isinstance(s, dict)}
        for a in range(len(fps)):
            for b in range(a + 1, len(fps)):
                if geometry.overlaps(fps[a][1], fps[b][1]):
                    chk.add(
                        f"models[{index[fps[b][0]]}]",
                        f"base of '{fps[b][0]}' overlaps '{fps[a][0]}'",
                    )
    if ruleset is not None and models:
        for mid, what in ruleset.check_army(models):
            i = next(
                (
                    k
                    for k, s in enumerate(specs or [])
                    if isinstance(s, dict) and s.get("id") == mid
                ),
                None,
            )
            chk.add(f"models[{i}]" if i is not None else "models", what)

    first = chk.string(data, "first", "first", default=None)
    if first is not None and sides and first not in sides:
        chk.add("first", f"'{first}' is not a side of this scenario (sides: {', '.join(sides)})")
    turn_limit = chk.integer(data, "turn_limit", "turn_limit", default=0) or 0
    options = chk.table(data, "options", "options", default={}) or {}
    conditions = chk.string(data, "conditions", "conditions", default="") or ""
    if conditions and conditions not in CONDITIONS:
        chk.add("conditions", f"'{conditions}' is not one of {', '.join(CONDITIONS)}")

    script: list[tuple[act.Action, list[int]]] = []
    model_ids = {m.id for m in models} | seen
    unit_ids = {m.unit for m in models}
    verbs = set(COMMON_VERBS) | set(ruleset.verbs if ruleset else ())
    for i, a in enumerate(chk.array(data, "actions", "actions", default=[]) or []):
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            chk.add(where, "expected a table")
            continue
        a = dict(a)
        dice = a.pop("dice", [])
        if not isinstance(dice, list):
            chk.add(f"{where}.dice", f"expected a list of die faces, got {type(dice).__name__}")
            dice = []
        faces = []
        top = ruleset.max_die if ruleset else 20
        for j, f in enumerate(dice):
            if isinstance(f, bool) or not isinstance(f, int):
                chk.add(f"{where}.dice[{j}]", "expected an integer die face")
            elif not 1 <= f <= top:
                chk.add(
                    f"{where}.dice[{j}]",
                    f"die face {f} out of range (this ruleset rolls dice of 1 to {top})",
                )
            else:
                faces.append(f)
        verb = a.get("do")
        if not isinstance(verb, str):
            chk.add(f"{where}.do", "missing (a verb such as move, shoot, fight is required)")
            continue
        if verb not in verbs:
            chk.add(
                f"{where}.do",
                f"unknown action '{verb}' for {rkey} (verbs: {', '.join(sorted(verbs))})",
            )
            continue
        actor = a.get("actor", "")
        if actor and isinstance(actor, str) and actor not in model_ids | unit_ids:
            chk.add(f"{where}.actor", f"unknown model '{actor}'")
            continue
        tgt = a.get("target")
        if isinstance(tgt, str) and tgt and tgt not in model_ids | unit_ids:
            chk.add(f"{where}.target", f"unknown model '{tgt}'")
            continue
        try:
            script.append((act.from_dict(a, rkey or ""), faces))
        except act.ActionError as e:
            msg = str(e)
            key, _, what = msg.partition(": ")
            if what and key.isidentifier():
                chk.add(f"{where}.{key}", what)
            else:
                chk.add(where, msg)
    chk.raise_if_any()
    assert ruleset is not None and rkey is not None and seed is not None
    return Scenario(
        path=name,
        title=title,
        ruleset=rkey,
        seed=seed,
        battlefield=bf,
        models=models,
        first=first,
        actions=script,
        raw=data,
        description=str(data.get("description", "")),
        turn_limit=turn_limit,
        objectives=list(data.get("objectives", []) or []),
        options=options,
        conditions=conditions,
    )


def new_game(scn: Scenario) -> Game:
    """Set up turn 1 of a scenario: state, dice from its seed, the ruleset's setup."""
    ruleset = load(scn.ruleset)
    state = GameState(
        ruleset=scn.ruleset,
        sides=scn.sides,
        models={m.id: Model.from_dict(m.to_dict()) for m in scn.models},
    )
    if scn.turn_limit:
        state.vars["turn_limit"] = scn.turn_limit
    if scn.objectives:
        state.vars["objectives"] = scn.objectives
    if scn.options:
        state.vars["options"] = dict(scn.options)
    if scn.conditions:
        state.vars["conditions"] = scn.conditions
    game = Game(ruleset, scn.battlefield, state, Dice(seed=scn.seed))
    game.scenario = {"path": scn.path, "raw": scn.raw}
    game.log.action = None
    ruleset.setup(state, game.ctx, scn.first)
    from engine.persistence import mark_start

    mark_start(game)
    return game


def reach(game: Game, action: act.Action, limit: int = 500) -> list[act.Action] | None:
    """The 'end activation / end phase' steps a player would take, in this turn, before
    ``action`` becomes legal; [] if it already is; None if it cannot be reached."""
    if game.check(action).ok:
        return []
    probe = game.clone()
    turn = probe.state.turn
    steps: list[act.Action] = []
    for _ in range(limit):
        step = probe.ruleset.advance(probe.state, probe.ctx)
        if step is None:
            return None
        probe.apply(step)
        steps.append(step)
        if probe.state.over or probe.state.turn != turn:
            return None
        if probe.check(action).ok:
            return steps
    return None


class ScriptError(Exception):
    """A forced die that the rolled die does not have: the file is unusable (exit 2)."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.line())
        self.problem = problem


def run_script(game: Game, scn: Scenario) -> list[Event]:
    """Play the scenario's [[actions]] as a player would; returns all events."""
    for i, (action, faces) in enumerate(scn.actions):
        game.log.action = i
        if game.state.over:
            game.log.emit("refused", "the game is over", actor=action.actor)
            continue
        if isinstance(action, act.EndTurn):
            steps: list[act.Action] | None = []
        else:
            steps = reach(game, action)
        if steps is None:
            reason = game.check(action).reason or "not allowed now"
            game.log.emit("refused", reason, actor=action.actor)
            continue
        for s in steps:
            game.apply(s)
        game.dice.force(faces)
        try:
            game.apply(action)
        except ForcedDieError as e:
            raise ScriptError(
                Problem(
                    scn.path,
                    f"actions[{i}].dice[{e.index}]",
                    f"die face {e.face} is not a face of the d{e.sides} this roll uses",
                )
            ) from None
        # A reaction owed mid-action (a defender's stand-or-retreat) holds back the rest
        # of the action's rolls; answer it with its default, as a player who does not
        # react would, so the action's remaining forced dice reach those rolls.
        guard = 0
        while game.dice.forced and not game.state.over and guard < 50:
            guard += 1
            step = game.ruleset.advance(game.state, game.ctx)
            if not isinstance(step, act.Choose):
                break
            try:
                game.apply(step)
            except ForcedDieError as e:
                raise ScriptError(
                    Problem(
                        scn.path,
                        f"actions[{i}].dice[{e.index}]",
                        f"die face {e.face} is not a face of the d{e.sides} this roll uses",
                    )
                ) from None
        if game.dice.forced:
            game.log.emit(
                "note",
                f"{len(game.dice.forced)} forced dice were not needed "
                f"and were ignored: {game.dice.forced}",
            )
            game.dice.forced = []
    game.log.action = None
    return game.log.events


def models_json(game: Game) -> dict[str, Any]:
    out = {}
    for mid, m in sorted(game.state.models.items()):
        view = game.ruleset.model_view(m)
        out[mid] = {
            "side": m.side,
            "unit": m.unit,
            "x": round(m.x, 2),
            "y": round(m.y, 2),
            "facing": round(m.facing, 1),
            "hp": view.get("hp", m.hp),
            "removed": m.removed,
            "status": view.get("status", sorted(m.status)),
        }
        # whatever else the ruleset shows of a model (speed, turn_radius...) rides along
        out[mid].update({k: v for k, v in view.items() if k not in out[mid]})
    return out


def result_json(game: Game) -> dict[str, Any]:
    """The one JSON document of ``main.py run --json`` (SCENARIO_FORMAT.md)."""
    out = game.outcome()
    doc: dict[str, Any] = {
        "ruleset": game.state.ruleset,
        "events": [e.to_dict() for e in game.log.events],
        "models": models_json(game),
        "turn": game.state.turn,
        "phase": game.state.phase,
        "active": game.state.active,
        "checksum": game.state.checksum(),
    }
    if out:
        doc["outcome"] = out.to_dict()
    return doc
