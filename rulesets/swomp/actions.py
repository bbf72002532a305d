"""SWOMP's own action kinds (the verbs beyond the shared move, charge, shoot, fight).

Why these: the rulebook's action list names Overwatch and Wait, close combat offers a
retreat, units rally, weapons jam and must be cleared, vehicles ram, armies deploy
model by model; a charge at a vehicle names the location it goes for. Each is a small
frozen dataclass registered by kind so scenarios and saves can name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action, Charge, Point, action


@action("overwatch", ruleset="swomp")
@dataclass(frozen=True)
class Overwatch(Action):
    """Hold fire until an enemy shows itself; no move this action (SWOMP "Overwatch")."""


@action("wait", ruleset="swomp")
@dataclass(frozen=True)
class Wait(Action):
    """The unit does nothing this round (SWOMP "Actions": Wait)."""


@action("retreat", ruleset="swomp")
@dataclass(frozen=True)
class Retreat(Action):
    """Try to leave a close combat; on success move up to half MR to ``to``, or charge
    ``target`` (a model not in the fight just left)."""

    to: Point | None = None
    target: str = ""


@action("rally", ruleset="swomp")
@dataclass(frozen=True)
class Rally(Action):
    """A broken unit tries to rally (SWOMP "Rallying")."""


@action("clear_jam", ruleset="swomp")
@dataclass(frozen=True)
class ClearJam(Action):
    """Spend the action clearing a jammed weapon; the model may still move its MR."""

    weapon: str = ""


@action("ram", ruleset="swomp")
@dataclass(frozen=True)
class Ram(Action):
    """A vehicle drives straight at ``target`` at ``speed`` inches (default: as fast as
    it may go) and rams whatever it meets first (SWOMP "Ramming and Collisions")."""

    target: str = ""
    speed: float | None = None


@action("deploy", ruleset="swomp")
@dataclass(frozen=True)
class Deploy(Action):
    """Place the model ``actor`` at ``to`` facing ``facing`` (default: towards the
    enemy's edge) in its side's deployment zone (SWOMP "Deployment")."""

    to: Point | None = None
    facing: float | None = None


@action("charge", ruleset="swomp")
@dataclass(frozen=True)
class SwompCharge(Charge):
    """The shared charge plus ``options``: ``location`` picks the part of a vehicle the
    chargers go for (SWOMP "Close combat with vehicles")."""

    options: dict[str, Any] = field(default_factory=dict)


@action("man", ruleset="swomp")
@dataclass(frozen=True)
class Man(Action):
    """The model ``actor``, on foot and in base contact with its side's vehicle
    ``target``, climbs into the empty gunner's hatch ``location`` (default: the first
    empty one) as its action: another gunner takes his place (SWOMP "Exposed
    crewmen/riders"; SWOMP-I-MAN)."""

    target: str = ""
    location: str = ""
