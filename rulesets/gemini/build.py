"""Scenario entries -> models (GM-PROFILE, GM-WEAPONS): the profile and the weapons,
checked before any rule reads them.

Why checked here: a profile figure or a weapon key picks every chart row a model uses;
a misspelt class or a parry of 3 must stop the load naming the model and the accepted
values, not play as something else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.state import Model
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import tasks
from rulesets.gemini.state import mv

#: the figures and flags a model's ``stats`` may give: the profile, the activation
#: number Act and Cool Cl (GM-PROFILE), and what the switches read of a model (leader,
#: large, type; the psychology and skills switches)
STAT_KEYS = (
    *T.PROFILE,
    "Act",
    "Cl",
    "leader",
    "large",
    "type",
    "skills",
    "frenzy",
    "frenzied",
    "blood_frenzy",
    "stupidity",
    "fear",
    "terror",
    "causes_fear",
    "causes_terror",
    "hatred",
    "fearless",
    "dogged",
)
NUMBERS = (*T.PROFILE, "Act", "Cl")
TYPES = ("infantry", "bike", "cavalry")
#: the keys a weapon may have (GM-WEAPONS)
WEAPON_KEYS = (
    "name",
    "range",
    "S",
    "save",
    "shots",
    "class",
    "parry",
    "size",
    "rending",
    "confusion",
)


def stat_problems(stats: Mapping[str, Any]) -> list[tuple[str, str]]:
    """GM-PROFILE: whole numbers in their ranges; Sv 0 (none) or 2 to 6; a known type."""
    out: list[tuple[str, str]] = []
    for k in NUMBERS:
        if k not in stats:
            continue
        v = stats[k]
        if isinstance(v, bool) or not isinstance(v, int):
            out.append((f"stats.{k}", f"{k} must be a whole number, got {v!r}"))
            continue
        lo = 1 if k in ("T", "W", "Act") else 0
        hi = 20 if k != "M" else 60
        if not lo <= v <= hi:
            out.append((f"stats.{k}", f"{k} must be {lo} to {hi}, got {v}"))
    sv = stats.get("Sv", 0)
    if isinstance(sv, int) and not isinstance(sv, bool) and sv not in (0, 2, 3, 4, 5, 6):
        out.append(("stats.Sv", f"Sv is a save of 2 to 6 (0 for none), got {sv} (GM-SAVE)"))
    if "skills" in stats:
        out += tasks.skill_problems(stats["skills"])
    t = stats.get("type", "infantry")
    if t not in TYPES:
        out.append(("stats.type", f"type '{t}' is not one of {', '.join(TYPES)}"))
    return out


def _weapon_problems(j: int, w: Mapping[str, Any]) -> list[tuple[str, str]]:
    where = f"weapons[{j}]"
    out: list[tuple[str, str]] = []
    for k in w:
        if k not in WEAPON_KEYS:
            out.append(
                (f"{where}.{k}", f"unknown weapon key (weapon keys: {', '.join(WEAPON_KEYS)})")
            )
    cls = w.get("class", "melee" if "range" not in w else "assault")
    if cls not in T.CLASSES:
        out.append((f"{where}.class", f"'{cls}' is not one of {', '.join(T.CLASSES)}"))
    for k, lo, hi in (("range", 0, 200), ("S", 1, 20), ("save", -6, 0), ("shots", 1, 10)):
        if k in w:
            v = w[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
                out.append((f"{where}.{k}", f"{k} must be a number from {lo} to {hi}, got {v!r}"))
    if "parry" in w and (isinstance(w["parry"], bool) or w["parry"] not in T.PARRIES):
        out.append(
            (f"{where}.parry", f'parry is 0, 2, 4, 6 or "always", got {w["parry"]!r} (GM-PARRY)')
        )
    if "size" in w and w["size"] not in T.SIZES:
        out.append((f"{where}.size", f"'{w['size']}' is not one of {', '.join(T.SIZES)}"))
    return out


def weapons(
    spec: Mapping[str, Any], profile: Mapping[str, Any], catalog: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The entry's weapons, else its profile's; a weapon named in the catalog
    (units.toml ``[weapons]``, by key or name) takes the catalog's figures under its
    own; each gets its class made explicit (a weapon with a range and no class is an
    assault weapon, one without a melee one)."""
    given = spec.get("weapons") if "weapons" in spec else profile.get("weapons", [])
    named = {str(v.get("name", k)): v for k, v in catalog.items()} | dict(catalog)
    out = []
    for w in given or []:
        d = {**named.get(str(w.get("name", "")), {}), **w}
        d.setdefault("class", "melee" if "range" not in d else "assault")
        out.append(d)
    return out


def weapon_problems(ws: list[dict[str, Any]]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for j, w in enumerate(ws):
        out += _weapon_problems(j, w)
    return out


def cool(m: Model) -> int:
    """Cl, which is Ld unless the profile gives it (GM-PROFILE)."""
    return int(m.stats.get("Cl", m.stats.get("Ld", 7)))


def ranged(m: Model) -> list[dict[str, Any]]:
    """The model's shooting weapons (a range and not a melee class), still usable."""
    spent = set(mv(m).get("spent", []))
    return [
        w
        for w in m.weapons
        if w.get("class") != "melee" and w.get("range") and w.get("name") not in spent
    ]


def melee_weapons(m: Model) -> list[dict[str, Any]]:
    """The model's close-combat weapons (class melee, or a pistol, which fights too)."""
    return [w for w in m.weapons if w.get("class") in ("melee", "pistol")]


UNARMED: dict[str, Any] = {"name": "unarmed", "class": "melee", "size": "unarmed", "parry": 0}


def melee_weapon(m: Model) -> dict[str, Any]:
    """The weapon the model fights with: its first melee weapon, else a pistol, else its
    bare hands (GM-MELEE; GM-I-WEAPON)."""
    ws = melee_weapons(m)
    mel = [w for w in ws if w.get("class") == "melee"]
    return (mel or ws or [UNARMED])[0]
