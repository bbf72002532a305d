"""Decisions owed mid-action: overwatch fire, the defender's retreat, a turret gunner
jumping out. Each is a pending entry that ``to_act`` hands to the side that owes it;
what the interrupted action still has to do waits on a stack of continuations.

Why a queue and a stack: one action can raise several reactions in turn (a charge
meets overwatch fire, then its defender may try to slip away, and a defender that
retreats into a charge of its own raises them again). Entries are answered first to
last, new consequences go to the front, and the continuations (the strikes still to be
rolled) run last-in first-out once nothing is owed. All plain data in
``state.vars['swomp']`` so saves, clones and checksums carry it.

Entry shapes (``kind``):
  overwatch  {side, watchers: [model ids], targets: [model ids]}
  retreat    {side, defender, attackers: [model ids]}
  jump       {side, vehicle, gunner: location, attacker}
"""

from __future__ import annotations

from typing import Any

from engine.state import GameState

from . import core

#: the answer ``Choose`` gives to decline each kind of reaction
DECLINE = {"overwatch": "pass", "retreat": "stand", "jump": "stay"}
#: every word ``Choose`` may carry for each kind
ANSWERS = {"overwatch": ("pass", "hold"), "retreat": ("stand",), "jump": ("stay", "jump_out")}


def queue(state: GameState) -> list[dict[str, Any]]:
    return core.sw(state)["pending"]


def owed(state: GameState) -> dict[str, Any] | None:
    """The first decision owed, or None."""
    q = queue(state)
    return q[0] if q else None


def kind(entry: dict[str, Any]) -> str:
    return str(entry.get("kind", "overwatch"))


def push(state: GameState, entries: list[dict[str, Any]]) -> None:
    """New decisions go before older ones: they are consequences of the answer just given."""
    sw = core.sw(state)
    sw["pending"] = list(entries) + list(sw["pending"])


def drop_first(state: GameState) -> dict[str, Any]:
    return queue(state).pop(0)


def stack(state: GameState) -> list[dict[str, Any]]:
    """The continuations still to run, last pushed first (older saves kept one dict)."""
    sw = core.sw(state)
    after = sw.get("after")
    if after is None:
        sw["after"] = []
    elif isinstance(after, dict):
        sw["after"] = [after]
    return sw["after"]


def defer(state: GameState, cont: dict[str, Any] | None) -> None:
    if cont:
        stack(state).append(cont)


def next_continuation(state: GameState) -> dict[str, Any] | None:
    """Pop the continuation to run now: only when nothing is owed."""
    if queue(state):
        return None
    st = stack(state)
    return st.pop() if st else None


def describe(entry: dict[str, Any]) -> str:
    """What the owing side must do, for refusals and the window."""
    k = kind(entry)
    if k == "retreat":
        return (
            f"{entry['side']} must first answer {', '.join(entry['attackers'])}'s attack on "
            f"{entry['defender']}: retreat with {entry['defender']} (-2 CR) or choose "
            f"stand (SWOMP-RETREAT)"
        )
    if k == "jump":
        return (
            f"{entry['side']} must first decide whether {entry['vehicle']}'s exposed "
            f"{entry['gunner']} jumps out to meet {entry['attacker']}: choose jump_out or "
            f"stay (SWOMP-VEH-CREW)"
        )
    return (
        f"{entry['side']} must first answer the overwatch reaction: shoot with "
        f"{', '.join(entry['watchers'])} or choose pass (SWOMP-OVERWATCH)"
    )
