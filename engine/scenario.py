"""Scenario files (SCENARIO_FORMAT.md): load, validate, build a Game, play the script.

Why in the engine: every ruleset shares the file layout, the error lines and the way a
script is played "as a player would" (ending activations and phases until the next
action can be taken). Ruleset specifics — which stats, which army limits — are asked of
the ruleset through ``build_model`` and ``check_army``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import actions as act
from engine import loader, schema
from engine.battlefield import Battlefield
from engine.data import Checker, Problem, load_toml
from engine.dice import Dice, ForcedDieError
from engine.events import Event
from engine.game import Game, mark_start
from engine.ruleset import (
    ACTIVATING,
    ALREADY_ACTIVATED,
    NOT_NOW,
    NOT_YOUR_TURN,
    Ruleset,
    load,
)
from engine.state import GameState, Model

ROOT = Path(__file__).resolve().parent.parent
TOP_KEYS = tuple(schema.SCENARIO.fields)
#: the light and weather a scenario may set (SCENARIO_FORMAT.md; inter_arma reads them)
CONDITIONS = ("day", "rain", "fog", "night")
MODEL_KEYS = tuple(schema.MODEL.fields)
COMMON_VERBS = loader.COMMON_VERBS


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


def load_scenario(path: str | Path, display: str | None = None) -> Scenario:
    """Read and validate a scenario file; raises DataError listing every problem.

    Every value is checked against ``engine.schema`` before any ruleset builder or rule
    sees it; army-wide checks, ``first`` and overlapping bases are judged only when every
    model was sound, so one bad entry does not cascade into lines blaming good ones.
    """
    name = str(path) if display is None else display
    return scenario_from_data(load_toml(path, display=name), name)


def scenario_from_data(data: dict[str, Any], name: str) -> Scenario:
    """Validate a scenario's parsed TOML (``load_scenario``; a save's ``scenario.raw``)."""
    chk = Checker(name)
    top = schema.SCENARIO.check(chk, data, "")
    ruleset = loader.find_ruleset(chk, top)
    bf = loader.battlefield(chk, top)
    specs = top.get("models")
    specs = specs if isinstance(specs, list) else []
    if "models" in data and isinstance(data["models"], list) and not specs:
        chk.add("models", "no models: a scenario needs at least one model per side")
    models, sound, ids = loader.models(chk, specs, ruleset, bf)
    sides = list(dict.fromkeys(m.side for m in models))
    if sound and not chk.problems and ruleset is not None and models:
        _army(chk, ruleset, models, sides, ids)
    first = top.get("first")
    if sound and isinstance(first, str) and sides and first not in sides:
        chk.add("first", f"'{first}' is not a side of this scenario (sides: {', '.join(sides)})")
    opts = top.get("options")
    if ruleset is not None and isinstance(opts, dict):
        for where, what in ruleset.option_problems(opts):
            chk.add(f"options.{where}" if where else "options", what)
    places = top.get("objectives")
    if ruleset is not None and isinstance(places, list):
        for where, what in ruleset.place_problems(places, opts if isinstance(opts, dict) else {}):
            chk.add(where, what)
    conditions = top.get("conditions", "")
    if isinstance(conditions, str) and conditions and conditions not in CONDITIONS:
        chk.add("conditions", f"'{conditions}' is not one of {', '.join(CONDITIONS)}")
    actions = top.get("actions")
    script = loader.script(
        chk,
        actions if isinstance(actions, list) else [],
        ruleset,
        set(ids) | {m.unit for m in models},
    )
    chk.raise_if_any()
    assert ruleset is not None
    return Scenario(
        path=name,
        title=top.get("title", Path(name).stem),
        ruleset=ruleset.key,
        seed=top.get("seed", 1),
        battlefield=bf,
        models=models,
        first=first,
        actions=script,
        raw=data,
        description=top.get("description", ""),
        turn_limit=top.get("turn_limit", 0),
        objectives=list(top.get("objectives", [])),
        options=top.get("options", {}),
        conditions=conditions,
    )


def _army(
    chk: Checker, ruleset: Ruleset, models: list[Model], sides: list[str], ids: dict[str, int]
) -> None:
    """Checks over the whole army: two sides, no overlapping bases, the ruleset's limits."""
    if len(sides) < 2:
        chk.add("models", f"a game needs two or more sides, found only '{sides[0]}'")
        return
    loader.overlaps(chk, models, ids)
    if chk.problems:
        return
    for mid, what in ruleset.check_army(models):
        i = ids.get(mid)
        chk.add(f"models[{i}]" if i is not None else "models", what)


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
    game.scenario = {"path": scn.path, "raw": _effective_raw(scn)}
    game.log.action = None
    ruleset.setup(state, game.ctx, scn.first)
    mark_start(game)
    return game


def _effective_raw(scn: Scenario) -> dict[str, Any]:
    """The scenario file's data with the settings a caller changed before the game began
    (a simulation's seed or turn limit), so a save can re-derive this very start."""
    raw = dict(scn.raw)
    if not raw:
        return raw
    for key, val, default in (
        ("seed", scn.seed, 1),
        ("turn_limit", scn.turn_limit, 0),
        ("first", scn.first, None),
    ):
        if raw.get(key, default) != val:
            if val is None:
                raw.pop(key, None)
            else:
                raw[key] = val
    return raw


#: refusals that only say whose turn it is: a script's action refused for one of these
#: alone is walked forward to the actor's turn, where the rules give their own reason
TURN_CODES = frozenset({NOT_YOUR_TURN, ACTIVATING, ALREADY_ACTIVATED, NOT_NOW})


def reach(game: Game, action: act.Action, limit: int = 500) -> tuple[list[act.Action] | None, str]:
    """(the 'end activation / end phase' steps a player would take, in this turn, before
    ``action`` becomes legal — [] if it already is, None if it cannot be reached — and,
    when it cannot, why it is refused).

    Why the refusal is walked too: refused now, an action may only be out of turn ("it is
    blue's turn"), while the real obstacle (no line of sight, out of range) shows once
    play reaches the actor. The first reason met on the way that is not about whose turn
    it is names what a player would have hit; with none, the reason given now."""
    now = game.check(action)
    if now.ok:
        return [], ""
    best = now.reason or "not allowed now"
    found = not set(now.codes) & TURN_CODES
    probe = game.clone()
    turn = probe.state.turn
    steps: list[act.Action] = []
    for _ in range(limit):
        step = probe.ruleset.advance(probe.state, probe.ctx)
        if step is None:
            break
        probe.apply(step)
        steps.append(step)
        if probe.state.over or probe.state.turn != turn:
            break
        legal = probe.check(action)
        if legal.ok:
            return steps, ""
        if not found and legal.reasons and not set(legal.codes) & TURN_CODES:
            best, found = legal.reason, True
    return None, best


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
            reason = ""
        else:
            steps, reason = reach(game, action)
        if steps is None:
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
