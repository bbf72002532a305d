"""Decisions owed mid-action: overwatch fire, the defender's retreat, a turret gunner
jumping out. Each is one of the engine's pending decisions (``GameState.pending``,
``engine.ruleset.decision``): the engine's flow hands play to the side that owes it and
the window and the agents read it as data. What the interrupted action still has to do
waits on SWOMP's stack of continuations.

Why a queue and a stack: one action can raise several reactions in turn (a charge
meets overwatch fire, then its defender may try to slip away, and a defender that
retreats into a charge of its own raises them again). Decisions are answered first to
last, new consequences go to the front, and the continuations (the strikes still to be
rolled, the rest of an interrupted move) run last-in first-out once nothing is owed.
All plain data, so saves, clones and checksums carry it.

Decision ``data`` by ``kind``:
  overwatch  {watchers: [model ids], targets: [model ids]}
  retreat    {defender, attackers: [model ids]}
  jump       {vehicle, gunner: location, attacker}
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import decision
from engine.state import GameState

from . import core

#: the answer ``Choose`` gives to decline each kind of reaction
DECLINE = {"overwatch": "pass", "retreat": "stand", "jump": "stay"}
#: every word ``Choose`` may carry for each kind
ANSWERS = {"overwatch": ("pass", "hold"), "retreat": ("stand",), "jump": ("stay", "jump_out")}
#: the verbs that answer each kind (the engine refuses any other while it is owed)
VERBS = {"overwatch": ("shoot", "choose"), "retreat": ("retreat", "choose"), "jump": ("choose",)}


def queue(state: GameState) -> list[dict[str, Any]]:
    return state.pending


def owed(state: GameState) -> dict[str, Any] | None:
    """The first decision owed, or None."""
    return state.pending[0] if state.pending else None


def kind(entry: dict[str, Any]) -> str:
    return str(entry.get("kind", "overwatch"))


def data(entry: dict[str, Any]) -> dict[str, Any]:
    """What the decision is about (watchers and targets, defender and attackers...)."""
    d: dict[str, Any] = entry["data"]
    return d


def ask(side: str, k: str, **about: Any) -> dict[str, Any]:
    """A SWOMP reaction as an engine decision: its text, the ``Choose`` words and the
    verbs that answer it."""
    return decision(side, k, describe(side, k, about), ANSWERS[k], VERBS[k], **about)


def retell(entry: dict[str, Any]) -> None:
    """Rewrite the text after the decision's data changed (a watcher has fired)."""
    entry["text"] = describe(entry["side"], kind(entry), data(entry))


def push(state: GameState, entries: list[dict[str, Any]]) -> None:
    """New decisions go before older ones: they are consequences of the answer just given."""
    state.pending[:0] = entries


def stack(state: GameState) -> list[dict[str, Any]]:
    """The continuations still to run, last pushed first (older saves kept one dict)."""
    sw = core.sw(state)
    after = sw.get("after")
    if after is None:
        after = sw["after"] = []
    elif isinstance(after, dict):
        after = sw["after"] = [after]
    return after


def defer(state: GameState, cont: dict[str, Any] | None) -> None:
    if cont:
        stack(state).append(cont)


def next_continuation(state: GameState) -> dict[str, Any] | None:
    """Pop the continuation to run now: only when nothing is owed."""
    if state.pending:
        return None
    st = stack(state)
    return st.pop() if st else None


def describe(side: str, k: str, about: dict[str, Any]) -> str:
    """What the owing side must do, for refusals and the window."""
    if k == "retreat":
        return (
            f"{side} must first answer {', '.join(about['attackers'])}'s attack on "
            f"{about['defender']}: retreat with {about['defender']} (-2 CR) or choose "
            f"stand (SWOMP-RETREAT)"
        )
    if k == "jump":
        return (
            f"{side} must first decide whether {about['vehicle']}'s exposed "
            f"{about['gunner']} jumps out to meet {about['attacker']}: choose jump_out or "
            f"stay (SWOMP-VEH-CREW)"
        )
    return (
        f"{side} must first answer the overwatch reaction: shoot with "
        f"{', '.join(about['watchers'])} or choose pass (SWOMP-OVERWATCH)"
    )
