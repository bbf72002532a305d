"""UMR's own action kinds, beyond the shared move / charge / shoot / fight / end verbs.

Why separate kinds: a jump and a climb add several action dice into one roll
(UMR-MOVEMENT), and the leader's gift is not an action die at all (UMR-LEADER); each
needs fields the shared ``move`` does not have. Scenario scripts use them as
``do = "jump"``, ``do = "climb"``, ``do = "lead"`` and ``do = "rpg_test"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, Point, action


@action("jump", ruleset="umr")
@dataclass(frozen=True)
class Jump(Action):
    """Add ``count`` action dice (0 = every die the model may spend on movement) into one
    roll and leap that far in a straight line toward ``to``, over water and rough ground.

    (``count``, not ``dice``: in a scenario script ``dice`` is the list of forced faces.)
    """

    to: Point | None = None
    count: int = 0


@action("climb", ruleset="umr")
@dataclass(frozen=True)
class Climb(Action):
    """Climb the tall terrain ``feature`` (the id of a wall, building or rocks the base
    touches), adding ``count`` action dice (0 = all) and climbing half the total. With
    ``to`` the climb goes up, over the top and down to that ground point; without it the
    model climbs up and stays on top. A climb that falls short carries on next time.

    (``feature``, not ``target``: scripts check that a ``target`` names a model.)
    """

    feature: str = ""
    count: int = 0
    to: Point | None = None


@action("lead", ruleset="umr")
@dataclass(frozen=True)
class Lead(Action):
    """The leader gives ``target`` (any character of his team, himself included) one
    extra roll this round: ``roll`` = "action" (an action die, the default), "defence"
    or "damage" (UMR-LEADER)."""

    target: str = ""
    roll: str = ""


@action("rpg_test", ruleset="umr")
@dataclass(frozen=True)
class RpgTest(Action):
    """Optional RPG rules: a diplomacy, perception or mechanics test against ``need``."""

    stat: str = ""
    need: int = 4
