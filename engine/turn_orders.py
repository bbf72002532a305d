"""More turn presets: player turns of phases, and units acting in the order of a stat.

Why apart from ``engine.turns``: that module holds the roll-offs, the base ``Flow`` and
the alternating and phased presets; these two build on it (Rogue Trader lineage games
play whole player turns, and small games act model by model in Initiative order) and
keep their bookkeeping in ``state.vars`` like the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import Action, EndActivation, EndPhase
from engine.ruleset import ACTIVATING, NOT_YOUR_TURN, Reason
from engine.state import GameState
from engine.turns import (
    Flow,
    RollOff,
    _actor_unit,
    _note_once,
    _once_problem,
    _phase_problem,
    roll_off,
)

if TYPE_CHECKING:  # pragma: no cover
    from engine.ruleset import Context, Ruleset


class PlayerTurnFlow(Flow):
    """Player turns: each side in turn plays every phase of its own turn (movement,
    shooting, close combat, recovery...) before the next side plays its turn; a game turn
    is every side's turn once. ``EndPhase`` ends the side's phase; after its last phase
    the next side's turn begins. The order is rolled once (``initiative``; a scenario's
    ``first`` fixes it) and kept. ``once``: verbs a model may use once a phase.

    ``state.vars['player_turns']`` = {"order": [...sides], "i": index of the side whose
    turn it is, "used": {actor: [verbs]}}; ``state.phase`` names the phase.
    """

    passing = EndPhase
    KEY = "player_turns"

    def __init__(
        self, phases: Sequence[str], initiative: RollOff | None = None, once: Sequence[str] = ()
    ) -> None:
        self.phases = list(phases)
        self.initiative = initiative or RollOff()
        self.once = tuple(once)

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        order = self.initiative.order(state, ctx, first)
        state.vars[self.KEY] = {"order": list(order), "i": 0}
        state.phase = self.phases[0]
        state.active = order[0]

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        d = state.vars[self.KEY]
        d["i"] = 0
        state.phase = self.phases[0]
        state.active = d["order"][0]

    def turn_problem(self, rs: Ruleset, state: GameState, action: Action) -> str:
        used = state.vars[self.KEY].get("used", {})
        return _phase_problem(self.once, used, state, action, f"{state.active}'s turn")

    def act(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        _note_once(self.once, state.vars[self.KEY], action)
        rs.resolve(state, action, ctx)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        """The side's phase ends: its next phase, else the next side's turn, else the
        game turn is over (``state.active`` None)."""
        d = state.vars[self.KEY]
        d.pop("used", None)
        k = self.phases.index(state.phase) + 1
        if k < len(self.phases):
            state.phase = self.phases[k]
            return
        d["i"] += 1
        if d["i"] < len(d["order"]):
            state.phase = self.phases[0]
            state.active = d["order"][d["i"]]
            return
        state.active = None

    def acting_units(self, state: GameState, side: str) -> list[str]:
        return list(state.units(side))


class InitiativeFlow(Flow):
    """Initiative-ordered turns: units act one at a time in order of a stat (their
    Initiative), highest first, whatever their side; a unit does all it does in its
    activation and ``EndActivation`` hands play to the next. Units of different sides
    with the same value are ordered by a roll-off between those sides (``initiative``;
    ties reroll); units of one side keep their id order. A scenario's
    ``first`` gives that side's units the first moves of turn 1 (an ambush), each side's
    units still in order of the stat. The order is made anew each turn.

    ``state.vars['initiative_order']`` = {"order": [...units], "i": index of the unit
    acting, "begun": whether its activation has begun, "used": {actor: [verbs]}}.
    """

    KEY = "initiative_order"

    def __init__(
        self, stat: str, initiative: RollOff | None = None, once: Sequence[str] = ()
    ) -> None:
        self.stat = stat
        self.initiative = initiative or RollOff()
        self.once = tuple(once)

    def value(self, state: GameState, unit: str) -> float:
        """The unit's stat (the highest of its models)."""
        return max(float(m.stats.get(self.stat, 0)) for m in state.units()[unit])

    def order_units(self, state: GameState, ctx: Context, first: str | None) -> list[str]:
        units = state.units()
        side_of = {u: ms[0].side for u, ms in units.items()}
        groups = [list(units)]
        if first:
            groups = [[u for u in units if side_of[u] == first]]
            groups.append([u for u in units if side_of[u] != first])
        out: list[str] = []
        for group in groups:
            for v in sorted({self.value(state, u) for u in group}, reverse=True):
                tied = [u for u in group if self.value(state, u) == v]
                sides = list(dict.fromkeys(side_of[u] for u in tied))
                if len(sides) > 1:
                    sides = roll_off(ctx.dice, sides, self.initiative.faces,
                                     rule=self.initiative.rule, log=ctx.log)  # fmt: skip
                out += [u for s in sides for u in tied if side_of[u] == s]
        return out

    def _start(self, state: GameState, ctx: Context, first: str | None) -> None:
        state.vars[self.KEY] = {"order": self.order_units(state, ctx, first), "i": -1}
        state.phase = "activation"
        self._next(state)

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        self._start(state, ctx, first)

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        self._start(state, ctx, None)

    def _next(self, state: GameState) -> None:
        """Hand play to the next unit still on the table (None at the turn's end)."""
        d = state.vars[self.KEY]
        d["begun"] = False
        d.pop("used", None)
        units = state.units()
        i = d["i"] + 1
        while i < len(d["order"]) and d["order"][i] not in units:
            i += 1
        d["i"] = i
        state.active = units[d["order"][i]][0].side if i < len(d["order"]) else None

    def current(self, state: GameState) -> str | None:
        d = state.vars[self.KEY]
        return d["order"][d["i"]] if 0 <= d["i"] < len(d["order"]) else None

    def turn_problem(self, rs: Ruleset, state: GameState, action: Action) -> str:
        if isinstance(action, EndActivation) and not action.actor:
            return "" if state.active else Reason("no side is to act", NOT_YOUR_TURN)
        found = _actor_unit(state, action)
        if isinstance(found, Reason):
            return found
        unit, side = found
        cur = self.current(state)
        if side != state.active:
            return Reason(f"it is {state.active}'s move ({cur}), not {side}'s", NOT_YOUR_TURN)
        if unit != cur:
            return Reason(f"{cur} acts now, in {self.stat} order", ACTIVATING)
        return _once_problem(self.once, state.vars[self.KEY].get("used", {}), action, "activation")

    def act(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        d = state.vars[self.KEY]
        unit = self.current(state)
        if not d.get("begun") and unit is not None:
            d["begun"] = True
            rs.begin_activation(state, unit, ctx)
        _note_once(self.once, d, action)
        rs.resolve(state, action, ctx)
        if self.current(state) not in state.units():
            self._next(state)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        unit = self.current(state)
        if unit is not None and unit in state.units():
            rs.end_activation(state, unit, ctx)
        self._next(state)

    def acting_units(self, state: GameState, side: str) -> list[str]:
        cur = self.current(state)
        return [cur] if cur is not None and side == state.active else []
