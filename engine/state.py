"""Game state as plain data: models, sides, turn bookkeeping and ruleset variables.

Why plain data: saves, replays, undo, AI clones and the checksum all need a state that
copies cheaply and serialises exactly. Rulesets keep what they need in ``vars`` (on the
state and on each model) as JSON-compatible values; the engine never interprets them.
"""

from __future__ import annotations

import copy
import hashlib
import json
import operator
import pickle
from dataclasses import dataclass, field
from typing import Any

Base = float | tuple[float, float]


def _round(v: Any) -> Any:
    """Canonical form for checksums: floats rounded to 1/1000 in, tuples as lists."""
    if isinstance(v, float):
        r = round(v, 3)
        # 10 and 10.0 are the same position: an action built with integer coordinates
        # must checksum like its replay, which reads them back as floats
        return int(r) if r.is_integer() else r
    if isinstance(v, dict):
        return {str(k): _round(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_round(x) for x in v]
    if isinstance(v, set):
        return sorted(_round(x) for x in v)
    return v


#: the attributes of a model that ``GameState.copy`` copies deeply; the others are
#: strings and numbers (immutable), shared by the copy
_MUTABLE = ("stats", "weapons", "status", "vars", "base")
_take_mutable = operator.itemgetter(*_MUTABLE)
#: the same but the stats, for a ruleset whose stats never change in play (``fixed_stats``)
_take_varying = operator.itemgetter(*_MUTABLE[1:])
#: rulesets (keys) whose models' stats never change once the game is built: a copy of
#: their states shares each model's stats dict instead of copying it
_FIXED_STATS: set[str] = set()
#: a model's attributes: one with others (an attribute a ruleset added) has every
#: attribute copied deeply
_FIELDS = frozenset(
    ("id", "side", "unit", "x", "y", "facing", "profile", "hp", "max_hp", "removed", *_MUTABLE)
)
#: how many: a model never loses one of its fields, so one with more has others. Why
#: count rather than compare the keys: comparing them was half of ``split`` (issue 24)
_NFIELDS = len(_FIELDS)


@dataclass
class Model:
    """One model on the table (a figure, a vehicle, a drone)."""

    id: str
    side: str
    unit: str
    x: float
    y: float
    facing: float = 0.0
    base: Base = 25.0
    profile: str = ""
    stats: dict[str, Any] = field(default_factory=dict)
    weapons: list[dict[str, Any]] = field(default_factory=list)
    hp: int = 1
    max_hp: int = 1
    removed: bool = False
    status: list[str] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)

    def footprint(self) -> tuple[float, float, float, Base]:
        """(x, y, facing, base) — the shape the geometry and physics services measure."""
        return (self.x, self.y, self.facing, self.base)

    def stat(self, key: str, default: Any = 0) -> Any:
        return self.stats.get(key, default)

    def weapon(self, name: str) -> dict[str, Any] | None:
        for w in self.weapons:
            if str(w.get("name", "")).lower() == name.lower():
                return w
        return None

    def set_status(self, word: str, on: bool = True) -> None:
        if on and word not in self.status:
            self.status.append(word)
            self.status.sort()
        elif not on and word in self.status:
            self.status.remove(word)

    def to_dict(self) -> dict[str, Any]:
        d = {
            "id": self.id,
            "side": self.side,
            "unit": self.unit,
            "x": self.x,
            "y": self.y,
            "facing": self.facing,
            "base": list(self.base) if isinstance(self.base, (tuple, list)) else self.base,
            "profile": self.profile,
            "stats": copy.deepcopy(self.stats),
            "weapons": copy.deepcopy(self.weapons),
            "hp": self.hp,
            "max_hp": self.max_hp,
            "removed": self.removed,
            "status": list(self.status),
            "vars": copy.deepcopy(self.vars),
        }
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Model:
        base = d.get("base", 25.0)
        if isinstance(base, list):
            base = (float(base[0]), float(base[1]))
        return cls(
            id=d["id"],
            side=d["side"],
            unit=d.get("unit", d["id"]),
            x=float(d["x"]),
            y=float(d["y"]),
            facing=float(d.get("facing", 0.0)),
            base=base,
            profile=d.get("profile", ""),
            stats=copy.deepcopy(d.get("stats", {})),
            weapons=copy.deepcopy(d.get("weapons", [])),
            hp=int(d.get("hp", 1)),
            max_hp=int(d.get("max_hp", d.get("hp", 1))),
            removed=bool(d.get("removed", False)),
            status=list(d.get("status", [])),
            vars=copy.deepcopy(d.get("vars", {})),
        )


@dataclass
class GameState:
    """Everything that changes during a game; the battlefield itself is static.

    ``turn`` counts game turns / rounds from 1. ``phase`` names the current phase or
    segment (rulesets without phases use "activation"). ``active`` is the side whose
    decision it is, ``None`` once the game is over. ``over`` holds the outcome dict.
    """

    ruleset: str
    sides: list[str]
    models: dict[str, Model] = field(default_factory=dict)
    turn: int = 1
    phase: str = "activation"
    active: str | None = None
    vars: dict[str, Any] = field(default_factory=dict)
    over: dict[str, Any] | None = None
    #: decisions owed before play goes on, first first (``Ruleset.ask``): each a dict
    #: with the side that answers, the kind, the text, the options and the verbs
    pending: list[dict[str, Any]] = field(default_factory=list)

    # --- queries --------------------------------------------------------------------
    @property
    def turn_limit(self) -> int:
        """The scenario's turn limit, 0 for none: its ``turn_limit`` key, which
        ``engine.scenario`` keeps in ``vars``. Why one reader: the engine's turn flow and
        every ruleset's victory and score read it, each once with its own ``int(...or 0)``."""
        return int(self.vars.get("turn_limit", 0) or 0)

    def model(self, mid: str) -> Model:
        return self.models[mid]

    def ids(self) -> list[str]:
        """The model ids in order. Why kept: every rule asks for models in id order and
        the ids change only when a model joins the table, so the sort is kept while the
        dict's keys stay the same (a tuple compare, far cheaper than sorting; issue 24).
        Not a field: copies carry it, ``to_dict`` and the checksum never see it."""
        keys = tuple(self.models)
        got = self.__dict__.get("_order")
        if got is None or got[0] != keys:
            got = (keys, sorted(keys))
            self.__dict__["_order"] = got
        order: list[str] = got[1]
        return order

    def live(self, side: str | None = None) -> list[Model]:
        """Models still on the table, in id order (optionally of one side)."""
        models = self.models
        return [
            m
            for k in self.ids()
            if not (m := models[k]).removed and (side is None or m.side == side)
        ]

    def units(self, side: str | None = None, live: bool = True) -> dict[str, list[Model]]:
        """Unit id -> its models (live ones only unless ``live`` is False), id order."""
        out: dict[str, list[Model]] = {}
        models = self.models
        for k in self.ids():
            m = models[k]
            if (live and m.removed) or (side is not None and m.side != side):
                continue
            out.setdefault(m.unit, []).append(m)
        return out

    def enemies_of(self, side: str) -> list[str]:
        return [s for s in self.sides if s != side]

    # --- copying and serialising ----------------------------------------------------
    def copy(self) -> GameState:
        """A deep, independent copy: AI search copies the state before every decision,
        candidate and sample. One pickle round trip (about six times faster than
        to_dict/from_dict) carries every mutable part at once, so objects shared inside
        the state stay shared in the copy; a model's scalar fields (strings, numbers)
        are immutable and only its attribute dict is copied, which halves the
        cost against pickling the models whole (issue 24). Caches a ruleset keeps in the
        instance's ``__dict__`` under a ``_`` name are left behind (each is rebuilt on
        first use, as the GEM roster and ``ids`` are designed to be), except the id
        order, which is carried."""
        own = [m.__dict__ for m in self.models.values()]
        rest, parts = pickle.loads(pickle.dumps(split(self, own), pickle.HIGHEST_PROTOCOL))
        return rebuild(rest, list(self.models), own, parts, self.__dict__.get("_order"))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ruleset": self.ruleset,
            "sides": list(self.sides),
            "models": {k: m.to_dict() for k, m in sorted(self.models.items())},
            "turn": self.turn,
            "phase": self.phase,
            "active": self.active,
            "vars": copy.deepcopy(self.vars),
            "over": copy.deepcopy(self.over),
        }
        if self.pending:  # absent when empty: states without one checksum as before
            d["pending"] = copy.deepcopy(self.pending)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(
            ruleset=d["ruleset"],
            sides=list(d["sides"]),
            models={k: Model.from_dict(m) for k, m in d["models"].items()},
            turn=int(d.get("turn", 1)),
            phase=d.get("phase", "activation"),
            active=d.get("active"),
            vars=copy.deepcopy(d.get("vars", {})),
            over=copy.deepcopy(d.get("over")),
            pending=copy.deepcopy(d.get("pending", [])),
        )

    def checksum(self) -> str:
        """sha256 of the canonical JSON (sorted keys, floats to 0.001): equal states, equal sums."""
        blob = json.dumps(_round(self.to_dict()), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]


def fixed_stats(ruleset: str) -> None:
    """Declare that ``ruleset``'s rules never change a model's stats in play, so that a
    copy of its states (``GameState.copy``, the search's ``Frozen``) shares each model's
    stats dict with the original. Why opt-in: the stats were a third of what a UMR
    copy pickled (issue 24), but a ruleset that writes them in play (Gemini's wounds)
    would then write them into every copy at once; such a ruleset never declares it."""
    _FIXED_STATS.add(ruleset)


def split(state: GameState, own: list[dict[str, Any]]) -> tuple[dict[str, Any], list[Any]]:
    """What a copy of ``state`` must copy deeply: its fields but the models and the
    ``_`` caches (``rest``), and per model of ``own`` (the models' attribute dicts, in
    order) its mutable parts (``_take_mutable``'s tuple), or the whole dict when a
    ruleset added an attribute. ``rebuild`` makes a state from their copies. Why one
    function: ``GameState.copy`` and the search's ``Frozen`` must split a state alike.
    A ruleset of ``fixed_stats`` leaves the stats out of the tuple: they are shared."""
    take = _take_varying if state.ruleset in _FIXED_STATS else _take_mutable
    parts = [take(md) if len(md) == _NFIELDS else md for md in own]
    rest = {k: v for k, v in state.__dict__.items() if k != "models" and not k.startswith("_")}
    return rest, parts


def rebuild(
    rest: dict[str, Any],
    keys: list[str],
    own: list[dict[str, Any]],
    parts: list[Any],
    order: tuple[Any, list[str]] | None,
) -> GameState:
    """A state from its copied parts: ``rest`` (its fields but the models, already a
    copy), and per model its id, its attribute dict as it was (``own``) and its copied
    mutable parts (``_take_mutable``'s tuple, or ``_take_varying``'s, the stats being
    shared) or a whole copied dict. Why one function:
    ``GameState.copy`` and the search's ``Frozen`` copy a state the same way and must
    give the same state. The id order is carried; ``rest`` is used, not copied."""
    new_model = Model.__new__
    models: dict[str, Model] = {}
    for key, md, part in zip(keys, own, parts):
        m = new_model(Model)
        if isinstance(part, tuple):
            md = md.copy()
            if len(part) == 4:  # fixed stats: the copied dict keeps the original's
                md["weapons"], md["status"], md["vars"], md["base"] = part
            else:
                md["stats"], md["weapons"], md["status"], md["vars"], md["base"] = part
        else:
            md = part
        m.__dict__ = md
        models[key] = m
    rest["models"] = models
    if order is not None:
        rest["_order"] = (order[0], list(order[1]))
    copied = GameState.__new__(GameState)
    copied.__dict__ = rest
    return copied
