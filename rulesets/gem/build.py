"""Profiles -> Models (GEM-1.1, GEM-1.2): validating a scenario's model entries.

Why a module of its own: scenario files, army lists and the points calculator all read
profiles the same way; every broken limit comes back as a (where, problem) pair naming
the key, never an exception.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.building import Build, Builder
from engine.state import Model

from .state import mtype, mv

STAT_KEYS = ("OFF", "DEF", "HIT", "ATT", "MOR", "MAG", "MOV", "SIZ", "ARM", "ACC")
TYPES = (
    "skirmisher",
    "block",
    "cavalry",
    "peltast",
    "heavy",
    "leader",
    "hero",
    "wizard",
    "vehicle",
)
#: GEM-1.3: the sci-fi armour types a DEF table may give.
ARMOUR = ("Ablative", "Reflec", "Field", "Gas")
#: weapon ``attack`` -> the armour type it is judged against (GEM-1.3).
ATTACK_ARMOUR = {"missile": "Ablative", "beam": "Reflec", "heavy": "Field", "gas": "Gas"}
WEAPON_KEYS = (
    "name",
    "OFF",
    "ATT",
    "range",
    "radius",
    "deviation",
    "heavy",
    "reload",
    "attack",
    "spear",
    "pike",
    "side",
)
MODEL_KEYS = ("type", "fear", "power", "order", "mobilizer", "crew", "capacity", "driver")
STATE_KEYS = ("moved", "speed", "hp", "status", "disorganized", "power", "aboard")
DEFAULTS = {"HIT": 1, "ATT": 1, "MOR": 0, "MAG": 2, "MOV": 4, "SIZ": 1}
ONE_TO_TEN = ("OFF", "MAG", "ARM")
#: GEM's refusal texts for the engine's build (engine.building.Builder.text)
TEXTS = {
    "unknown_profile": "unknown gem profile '{name}' (known: {known})",
    "unknown_stat": "unknown stat for '{mid}' (gem stats: {words})",
    "unknown_state": "unknown gem state key (known: {state_keys})",
}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def value_problems(k: str, v: Any, mid: str) -> list[tuple[str, str]]:
    """What is wrong with the value ``v`` of the known stat ``k`` (the 1..10 scale,
    GEM-1.1; DEF tables of armour types, GEM-1.3)."""
    where = f"stats.{k}"
    probs: list[tuple[str, str]] = []
    if k == "DEF" and isinstance(v, dict):
        for a, x in v.items():
            if a not in ARMOUR:
                probs.append(
                    (
                        f"{where}.{a}",
                        f"unknown armour type for '{mid}' (GEM-1.3: {', '.join(ARMOUR)})",
                    )
                )
            elif not _int(x) or not 1 <= x <= 10:
                probs.append((f"{where}.{a}", f"'{mid}': DEF must be 1 to 10, got {x!r}"))
        if not v:
            probs.append((where, f"'{mid}': an armour table needs at least one type"))
    elif k in ONE_TO_TEN or k == "DEF":
        if not _int(v) or not 1 <= v <= 10:
            probs.append((where, f"'{mid}': {k} must be 1 to 10 (GEM-1.1), got {v!r}"))
    elif k in ("HIT", "ATT"):
        if not _int(v) or v < 1:
            probs.append((where, f"'{mid}': {k} must be a whole number of at least 1, got {v!r}"))
    elif k in ("MOV", "ACC", "SIZ"):
        if not _num(v) or v < 0:
            probs.append((where, f"'{mid}': {k} must be a number of at least 0, got {v!r}"))
    elif k == "MOR" and not _int(v):
        probs.append((where, f"'{mid}': MOR must be a whole number, got {v!r}"))
    return probs


def check_stats(stats: Mapping[str, Any], mid: str) -> list[tuple[str, str]]:
    """Every stat problem of model ``mid`` (unknown keys, values off the 1..10 scale),
    for an army list's entries (points.py); the builder asks the same questions."""
    probs: list[tuple[str, str]] = []
    for k, v in stats.items():
        if k not in STAT_KEYS:
            probs.append(
                (f"stats.{k}", TEXTS["unknown_stat"].format(mid=mid, words=" ".join(STAT_KEYS)))
            )
        else:
            probs += value_problems(k, v, mid)
    return probs


def check_weapon(w: Mapping[str, Any], where: str, mid: str) -> list[tuple[str, str]]:
    probs: list[tuple[str, str]] = []
    for k, v in w.items():
        if k not in WEAPON_KEYS:
            probs.append(
                (
                    f"{where}.{k}",
                    f"unknown weapon key for '{mid}' (gem weapon keys: {', '.join(WEAPON_KEYS)})",
                )
            )
        elif k == "OFF" and (not _int(v) or not 1 <= v <= 10):
            probs.append((f"{where}.OFF", f"'{mid}': weapon OFF must be 1 to 10, got {v!r}"))
        elif k in ("ATT", "reload") and (not _int(v) or v < 1):
            probs.append((f"{where}.{k}", f"'{mid}': {k} must be at least 1, got {v!r}"))
        elif k in ("range", "radius") and (not _num(v) or v < 0):
            probs.append((f"{where}.{k}", f"'{mid}': {k} must be a number >= 0, got {v!r}"))
        elif k in ("heavy", "spear", "pike") and not isinstance(v, bool):
            probs.append((f"{where}.{k}", f"'{mid}': {k} must be true or false"))
        elif k == "attack" and v not in ATTACK_ARMOUR:
            probs.append(
                (
                    f"{where}.attack",
                    f"'{mid}': unknown attack type {v!r} (one of: {', '.join(ATTACK_ARMOUR)})",
                )
            )
        elif k == "side" and v not in ("left", "right"):
            probs.append((f"{where}.side", f"'{mid}': side must be left or right"))
        elif k == "deviation" and parse_dice(v) is None:
            probs.append(
                (
                    f"{where}.deviation",
                    f"'{mid}': deviation must be dice like 'd6' or '2d6', got {v!r}",
                )
            )
    return probs


def parse_dice(spec: Any) -> tuple[int, int] | None:
    """'2d6' -> (2, 6); 'd6' -> (1, 6); an integer n -> (n, 6)."""
    if _int(spec) and spec >= 0:
        return (int(spec), 6)
    if not isinstance(spec, str) or "d" not in spec:
        return None
    n, _, s = spec.lower().partition("d")
    try:
        count = int(n) if n else 1
        sides = int(s)
    except ValueError:
        return None
    if count < 0 or sides not in (4, 6, 8, 10, 12, 20):
        return None
    return count, sides


class GemBuilder(Builder):
    """GEM's model entries (GEM-1.1 profiles, GEM-2.1.2 orders, GEM-3.1 vehicles, the
    GEM-I-STATE set-out state) on the engine's build: an unknown profile stops it."""

    texts = TEXTS
    profile_stops = True
    state_keys = STATE_KEYS

    def stat_value(self, b: Build, key: str, value: Any) -> Any:
        b.problems += value_problems(key, value, b.mid)
        return value

    def own_keys(self, b: Build) -> None:
        mid, stats = b.mid, b.stats
        for need in ("OFF", "DEF"):
            if need not in stats:
                b.refuse(f"stats.{need}", f"'{mid}' needs {need} (give a profile or stats)")
        mtype = b.own["type"] = b.take("type", "skirmisher")
        if mtype not in TYPES:
            b.refuse("type", f"unknown gem figure type '{mtype}' (one of: {', '.join(TYPES)})")
        if mtype == "vehicle":
            for need in ("ARM", "ACC"):
                if need not in stats:
                    b.refuse(f"stats.{need}", f"vehicle '{mid}' needs {need} (GEM-3.1)")
        for j, w in enumerate(b.weapons):
            b.problems += check_weapon(w, f"weapons[{j}]", mid)
        b.own["power"] = self._power(b, mtype)
        self._order(b, mtype)
        self._vehicle(b, mtype)
        fear = b.own["fear"] = b.take("fear", False)
        if not isinstance(fear, bool):
            b.refuse("fear", f"'{mid}': fear must be true or false")

    def _power(self, b: Build, mtype: str) -> Any:
        """A wizard's spell power (GEM-3.5.2): 10 and 10 unless the entry says."""
        power = b.take("power")
        if power is not None:
            if (
                not isinstance(power, dict)
                or set(power) - {"offensive", "defensive"}
                or not all(_int(v) and v >= 0 for v in power.values())
            ):
                b.refuse(
                    "power",
                    f"'{b.mid}': power is {{ offensive = n, defensive = n }} with whole numbers",
                )
        elif mtype == "wizard":
            power = {"offensive": 10, "defensive": 10}
        return power

    def _order(self, b: Build, mtype: str) -> None:
        order = b.own["order"] = b.take(
            "order", "block" if mtype in ("block", "heavy") else "skirmish"
        )
        if order not in ("block", "skirmish"):
            b.refuse("order", f"'{b.mid}': order is 'block' or 'skirmish', got {order!r}")
        elif order == "block" and mtype not in ("block", "heavy", "peltast"):
            b.refuse(
                "order",
                f"'{b.mid}': only block, heavy and peltast models fight in block order (GEM-2.1.2)",
            )

    def _vehicle(self, b: Build, mtype: str) -> None:
        """GEM-3.1's vehicle keys; only vehicles may give them."""
        mid = b.mid
        mob = b.own["mobilizer"] = b.take("mobilizer", "wheels")
        if mob not in ("tracks", "wheels", "legs"):
            b.refuse("mobilizer", f"'{mid}': mobilizer is tracks, wheels or legs")
        crew = b.own["crew"] = b.take("crew")
        if crew is not None and (
            not isinstance(crew, dict)
            or set(crew) - {"count", "DEF", "HIT"}
            or not all(_int(v) and v >= 0 for v in crew.values())
        ):
            b.refuse("crew", f"'{mid}': crew is {{ count = n, DEF = n, HIT = n }}")
        cap = b.own["capacity"] = b.take("capacity")
        if cap is not None and (not _int(cap) or cap < 0):
            b.refuse("capacity", f"'{mid}': capacity is a whole number of figures >= 0")
        driver = b.own["driver"] = b.take("driver", False)
        if not isinstance(driver, bool):
            b.refuse("driver", f"'{mid}': driver must be true or false")
        if mtype != "vehicle":
            for k, v in (("capacity", cap), ("driver", driver), ("crew", crew)):
                if v not in (None, False) and k in b.spec:
                    b.refuse(k, f"'{mid}': only vehicles have {k} (GEM-3.1)")

    def read_state(self, b: Build) -> None:
        st = b.state
        if "aboard" in st and (not isinstance(st["aboard"], str) or not st["aboard"]):
            b.refuse("state.aboard", f"'{b.mid}': aboard names the vehicle it rides in")
        hit = b.stats.get("HIT", 1)
        hp = st.get("hp", hit)
        if not _int(hp) or not 0 < hp <= (hit if _int(hit) else 1):
            b.refuse("state.hp", f"'{b.mid}': hp must be 1 to HIT ({hit}), got {hp!r}")

    def model_vars(self, b: Build) -> dict[str, Any]:
        st, own = b.state, b.own
        vars_: dict[str, Any] = {
            "type": own["type"],
            "order": own["order"],
            "fear": bool(own["fear"]),
        }
        if own["power"] is not None:
            pw = dict(own["power"])
            if isinstance(st.get("power"), dict):
                pw.update(st["power"])
            vars_["power"] = {
                "offensive": int(pw.get("offensive", 0)),
                "defensive": int(pw.get("defensive", 0)),
            }
        if own["type"] == "vehicle":
            vars_["mobilizer"] = own["mobilizer"]
            vars_["speed"] = float(st.get("speed", 0.0))
            vars_["last_speed"] = float(st.get("speed", 0.0))
            vars_["damage"] = {}
            if own["capacity"] is not None:
                vars_["capacity"] = int(own["capacity"])
            if own["driver"]:
                vars_["driver"] = True
            if crew := own["crew"]:
                vars_["crew"] = {
                    "count": int(crew.get("count", 0)),
                    "DEF": int(crew.get("DEF", 3)),
                    "HIT": int(crew.get("HIT", 1)),
                }
        if "moved" in st:
            vars_["moved"] = float(st["moved"])
            vars_["moved_before"] = float(st["moved"])
        return vars_

    def finish(self, b: Build, m: Model) -> None:
        st = b.state
        for s in st.get("status", []) or []:
            m.set_status(str(s))
        if st.get("aboard"):
            # GEM-I-EMBARK: it starts inside that vehicle (check_army checks the vehicle)
            mv(m)["aboard"] = str(st["aboard"])
            m.removed = True
            m.set_status("aboard")
        if st.get("disorganized"):
            m.set_status("disorganized")
        if "disorganized" in m.status:
            # GEM-2.4.5 "cannot move during the next turn": set out disorganized, it became so
            # before turn 1 and recovers when turn 2 begins (GEM-I-STATE)
            mv(m)["disorganized_until"] = 1


def def_value(m: Model, attack: str = "", vehicle: bool = True) -> int:
    """The DEF that applies against an attack of type ``attack`` (GEM-1.3).

    A single DEF answers everything. An armour table answers by type; attacks with no
    type (hand-to-hand, plain missiles) use Ablative, the armour meant for ordinary blows
    (designer's interpretation GEM-I-ARMOUR).
    """
    if vehicle and mtype(m) == "vehicle" and "ARM" in m.stats:
        return int(m.stats["ARM"])  # GEM-3.1: a vehicle's armour (GEM-I-ARM)
    d = m.stats.get("DEF", 1)
    if isinstance(d, dict):
        armour = ATTACK_ARMOUR.get(attack, "Ablative")
        if armour in d:
            return int(d[armour])
        return int(min(d.values()))
    return int(d)
