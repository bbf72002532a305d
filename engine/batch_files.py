"""A batch run's output folder: never overwritten by surprise, never written through a
symbolic link, and resumable after an interruption.

Why a module: ``simulate`` used to open ``games.jsonl`` with ``"w"`` in a folder named
after the scenario file alone, so every ruleset's ``default.toml`` landed in the same
``out/simulate/default/`` and each run silently replaced the last (a symlink planted at
``games.jsonl`` was even followed). Here a folder holds one run: ``run.json`` says what
was asked (ruleset, scenario, agents, seed, turn limit), ``games.jsonl`` gets one line
per game as it finishes (appended, so a killed run keeps what it played), and a second
run into the same folder must say ``--resume`` (finish the same run) or ``--force``
(replace it).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

#: files a run writes; ``--force`` removes exactly these
RUN_FILES = ("run.json", "games.jsonl", "summary.json", "wins.png", "luck.png")
#: files made from games.jsonl at the end of a run
DERIVED = ("summary.json", "wins.png", "luck.png")
#: what a resumed run must share with the run it finishes (``games`` may grow)
SAME_RUN = ("ruleset", "scenario", "agents", "seed", "turn_limit")


class OutputError(Exception):
    """The folder cannot take this run; the message is the ``error:`` line's WHAT."""


def folder_name(ruleset: str, scenario: str | Path) -> str:
    """``RULESET-STEM`` with anything but letters, digits, ``_ . -`` made ``_`` and no
    leading dot, so a file called ``...toml`` cannot name ``..``."""
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", Path(scenario).stem).lstrip(".") or "scenario"
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', ruleset)}-{stem}"


def _open_nofollow(path: Path, flags: int) -> int:
    """``os.open`` that refuses a symbolic link at ``path`` instead of writing its target."""
    try:
        return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as e:
        if path.is_symlink():
            raise OutputError(
                f"{path.name} is a symbolic link; refusing to write through it"
            ) from None
        raise OutputError(f"{path.name}: {e.strerror or e}") from None


def write_atomic(path: Path, write: Callable[[IO[bytes]], object]) -> None:
    """Write a new file beside ``path`` and rename it over ``path``: a reader (or a kill)
    sees the old file or the new one, never half of one, and a symlink at ``path`` is
    replaced, not followed. The new file comes from ``tempfile.mkstemp`` (a fresh name
    opened with O_EXCL, so nothing planted beside ``path`` can redirect it)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_json(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=1, sort_keys=True) + "\n"
    write_atomic(path, lambda fh: fh.write(text.encode("utf-8")))


def _check_folder(out: Path) -> None:
    if out.is_symlink():
        raise OutputError("the output folder is a symbolic link; refusing to write through it")
    if out.exists() and not out.is_dir():
        raise OutputError("exists and is not a folder")


def read_games(path: Path) -> list[dict[str, Any]]:
    """The complete lines of a games.jsonl; a line cut short by a kill is dropped."""
    if not path.exists():
        return []
    if path.is_symlink():
        raise OutputError(f"{path.name} is a symbolic link; refusing to read through it")
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and isinstance(row.get("game"), int):
            rows.append(row)
    return rows


def prepare(out: Path, run: dict[str, Any], force: bool, resume: bool) -> list[dict[str, Any]]:
    """Make ``out`` ready for ``run``; returns the games an earlier run already played
    (``resume``), whose lines are kept and the rest of games.jsonl dropped."""
    _check_folder(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create the folder: {e.strerror or e}") from None
    earlier = [out / n for n in RUN_FILES if (out / n).exists() or (out / n).is_symlink()]
    kept: list[dict[str, Any]] = []
    if earlier and resume:
        kept = _resumable(out, run)
        for name in DERIVED:  # made again at the end: a kill must not leave stale ones
            if (out / name).exists() or (out / name).is_symlink():
                (out / name).unlink()
    elif earlier and not force:
        raise OutputError(
            f"holds an earlier run ({', '.join(p.name for p in earlier)}); "
            "pass --resume to finish it or --force to replace it"
        )
    elif earlier:
        for p in earlier:
            p.unlink()
    write_json(out / "run.json", run)
    lines = "".join(json.dumps(r, sort_keys=True) + "\n" for r in kept)
    write_atomic(out / "games.jsonl", lambda fh: fh.write(lines.encode("utf-8")))
    return kept


def _resumable(out: Path, run: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        before = json.loads((out / "run.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        raise OutputError("run.json is missing or unreadable; cannot tell what to resume") from None
    for key in SAME_RUN:
        if before.get(key) != run.get(key):
            raise OutputError(
                f"--resume: the earlier run had {key} {before.get(key)!r}, this one "
                f"{run.get(key)!r}; pass --force to replace it"
            )
    wanted = set(range(run["games"]))
    seen: set[int] = set()
    kept = []
    for row in read_games(out / "games.jsonl"):
        if row["game"] in wanted and row["game"] not in seen:
            seen.add(row["game"])
            kept.append(row)
    return kept


def append_games(out: Path) -> IO[str]:
    """games.jsonl opened to append, one flushed line per finished game."""
    fd = _open_nofollow(out / "games.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    return os.fdopen(fd, "w", encoding="utf-8")
