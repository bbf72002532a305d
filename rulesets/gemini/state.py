"""What Gemini keeps in the state, typed: its record under ``state.vars['gm']``, the
activation-dice game's under ``state.vars['arap']``, the engine keys it reads, and the
marks each model carries in its ``vars``, with their accessors.

Why typed: the records are plain JSON data (saves, clones and checksums depend on it),
but a misspelt key must be a type error, not a silent rules bug, so every module reads
them through these ``TypedDict``s. The accessors never add a key the old code did not
write: a reader that only looked (``stamp``, ``objectives``) does not ``setdefault``.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from engine.state import GameState, Model
from engine.turn_orders import InitiativeFlow


class GmVars(TypedDict, total=False):
    """``state.vars['gm']``: the ruleset's record."""

    #: the count of phases and activations begun: what a model did "this phase" is
    #: marked with it (``flow.stepped``)
    stamp: int
    #: "side:place" -> the model that found the hidden thing / did the task (GM-I-TASKS)
    found: dict[str, str]
    done: dict[str, str]


class ArapVars(TypedDict, total=False):
    """``state.vars['arap']``: the activation-dice game (GM-ARAP)."""

    #: the sides in turn order, and the index of the side acting
    order: list[str]
    i: int
    #: the models that have activated this turn, the one activating, its actions left
    done: list[str]
    current: str | None
    left: int
    #: two or more failed dice: the side's turn ends after this model
    over: bool


class ReactWait(TypedDict):
    """A reaction kept for the end of the turn (GM-I-REACT-WAIT): the model whose move
    called it and the turn it was called in."""

    target: str
    turn: int


class GemVars(TypedDict, total=False):
    """``state.vars`` as Gemini uses it."""

    gm: GmVars
    arap: ArapVars
    #: the scenario's ``[options]`` (``chapters.switches``) and places (read only)
    options: dict[str, Any]
    objectives: list[dict[str, Any]]
    #: the engine's Initiative-order record (read only: its activation index)
    initiative_order: dict[str, Any]


class GemModelVars(TypedDict, total=False):
    """Each Gemini model's ``vars``: the turn or phase it last did things in, and the
    lasting marks the switches leave on it."""

    #: the turn it last moved, shot, charged, ran, fell over, reacted (GM-TURN...)
    moved: int
    shot: int
    charged: int
    ran: int
    fell: int
    reacted: int
    #: the turn it charged across a low obstacle (GM-COMBAT-SCORE)
    charge_obstacle: int
    #: never written: the reserve-move check reads it with the other marks
    fought_turn: int
    #: the phase stamp it struck in, or may follow up in (GM-FOLLOW-UP)
    struck: int
    follow_up: int
    #: weapons out of ammunition for the game (GM-AMMO)
    spent: list[str]
    #: the phase stamp of its one critical hit (GM-CRITICAL)
    critical_in: str
    #: injuries (GM-WOUND-CHART, GM-GASR-WOUNDS): arm and flesh wounds, fresh states
    arm_wounds: int
    flesh_wounds: int
    down_fresh: bool
    dazed_fresh: bool
    down_rolled: int
    #: frozen and pinned (GM-FROZEN-PINNED): the turn it tested, the turn it recovers
    pin_tested: int
    shaken_until: int
    #: psychology: its one Terror test, the foe it fears (GM-TERROR, GM-FEAR)
    terror_tested: bool
    afraid_of: str
    #: the model it pursues (GM-PURSUIT)
    quarry: str
    #: hidden places it has made its observation roll for (GM-I-TASKS)
    observed: list[str]
    #: a reaction kept for the end of the turn (GM-I-REACT-WAIT)
    react_wait: ReactWait


def mv(m: Model) -> GemModelVars:
    """The model's marks, typed (the same dict: writes go to the model)."""
    return cast(GemModelVars, m.vars)


def gs(state: GameState) -> GemVars:
    """``state.vars``, typed (the same dict)."""
    return cast(GemVars, state.vars)


def init_gs(state: GameState) -> None:
    """Before turn 1: the ruleset's record, its stamp at 0 (kept if a save has one)."""
    gs(state).setdefault("gm", {"stamp": 0})


def gm(state: GameState) -> GmVars:
    """The ruleset's record, made when missing (a write is coming)."""
    return gs(state).setdefault("gm", {})


def stamp(state: GameState) -> int:
    """The phase or activation being played (0 before any; reads, never adds)."""
    return int(gs(state).get("gm", {}).get("stamp", 0))


def stamp_up(state: GameState) -> None:
    """A new phase or activation begins."""
    d = gm(state)
    d["stamp"] = int(d.get("stamp", 0)) + 1


def arap(state: GameState) -> ArapVars:
    """The activation-dice game's record (made by its flow's setup)."""
    return gs(state)["arap"]


def set_arap(state: GameState, record: ArapVars) -> None:
    gs(state)["arap"] = record


def options(state: GameState) -> dict[str, Any] | None:
    """The scenario's switches as given (None: none)."""
    return gs(state).get("options")


def objectives(state: GameState) -> list[dict[str, Any]]:
    """The scenario's places (none: an empty list)."""
    return gs(state).get("objectives") or []


def initiative_order(state: GameState) -> dict[str, Any]:
    """The engine's Initiative-order record (empty outside that game)."""
    return gs(state).get("initiative_order", {})


assert InitiativeFlow.KEY == "initiative_order"  # the key ``GemVars`` names
