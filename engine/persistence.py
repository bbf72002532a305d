"""Saves and replays: one JSON format with a format_version, written atomically, and a
save that proves itself before it is trusted.

Why one format: a save holds the state to resume from *and* the history that produced
it, so the same file loads and replays roll by roll. Atomic writes (a temporary file in
the same folder, fsync, then rename) mean a crash mid-write leaves the previous save
intact; temporary files left by a killed save are removed on the next save.

Why re-derive on load: a checksum written next to the state proves nothing once someone
recomputes it. ``replay`` (engine/replay_check.py) rebuilds the whole game from the
scenario and compares everything the file holds; ``load`` (the window's loader) trusts a
save only after that passes. The checksum is an unkeyed hash: it detects damage, it
cannot stop a deliberate forgery of a whole consistent game.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.battlefield import Battlefield
from engine.data import DataError, read_regular
from engine.game import Game
from engine.game import mark_start as mark_start
from engine.replay_check import ReplayReport as ReplayReport
from engine.replay_check import SaveDiverged as SaveDiverged
from engine.replay_check import SaveError as SaveError
from engine.replay_check import replay as _replay_doc
from engine.state import GameState

FORMAT_VERSION = 1
#: a save larger than this is refused unread (a long game is well under 10 MB)
MAX_SAVE_BYTES = 256 * 1024 * 1024
#: a ``.tmp`` file this old (seconds) next to a save is a leftover of a killed save
STALE_TMP_AGE = 60.0


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` so that ``path`` holds either the old or the new content, never half."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    clean_stale(p)
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
    _sync_dir(p.parent)


def _sync_dir(folder: Path) -> None:
    """fsync the folder so the rename itself survives a power loss (POSIX only)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def clean_stale(path: Path, age: float = STALE_TMP_AGE) -> int:
    """Remove ``.NAME.*.tmp`` files a killed save of ``path`` left behind; returns how many.

    Only files older than ``age`` seconds go, so a save being written right now by
    another process keeps its temporary file.
    """
    removed = 0
    now = time.time()
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            if tmp.is_file() and now - tmp.stat().st_mtime > age:
                tmp.unlink()
                removed += 1
        except OSError:
            pass
    return removed


def to_dict(game: Game) -> dict[str, Any]:
    """The save document. ``start`` is the state and dice right after setup."""
    start = game.scenario.get("start") or {}
    return {
        "format_version": FORMAT_VERSION,
        "ruleset": game.state.ruleset,
        "ruleset_version": game.ruleset.version,
        "scenario": {k: v for k, v in game.scenario.items() if k != "start"},
        "battlefield": _start_battlefield(game, start).to_dict(),
        "start": start,
        "history": [s.to_dict() for s in game.history],
        "state": game.state.to_dict(),
        "dice": game.dice.get_state(),
        "checksum": game.state.checksum(),
        "log": [e.to_dict() for e in game.log.events],
    }


def _start_battlefield(game: Game, start: dict[str, Any]) -> Battlefield:
    """The table as the game began, which a replay starts from: a setup may move terrain
    later (GEM's alternating bunches, ``Ruleset.placed_terrain``)."""
    state = start.get("state")
    if not isinstance(state, dict):
        return game.battlefield
    return game.ruleset.placed_terrain(game.battlefield, GameState.from_dict(state))


def save(game: Game, path: str | Path) -> None:
    """Write ``game`` as a save (strict JSON: a NaN in the state is an error, not a file)."""
    write_atomic(path, json.dumps(to_dict(game), indent=1, sort_keys=True, allow_nan=False))


def read(path: str | Path) -> dict[str, Any]:
    """The parsed save document, or SaveError (unreadable: exit 2)."""
    try:
        raw = read_regular(path, str(path), limit=MAX_SAVE_BYTES)
    except DataError as e:
        raise SaveError(e.problems[0].what, "file", e.problems[0].file) from None
    try:
        d = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as e:
        raise SaveError(f"not a save file ({e})", "file", str(path)) from None
    except RecursionError:
        raise SaveError("not a save file (nested too deeply)", "file", str(path)) from None
    if not isinstance(d, dict) or "format_version" not in d:
        raise SaveError("not a save file (no format_version)", "file", str(path))
    v = d["format_version"]
    if type(v) is not int or v != FORMAT_VERSION:
        raise SaveError(
            f"format_version {v!r} is not supported (this program reads {FORMAT_VERSION})",
            "format_version",
            str(path),
        )
    return d


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_read = read  # the name older callers use


def load(path: str | Path) -> Game:
    """Load a save for play, after re-deriving the whole game from its start and finding
    it identical to what the file holds; SaveError (SaveDiverged) otherwise."""
    game, report = replay_file(path)
    if not report.ok:
        raise SaveDiverged(report.message, "replay", str(path))
    return game


def replay_file(
    path: str | Path, on_step: Callable[[int, int], None] | None = None
) -> tuple[Game, ReplayReport]:
    """``replay`` of the save at ``path`` (see engine/replay_check.py); a SaveError
    names the file, the place and the fault. ``on_step(done, total)`` follows progress."""
    d = read(path)
    try:
        return _replay_doc(d, on_step)
    except SaveError as e:
        raise e.located(path) from None


def replay(d: dict[str, Any]) -> tuple[Game, ReplayReport]:
    """Re-derive a save document and compare it (see engine/replay_check.py)."""
    return _replay_doc(d)


def from_dict(d: dict[str, Any]) -> Game:
    """The game a (verified) save document describes."""
    game, report = replay(d)
    if not report.ok:
        raise SaveDiverged(report.message, "replay")
    return game
