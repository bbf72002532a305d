"""What the window and the JSON runner show of a Gemini model (``model_view``).

Why an order: the window prints at most three status words above a model, so the ones
that change what a model may do come first (out of the fight, then held in place, then
running), in the players' words ("running for cover", not ``running_for_cover``).
"""

from __future__ import annotations

from typing import Any

from engine.state import Model
from rulesets.gemini.state import mv

#: the statuses the rules and the switches set, most telling first
ORDER = (
    "stunned",
    "down",
    "knocked_down",
    "dazed",
    "routing",
    "running_for_cover",
    "pinned",
    "hiding",
    "frozen",
    "pursuing",
    "frenzied",
    "stupid",
    "overwatch",
    "flesh_wound",
)


def words(status: list[str]) -> list[str]:
    """The model's statuses in ``ORDER`` (others after, alphabetically), as words."""
    rank = {s: i for i, s in enumerate(ORDER)}
    ordered = sorted(status, key=lambda s: (rank.get(s, len(ORDER)), s))
    return [s.replace("_", " ") for s in ordered]


def model_view(m: Model) -> dict[str, Any]:
    """hp, the statuses in words, and the weapons a model can no longer use."""
    out: dict[str, Any] = {"hp": m.hp, "status": words(m.status)}
    spent = mv(m).get("spent")
    if spent:
        out["spent"] = ", ".join(map(str, spent))
    return out
