"""Saves and replays: one JSON format with a format_version, written atomically.

Why one format: a save holds the state to resume from *and* the history that produced
it, so the same file loads instantly and replays roll by roll. Atomic writes (a
temporary file in the same folder, fsync, then rename) mean a crash mid-write leaves the
previous save intact.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import actions as act
from engine.battlefield import Battlefield
from engine.dice import Dice
from engine.events import Event, EventLog
from engine.game import Game, Step
from engine.ruleset import load as load_ruleset
from engine.state import GameState

FORMAT_VERSION = 1


class SaveError(Exception):
    """A save file that cannot be read (missing, not JSON, wrong format_version)."""


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never half."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def to_dict(game: Game) -> dict[str, Any]:
    """The save document. ``start`` is the state and dice right after setup."""
    start = game.scenario.get("start") or {}
    return {
        "format_version": FORMAT_VERSION,
        "ruleset": game.state.ruleset,
        "ruleset_version": game.ruleset.version,
        "scenario": {k: v for k, v in game.scenario.items() if k != "start"},
        "battlefield": game.battlefield.to_dict(),
        "start": start,
        "history": [s.to_dict() for s in game.history],
        "state": game.state.to_dict(),
        "dice": game.dice.get_state(),
        "checksum": game.state.checksum(),
        "log": [e.to_dict() for e in game.log.events],
    }


def mark_start(game: Game) -> None:
    """Remember the state right after setup, so saves can be replayed from it."""
    game.scenario["start"] = {
        "state": game.state.to_dict(),
        "dice": game.dice.get_state(),
        "checksum": game.state.checksum(),
    }


def save(game: Game, path: str | Path) -> None:
    write_atomic(path, json.dumps(to_dict(game), indent=1, sort_keys=True))


def _read(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    if not p.exists():
        raise SaveError(f"{p}: no such file")
    try:
        d = json.loads(p.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SaveError(f"{p}: not a save file ({e})") from None
    if not isinstance(d, dict) or "format_version" not in d:
        raise SaveError(f"{p}: not a save file (no format_version)")
    if d["format_version"] != FORMAT_VERSION:
        raise SaveError(
            f"{p}: format_version {d['format_version']} is not supported "
            f"(this program reads {FORMAT_VERSION})"
        )
    return d


def from_dict(d: dict[str, Any]) -> Game:
    ruleset = load_ruleset(d["ruleset"])
    state = GameState.from_dict(d["state"])
    game = Game(ruleset, Battlefield.from_dict(d["battlefield"]), state, Dice.from_state(d["dice"]))
    game.history = [
        Step(s["action"], list(s["faces"]), s["checksum"], s.get("side"))
        for s in d.get("history", [])
    ]
    game.scenario = dict(d.get("scenario", {}))
    if d.get("start"):
        game.scenario["start"] = d["start"]
    for e in d.get("log", []):
        game.log.events.append(Event.from_dict(e))
    return game


def load(path: str | Path) -> Game:
    """Load a save: the exact state it was written with (same checksum)."""
    d = _read(path)
    game = from_dict(d)
    if game.state.checksum() != d.get("checksum"):
        raise SaveError(f"{path}: checksum mismatch: the file was changed or damaged")
    return game


@dataclass
class ReplayReport:
    ok: bool
    steps: int
    diverged_at: int | None = None
    message: str = ""
    final_checksum: str = ""


def replay(d: dict[str, Any]) -> tuple[Game, ReplayReport]:
    """Re-apply every recorded action from the start state with its recorded faces and
    compare checksums after each; names the first action that diverges."""
    start = d.get("start")
    if not start:
        raise SaveError("this save has no start state to replay from")
    ruleset = load_ruleset(d["ruleset"])
    game = Game(
        ruleset,
        Battlefield.from_dict(d["battlefield"]),
        GameState.from_dict(start["state"]),
        Dice.from_state(start["dice"]),
        EventLog(),
    )
    game.scenario = dict(d.get("scenario", {}))
    game.scenario["start"] = start
    hist = d.get("history", [])
    for i, step in enumerate(hist):
        action = act.from_dict(step["action"], d["ruleset"])
        game.dice.force(step["faces"])
        before = len(game.history)
        game.apply(action)
        if len(game.history) == before:
            return game, ReplayReport(
                False, i, i, f"action {i} ({action.describe()}) was refused on replay"
            )
        if game.history[-1].checksum != step["checksum"]:
            return game, ReplayReport(
                False,
                i,
                i,
                f"action {i} ({action.describe()}) "
                f"diverges: checksum "
                f"{game.history[-1].checksum} != "
                f"{step['checksum']}",
            )
    final = game.state.checksum()
    ok = final == d.get("checksum")
    return game, ReplayReport(
        ok, len(hist), None if ok else len(hist), "" if ok else "final checksum differs", final
    )


def replay_file(path: str | Path) -> tuple[Game, ReplayReport]:
    return replay(_read(path))
