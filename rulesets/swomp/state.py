"""Every key SWOMP keeps in the game's ``state.vars`` and in each model's ``vars``, typed
(issue 17): the ruleset reads and writes them through these accessors, never through a
raw string key, so a mistyped key is a type error and not a silent rules bug.

Why casts and not copies: the dictionaries are the game state itself (saved, cloned and
checksummed as plain data), so an accessor must hand back the very dictionary. ``sw``
creates SWOMP's own entry as it always has; the model accessor adds nothing, so reading
a key never writes one (that would change a game's checksum).
"""

from __future__ import annotations

from typing import Any, TypedDict, cast

from engine.state import GameState, Model

KEY = "swomp"


class SwompVars(TypedDict, total=False):
    """``state.vars["swomp"]``: SWOMP's own bookkeeping."""

    #: unit -> points, losses and morale (core.unit_info)
    units: dict[str, dict[str, Any]]
    #: the old queue of reactions: always empty, kept so old saves and checksums read alike
    pending: list[dict[str, Any]]
    #: the continuations of interrupted actions, last pushed first (a dict in old saves)
    after: list[dict[str, Any]] | dict[str, Any] | None
    #: the sides' order of play this round (flow.new_round)
    order: list[str]
    #: each side's home edge and the table's size (victory)
    home: dict[str, Any]
    #: deployment in progress (deploy.py)
    deploy: dict[str, Any]
    #: the models that struck in another unit's close combat this round (melee.joined)
    joined: dict[str, Any]


class GameVars(TypedDict, total=False):
    """The keys of ``state.vars`` SWOMP reads: its own, and the engine's."""

    swomp: SwompVars
    #: the scenario's turn limit (engine)
    turn_limit: int
    #: the scenario's options (deployment, side inset...)
    options: dict[str, Any]


class SwompModelVars(TypedDict, total=False):
    """A model's ``vars``: what it is (from build.py) and what it has done."""

    size: str
    type: str
    points: int
    arms: int
    army: str
    #: inches moved in its unit's last action, for the movement bonus
    moved: float
    #: a vehicle's card: accel, top, locations, hit_table, crew...
    veh: dict[str, Any]
    #: a vehicle's hit points left per location
    loc: dict[str, int]
    #: a vehicle's speed in inches
    speed: float
    #: damage results that last: half_mr, half_acc, immobile, targeters, turret_lost...
    effects: list[str]
    #: weapon penalty from vehicle damage (PR)
    wpen: int
    #: the model's record of its unit's current action (core.FRESH_ACT)
    act: dict[str, Any]
    #: the models it is locked in close combat with
    foes: list[str]
    #: the models it retreated from this action
    left: list[str]
    #: +1 CR on its next close combat round (a follow-up charge)
    charge_bonus: bool
    jammed: list[str]
    overwatch: bool
    #: standing cover given by the scenario: soft or hard
    cover: str
    undeployed: bool
    #: a vehicle's hatches whose man is out, and who stands in for each
    crew_out: list[str]
    manned: dict[str, dict[str, Any]]
    #: a man in a vehicle's hatch (off the table): the vehicle's id
    aboard: str
    #: a man out of a hatch: his vehicle and hatch
    crew_of: str
    hatch: str


def sw(state: GameState) -> SwompVars:
    """SWOMP's own state, created as it always was: units, the old pending queue (always
    empty) and the continuations."""
    return cast(SwompVars, state.vars.setdefault(KEY, {"units": {}, "pending": [], "after": None}))


def gv(state: GameState) -> GameVars:
    """``state.vars`` as SWOMP reads it (turn limit, options); never writes."""
    return cast(GameVars, state.vars)


def mv(model: Model) -> SwompModelVars:
    """A model's ``vars``, typed; never writes."""
    return cast(SwompModelVars, model.vars)
