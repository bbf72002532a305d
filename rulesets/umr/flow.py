"""The turn sequence (UMR-ROUND): setup, initiative each round, alternating activation
of one unit at a time, removal of models at zero health, and asking after each act
whether the game has ended (``victory``).

Why here: the turn bookkeeping is the same whatever a model does with its dice, so the
action rules only call ``begin``, ``finish`` and ``remove`` and never touch the order.
"""

from __future__ import annotations

from engine.ruleset import Context, Ruleset, load
from engine.state import GameState, Model
from engine.turns import AlternatingFlow, roll_off
from rulesets.umr import victory
from rulesets.umr.chapters import action_dice, drones, measure
from rulesets.umr.state import gs, is_frozen, mv, remember


class Rounds(AlternatingFlow):
    """UMR-ROUND on the engine's turn structure: the engine ends a round and applies the
    turn limit (``Umr.at_turn_limit``); a new round clears each model's per-round records
    and rolls initiative again (UMR's own log of it)."""

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        for m in state.models.values():
            mv(m)["used"] = []
            mv(m)["granted"] = 0
            mv(m).pop("gifts", None)
        _start_round(state, ctx)


TURNS = Rounds()


def setup(state: GameState, ctx: Context, first: str | None) -> None:
    """Before round 1: an operator's missing drones are placed (UMR-I-DRONES), then the
    first round starts."""
    drones.place_drones(state, ctx)
    for m in state.models.values():  # a model placed in water or up on a wall shows it
        measure.refresh_status(ctx, m)
    start_game(state, ctx, first)


def start_game(state: GameState, ctx: Context, first: str | None) -> None:
    """Round 1: the scenario's ``first`` fixes the initiative, else every side rolls."""
    for m in state.models.values():
        action_dice.init_vars(m)
    state.turn = 1
    _start_round(state, ctx, first)


def _start_round(state: GameState, ctx: Context, first: str | None = None) -> None:
    live = [s for s in state.sides if state.live(s)]
    if first is not None:
        order = [first] + [s for s in state.sides if s != first]
        ctx.log.emit(
            "initiative",
            f"round {state.turn}: {first} has the initiative (set by the scenario)",
            actor=first,
            rule="UMR-ROUND",
        )
    else:
        order = roll_off(
            ctx.dice,
            live or state.sides,
            6,
            rule="UMR-ROUND",
            log=ctx.log,
            purpose=f"initiative round {state.turn}",
        )
        order += [s for s in state.sides if s not in order]
        ctx.log.emit(
            "initiative",
            f"round {state.turn}: {order[0]} has the initiative",
            actor=order[0],
            rule="UMR-ROUND",
            data={"order": order},
        )
    gs(state)["initiative"] = order
    TURNS.start_round(state, order)


def current(state: GameState) -> str | None:
    return TURNS.current(state)


def unit_models(state: GameState, unit: str) -> list[Model]:
    """The live models of ``unit`` in id order. Why two ways: a frozen state answers
    every unit from one table; otherwise (the rules applying an act) one scan for the
    one unit, instead of grouping every model of the table each time (issue 24)."""
    if is_frozen(state):
        return measure.units(state).get(unit, [])
    models = state.models
    return [m for k in state.ids() if (m := models[k]).unit == unit and not m.removed]


def ready(state: GameState, side: str) -> list[str]:
    """Units of ``side`` still to activate this round (answered once while frozen)."""
    return remember(state, ("ready", side), lambda: _ready_scan(state, side))


def _ready_scan(state: GameState, side: str) -> list[str]:
    """``TURNS.ready_units(state, side)`` (units in the order of their first model's
    id) in one pass over the models, without grouping every unit first: the checks of
    the AI's options ask it thousands of times a decision (issue 24)."""
    done = set(TURNS.data(state)["done"])
    models = state.models
    seen: set[str] = set()
    out: list[str] = []
    for k in state.ids():
        m = models[k]
        if m.removed or m.side != side:
            continue
        u = m.unit
        if u not in done and u not in seen:
            seen.add(u)
            out.append(u)
    return out


def begin(state: GameState, unit: str) -> None:
    """Start ``unit``'s activation: each of its models takes up its action dice."""
    TURNS.begin(state, unit)
    for m in unit_models(state, unit):
        mv(m)["dice"] = int(m.stats.get("AD", 2))
        mv(m)["bonus"] = 0
        mv(m)["moved"] = 0.0


def finish(state: GameState, ctx: Context) -> None:
    """End the current activation (unused dice are lost) and pass play on; when every
    unit has acted, the round ends and the next begins with a new initiative roll."""
    unit = current(state)
    if unit is not None:
        for m in unit_models(state, unit):
            mv(m)["dice"] = 0
            mv(m)["bonus"] = 0
            mv(m)["granted"] = 0
    TURNS.finish(state)
    if state.active is None and not state.over:
        end_round(state, ctx)


def end_round(state: GameState, ctx: Context) -> None:
    """Every unit has acted: the engine's round end (turn limit, else a new round)."""
    TURNS.end_round(load("umr"), state, ctx)


def remove(state: GameState, ctx: Context, m: Model, why: str) -> None:
    """A model at zero health leaves the table at once (UMR-HEALTH). An operator's drones
    stay and fight on: the book gives them their own action die and health and no rule
    that they fall with him (UMR-DRONE, UMR-I-DRONES)."""
    if m.removed:
        return
    m.hp = 0
    m.removed = True
    m.status = []
    ctx.log.emit(
        "removed", f"{m.id} is removed: {why}", actor=m.id, rule="UMR-HEALTH", outcome="removed"
    )


def settle(state: GameState, ctx: Context) -> None:
    """After removals: end the game if a side has nothing left, else keep turns valid."""
    if state.over:
        return
    if victory.check_end(state):
        return
    unit = current(state)
    if unit is not None and not unit_models(state, unit):
        finish(state, ctx)
    else:
        TURNS.refresh(state)
        if state.active is None:
            end_round(state, ctx)
