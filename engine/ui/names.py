"""Models as a player names them, in every text the window shows.

Why: the rules speak in scenario ids ("wolf_rifleman", "hop6", "m2"), which are for
actions and saves; a player reads "wolf rifleman" and "hop6 (hoplite)". The scenario
format has no name key, so the name is made of what it has: the id with spaces, and the
profile where the id does not already say it. Only what is shown changes: the log, the
card and the target card are rewritten on display; the events and actions keep the ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.state import Model


def name_of(m: Model) -> str:
    """'wolf rifleman', 'hop6 (hoplite)', 'm2 (space marine)'."""
    name = m.id.replace("_", " ")
    profile = (m.profile or "").replace("_", " ").strip()
    if profile and not all(word in name.split() for word in profile.split()):
        name = f"{name} ({profile})"
    return name


class Names:
    """Rewrites model ids to names in free text (whole words only: 'm2' is renamed,
    'm21' and 'UMR-M2' are not)."""

    def __init__(self, models: Iterable[Model]) -> None:
        self.names = {m.id: name_of(m) for m in models}
        ids = sorted((i for i, n in self.names.items() if n != i), key=len, reverse=True)
        self._re = (
            re.compile(r"(?<![\w\-])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w\-])")
            if ids
            else None
        )

    def of(self, mid: str) -> str:
        return self.names.get(mid, mid)

    def text(self, text: str) -> str:
        if self._re is None or not text:
            return text
        return self._re.sub(lambda m: self.names[m.group(1)], text)
