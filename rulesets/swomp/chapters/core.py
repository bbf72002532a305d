"""Shared SWOMP bookkeeping: what a model is (vehicle, heavy, engaged), its activation
record, its effective ratings, and taking damage.

Why one place: shooting, close combat, ramming and explosions all end in "this model
loses N HP"; the casualty bookkeeping that break tests read (SWOMP "Break Tests") and
the engagement graph close combat reads must be updated the same way by all of them.
Everything here is plain data in SWOMP's state and each model's vars (state.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv, sw

#: The per-activation record every model starts its unit's activation with.
FRESH_ACT: dict[str, Any] = {
    "moved": 0.0,
    "moves": 0,
    "shot": False,
    "stood": False,
    "fought": False,
    "clearing": False,
    "follow": 0.0,
    "fired": [],
}


def act(m: Model) -> dict[str, Any]:
    a = mv(m).get("act")
    if a is None:
        a = mv(m)["act"] = {
            k: (list(v) if isinstance(v, list) else v) for k, v in FRESH_ACT.items()
        }
    return a


def fresh(m: Model) -> None:
    """Start a clean activation record: what a model did in one action never limits the
    next (the round, or a reaction taken outside its own action)."""
    mv(m)["act"] = {k: (list(v) if isinstance(v, list) else v) for k, v in FRESH_ACT.items()}


def is_vehicle(m: Model) -> bool:
    return "veh" in mv(m)


def ranged(m: Model) -> list[dict]:
    return [w for w in m.weapons if w.get("kind", "ranged") != "melee"]


def melee_weapons(m: Model) -> list[dict]:
    return [w for w in m.weapons if w.get("kind") == "melee"]


def best_melee(m: Model, name: str = "") -> dict | None:
    ws = melee_weapons(m)
    if name:
        ws = [w for w in ws if w["name"].lower() == name.lower()] or ws
    if not ws:
        return None
    return max(ws, key=lambda w: (int(w.get("WR", 0)), bool(w.get("parry")), w["name"]))


def heavy(m: Model) -> bool:
    """A trooper carrying a heavy weapon moves as a heavy weapon (SWOMP-I-HEAVY)."""
    return not is_vehicle(m) and any(w.get("heavy") for w in ranged(m))


def stat(m: Model, key: str) -> int:
    return int(m.stats.get(key, 0))


def mr(m: Model) -> float:
    """Movement Rating, halved by vehicle engine or drive damage."""
    v = float(stat(m, "MR"))
    if "half_mr" in mv(m).get("effects", []):
        v /= 2
    return v


def foes(state: GameState, m: Model) -> list[Model]:
    return [state.models[f] for f in mv(m).get("foes", []) if not state.models[f].removed]


def engaged(m: Model) -> bool:
    return bool(mv(m).get("foes"))


def engage(a: Model, b: Model) -> None:
    for x, y in ((a, b), (b, a)):
        fs = set(mv(x).get("foes", []))
        fs.add(y.id)
        mv(x)["foes"] = sorted(fs)
        x.set_status("engaged")


def disengage(a: Model, b: Model) -> None:
    for x, y in ((a, b), (b, a)):
        fs = [f for f in mv(x).get("foes", []) if f != y.id]
        if fs:
            mv(x)["foes"] = fs
        else:
            mv(x).pop("foes", None)
            x.set_status("engaged", False)


def star_ok(
    state: GameState,
    extra: Sequence[tuple[str, str]] = (),
    drop: Sequence[tuple[str, str]] = (),
) -> bool:
    """Pairing off (SWOMP "The gang fight"): no model may be both a multiple attacker and
    a multiple defender, i.e. every engagement has a model with one foe at one end."""
    deg: dict[str, set[str]] = {}
    for m in state.live():
        for f in mv(m).get("foes", []):
            deg.setdefault(m.id, set()).add(f)
    for a, b in drop:
        deg.get(a, set()).discard(b)
        deg.get(b, set()).discard(a)
    for a, b in extra:
        deg.setdefault(a, set()).add(b)
        deg.setdefault(b, set()).add(a)
    for fs in deg.values():
        for b in fs:
            if len(fs) > 1 and len(deg.get(b, ())) > 1:
                return False
    return True


def unit_models(state: GameState, unit: str) -> list[Model]:
    """The unit's live models in id order (``state.units()[unit]``, without building
    every unit's list: the score asks this for each unit, often)."""
    return [m for m in state.live() if m.unit == unit]


def unit_info(state: GameState, unit: str) -> dict[str, Any]:
    return sw(state)["units"].setdefault(
        unit,
        {
            "points": 0,
            "lost": 0,
            "tests": 0,
            "broken": False,
            "broken_turn": 0,
            "commander": "",
            "fired_on": False,
        },
    )


def commander(state: GameState, unit: str) -> Model | None:
    """The unit commander: the recorded one while alive, else the highest SR survivor."""
    info = unit_info(state, unit)
    ms = unit_models(state, unit)
    cur = state.models.get(info.get("commander", ""))
    if cur is not None and not cur.removed:
        return cur
    if not ms:
        return None
    return max(ms, key=lambda m: (stat(m, "SR"), m.max_hp, [-ord(c) for c in m.id]))


def wound(
    state: GameState, ctx: Context, m: Model, dmg: int, why: str, rule: str, actor: str = ""
) -> None:
    """Take ``dmg`` HP from a trooper; at 0 it is removed (vehicles use vehicles.damage)."""
    if dmg <= 0 or m.removed:
        return
    m.hp = max(0, m.hp - dmg)
    if m.hp <= 0:
        remove(state, ctx, m, why, rule, actor)
    else:
        m.set_status("wounded")
        ctx.log.emit(
            "status",
            f"{m.id} loses {dmg} HP ({why}): {m.hp} left",
            actor=actor,
            target=m.id,
            rule=rule,
            outcome="wounded",
            data={"hp": m.hp},
        )


def remove(state: GameState, ctx: Context, m: Model, why: str, rule: str, actor: str = "") -> None:
    """A model reduced to nothing leaves the table at once; its unit counts the loss."""
    if m.removed:
        return
    m.hp = 0
    m.removed = True
    for f in foes(state, m):
        disengage(m, f)
    mv(m).pop("foes", None)
    mv(m).pop("overwatch", None)
    m.status = [s for s in m.status if s not in ("engaged", "overwatch")]
    info = unit_info(state, m.unit)
    info["lost"] = int(info.get("lost", 0)) + int(mv(m).get("points", 0))
    ctx.log.emit("removed", f"{m.id} is removed ({why})", actor=actor, target=m.id, rule=rule)
    for x in list(state.models.values()):
        if x.removed and mv(x).get("aboard") == m.id:  # a man in its hatch goes down with it
            mv(x).pop("aboard")
            x.removed = False
            remove(state, ctx, x, f"lost with {m.id}", rule, actor)
