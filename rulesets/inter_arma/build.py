"""Scenario entries -> figures (IA-CLASS, IA-MOVE, IA-SAVE, IA-RANGED).

Why checked here: a figure's class, type and armour pick every table row it uses, so a
misspelt class must stop the load with the model and the accepted words, not play as a
regular by accident.
"""

from __future__ import annotations

from typing import Any

from engine.building import Build, Builder
from engine.state import Model
from rulesets.inter_arma.chapters.tables import CLASSES, RANGES, TYPES

STAT_KEYS = ("class", "type", "armored", "shield")
DEFAULTS: dict[str, Any] = {
    "class": "regular",
    "type": "infantry",
    "armored": False,
    "shield": False,
}


class IaBuilder(Builder):
    """Inter Arma's figures on the engine's build: class, type, armour and shield among
    the stats (defaults: a regular infantryman without either), weapons by kind, and
    the scenario's state kept in the figure's vars (crawling and wounded as statuses)."""

    texts = {
        "unknown_profile": "model '{mid}': unknown profile '{name}' (known: {known})",
        "unknown_stat": "model '{mid}': unknown stat for inter_arma (stats: {keys})",
    }

    def own_keys(self, b: Build) -> None:
        mid, stats = b.mid, b.stats
        if stats["class"] not in CLASSES:
            b.refuse(
                "stats.class",
                f"model '{mid}': class '{stats['class']}' is not one of {', '.join(CLASSES)} (IA-CLASS)",
            )
        if stats["type"] not in TYPES:
            b.refuse(
                "stats.type",
                f"model '{mid}': type '{stats['type']}' is not one of {', '.join(TYPES)} (IA-MOVE)",
            )
        for flag in ("armored", "shield"):
            if not isinstance(stats[flag], bool):
                b.refuse(f"stats.{flag}", f"model '{mid}': {flag} must be true or false")
        b.weapons = [dict(w) for w in b.weapons]
        for j, w in enumerate(b.weapons):
            kind = w.get("kind", w.get("name", ""))
            if not isinstance(kind, str) or not kind:
                b.refuse(
                    f"weapons[{j}].kind",
                    f"model '{mid}': a weapon needs a kind (bow, sling, javelin, crossbow, spear, sword...)",
                )
                continue
            w["kind"] = kind.lower()
            if w["kind"] in ("pilum",):
                w["kind"], w["pilum"] = "javelin", True

    def read_state(self, b: Build) -> None:
        """Javelins to throw (IA-JAVELIN), then the scenario's state as it is given."""
        if b.problems:
            return
        mvars: dict[str, Any] = {"javelins": sum(1 for w in b.weapons if w["kind"] == "javelin")}
        mvars.update(b.state)
        status = []
        if mvars.pop("crawling", False):
            status.append("crawling")
        if mvars.pop("wounded", False):
            status.append("wounded")
        b.vars = mvars
        b.status = sorted(status)
        b.hp = b.max_hp = 1


def ranged_weapons(m: Model) -> list[dict[str, Any]]:
    """The figure's missile weapons (IA-RANGED table kinds)."""
    return [w for w in m.weapons if w.get("kind") in RANGES]


def mounted(m: Model) -> bool:
    """A cavalry figure still on its horse (IA-CAVALRY)."""
    return m.stats.get("type") == "cavalry" and "dismounted" not in m.status


def foot_type(m: Model) -> str:
    """The type a figure moves and saves as: a dismounted rider fights on foot (IA-CAVALRY)."""
    t = m.stats.get("type", "infantry")
    return "infantry" if t == "cavalry" and not mounted(m) else t
