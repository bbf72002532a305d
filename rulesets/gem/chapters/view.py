"""What one hotseat player may see (GEM-I-SECRET): the state with the other sides'
secrets blanked — spell power on cards not yet turned (GEM-3.5.2) and deployment plans
not yet revealed (GEM-2.0.4).

Why a function and not hidden fields: the engine keeps one state for saves, replays and
checksums; a view for a side is derived from it when a window or an AI asks.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.state import GameState


def redact(state: GameState, viewer: str) -> dict[str, Any]:
    d = state.to_dict()
    gem = d.get("vars", {}).get("gem", {})
    magic = gem.get("magic")
    if magic:
        for card in magic.get("cards", []):
            if card.get("side") != viewer:
                card["power"] = None
    plans = gem.get("plans")
    if plans and not gem.get("plans_revealed"):
        gem["plans"] = {
            s: (copy.deepcopy(p) if s == viewer else "hidden") for s, p in plans.items()
        }
    return d
