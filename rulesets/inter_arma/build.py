"""Scenario entries -> figures (IA-CLASS, IA-MOVE, IA-SAVE, IA-RANGED).

Why checked here: a figure's class, type and armour pick every table row it uses, so a
misspelt class must stop the load with the model and the accepted words, not play as a
regular by accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.state import Model
from rulesets.inter_arma.chapters.tables import CLASSES, RANGES, TYPES

STAT_KEYS = ("class", "type", "armored", "shield")
DEFAULTS: dict[str, Any] = {
    "class": "regular",
    "type": "infantry",
    "armored": False,
    "shield": False,
}


def _stats(spec: Mapping[str, Any], profiles: Mapping[str, Any], probs: list) -> dict[str, Any]:
    mid = spec.get("id")
    stats: dict[str, Any] = dict(DEFAULTS)
    prof = spec.get("profile") or ""
    if prof:
        if prof not in profiles:
            probs.append(
                (
                    "profile",
                    f"model '{mid}': unknown profile '{prof}' (known: {', '.join(sorted(profiles))})",
                )
            )
        else:
            stats.update(profiles[prof].get("stats", {}))
    stats.update(spec.get("stats") or {})
    for k in list(stats):
        if k not in STAT_KEYS:
            probs.append(
                (
                    f"stats.{k}",
                    f"model '{mid}': unknown stat for inter_arma (stats: {', '.join(STAT_KEYS)})",
                )
            )
    if stats["class"] not in CLASSES:
        probs.append(
            (
                "stats.class",
                f"model '{mid}': class '{stats['class']}' is not one of {', '.join(CLASSES)} (IA-CLASS)",
            )
        )
    if stats["type"] not in TYPES:
        probs.append(
            (
                "stats.type",
                f"model '{mid}': type '{stats['type']}' is not one of {', '.join(TYPES)} (IA-MOVE)",
            )
        )
    for flag in ("armored", "shield"):
        if not isinstance(stats[flag], bool):
            probs.append((f"stats.{flag}", f"model '{mid}': {flag} must be true or false"))
    return stats


def _weapons(
    spec: Mapping[str, Any], profiles: Mapping[str, Any], probs: list
) -> list[dict[str, Any]]:
    mid = spec.get("id")
    prof = profiles.get(spec.get("profile") or "", {})
    given = spec.get("weapons") if "weapons" in spec else prof.get("weapons", [])
    ws = [dict(w) for w in (given or [])]
    for j, w in enumerate(ws):
        kind = w.get("kind", w.get("name", ""))
        if not isinstance(kind, str) or not kind:
            probs.append(
                (
                    f"weapons[{j}].kind",
                    f"model '{mid}': a weapon needs a kind (bow, sling, javelin, crossbow, spear, sword...)",
                )
            )
            continue
        w["kind"] = kind.lower()
        if w["kind"] in ("pilum",):
            w["kind"], w["pilum"] = "javelin", True
    return ws


def build_model(
    spec: Mapping[str, Any], profiles: Mapping[str, Any]
) -> tuple[Model | None, list[tuple[str, str]]]:
    """Build one figure; any problem means no model (the loader reports them all)."""
    probs: list[tuple[str, str]] = []
    stats = _stats(spec, profiles, probs)
    weapons = _weapons(spec, profiles, probs)
    if probs:
        return None, probs
    mvars: dict[str, Any] = {"javelins": sum(1 for w in weapons if w["kind"] == "javelin")}
    mvars.update(dict(spec.get("state") or {}))
    status = []
    if mvars.pop("crawling", False):
        status.append("crawling")
    if mvars.pop("wounded", False):
        status.append("wounded")
    model = Model(
        id=str(spec["id"]), side=str(spec["side"]), unit=str(spec.get("unit") or spec["id"]),
        x=float(spec["x"]), y=float(spec["y"]), facing=float(spec.get("facing", 0.0)),
        base=spec.get("base", 25.0), profile=str(spec.get("profile") or ""),
        stats=stats, weapons=weapons, hp=1, max_hp=1, status=sorted(status), vars=mvars,
    )  # fmt: skip
    return model, []


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
