"""TOML loading and validation with `file: where: what` problems.

Why: scenarios, maps and army lists are written by people; a mistake must come back as
one clear line per problem (SCENARIO_FORMAT.md: ``error: FILE: WHERE: WHAT``), never a
traceback. Validators collect every problem they can find instead of stopping at one.
"""

from __future__ import annotations

import math
import os
import re
import stat
import tomllib
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Problem:
    file: str
    where: str
    what: str

    def line(self) -> str:
        """One line, always: control and format characters from file data (an id holding
        a newline or a right-to-left override) are escaped, so no value can forge a
        second ``error:`` line or hide part of this one."""
        return f"error: {escape(self.file)}: {escape(self.where)}: {escape(self.what)}"


#: at most this many problem lines are printed; a count line says how many more there are
MAX_PROBLEM_LINES = 50
#: a data file larger than this is refused unread (16 MB: ten thousand models take ~1 MB)
MAX_FILE_BYTES = 16 * 1024 * 1024
#: no position, size or distance in inches may be larger than this (a table is feet wide)
MAX_COORD = 10_000.0
#: tables and lists nested deeper than this are refused (the bundled files use 4)
MAX_DEPTH = 16


def escape(text: str) -> str:
    """``text`` with every control (Cc) and format (Cf) character written as an escape."""
    if text.isprintable():
        return text
    return "".join(
        ch if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp") else repr(ch)[1:-1]
        for ch in text
    )


def problem_lines(problems: Iterable[Problem], limit: int = MAX_PROBLEM_LINES) -> list[str]:
    """The lines to print for ``problems``: the first ``limit``, then one count line."""
    problems = list(problems)
    lines = [p.line() for p in problems[:limit]]
    if len(problems) > limit:
        rest = len(problems) - limit
        lines.append(Problem(problems[0].file, "file", f"{rest} more problems not shown").line())
    return lines


def finite(v: Any) -> bool:
    """A real number a table can hold: an int or float (not a bool) that is not NaN or ±inf."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return isinstance(v, int) or math.isfinite(v)


def depth(v: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``v`` nests lists and tables, counting no further than ``limit + 1``."""
    best = 0
    stack = [(v, 0)]
    while stack:
        item, d = stack.pop()
        if d > limit:
            return d
        best = max(best, d)
        if isinstance(item, dict):
            stack.extend((x, d + 1) for x in item.values())
        elif isinstance(item, list):
            stack.extend((x, d + 1) for x in item)
    return best


def read_regular(path: str | Path, name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or a DataError.

    Why stat first: opening a FIFO blocks until someone writes to it and ``/dev/zero``
    never ends, so a scenario whose ``map`` names one would freeze whoever opens it.
    """
    if not str(path):
        raise DataError([Problem(name or "''", "file", "no file name given")])
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise DataError([Problem(name, "file", "no such file")]) from None
    except OSError as e:
        raise DataError([Problem(name, "file", f"cannot be read ({e.strerror})")]) from None
    except ValueError:  # a NUL in the name
        raise DataError([Problem(name, "file", "not a usable file name")]) from None
    if stat.S_ISDIR(st.st_mode):
        raise DataError([Problem(name, "file", "is a directory, not a file")])
    if not stat.S_ISREG(st.st_mode):
        raise DataError([Problem(name, "file", "is not a regular file")])
    if st.st_size > limit:
        raise DataError([Problem(name, "file", f"larger than {limit // 2**20} MB")])
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as e:
        raise DataError([Problem(name, "file", f"cannot be read ({e.strerror})")]) from None
    if len(data) > limit:
        raise DataError([Problem(name, "file", f"larger than {limit // 2**20} MB")])
    return data


class DataError(Exception):
    """One or more problems with a data file."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(p.line() for p in self.problems))


def load_toml(path: str | Path, display: str | None = None) -> dict[str, Any]:
    """Read a TOML file, turning a missing or special file, a syntax error or nesting
    deeper than MAX_DEPTH into a DataError."""
    name = str(path) if display is None else display
    raw = read_regular(path, name)
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        # Python 3.11's message ends "(at line L, column C)"; 3.14 also has .lineno
        text = str(e)
        m = re.search(r"\(at line (\d+), column (\d+)\)", text)
        line = getattr(e, "lineno", None) or (int(m.group(1)) if m else None)
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", text)
        where = f"line {line}" if line else "file"
        raise DataError([Problem(name, where, f"not valid TOML: {msg}")]) from None
    except UnicodeDecodeError:
        raise DataError([Problem(name, "file", "not valid TOML: not UTF-8 text")]) from None
    except RecursionError:
        raise DataError([Problem(name, "file", f"nested more than {MAX_DEPTH} deep")]) from None
    if depth(data) > MAX_DEPTH:
        raise DataError([Problem(name, "file", f"nested more than {MAX_DEPTH} deep")])
    return data


def type_name(v: Any) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(v), type(v).__name__)


@dataclass
class Checker:
    """Collects problems for one file while validating it."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    def add(self, where: str, what: str) -> None:
        self.problems.append(Problem(self.file, where, what))

    def raise_if_any(self) -> None:
        if self.problems:
            raise DataError(self.problems)

    # --- typed getters: each returns the value or None after recording a problem --------
    def number(
        self,
        d: Mapping[str, Any],
        key: str,
        where: str,
        default: Any = ...,
        minimum: float | None = None,
        maximum: float | None = None,
    ) -> Any:
        if key not in d:
            if default is ...:
                self.add(where, "missing (a number is required)")
                return None
            return default
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.add(where, f"expected a number, got {type_name(v)}")
            return None
        if not finite(v):
            self.add(where, f"expected a finite number, got {v}")
            return None
        if minimum is not None and v < minimum:
            self.add(where, f"must be at least {minimum}, got {v}")
            return None
        if maximum is not None and v > maximum:
            self.add(where, f"must be at most {maximum:g}, got {v:g}")
            return None
        return float(v)

    def integer(self, d: Mapping[str, Any], key: str, where: str, default: Any = ...) -> Any:
        if key not in d:
            if default is ...:
                self.add(where, "missing (an integer is required)")
                return None
            return default
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.add(where, f"expected an integer, got {type_name(v)}")
            return None
        return v

    def string(
        self,
        d: Mapping[str, Any],
        key: str,
        where: str,
        default: Any = ...,
        choices: Collection[str] | None = None,
    ) -> Any:
        if key not in d:
            if default is ...:
                self.add(where, "missing (a string is required)")
                return None
            return default
        v = d[key]
        if not isinstance(v, str):
            self.add(where, f"expected a string, got {type_name(v)}")
            return None
        if choices is not None and v not in choices:
            self.add(where, f"unknown value '{v}' (expected one of: {', '.join(choices)})")
            return None
        return v

    def table(self, d: Mapping[str, Any], key: str, where: str, default: Any = ...) -> Any:
        if key not in d:
            if default is ...:
                self.add(where, "missing (a table is required)")
                return None
            return default
        v = d[key]
        if not isinstance(v, dict):
            self.add(where, f"expected a table, got {type_name(v)}")
            return None
        return v

    def array(self, d: Mapping[str, Any], key: str, where: str, default: Any = ...) -> Any:
        if key not in d:
            if default is ...:
                self.add(where, "missing (a list is required)")
                return None
            return default
        v = d[key]
        if not isinstance(v, list):
            self.add(where, f"expected a list, got {type_name(v)}")
            return None
        return v

    def point(self, v: Any, where: str) -> tuple[float, float] | None:
        if (
            not isinstance(v, list)
            or len(v) != 2
            or any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in v)
        ):
            self.add(where, "expected a point [x, y] of two numbers")
            return None
        if not all(finite(c) and abs(c) <= MAX_COORD for c in v):
            self.add(where, f"expected a point [x, y] of two finite numbers within ±{MAX_COORD:g}")
            return None
        return (float(v[0]), float(v[1]))

    def known_keys(self, d: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
        allowed = set(allowed)
        for k in d:
            if k not in allowed:
                loc = f"{where}.{k}" if where else k
                self.add(loc, f"unknown key (allowed: {', '.join(sorted(allowed))})")
