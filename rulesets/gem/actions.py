"""GEM's own action kinds (reference.toml lists them): cast, change_frontage,
change_order, drive, embark, disembark, replace_driver, plan, deploy, place_terrain.

They are registered under the ruleset key "gem", so another rulebook's ``cast`` of a
different shape cannot clash with ours; the rules still read fields with ``getattr``
and also accept them in ``options``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, action


def _register(kind: str):
    return action(kind, ruleset="gem")


@_register("cast")
@dataclass(frozen=True)
class Cast(Action):
    """A wizard lays a spell card by a unit with its (secret) power level (GEM-3.5.2)."""

    target: str = ""
    spell: str = ""
    power: int = 0
    options: dict[str, Any] = field(default_factory=dict)


@_register("change_frontage")
@dataclass(frozen=True)
class ChangeFrontage(Action):
    """A block takes ``files`` files instead of moving (GEM-2.1.3)."""

    files: int = 0


@_register("change_order")
@dataclass(frozen=True)
class ChangeOrder(Action):
    """Peltasts switch to ``order`` = "block" or "skirmish" instead of moving (GEM-2.3.4)."""

    order: str = ""


@_register("drive")
@dataclass(frozen=True)
class Drive(Action):
    """A vehicle drives at ``speed``; ``wheels`` = [[straight inches, turn degrees], ...]
    (positive turns to the left), each turn an arc whose radius is the speed (GEM-3.1)."""

    speed: float = 0.0
    wheels: tuple[tuple[float, float], ...] = ()


@_register("embark")
@dataclass(frozen=True)
class Embark(Action):
    """A figure (or every figure of a unit) gets into ``target``, a vehicle of its side
    within its move; that is its move (GEM-3.1, GEM-I-EMBARK)."""

    target: str = ""


@_register("disembark")
@dataclass(frozen=True)
class Disembark(Action):
    """A figure riding in a vehicle (or every one of a unit) gets out into base contact
    with it, as near ``to`` as there is room (default: behind it) (GEM-I-EMBARK)."""

    target: str = ""
    to: tuple[float, float] | None = None


@_register("replace_driver")
@dataclass(frozen=True)
class ReplaceDriver(Action):
    """A figure inside ``target`` or within its move takes the place of its lost driver,
    from the turn after he was lost; it takes the full turn (GEM-3.3, GEM-I-DRIVER)."""

    target: str = ""


@_register("plan")
@dataclass(frozen=True)
class Plan(Action):
    """A side's secret deployment plan: ``placements`` = {unit: [x, y, facing]}, facing
    optional (GEM-2.0.4, GEM-I-DEPLOY)."""

    placements: dict[str, Any] = field(default_factory=dict)


@_register("deploy")
@dataclass(frozen=True)
class Deploy(Action):
    """Place a unit where its plan puts it (GEM-2.0.4): ``to`` and ``facing`` may be given,
    and must then match the plan (a block's front centre, another unit's centre)."""

    to: tuple[float, float] | None = None
    facing: float | None = None


@_register("place_terrain")
@dataclass(frozen=True)
class PlaceTerrain(Action):
    """A side puts a bunch of terrain (``feature``, a terrain piece's id) with its centre
    at ``to``, anywhere on the table (GEM-2.0.2, GEM-I-TERRAIN)."""

    feature: str = ""
    to: tuple[float, float] | None = None


def field_of(a: Action, name: str, default: Any = None) -> Any:
    """A field of a GEM action, also accepted in its ``options`` table."""
    v = getattr(a, name, None)
    if v not in (None, "", 0, (), {}):
        return v
    opts = getattr(a, "options", None) or {}
    return opts.get(name, v if v is not None else default)
