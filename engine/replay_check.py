"""A save proves itself: re-derive the game from its start and compare everything saved.

Why everything: a save that checked only the checksum after each step said "ok" to an
edited state, an edited roll that happened not to change a checksum, forged log lines,
junk dice faces and an edited dice position (audit reliability.md D5). Here the start is
rebuilt from the saved scenario (so the battlefield, the start state and the dice seed
are derived, not believed), each step forces only the faces that were forced when it was
played and takes the rest from the dice stream, and the faces each step consumed, its
side, its action, its checksum, the log it wrote, the final state, the dice position and
the checksum must all be what the file says. The first difference is named.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import actions as act
from engine.battlefield import Battlefield
from engine.data import DataError
from engine.dice import Dice
from engine.events import Event, EventLog
from engine.game import Game


class SaveError(Exception):
    """A save file that cannot be read (missing, not JSON, wrong shape or format_version):
    ``file``, ``where`` (a key path such as ``history[3]``) and ``what``."""

    def __init__(self, what: str, where: str = "file", file: str = "") -> None:
        self.file, self.where, self.what = file, where, what
        super().__init__(f"{file}: {where}: {what}" if file else f"{where}: {what}")

    def located(self, file: str | Path) -> SaveError:
        return type(self)(self.what, self.where, str(file))


class SaveDiverged(SaveError):
    """A readable save whose recorded game is not what its history re-derives."""


#: log events that do not come from an applied step: refusals, the runner's notes and the
#: window's "undo" mark (the undone steps are gone from the history and from the log)
BETWEEN_STEPS = ("refused", "note", "undo")


@dataclass
class ReplayReport:
    ok: bool
    steps: int
    diverged_at: int | None = None
    message: str = ""
    final_checksum: str = ""


def _plain(v: Any) -> Any:
    """``v`` as JSON gives it back (tuples become lists), for exact comparison."""
    return json.loads(json.dumps(v, sort_keys=True))


def first_difference(a: Any, b: Any, where: str = "") -> str | None:
    """The path of the first place where ``a`` and ``b`` differ, or None."""
    if type(a) is not type(b) and not (
        isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b
    ):
        return where or "(top)"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{where}.{k}" if where else str(k)
            d = first_difference(a[k], b[k], f"{where}.{k}" if where else str(k))
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None if len(a) == len(b) else f"{where} (length {len(b)}, derived {len(a)})"
    return None if a == b else where or "(top)"


def _shape(d: dict[str, Any]) -> None:
    """Refuse a document whose parts have the wrong types (unreadable, not diverged)."""
    want = {
        "ruleset": str,
        "scenario": dict,
        "battlefield": dict,
        "start": dict,
        "history": list,
        "state": dict,
        "dice": dict,
        "checksum": str,
        "log": list,
    }
    for key, typ in want.items():
        if not isinstance(d.get(key), typ):
            raise SaveError(f"expected {typ.__name__}, got {type(d.get(key)).__name__}", key)
    for i, s in enumerate(d["history"]):
        ok = (
            isinstance(s, dict)
            and isinstance(s.get("action"), dict)
            and isinstance(s.get("faces"), list)
            and all(type(f) is int and 1 <= f <= 1000 for f in s["faces"])
            and isinstance(s.get("checksum"), str)
            and (s.get("side") is None or isinstance(s.get("side"), str))
            and type(s.get("forced", 0)) is int
            and 0 <= s.get("forced", 0) <= len(s["faces"])
        )
        if not ok:
            raise SaveError("not a recorded step", f"history[{i}]")
    if not all(isinstance(e, dict) and isinstance(e.get("kind"), str) for e in d["log"]):
        raise SaveError("not a list of events", "log")
    for key in ("dice",):
        _dice(d[key], key)


def _dice(v: Any, where: str) -> Dice:
    if not isinstance(v, dict) or not all(
        type(v.get(k)) is int and 0 <= v[k] < 2**64 for k in ("seed", "counter", "state")
    ):
        raise SaveError("not a dice position", where)
    return Dice.from_state(v)


def _start(d: dict[str, Any]) -> tuple[Game, int]:
    """The game right after setup, re-derived from the saved scenario where there is one
    (every window and ``run`` game), and the number of setup events in the log."""
    from engine.ruleset import load
    from engine.scenario import new_game, scenario_from_data

    start = d["start"]
    raw = d["scenario"].get("raw")
    if isinstance(raw, dict) and raw:
        name = str(d["scenario"].get("path", "scenario"))
        try:
            game = new_game(scenario_from_data(raw, name))
        except DataError as e:
            raise SaveError(e.problems[0].what, f"scenario.raw.{e.problems[0].where}") from None
        return game, len(game.log.events)
    # a game built in code (tests, studies): its start can only be believed
    from engine.loader import ruleset_problem
    from engine.state import GameState

    why = ruleset_problem(d["ruleset"])
    if why or not isinstance(start.get("state"), dict):
        raise (
            SaveError(why, "ruleset")
            if why
            else SaveError("no start state to replay from", "start")
        )
    try:
        state = GameState.from_dict(start["state"])
        bf = Battlefield.from_dict(d["battlefield"])
        game = Game(
            load(d["ruleset"]), bf, state, _dice(start.get("dice"), "start.dice"), EventLog()
        )
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise SaveError(f"damaged ({type(e).__name__}: {e})", "start") from None
    game.scenario = {**d["scenario"], "start": start}
    setup = start.get("log", 0)
    return game, setup if type(setup) is int and setup >= 0 else 0


def replay(
    d: dict[str, Any], on_step: Callable[[int, int], None] | None = None
) -> tuple[Game, ReplayReport]:
    """Re-derive the save document ``d``; SaveError when it cannot even be read.

    ``on_step(done, total)`` is told after each re-derived action, so a long replay can
    show its progress."""
    _shape(d)
    game, setup = _start(d)
    saved_log = [_event(e) for e in d["log"]]
    if raw_setup := _check_start(game, d, saved_log, setup):
        return game, raw_setup
    pos = setup
    hist = d["history"]
    for i, step in enumerate(hist):
        msg, pos = _step(game, d["ruleset"], i, step, saved_log, pos)
        if msg:
            return game, ReplayReport(False, i, i, msg)
        if on_step is not None:
            on_step(i + 1, len(hist))
    rest = [e for e in saved_log[pos:] if e["kind"] not in BETWEEN_STEPS]
    if rest:
        return _diverged(
            game,
            len(hist),
            len(hist),
            f"log entry {saved_log.index(rest[0])} was written by no action",
        )
    for label, derived, saved in (
        ("state", game.state.to_dict(), d["state"]),
        ("dice", game.dice.get_state(), d["dice"]),
        ("checksum", game.state.checksum(), d["checksum"]),
        ("ruleset_version", game.ruleset.version, d.get("ruleset_version")),
    ):
        where = first_difference(_plain(derived), _plain(saved))
        if where is not None:
            at = label if where == "(top)" else f"{label}.{where}"
            return _diverged(game, len(hist), len(hist), f"the saved {at} differs from the replay")
    game.log.events[:] = [Event.from_dict(e) for e in d["log"]]
    return game, ReplayReport(True, len(hist), None, "", game.state.checksum())


def _diverged(game: Game, steps: int, at: int | None, msg: str) -> tuple[Game, ReplayReport]:
    return game, ReplayReport(False, steps, at, msg)


def _event(e: dict[str, Any]) -> dict[str, Any]:
    """An event as compared: without its script index (a runner's tag, not the game's)."""
    return {k: v for k, v in _plain(e).items() if k != "action"}


def _check_start(
    game: Game, d: dict[str, Any], saved_log: list[Any], setup: int
) -> ReplayReport | None:
    """Compare the derived start (state, dice, battlefield, setup log) with the saved."""
    start = d["start"]
    derived_log = [_event(e.to_dict()) for e in game.log.events]
    # a game built in code has no setup to re-derive: its setup lines are believed
    setup_log = derived_log if game.scenario.get("raw") else saved_log[:setup]
    for label, derived, saved in (
        ("setup log", setup_log, saved_log[:setup]),
        ("ruleset", game.state.ruleset, d["ruleset"]),
        ("battlefield", game.battlefield.to_dict(), d["battlefield"]),
        ("start.state", game.state.to_dict(), start.get("state")),
        ("start.dice", game.dice.get_state(), start.get("dice")),
        ("start.checksum", game.state.checksum(), start.get("checksum")),
    ):
        where = first_difference(_plain(derived), _plain(saved))
        if where is not None:
            at = label if where == "(top)" else f"{label}: {where}"
            return ReplayReport(False, 0, None, f"the saved {at} differs from the scenario's")
    return None


def _step(
    game: Game, ruleset: str, i: int, step: dict[str, Any], saved_log: list[Any], pos: int
) -> tuple[str | None, int]:
    """Apply history step ``i`` and compare it; returns (difference or None, log position)."""
    try:
        action = act.from_dict(step["action"], ruleset)
    except act.ActionError as e:
        return f"action {i}: not an action ({e})", pos
    label = f"action {i} ({action.describe()})"
    forced = step.get("forced", 0)
    game.dice.force(step["faces"][:forced])
    before, start = len(game.history), len(game.log.events)
    try:
        game.apply(action)
    except Exception as e:  # the rules on data no game produced: a divergence, not a crash
        return f"{label} cannot be replayed ({type(e).__name__}: {e})", pos
    if len(game.history) == before:
        return f"{label} was refused on replay", pos
    got = game.history[-1]
    if game.dice.forced:
        return f"{label} did not roll {len(game.dice.forced)} of its forced faces", pos
    checks = (
        ("faces", got.faces, step["faces"]),
        ("side", got.side, step.get("side")),
        ("action", got.action, step["action"]),
        ("checksum", got.checksum, step["checksum"]),
    )
    for what, derived, saved in checks:
        if _plain(derived) != _plain(saved):
            return f"{label} diverges: {what} {derived} != saved {saved}", pos
    events = [_event(e.to_dict()) for e in game.log.events[start:]]
    while saved_log[pos : pos + len(events)] != events:
        if pos < len(saved_log) and saved_log[pos]["kind"] in BETWEEN_STEPS:
            pos += 1
            continue
        return f"{label} diverges: log entry {pos} is not what it wrote", pos
    return None, pos + len(events)
