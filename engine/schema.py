"""One declarative schema for every data file: scenarios, maps, models, army lists.

Why a schema: the loaders used to check each key by hand, and every key they forgot (a
``stats`` that was a string, a NaN facing, an ``objectives`` that was a number) reached
the rules and crashed or corrupted the game. Here each shape is written once, as data,
and ``check`` walks a value against it, recording one ``file: where: what`` problem per
fault on an ``engine.data.Checker``. Numbers must be finite everywhere.

Why not pydantic or msgspec: both would be a new dependency for ~200 lines, their error
texts would replace the wordings the public contract's users already read
(``models[3].x: expected a number, got a string``), and a partly valid model still has
to reach the ruleset's own checks, which a model class that refuses it whole cannot give.
Validating 10,000 models with this walk takes well under a second.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.data import MAX_COORD, Checker, escape, finite, type_name

#: a stat, weapon value or state number beyond this is no rulebook's
MAX_STAT = 1000.0


class Spec:
    """A shape a value must have. ``check`` returns the (normalised) value or MISSING."""

    what = "a value"

    def check(self, chk: Checker, v: Any, where: str) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError


MISSING: Any = object()


def _fail(chk: Checker, where: str, what: str) -> Any:
    chk.add(where, what)
    return MISSING


@dataclass(frozen=True)
class Num(Spec):
    """A finite number within [lo, hi]; ``positive`` excludes 0; ``integer`` wants an int."""

    lo: float = -MAX_COORD
    hi: float = MAX_COORD
    positive: bool = False
    integer: bool = False

    @property
    def what(self) -> str:  # type: ignore[override]
        return "an integer" if self.integer else "a number"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if isinstance(v, bool) or not isinstance(v, int if self.integer else (int, float)):
            return _fail(chk, where, f"expected {self.what}, got {type_name(v)}")
        if not finite(v):
            return _fail(chk, where, f"expected a finite number, got {v}")
        if self.positive and v <= 0:
            return _fail(chk, where, f"must be more than 0, got {v:g}")
        if v < self.lo:
            return _fail(chk, where, f"must be at least {self.lo:g}, got {v:g}")
        if v > self.hi:
            return _fail(chk, where, f"must be at most {self.hi:g}, got {v:g}")
        return v if self.integer else float(v)


@dataclass(frozen=True)
class Str(Spec):
    """A string; ``empty`` allows ''; ``choices`` lists the allowed values."""

    empty: bool = True
    choices: tuple[str, ...] | None = None
    #: a name others refer to (id, side, unit): no control or format characters, which
    #: would print as extra lines or reorder the text around them
    name: bool = False
    what = "a string"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if not isinstance(v, str):
            return _fail(chk, where, f"expected a string, got {type_name(v)}")
        if not self.empty and not v.strip():
            return _fail(chk, where, "must not be empty")
        if self.name and escape(v) != v:
            return _fail(chk, where, f"'{v}' holds control characters")
        if self.choices is not None and v not in self.choices:
            return _fail(
                chk, where, f"unknown value '{v}' (expected one of: {', '.join(self.choices)})"
            )
        return v


@dataclass(frozen=True)
class Bool(Spec):
    what = "true or false"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if not isinstance(v, bool):
            return _fail(chk, where, f"expected true or false, got {type_name(v)}")
        return v


@dataclass(frozen=True)
class Point(Spec):
    """[x, y] of two finite numbers; ``positive`` for a table's width and depth."""

    positive: bool = False
    what = "a point [x, y]"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if not isinstance(v, list) or len(v) != 2 or not all(_number(c) for c in v):
            return _fail(chk, where, "expected a point [x, y] of two numbers")
        if not all(finite(c) and abs(c) <= MAX_COORD for c in v):
            return _fail(
                chk, where, f"expected a point [x, y] of two finite numbers within ±{MAX_COORD:g}"
            )
        if self.positive and min(v) <= 0:
            return _fail(chk, where, "width and depth must be positive")
        return (float(v[0]), float(v[1]))


@dataclass(frozen=True)
class Base(Spec):
    """A base in mm: a diameter, or [width, depth]; finite, positive, at most 1000 mm."""

    what = "a base"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        out: Any
        if _number(v):
            sizes, out = [v], float(v)
        elif isinstance(v, list) and len(v) == 2 and all(_number(c) for c in v):
            sizes, out = v, (float(v[0]), float(v[1]))
        else:
            return _fail(chk, where, "expected a diameter in mm or [width, depth] in mm")
        if not all(finite(c) for c in sizes):
            return _fail(chk, where, "base size must be a finite number of mm")
        if min(sizes) <= 0:
            return _fail(chk, where, "base size must be positive")
        if max(sizes) > 1000:
            return _fail(chk, where, "base size must be at most 1000 mm")
        return out


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    max_len: int = 100_000
    what = "a list"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if not isinstance(v, list):
            return _fail(chk, where, f"expected a list, got {type_name(v)}")
        if len(v) > self.max_len:
            return _fail(chk, where, f"more than {self.max_len} entries")
        return [self.item.check(chk, x, f"{where}[{i}]") for i, x in enumerate(v)]


@dataclass(frozen=True)
class Leaf(Spec):
    """Any plain value a ruleset reads (string, boolean, finite number within ±``hi``, or a
    list of those); what each key means is the ruleset's to check."""

    hi: float = MAX_STAT
    lists: bool = True
    what = "a value"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        if isinstance(v, list) and self.lists:
            for i, x in enumerate(v):
                if Leaf(self.hi, lists=False).check(chk, x, f"{where}[{i}]") is MISSING:
                    return MISSING
            return v
        if isinstance(v, (str, bool)):
            return v
        if _number(v):
            if not finite(v):
                return _fail(chk, where, f"expected a finite number, got {v}")
            if abs(v) > self.hi:
                return _fail(chk, where, f"must be within ±{self.hi:g}, got {v:g}")
            return v
        kind = "a string, number, true/false" + (" or a list of those" if self.lists else "")
        return _fail(chk, where, f"expected {kind}, got {type_name(v)}")


@dataclass(frozen=True)
class AnyValue(Spec):
    """Anything: for a list whose entries are checked one by one later."""

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        return v


@dataclass(frozen=True)
class Plain(Spec):
    """Any plain data a ruleset reads, tables and lists included (their nesting is
    bounded by the loader): only its numbers are checked, finite and within ±``hi``."""

    hi: float = MAX_STAT
    what = "a value"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        stack = [(v, where)]
        while stack:
            item, at = stack.pop()
            if isinstance(item, dict):
                stack.extend((x, _at(at, str(k))) for k, x in item.items())
            elif isinstance(item, list):
                stack.extend((x, f"{at}[{i}]") for i, x in enumerate(item))
            elif not isinstance(item, (str, bool, int, float)):
                return _fail(chk, at, f"expected a string, number or true/false, got {item!r}")
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                if not finite(item):
                    return _fail(chk, at, f"expected a finite number, got {item}")
                if abs(item) > self.hi:
                    return _fail(chk, at, f"must be within ±{self.hi:g}, got {item:g}")
        return v


@dataclass(frozen=True)
class Table(Spec):
    """A table with named ``fields``; ``required`` keys must be present. Keys not named
    are checked against ``extra`` (None: refused as unknown, listing ``allowed``)."""

    fields: Mapping[str, Spec] = field(default_factory=dict)
    required: tuple[str, ...] = ()
    extra: Spec | None = None
    what = "a table"

    def check(self, chk: Checker, v: Any, where: str, allowed: tuple[str, ...] = ()) -> Any:
        if not isinstance(v, dict):
            return _fail(chk, where, f"expected a table, got {type_name(v)}")
        out: dict[str, Any] = {}
        for k in self.required:
            if k not in v:
                chk.add(_at(where, k), f"missing ({self.fields[k].what} is required)")
        known = set(self.fields) | set(allowed)
        for k, x in v.items():
            spec: Spec | None = self.fields.get(k) or (PLAIN if k in allowed else None)
            if spec is None and k not in known:
                if self.extra is None:
                    names = ", ".join(sorted(known))
                    chk.add(_at(where, k), f"unknown key (allowed: {names})")
                    continue
                spec = self.extra
            out[k] = spec.check(chk, x, _at(where, k)) if spec is not None else x
        return out


@dataclass(frozen=True)
class OneOf(Spec):
    """A value picked by a test on it (``pick`` returns the spec to apply)."""

    pick: Callable[[Any], Spec]
    what = "a value"

    def check(self, chk: Checker, v: Any, where: str) -> Any:
        return self.pick(v).check(chk, v, where)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# --- the shapes ---------------------------------------------------------------------------

PLAIN = Plain()
COORD = Num()
STATE = Table(
    {
        "moved": Num(lo=0),
        "speed": Num(),
        "hp": Num(lo=0, hi=MAX_STAT, integer=True),
        "status": ListOf(Str(empty=False), max_len=50),
    },
    extra=Plain(),
)
WEAPON = Table({"name": Str(empty=False)}, required=("name",), extra=Plain())
#: the keys every model may have; the ruleset adds its own (``Ruleset.model_keys``)
MODEL = Table(
    {
        "id": Str(empty=False, name=True),
        "side": Str(empty=False, name=True),
        "unit": Str(empty=False, name=True),
        "profile": Str(empty=False),
        "name": Str(),
        "x": COORD,
        "y": COORD,
        "facing": Num(lo=-3600, hi=3600),
        "base": Base(),
        "stats": Table(extra=Leaf()),
        "weapons": ListOf(WEAPON, max_len=100),
        "state": STATE,
    },
    required=("id", "side", "x", "y"),
)
TERRAIN = Table(
    {
        "id": Str(empty=False),
        "kind": Str(),
        "polygon": ListOf(Point(), max_len=10_000),
        "height": Num(lo=0, hi=1000),
    },
    required=("kind", "polygon"),
)
PLACE = Table(
    {
        "id": Str(empty=False),
        "name": Str(empty=False),
        "kind": Str(),
        "x": COORD,
        "y": COORD,
        "radius": Num(lo=0, hi=MAX_COORD, positive=True),
        "side": Str(empty=False),
        "by_turn": Num(lo=0, hi=10_000, integer=True),
        # a place's task, where the ruleset has them (gemini: a skill test, a hidden thing)
        "skill": Str(empty=False),
        "difficulty": Str(empty=False),
        "modifier": Num(lo=-20, hi=20, integer=True),
        "skilled_only": Bool(),
    },
    required=("x", "y"),
)
#: the older form of scenario options: ``{ kind = "options", cards = true }``
OPTIONS_OBJECTIVE = Table({"kind": Str()}, extra=Bool())
OBJECTIVE = OneOf(
    lambda v: OPTIONS_OBJECTIVE if isinstance(v, dict) and v.get("kind") == "options" else PLACE
)
#: the optional-rule switches the built rulesets read (gem: cards, magic_cards,
#: deployment, terrain_placement; swomp: deployment, edges, inset); others pass as plain
#: values for the ruleset to judge
OPTIONS = Table(
    {
        "cards": Bool(),
        "magic_cards": Bool(),
        "terrain_placement": Bool(),
        "deployment": Bool(),
        "edges": Table(extra=Str(choices=("north", "south", "east", "west"))),
        "inset": Num(lo=0),
    },
    extra=Plain(),
)
#: an action's values; its verb's own fields are checked by ``engine.actions.from_dict``
ACTION = Plain(hi=MAX_COORD)
#: lists whose entries are checked one by one later (a model against its ruleset's keys)
ENTRIES = ListOf(AnyValue(), max_len=100_000)
MAP = Table(
    {
        "name": Str(),
        "description": Str(),
        "table": Point(positive=True),
        "terrain": ENTRIES,
    }
)
SCENARIO = Table(
    {
        "title": Str(),
        "description": Str(),
        "ruleset": Str(empty=False),
        "seed": Num(lo=-(2**63), hi=2**63 - 1, integer=True),
        "table": Point(positive=True),
        "map": Str(empty=False),
        "first": Str(empty=False),
        "terrain": ENTRIES,
        "models": ENTRIES,
        "actions": ENTRIES,
        "turn_limit": Num(lo=0, hi=10_000, integer=True),
        "objectives": ListOf(OBJECTIVE, max_len=1000),
        "options": OPTIONS,
        "conditions": Str(),
    },
    required=("ruleset", "models"),
)
#: a GEM-style army list (``rulesets/*/armies``): priced entries of profiles
ARMY_UNIT = Table(
    {
        "name": Str(empty=False),
        "profile": Str(empty=False),
        "count": Num(lo=1, hi=10_000, integer=True),
        "stats": Table(extra=Leaf()),
        "weapons": ListOf(WEAPON, max_len=100),
        "type": Str(empty=False),
        "base": Base(),
    },
    extra=Plain(),
)
ARMY = Table(
    {
        "ruleset": Str(),
        "name": Str(),
        "era": Str(),
        "description": Str(),
        "points_limit": Num(lo=0, hi=1e6),
        "min_formation_share": Num(lo=0, hi=1),
        "units": ListOf(ARMY_UNIT, max_len=10_000),
    },
    extra=Plain(),
)
