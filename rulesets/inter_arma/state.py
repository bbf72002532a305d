"""Inter Arma's records in the game state, typed: every key the ruleset keeps in
``state.vars`` and in a figure's ``vars``, read through ``gs`` and ``mv`` so that mypy
checks each key (issue 17: a misspelt key is a type error, not a silent rules bug).

Why at the top of ``state.vars`` and not under an ``inter_arma`` key: that is where the
ruleset has always kept them; moving them would change every saved game and checksum.
The accessors only cast: reading never adds a key.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from engine.state import GameState, Model


class Turn(TypedDict, total=False):
    """The turn sequence (IA-SEQUENCE, IA-INITIATIVE)."""

    #: the sides in initiative order
    order: list[str]
    #: the index in ``order`` of the side playing the current phase
    i: int
    #: sides whose morale lost them the initiative, moved last when the turn ends
    lose_init: list[str]


class IaVars(TypedDict, total=False):
    """``state.vars`` as Inter Arma reads it."""

    ia: Turn
    #: day, rain, fog or night (IA-WEATHER, IA-NIGHT); the scenario's, "day" by default
    conditions: str
    #: the engine's: the scenario's turn limit (0: none)
    turn_limit: int
    #: the scenario's places; the morale goals among them (IA-I-GOALS)
    objectives: list[dict[str, Any]]
    #: the scenario's options (``campaign``: the wounded throw for their fate)
    options: dict[str, Any]
    #: figures lost per side
    losses: dict[str, int]
    #: losses per side at the last morale look (IA-I-CRITICAL)
    morale_seen: dict[str, int]
    #: sides whose morale throw inspired them (IA-MORALE 12)
    inspired: list[str]
    #: loot found: the goal's key -> the side that found it (IA-MORALE b)
    loot_found: dict[str, str]
    #: buildings destroyed: the goal's key -> the side that burnt it (IA-I-BUILDINGS)
    destroyed: dict[str, Any]
    #: a group's direction dice this night turn: unit -> [turn, degrees] (IA-NIGHT)
    night_dice: dict[str, list[int]]
    #: where thrown javelins lie, to be picked up again (IA-JAVELIN)
    javelin_markers: list[list[float]]
    #: sides whose sentries raised the alarm (IA-I-SENTRY)
    alarm: list[str]


class FigureVars(TypedDict, total=False):
    """A figure's ``vars``: the turn numbers of what it did, and the scenario's state."""

    #: javelins left to throw (IA-JAVELIN)
    javelins: int
    #: the turn it last moved, shot, was shot at, clashed in melee
    moved: int
    shot: int
    shot_at: int
    clashed: int
    #: [turn, enemy id]: the enemy it strikes first in that turn's melee (IA-AMBUSH)
    ambush_first: list[Any]
    #: an inspired commander's +1 damage in his next combat (IA-I-INSPIRED)
    inspired: bool
    #: morale holds a commander has given (IA-MORALE)
    holds: int
    #: a crawler the enemy has seen (IA-I-SPOT)
    spotted: bool
    #: the wounded's fate after a campaign battle (IA-I-FATE)
    fate: str
    #: set by the scenario's ``state``: a civilian or an ally (IA-I-ALLIES), a sentry
    civilian: bool
    ally: bool
    sentry: bool


def gs(state: GameState) -> IaVars:
    """The game's Inter Arma records (``state.vars``)."""
    return cast(IaVars, state.vars)


def mv(m: Model) -> FigureVars:
    """A figure's records (``m.vars``)."""
    return cast(FigureVars, m.vars)
