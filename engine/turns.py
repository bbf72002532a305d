"""Turn-structure presets a ruleset composes: initiative roll-offs, alternating
activation of units, and phased turns (segments played by each side in order).

Why presets: three of the five rulebooks alternate unit activations after an initiative
roll, and the others play fixed segments; writing the bookkeeping once keeps every
ruleset's rules module about rules. All bookkeeping lives in ``state.vars`` as plain
data so it saves, copies and checksums with the rest of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.dice import Dice, Modifier
from engine.events import EventLog
from engine.state import GameState


def roll_off(
    dice: Dice,
    sides: Sequence[str],
    faces: int,
    *,
    rule: str = "",
    log: EventLog | None = None,
    modifiers: Callable[[str], Sequence[Modifier]] | None = None,
    purpose: str = "initiative",
) -> list[str]:
    """Each side rolls a d``faces`` (plus modifiers); highest first. Sides that tie
    reroll among themselves for their places. Returns all sides, first to last."""
    totals: dict[str, int] = {}
    for s in sides:
        mods = list(modifiers(s)) if modifiers else []
        r = dice.roll(faces, f"{purpose} ({s})", modifiers=mods, actor=s, rule=rule)
        totals[s] = r.total
        if log is not None:
            log.emit(
                "initiative",
                r.explain(),
                actor=s,
                rule=rule,
                rolls=list(r.faces),
                data={"total": r.total},
            )
    order: list[str] = []
    for total in sorted(set(totals.values()), reverse=True):
        group = [s for s in sides if totals[s] == total]
        if len(group) == 1:
            order.extend(group)
        else:
            if log is not None:
                log.emit(
                    "initiative",
                    f"{' and '.join(group)} tie on {total}: they reroll",
                    rule=rule,
                )
            order.extend(
                roll_off(
                    dice,
                    group,
                    faces,
                    rule=rule,
                    log=log,
                    modifiers=modifiers,
                    purpose=purpose,
                )
            )
    return order


class Alternating:
    """Alternating activation: sides take turns activating one unit each until all
    units have acted; a side with none left passes. One round = one game turn.

    ``state.vars['act']`` = {"order": [...sides in initiative order], "done": [...units],
    "current": unit id or None, "next": index into order of the side to act}.
    """

    KEY = "act"

    def start_round(self, state: GameState, order: Sequence[str]) -> None:
        state.vars[self.KEY] = {
            "order": list(order),
            "done": [],
            "current": None,
            "next": 0,
        }
        state.phase = "activation"
        state.active = self._side_with_units(state, 0)

    def data(self, state: GameState) -> dict:
        return state.vars[self.KEY]

    def ready_units(self, state: GameState, side: str) -> list[str]:
        """Units of ``side`` that have not yet activated this round (live ones only)."""
        done = set(self.data(state)["done"])
        return [u for u in state.units(side) if u not in done]

    def current(self, state: GameState) -> str | None:
        return self.data(state)["current"]

    def begin(self, state: GameState, unit: str) -> None:
        """Mark ``unit`` as the one activating now (its first act this activation)."""
        self.data(state)["current"] = unit

    def finish(self, state: GameState) -> None:
        """End the current activation and hand play to the next side with units left."""
        d = self.data(state)
        cur = d["current"]
        if cur is not None and cur not in d["done"]:
            d["done"].append(cur)
        d["current"] = None
        d["next"] = (d["next"] + 1) % len(d["order"])
        state.active = self._side_with_units(state, d["next"])

    def _side_with_units(self, state: GameState, start: int) -> str | None:
        d = self.data(state)
        n = len(d["order"])
        for k in range(n):
            i = (start + k) % n
            side = d["order"][i]
            if self.ready_units(state, side):
                d["next"] = i
                return side
        return None

    def refresh(self, state: GameState) -> None:
        """Recompute who acts after removals. If the unit activating now was wiped out,
        its activation is over: play passes to the next side, as after ``finish``."""
        d = self.data(state)
        if d["current"] is not None and d["current"] not in state.units():
            self.finish(state)
            return
        if d["current"] is None:
            state.active = self._side_with_units(state, d["next"])

    def round_over(self, state: GameState) -> bool:
        return state.active is None


class Phased:
    """Phased turns: a fixed list of phases (segments); in each, the sides act in the
    turn's order. ``state.phase`` names the phase; ``state.vars['phased']`` holds the
    order and the index of the side acting within the phase.
    """

    KEY = "phased"

    def __init__(self, phases: Sequence[str]) -> None:
        self.phases = list(phases)

    def start_turn(self, state: GameState, order: Sequence[str]) -> None:
        state.vars[self.KEY] = {"order": list(order), "i": 0}
        state.phase = self.phases[0]
        state.active = order[0]

    def next(self, state: GameState) -> bool:
        """Move to the next side, or the next phase; True when the turn has ended."""
        d = state.vars[self.KEY]
        d["i"] += 1
        if d["i"] < len(d["order"]):
            state.active = d["order"][d["i"]]
            return False
        d["i"] = 0
        k = self.phases.index(state.phase) + 1
        if k >= len(self.phases):
            state.active = None
            return True
        state.phase = self.phases[k]
        state.active = d["order"][0]
        return False
