"""Typed actions with a kind registry.

Why typed: an action is what a player commits (a move along a path, a shot at a target
with a weapon). The window builds one, ``Ruleset.check`` explains why it is or is not
legal, the AI enumerates them, and saves store them. Rulesets add their own kinds with
``@action("cast")`` on a frozen dataclass; ``from_dict`` finds the class by its kind.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

Point = tuple[float, float]

#: (ruleset key or "" for shared verbs, kind) -> class
_REGISTRY: dict[tuple[str, str], type[Action]] = {}
_A = TypeVar("_A", bound="type[Action]")


class ActionError(ValueError):
    """An action dict that does not describe a known action (unknown kind or field)."""


@dataclass(frozen=True)
class Action:
    """Base of every action. ``actor`` is a model id or a unit id ("" for side acts)."""

    actor: str = ""
    KIND: ClassVar[str] = "action"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"do": self.KIND}
        for name, default, factory in _fields(type(self)):
            v = getattr(self, name)
            if v == default or (factory and not v):
                continue
            d[name] = _plain(v)
        return d

    def describe(self) -> str:
        """Short human text, e.g. 'shoot g1 with bolter'."""
        bits = [self.KIND.replace("_", " ")]
        if self.actor:
            bits.insert(0, self.actor)
        target = getattr(self, "target", "")
        if target:
            bits.append(str(target))
        weapon = getattr(self, "weapon", "")
        if weapon:
            bits.append(f"with {weapon}")
        return " ".join(bits)


_FIELDS: dict[type, tuple[tuple[str, Any, bool], ...]] = {}


def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    """(name, default, has a default factory) of each field of an action class, kept per
    class. Why: ``dataclasses.fields`` rebuilds its tuple on every call, and the random
    agent and the checks read an action's fields thousands of times a game (issue 24)."""
    got = _FIELDS.get(cls)
    if got is None:
        got = _FIELDS[cls] = tuple(
            (f.name, f.default, f.default_factory is not dataclasses.MISSING)
            for f in dataclasses.fields(cls)
        )
    return got


def _plain(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def action(kind: str, ruleset: str = "") -> Callable[[_A], _A]:
    """Class decorator: register ``cls`` under ``kind``.

    A ruleset's own verbs pass ``ruleset=<key>`` so two rulebooks may each have a
    ``cast`` or a ``ram`` of their own shape; shared verbs (move, shoot...) use "".
    Registering a different class under a taken name is an error, not a silent swap.
    """

    def deco(cls: _A) -> _A:
        cls.KIND = kind
        old = _REGISTRY.get((ruleset, kind))
        if old is not None and old.__qualname__ != cls.__qualname__:
            raise ValueError(
                f"action '{kind}' of '{ruleset or 'shared'}' is already "
                f"{old.__module__}.{old.__qualname__}"
            )
        _REGISTRY[(ruleset, kind)] = cls
        return cls

    return deco


def kinds(ruleset: str = "") -> list[str]:
    """The shared verbs plus those of ``ruleset``."""
    return sorted({k for r, k in _REGISTRY if r in ("", ruleset)})


def action_class(kind: str, ruleset: str = "") -> type[Action]:
    cls = _REGISTRY.get((ruleset, kind)) or _REGISTRY.get(("", kind))
    if cls is None:
        raise ActionError(f"unknown action '{kind}' (known: {', '.join(kinds(ruleset))})")
    return cls


def _coerce(name: str, typ: Any, v: Any) -> Any:
    """Convert TOML/JSON values to the field's declared type, or raise ActionError."""
    origin = typing.get_origin(typ)
    args = typing.get_args(typ)
    if typ is float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ActionError(f"{name}: expected a number, got {type(v).__name__}")
        if not _sound(v):
            raise ActionError(f"{name}: expected a finite number within ±{MAX_VALUE:g}, got {v}")
        return float(v)
    if typ is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ActionError(f"{name}: expected an integer, got {type(v).__name__}")
        return v
    if typ is str:
        if not isinstance(v, str):
            raise ActionError(f"{name}: expected a string, got {type(v).__name__}")
        return v
    if typ is bool:
        if not isinstance(v, bool):
            raise ActionError(f"{name}: expected true or false, got {type(v).__name__}")
        return v
    if origin is tuple:
        if not isinstance(v, (list, tuple)):
            raise ActionError(f"{name}: expected a list, got {type(v).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce(name, args[0], x) for x in v)
        if len(v) != len(args):
            raise ActionError(f"{name}: expected {len(args)} values, got {len(v)}")
        return tuple(_coerce(name, a, x) for a, x in zip(args, v, strict=True))
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        if v is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _coerce(name, a, v)
            except ActionError as e:
                errors.append(str(e))
        raise ActionError(errors[0] if errors else f"{name}: bad value")
    if origin is dict or typ is dict:
        if not isinstance(v, dict):
            raise ActionError(f"{name}: expected a table, got {type(v).__name__}")
        return dict(v)
    return v


#: no coordinate, facing or distance in an action may exceed this (tables are feet wide)
MAX_VALUE = 10_000.0


def _sound(v: float) -> bool:
    return math.isfinite(v) and abs(v) <= MAX_VALUE


def unsound(action: Action) -> str | None:
    """Why ``action`` carries a number no table can hold (NaN, ±inf, 1e308), or None.

    Why in the engine: every ruleset would otherwise take a NaN facing into the state or
    overflow on a move to 1e308; ``Game.check`` refuses such an action before any
    ruleset sees it, whoever built it (a script, an agent, the window).
    """
    for name, _, _ in _fields(type(action)):
        v = getattr(action, name)
        stack = [v]
        while stack:
            x = stack.pop()
            if isinstance(x, float) and not _sound(x):
                return f"{name}: {x} is not a finite number within ±{MAX_VALUE:g}"
            if isinstance(x, tuple):
                stack.extend(x)
    return None


def from_dict(d: dict[str, Any], ruleset: str = "") -> Action:
    """Build an action from its dict form ({"do": kind, ...fields}); unknown keys are
    errors. ``ruleset`` picks that ruleset's own verbs first."""
    d = dict(d)
    kind = d.pop("do", None)
    if not isinstance(kind, str):
        raise ActionError("do: missing or not a string")
    cls = action_class(kind, ruleset)
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    kwargs = {}
    for k, v in d.items():
        if k not in names:
            raise ActionError(f"{k}: not a field of '{kind}' (fields: {', '.join(sorted(names))})")
        kwargs[k] = _coerce(k, hints[k], v)
    try:
        return cls(**kwargs)
    except TypeError as e:
        raise ActionError(str(e)) from None


# --- the verbs every ruleset shares (SCENARIO_FORMAT.md "Actions") -------------------


@action("move")
@dataclass(frozen=True)
class Move(Action):
    """Move along ``path`` (or straight ``to`` a point); ``mode`` e.g. run, crawl, charge."""

    to: Point | None = None
    path: tuple[Point, ...] = ()
    facing: float | None = None
    mode: str = ""

    def waypoints(self, start: Point) -> tuple[Point, ...]:
        """The full path from ``start``: the given path, or the single leg to ``to``."""
        pts: tuple[Point, ...] = self.path if self.path else ((self.to,) if self.to else ())
        if pts and pts[0] == start:
            return pts
        return (start, *pts)


@action("charge")
@dataclass(frozen=True)
class Charge(Action):
    """Move into base contact with ``target`` (path optional), then fight where the rules say."""

    target: str = ""
    path: tuple[Point, ...] = ()


@action("shoot")
@dataclass(frozen=True)
class Shoot(Action):
    target: str = ""
    weapon: str = ""
    options: dict[str, Any] = field(default_factory=dict)


@action("fight")
@dataclass(frozen=True)
class Fight(Action):
    """A round of melee for the actor's combat (``target`` picks the foe where it matters)."""

    target: str = ""
    options: dict[str, Any] = field(default_factory=dict)


@action("turn")
@dataclass(frozen=True)
class Turn(Action):
    """Change facing in place."""

    facing: float = 0.0


@action("end_activation")
@dataclass(frozen=True)
class EndActivation(Action):
    """Finish the current activation (the actor's unit is done for this turn)."""


@action("end_phase")
@dataclass(frozen=True)
class EndPhase(Action):
    """Finish the current phase or segment for the side to act."""


@action("end_turn")
@dataclass(frozen=True)
class EndTurn(Action):
    """Finish everything the side to act has left this turn."""


@action("concede")
@dataclass(frozen=True)
class Concede(Action):
    """The side to act gives up; the game ends."""


@action("choose")
@dataclass(frozen=True)
class Choose(Action):
    """Answer a pending decision (a reaction, a saving choice) with one of its options."""

    option: str = ""
