"""The morale goal modifiers (IA-MORALE b) and the wounded's fate after the battle
(IA-WOUNDED), read from the scenario's objectives and options.

Why objectives: the text's goals (loot, checkpoints, standards, herds) are places on
the table, and the scenario format already has places (``[[objectives]]``, with a
``kind``, a ``radius`` and an owning ``side``); a goal is held by the side that has an
able figure within its radius and the other side none (IA-I-GOALS).
"""

from __future__ import annotations

import math
from typing import Any

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.state import gs, mv

#: objective kinds this ruleset reads as morale goals
KINDS = ("checkpoint", "loot", "standard", "herd", "building")
#: radius (inches) of a goal that gives none
RADIUS = 1.0


def goals(state: GameState) -> list[dict[str, Any]]:
    return [o for o in gs(state).get("objectives") or [] if o.get("kind") in KINDS]


def _able(m: Model) -> bool:
    return not m.removed and "wounded" not in m.status


def holder(state: GameState, o: dict[str, Any]) -> str | None:
    """The one side with able figures within the goal's radius (None: nobody or both)."""
    r = float(o.get("radius", RADIUS))
    there = {
        m.side
        for m in state.models.values()
        if _able(m) and math.dist(m.pos, (o["x"], o["y"])) <= r
    }
    return next(iter(there)) if len(there) == 1 else None


def visit(state: GameState, m: Model) -> None:
    """A figure that ends a move on loot has found it for its side (IA-MORALE b)."""
    for o in goals(state):
        if o["kind"] == "loot" and math.dist(m.pos, (o["x"], o["y"])) <= float(
            o.get("radius", RADIUS)
        ):
            found = gs(state).setdefault("loot_found", {})
            found.setdefault(str(o.get("id", f"{o['x']},{o['y']}")), m.side)


def key(o: dict[str, Any]) -> str:
    return str(o.get("id", f"{o['x']},{o['y']}"))


def burn(state: GameState, ctx: Context) -> None:
    """IA-I-BUILDINGS: at the end of a turn an owned building held by another side is
    destroyed by it, for good."""
    for o in goals(state):
        if o["kind"] != "building" or not o.get("side"):
            continue
        held = holder(state, o)
        if key(o) in (gs(state).get("destroyed") or {}) or held in (None, o["side"]):
            continue
        gs(state).setdefault("destroyed", {})[key(o)] = held
        ctx.log.emit("status", f"{held} destroys {o.get('name') or key(o)} (IA-MORALE b)", actor=held,
                     rule="IA-MORALE", outcome="destroyed")  # fmt: skip


def building(o: dict[str, Any], state: GameState, side: str) -> list[Modifier]:
    """IA-MORALE b: +1 for a destroyed enemy building, -1 for a destroyed own one."""
    by = (gs(state).get("destroyed") or {}).get(key(o))
    name = str(o.get("name") or key(o))
    if by is None:
        return []
    if by == side:
        return [Modifier(1, f"destroyed {name}", "IA-MORALE")]
    if o.get("side") == side:
        return [Modifier(-1, f"lost {name}, destroyed", "IA-MORALE")]
    return []


def modifiers(state: GameState, side: str) -> list[Modifier]:
    """IA-MORALE b: +1 loot found, +1 / -1 checkpoint held / lost, +1 / -1 standard or
    heirloom captured / lost, +1 herd captured."""
    out: list[Modifier] = []
    for o in goals(state):
        name = str(o.get("name") or o.get("id") or o["kind"])
        owner, held = o.get("side"), holder(state, o)
        kind = o["kind"]
        if kind == "building":
            out += building(o, state, side)
        elif kind == "loot" and not owner:
            if (gs(state).get("loot_found") or {}).get(
                str(o.get("id", f"{o['x']},{o['y']}"))
            ) == side:
                out.append(Modifier(1, f"found the loot ({name})", "IA-MORALE"))
        elif kind == "checkpoint":
            if held == side:
                out.append(Modifier(1, f"holds checkpoint {name}", "IA-MORALE"))
            elif owner == side and held is not None:
                out.append(Modifier(-1, f"lost checkpoint {name}", "IA-MORALE"))
        elif held is not None and owner and held != owner:
            if held == side:
                out.append(Modifier(1, f"captured the {kind} ({name})", "IA-MORALE"))
            elif owner == side and kind != "herd":
                out.append(Modifier(-1, f"lost the {kind} ({name})", "IA-MORALE"))
    return out


def campaign(state: GameState) -> bool:
    return bool((gs(state).get("options") or {}).get("campaign"))


def fates(state: GameState, ctx: Context) -> None:
    """IA-WOUNDED, out of combat: after a campaign battle each wounded figure on the table
    throws a d6 (+2 a commander): 1-2 dies, 3-4 throws again after the next battle, 5-6
    survives (IA-I-FATE)."""
    for m in state.models.values():
        if m.removed or "wounded" not in m.status:
            continue
        mods = (
            [Modifier(2, "commander", "IA-WOUNDED")] if m.stats.get("class") == "commander" else []
        )
        r = ctx.dice.roll(6, f"fate of wounded {m.id} after the battle", modifiers=mods, actor=m.id, rule="IA-WOUNDED",
                          result=lambda t, f: "dies" if t <= 2 else "rolls again next battle" if t <= 4 else "survives")  # fmt: skip
        ctx.log.emit(
            "resolution",
            r.explain(),
            actor=m.id,
            rule="IA-WOUNDED",
            rolls=list(r.faces),
            outcome=str(r.result),
        )
        mv(m)["fate"] = str(r.result)
