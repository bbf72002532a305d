"""Gemini's own verbs: activating a model with action dice (``activate``), searching
and attempting a task (``search``, ``attempt``), going into ARAP overwatch
(``overwatch``); the shared verbs (move, charge, shoot, fight) are the engine's.

Why apart from their chapters: the flow, the rules' dispatch and the computer's options
all name these classes; here they depend on nothing of the ruleset, so any module may
import them without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action, action


@action("activate", ruleset="gemini")
@dataclass(frozen=True)
class Activate(Action):
    """Activate a model with ``count`` activation dice (1 to 3) (GM-ARAP)."""

    count: int = 3

    def describe(self) -> str:
        return f"{self.actor} activates with {self.count} dice"


@action("search", ruleset="gemini")
@dataclass(frozen=True)
class Search(Action):
    """Spend the move searching the ground within half M (GM-OBSERVATION)."""

    def describe(self) -> str:
        return f"{self.actor} searches"


@action("attempt", ruleset="gemini")
@dataclass(frozen=True)
class Attempt(Action):
    """Spend the move on the task at ``place`` (a skill test, GM-SKILLS)."""

    place: str = ""

    def describe(self) -> str:
        return f"{self.actor} attempts {self.place}"


@action("overwatch", ruleset="gemini")
@dataclass(frozen=True)
class Overwatch(Action):
    """Spend an action going into overwatch (GM-OVERWATCH-ARAP, the activation game)."""

    def describe(self) -> str:
        return f"{self.actor} goes into overwatch"
