"""TOML loading and validation with `file: where: what` problems.

Why: scenarios, maps and army lists are written by people; a mistake must come back as
one clear line per problem (SCENARIO_FORMAT.md: ``error: FILE: WHERE: WHAT``), never a
traceback. Validators collect every problem they can find instead of stopping at one.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Problem:
    file: str
    where: str
    what: str

    def line(self) -> str:
        return f"error: {self.file}: {self.where}: {self.what}"


class DataError(Exception):
    """One or more problems with a data file."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(p.line() for p in self.problems))


def load_toml(path: str | Path, display: str | None = None) -> dict[str, Any]:
    """Read a TOML file, turning a missing file or a syntax error into a DataError."""
    name = display or str(path)
    p = Path(path)
    if not p.exists():
        raise DataError([Problem(name, "file", "no such file")])
    if p.is_dir():
        raise DataError([Problem(name, "file", "is a directory, not a TOML file")])
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
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
    def number(self, d: Mapping, key: str, where: str, default: Any = ..., minimum=None):
        if key not in d:
            if default is ...:
                self.add(where, "missing (a number is required)")
                return None
            return default
        v = d[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.add(where, f"expected a number, got {type_name(v)}")
            return None
        if minimum is not None and v < minimum:
            self.add(where, f"must be at least {minimum}, got {v}")
            return None
        return float(v)

    def integer(self, d: Mapping, key: str, where: str, default: Any = ...):
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

    def string(self, d: Mapping, key: str, where: str, default: Any = ..., choices=None):
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

    def table(self, d: Mapping, key: str, where: str, default: Any = ...):
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

    def array(self, d: Mapping, key: str, where: str, default: Any = ...):
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

    def point(self, v: Any, where: str):
        if (
            not isinstance(v, list)
            or len(v) != 2
            or any(isinstance(c, bool) or not isinstance(c, (int, float)) for c in v)
        ):
            self.add(where, "expected a point [x, y] of two numbers")
            return None
        return (float(v[0]), float(v[1]))

    def known_keys(self, d: Mapping, allowed: Iterable[str], where: str) -> None:
        allowed = set(allowed)
        for k in d:
            if k not in allowed:
                loc = f"{where}.{k}" if where else k
                self.add(loc, f"unknown key (allowed: {', '.join(sorted(allowed))})")
