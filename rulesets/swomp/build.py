"""Profiles to models, the designer's points formula and the army selection limits.

Why here: a scenario model (SCENARIO_FORMAT.md) names a profile and overrides stats and
weapons; SWOMP adds ``size`` (the targeting classes), ``type`` (the army-list section,
or ``vehicle``), ``points``, ``army``, ``arms`` and a ``vehicle`` data card. Everything
the rules read later is settled and validated here, once.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from engine import building
from engine.building import Build
from engine.state import Base, Model

from .state import mv

if TYPE_CHECKING:  # pragma: no cover
    from engine.ruleset import Ruleset

STAT_KEYS = ("MR", "SR", "DR", "CR", "PR", "HP", "AR", "FR")
REQUIRED = ("MR", "SR", "DR", "CR", "PR", "HP")
MODEL_KEYS = ("size", "type", "points", "army", "arms", "vehicle")
SIZES = ("small", "medium", "large")
TYPES = ("troop", "character", "support", "vehicle")
WEAPON_KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str,
    "WR": int,
    "Dam": int,
    "range": (int, float),
    "arc": (int, float),
    "blast": (int, float),
    "shots": int,
    "jam": int,
    "heavy": bool,
    "hands": int,
    "sight": str,
    "kind": str,
    "parry": bool,
    "link": str,
    "BR": int,
    "radar": bool,
}
STATE_KEYS = ("moved", "speed", "hp", "status", "cover", "jammed", "overwatch", "locations")
VEHICLE_KEYS = (
    "accel",
    "top",
    "locations",
    "hit_table",
    "exposed",
    "crew",
    "defends",
    "unreachable",
    "turret_weapons",
)
SIGHTS = ("los", "spotter", "radar")
DEFAULT_ARC = 90.0
#: models under this many points must belong to a unit (SWOMP "Units")
LONE_POINTS = 50


def weapon_defaults(w: Mapping[str, Any]) -> dict[str, Any]:
    """Fill a weapon's missing columns with the table's defaults (SWOMP-I-TABLES)."""
    out = dict(w)
    melee = out.get("kind") == "melee"
    out.setdefault("kind", "melee" if melee else "ranged")
    out.setdefault("WR", 0)
    out.setdefault("Dam", 1)
    if not melee:
        out.setdefault("range", 24)
        out.setdefault("arc", DEFAULT_ARC)
        out.setdefault("shots", 1)
        out.setdefault("heavy", False)
        out.setdefault("hands", 2)
        out.setdefault("sight", "los")
        if int(out["shots"]) > 1:
            out.setdefault("jam", 2)  # every sustained-fire weapon can jam (SWOMP-I-JAM)
    else:
        out.setdefault("parry", False)
    return out


def weapon_points(w: Mapping[str, Any]) -> int:
    """Designer's weapon cost: the rulebook's points section is unfinished."""
    if w.get("kind") == "melee":
        return 2 * int(w.get("WR", 0)) + (2 if w.get("parry") else 0) + 3 * (int(w["Dam"]) - 1)
    cost = int(w["WR"]) * int(w.get("shots", 1)) + 3 * (int(w["Dam"]) - 1)
    return cost + int(2 * float(w.get("blast", 0) or 0))


def points_of(stats: Mapping[str, Any], weapons: list[dict], vehicle: Mapping | None) -> int:
    """Designer's points formula (SWOMP-I-POINTS): each rating point is worth one or two
    points, hit points and fields more, plus the weapons carried."""
    wp = sum(weapon_points(w) for w in weapons)
    if vehicle:
        hp = sum(int(v) for v in vehicle["locations"].values())
        return 2 * int(stats["MR"]) + 3 * int(stats["DR"]) + 2 * hp + int(stats["SR"]) + wp
    return (
        int(stats["MR"])
        + int(stats["SR"])
        + 2 * (int(stats["DR"]) + int(stats["AR"]))
        + 3 * int(stats["FR"])
        + 2 * int(stats["CR"])
        + 2 * int(stats["PR"])
        + 10 * (int(stats["HP"]) - 1)
        + wp
    )


class Builder(building.Builder):
    """SWOMP's model entries on the engine's build: weapons from the catalog's table,
    ``size``, ``type``, ``points``, ``army``, ``arms`` and a ``vehicle`` data card;
    an unknown profile stops it."""

    texts = {
        "unknown_profile": "unknown profile '{name}' (known: {known})",
        "unknown_stat": "unknown stat (SWOMP stats: {words})",
        "unknown_state": "unknown state key (SWOMP: {state_keys})",
    }
    profile_stops = True
    state_keys = STATE_KEYS

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self.catalog = ruleset.catalog
        self.weapons: dict[str, dict] = {
            k.lower(): dict(v, name=k) for k, v in self.catalog.get("weapons", {}).items()
        }

    def weapon(
        self, spec: Mapping[str, Any] | str, where: str, probs: list[tuple[str, str]]
    ) -> dict | None:
        if isinstance(spec, str):
            spec = {"name": spec}
        name = str(spec.get("name", ""))
        base = copy.deepcopy(self.weapons.get(name.lower(), {"name": name}))
        for k, v in spec.items():
            typ = WEAPON_KEYS.get(k)
            if typ is None:
                probs.append(
                    (
                        f"{where}.{k}",
                        f"unknown weapon key (SWOMP weapon keys: {', '.join(WEAPON_KEYS)})",
                    )
                )
                continue
            if isinstance(v, bool) and typ is not bool or not isinstance(v, typ):
                probs.append(
                    (
                        f"{where}.{k}",
                        f"expected {getattr(typ, '__name__', 'a number')}, got {type(v).__name__}",
                    )
                )
                continue
            base[k] = v
        w = weapon_defaults(base)
        if w.get("sight", "los") not in SIGHTS:
            probs.append(
                (
                    f"{where}.sight",
                    f"unknown sighting '{w['sight']}' (expected one of: {', '.join(SIGHTS)})",
                )
            )
        for k in ("range", "arc", "blast"):
            if k in w and float(w[k]) < 0:
                probs.append((f"{where}.{k}", f"must be at least 0, got {w[k]}"))
        if w.get("kind") == "ranged" and not 0 < float(w["arc"]) <= 360:
            probs.append((f"{where}.arc", f"a fire arc is 1 to 360 degrees, got {w['arc']}"))
        if int(w.get("shots", 1)) < 1:
            probs.append((f"{where}.shots", "a weapon fires at least 1 shot"))
        return w

    def stat_value(self, b: Build, key: str, value: Any) -> Any:
        if key == "FR" and isinstance(value, list):
            # one field at a time: a model that owns several uses its best (SWOMP "Energy fields")
            value = max((x for x in value if isinstance(x, int)), default=0)
        if isinstance(value, bool) or not isinstance(value, int):
            b.refuse(f"stats.{key}", f"expected an integer rating, got {value!r}")
            return building.DROP
        if value < 0:
            b.refuse(f"stats.{key}", f"a rating cannot be negative, got {value}")
            return building.DROP
        return value

    def own_keys(self, b: Build) -> None:
        spec, prof, stats = b.spec, b.prof, b.stats
        stats.setdefault("AR", 0)
        stats.setdefault("FR", 0)
        for k in REQUIRED:
            if k not in stats:
                b.refuse(
                    f"stats.{k}",
                    f"missing: model '{b.mid}' needs {k} (give it in stats or use a profile)",
                )
        size = b.own["size"] = b.take("size", "medium")
        if size not in SIZES:
            b.refuse("size", f"unknown size '{size}' (expected one of: {', '.join(SIZES)})")
        mtype = b.own["type"] = b.take("type", "troop")
        if mtype not in TYPES:
            b.refuse("type", f"unknown type '{mtype}' (expected one of: {', '.join(TYPES)})")
        b.weapons = []
        wspecs = spec.get("weapons")
        if wspecs is None:
            wspecs = prof.get("weapons", [])
        for j, ws in enumerate(wspecs):
            w = self.weapon(ws, f"weapons[{j}]", b.problems)
            if w is not None:
                b.weapons.append(w)
        vehicle = None
        if mtype == "vehicle" or "vehicle" in spec or "vehicle" in prof:
            vehicle = self._vehicle(
                dict(prof.get("vehicle", {})), spec.get("vehicle", {}), b.problems
            )
        b.own["vehicle"] = vehicle
        arms = b.own["arms"] = spec.get("arms", 2)
        if isinstance(arms, bool) or not isinstance(arms, int) or arms < 0:
            b.refuse("arms", f"expected a number of arms, got {arms!r}")

    def read_state(self, b: Build) -> None:
        """The state's values are read once the model is made (``finish``)."""

    def base(self, b: Build) -> Base:
        base = b.spec.get("base", 25.0)
        if "base" in b.prof and base == 25.0:
            base = building.as_base(b.prof["base"])
        return cast(Base, base)

    def model_vars(self, b: Build) -> dict[str, Any]:
        spec, prof, own, vehicle = b.spec, b.prof, b.own, b.own["vehicle"]
        points = spec.get("points")
        if points is None:
            points = prof.get("points") or points_of(b.stats, b.weapons, vehicle)
        mvars: dict[str, Any] = {
            "size": own["size"],
            "type": "vehicle" if vehicle else own["type"],
            "points": int(points),
            "arms": own["arms"],
            "moved": 0.0,
        }
        if "army" in spec:
            mvars["army"] = str(spec["army"])
        hp = int(b.stats["HP"])
        if vehicle:
            mvars["veh"] = vehicle
            mvars["loc"] = dict(vehicle["locations"])
            mvars["speed"] = 0.0
            hp = sum(vehicle["locations"].values())
        b.hp = b.max_hp = hp
        return mvars

    def finish(self, b: Build, model: Model) -> None:
        b.problems += self._state(model, b.state)

    def _vehicle(self, card: dict, over: Any, probs: list) -> dict | None:
        if not isinstance(over, dict):
            probs.append(("vehicle", "expected a table (a vehicle data card)"))
            return None
        for k, v in over.items():
            if k not in VEHICLE_KEYS:
                probs.append(
                    (f"vehicle.{k}", f"unknown key (vehicle keys: {', '.join(VEHICLE_KEYS)})")
                )
            else:
                card[k] = v
        locs = card.get("locations") or {"body": 1}
        table = card.get("hit_table") or [next(iter(locs))] * 10
        if not isinstance(table, list) or len(table) != 10:
            probs.append(("vehicle.hit_table", "expected 10 locations, one per d10 face"))
            table = [next(iter(locs))] * 10
        for i, loc in enumerate(table):
            if loc not in locs:
                probs.append(
                    (
                        f"vehicle.hit_table[{i}]",
                        f"'{loc}' is not a location (locations: {', '.join(locs)})",
                    )
                )
        damage = self.catalog.get("damage", {})
        for loc in locs:
            if loc not in damage:
                probs.append(
                    (
                        "vehicle.locations",
                        f"no damage table for location '{loc}' (tables: {', '.join(damage)})",
                    )
                )
        defends = dict(card.get("defends", {}))
        for crew, where in defends.items():
            if crew not in card.get("exposed", []):
                probs.append((f"vehicle.defends.{crew}", "only an exposed crewman defends"))
            for loc in where:
                if loc not in locs:
                    probs.append((f"vehicle.defends.{crew}", f"'{loc}' is not a location"))
        for loc in card.get("unreachable", []):
            if loc not in locs:
                probs.append(("vehicle.unreachable", f"'{loc}' is not a location"))
        return {
            "accel": int(card.get("accel", 1)),
            "top": float(card.get("top", 30)),
            "locations": {k: int(v) for k, v in locs.items()},
            "hit_table": list(table),
            "exposed": list(card.get("exposed", [])),
            "crew": dict(card.get("crew", {})),
            "defends": {k: list(v) for k, v in defends.items()},
            "unreachable": list(card.get("unreachable", [])),
            "turret_weapons": list(card.get("turret_weapons", [])),
        }

    def _state(self, m: Model, state: Mapping[str, Any]) -> list[tuple[str, str]]:
        probs = []
        for k, v in state.items():
            if k in ("moved", "speed"):
                if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                    probs.append((f"state.{k}", f"expected inches (a number >= 0), got {v!r}"))
                    continue
                if k == "speed" and "veh" not in mv(m):
                    probs.append(("state.speed", "only vehicles have a speed (use moved)"))
                    continue
                m.vars[k] = float(v)
                if k == "speed":
                    mv(m)["moved"] = float(v)
            elif k == "hp":
                if not isinstance(v, int) or not 1 <= v <= m.max_hp:
                    probs.append(("state.hp", f"expected 1 to {m.max_hp}, got {v!r}"))
                elif "veh" in mv(m):
                    probs.append(
                        ("state.hp", "a vehicle's damage is set per location (state.locations)")
                    )
                else:
                    m.hp = v
            elif k == "cover":
                if v not in ("soft", "hard", "none"):
                    probs.append(("state.cover", f"expected soft, hard or none, got {v!r}"))
                else:
                    mv(m)["cover"] = v
            elif k == "status":
                if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
                    probs.append(("state.status", "expected a list of words"))
                else:
                    for s in v:
                        m.set_status(s)
            elif k == "jammed":
                names = [w["name"] for w in m.weapons]
                if not isinstance(v, list) or any(n not in names for n in v):
                    probs.append(
                        (
                            "state.jammed",
                            f"expected weapon names of this model ({', '.join(names)})",
                        )
                    )
                else:
                    mv(m)["jammed"] = sorted(v)
            elif k == "overwatch":
                if not isinstance(v, bool):
                    probs.append(("state.overwatch", "expected true or false"))
                elif v:
                    mv(m)["overwatch"] = True
                    m.set_status("overwatch")
            elif k == "locations":
                locs = mv(m).get("loc")
                if locs is None or not isinstance(v, dict):
                    probs.append(("state.locations", "only vehicles have locations"))
                    continue
                for name, hp in v.items():
                    if name not in locs or not isinstance(hp, int) or not 0 <= hp <= locs[name]:
                        probs.append(
                            (
                                f"state.locations.{name}",
                                f"expected 0 to "
                                f"{locs.get(name, 0)} HP of a location of this vehicle",
                            )
                        )
                    else:
                        locs[name] = hp
                m.hp = sum(locs.values())
        return probs


def army_problems(models: list[Model]) -> list[tuple[str, str]]:
    """SWOMP "Army Selection" for the models that declare an ``army`` (SWOMP-I-ARMY):
    the highest-SR model must have more than 1 HP; characters at most a third of the
    troops' points, support (vehicles included) at most half; models under 50 points in
    a unit of two or more."""
    out: list[tuple[str, str]] = []
    armies: dict[tuple[str, str], list[Model]] = {}
    for m in models:
        if "army" in mv(m):
            armies.setdefault((m.side, mv(m)["army"]), []).append(m)
    for (side, name), ms in sorted(armies.items()):
        top = max(int(m.stat("SR")) for m in ms)
        best = [m for m in ms if int(m.stat("SR")) == top]
        if not any(m.max_hp > 1 for m in best):
            out.append(
                (
                    best[0].id,
                    f"army '{name}' ({side}) has no commander: its highest-"
                    f"ranked model '{best[0].id}' (SR {top}) needs more than "
                    f"1 HP",
                )
            )
        pts = {"troop": 0, "character": 0, "support": 0}
        for m in ms:
            sect = "support" if mv(m)["type"] in ("support", "vehicle") else mv(m)["type"]
            pts[sect] += int(mv(m)["points"])
        if 3 * pts["character"] > pts["troop"]:
            out.append(
                (
                    ms[0].id,
                    f"army '{name}' ({side}): characters cost {pts['character']} "
                    f"points, more than a third of its {pts['troop']} troop "
                    f"points",
                )
            )
        if 2 * pts["support"] > pts["troop"]:
            out.append(
                (
                    ms[0].id,
                    f"army '{name}' ({side}): support costs {pts['support']} "
                    f"points, more than half of its {pts['troop']} troop points",
                )
            )
        sizes: dict[str, int] = {}
        for m in ms:
            sizes[m.unit] = sizes.get(m.unit, 0) + 1
        for m in ms:
            if int(mv(m)["points"]) < LONE_POINTS and sizes[m.unit] < 2:
                out.append(
                    (
                        m.id,
                        f"'{m.id}' costs {mv(m)['points']} points (under "
                        f"{LONE_POINTS}) and must be part of a unit",
                    )
                )
    return out


def deployment_order(units: list[tuple[str, str, int]]) -> list[str]:
    """SWOMP "Deployment": units (id, side, SR) go down lowest SR first; on a tie the
    players alternate, beginning with the side that placed a unit least recently."""
    order: list[str] = []
    last: dict[str, int] = {}
    for sr in sorted({u[2] for u in units}):
        group = sorted((u for u in units if u[2] == sr), key=lambda u: u[0])
        while group:
            sides = sorted({u[1] for u in group}, key=lambda s: (last.get(s, -1), s))
            pick = next(u for u in group if u[1] == sides[0])
            group.remove(pick)
            last[pick[1]] = len(order)
            order.append(pick[0])
    return order
