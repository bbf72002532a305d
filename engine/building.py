"""Scenario model entries -> Models: the steps every ruleset's builder shares.

Why a module of its own: every rulebook builds a model the same way around its own
rules — the common keys (id, side, unit, x, y, facing, base), the profile found in
``units.toml``, its stats under the entry's own, a refusal for a stat or a state key
the rulebook does not know — and differs only in what it adds (weapons tables,
vehicles, abilities, army types) and in how it words a refusal. A ruleset subclasses
``Builder`` (``Ruleset.builder``) and overrides only those steps, so a broken entry is
refused in one place with the ruleset's own words, every problem at once, never an
exception.

The steps, in the order their problems are reported::

    profile   the entry's ``profile`` in the catalog (``texts["unknown_profile"]``;
              ``profile_stops``: an unknown profile ends the build there)
    stats     stat_defaults < the profile's stats < the entry's; a key not in the
              ruleset's ``stat_keys`` is refused (``texts["unknown_stat"]``), every
              other one goes through ``stat_value``; then ``Ruleset.stat_problems``
    own_keys  the ruleset's own model keys (type, weapons, vehicle, ability...)
    state     keys not in ``state_keys`` are refused (``texts["unknown_state"]``),
              then ``state`` reads the values
    -- any problem so far: no model --
    model     ``model_vars`` and ``base`` give the rest of the Model
    finish    what needs the made model (statuses...); any problem: no model
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.state import Base, Model

if TYPE_CHECKING:  # pragma: no cover
    from engine.ruleset import Ruleset

#: ``Builder.stat_value``'s answer for a stat that is refused and not kept
DROP: Any = object()

#: the engine's refusal texts, ``str.format``ted with ``Builder.text``'s fields
TEXTS: Mapping[str, str] = {
    "unknown_profile": "unknown {ruleset} profile '{name}'",
    "unknown_stat": "unknown stat ({ruleset} stats: {keys})",
    "unknown_state": "unknown state key ({ruleset} state: {state_keys})",
}

Problems = list[tuple[str, str]]


@dataclass
class Build:
    """One model entry being built: what the steps read and fill in.

    ``own`` holds what a ruleset read of its own keys for its later steps (a figure
    type, a vehicle card); ``hp``/``max_hp`` left None come from ``Ruleset.hp_stat``
    and the entry's ``state.hp``."""

    spec: Mapping[str, Any]
    mid: str
    name: str = ""
    prof: Mapping[str, Any] = field(default_factory=dict)
    given: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)
    state: dict[str, Any] = field(default_factory=dict)
    #: the entry's weapons, else its profile's (copied into the model as tables)
    weapons: list[Any] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)
    status: list[str] = field(default_factory=list)
    hp: int | None = None
    max_hp: int | None = None
    own: dict[str, Any] = field(default_factory=dict)
    problems: Problems = field(default_factory=list)

    def refuse(self, where: str, text: str) -> None:
        self.problems.append((where, text))

    def take(self, key: str, default: Any = None) -> Any:
        """The entry's ``key``, else its profile's, else ``default``."""
        return self.spec.get(key, self.prof.get(key, default))


def as_base(b: Any) -> Base:
    """A base as the state keeps it: a diameter, or (width, depth), in mm."""
    if isinstance(b, (list, tuple)):
        return (float(b[0]), float(b[1]))
    return float(b)


class Builder:
    """The default model builder; a ruleset's subclass overrides the steps it needs."""

    #: refusal texts by code (``TEXTS`` for those not given)
    texts: ClassVar[Mapping[str, str]] = {}
    #: an unknown profile ends the build (no further problems are looked for)
    profile_stops: ClassVar[bool] = False
    #: the keys an entry's ``state`` may set (empty: any, kept in the model's vars)
    state_keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ruleset: Ruleset, profiles: Mapping[str, Any] | None = None) -> None:
        self.rs = ruleset
        self.profiles = ruleset.profiles() if profiles is None else profiles

    def text(self, code: str, b: Build, **data: Any) -> str:
        """The refusal ``code`` in this ruleset's words. Fields: ruleset, mid, name
        (the profile), known (the profiles), keys / words (the stat keys joined by
        commas / spaces), state_keys, and ``data``."""
        keys = self.rs.stat_keys
        return (self.texts.get(code) or TEXTS[code]).format(
            ruleset=self.rs.key,
            mid=b.mid,
            name=b.name,
            known=", ".join(sorted(self.profiles)),
            keys=", ".join(keys),
            words=" ".join(keys),
            state_keys=", ".join(self.state_keys),
            **data,
        )

    def build(self, spec: Mapping[str, Any]) -> tuple[Model | None, Problems]:
        """A scenario model entry -> (Model, []) or (None, every problem)."""
        b = Build(spec, str(spec["id"]), name=str(spec.get("profile") or ""))
        if b.name:
            if b.name in self.profiles:
                b.prof = self.profiles[b.name]
            else:
                b.refuse("profile", self.text("unknown_profile", b))
                if self.profile_stops:
                    return None, b.problems
        b.weapons = list(b.take("weapons", []) or [])
        b.state = dict(spec.get("state", {}) or {})
        self.read_stats(b)
        self.own_keys(b)
        if self.state_keys:
            for k in b.state:
                if k not in self.state_keys:
                    b.refuse(f"state.{k}", self.text("unknown_state", b))
        self.read_state(b)
        if b.problems:
            return None, b.problems
        model = self.model(b)
        self.finish(b, model)
        return (None, b.problems) if b.problems else (model, [])

    def read_stats(self, b: Build) -> None:
        """stat_defaults < the profile's stats < the entry's, each of the entry's
        checked (unknown key, ``stat_value``), then the ruleset's ``stat_problems``."""
        b.given = dict(b.spec.get("stats", {}) or {})
        b.stats = {**self.rs.stat_defaults, **dict(b.prof.get("stats", {}))}
        for k, v in b.given.items():
            if k not in self.rs.stat_keys:
                b.refuse(f"stats.{k}", self.text("unknown_stat", b, key=k))
                continue
            v = self.stat_value(b, k, v)
            if v is not DROP:
                b.stats[k] = v
        b.problems += self.rs.stat_problems(b.stats)

    def stat_value(self, b: Build, key: str, value: Any) -> Any:
        """One of the entry's stats as the rulebook takes it: refuse a bad value
        (``b.refuse``) and return what to keep, or ``DROP``. Default: as given."""
        return value

    def own_keys(self, b: Build) -> None:
        """The ruleset's own model keys (``Ruleset.model_keys``: a type, a vehicle
        card, an ability) and its weapons, checked and read into ``b``. Default: none."""

    def read_state(self, b: Build) -> None:
        """The entry's ``state`` (its keys already checked). Default: ``hp`` (see
        ``model``), ``status``, and every other key kept in the model's vars."""
        if b.problems:
            return
        b.status = list(b.state.get("status", []))
        b.vars.update({k: v for k, v in b.state.items() if k not in ("hp", "status")})

    def model_vars(self, b: Build) -> dict[str, Any]:
        """The new model's vars (only called for an entry without problems)."""
        return b.vars

    def base(self, b: Build) -> Base:
        """The entry's base, else its profile's, else 25 mm."""
        return as_base(b.take("base", 25.0))

    def model(self, b: Build) -> Model:
        """The Model of an entry without problems."""
        mvars = self.model_vars(b)
        max_hp = b.max_hp if b.max_hp is not None else int(b.stats.get(self.rs.hp_stat, 1))
        hp = b.hp if b.hp is not None else min(max_hp, int(b.state.get("hp", max_hp)))
        spec = b.spec
        return Model(
            id=b.mid,
            side=str(spec["side"]),
            unit=str(spec.get("unit") or b.mid),
            x=float(spec["x"]),
            y=float(spec["y"]),
            facing=float(spec.get("facing", 0.0)),
            base=self.base(b),
            profile=b.name,
            stats=b.stats,
            weapons=[dict(w) for w in b.weapons],
            hp=hp,
            max_hp=max_hp,
            status=b.status,
            vars=mvars,
        )

    def finish(self, b: Build, model: Model) -> None:
        """What needs the made model (statuses, a vehicle's damage); problems go to
        ``b.refuse`` and mean no model. Default: nothing."""
