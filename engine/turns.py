"""Turn-structure presets a ruleset composes: initiative roll-offs, alternating
activation of units, and phased turns (segments played by each side in order).

Why presets: three of the five rulebooks alternate unit activations after an initiative
roll, and the others play fixed segments; writing the bookkeeping once keeps every
ruleset's rules module about rules. All bookkeeping lives in ``state.vars`` as plain
data so it saves, copies and checksums with the rest of the state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.actions import Action, Choose, EndActivation, EndPhase
from engine.dice import Dice, Modifier
from engine.events import EventLog
from engine.ruleset import (
    ACTIVATING,
    ALREADY_ACTIVATED,
    GAME_OVER,
    NO_SUCH_MODEL,
    NOT_YOUR_TURN,
    PENDING,
    Legality,
    Reason,
)
from engine.state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from engine.ruleset import Context, Ruleset

#: refusal code of a verb a model has already used this activation (``once``)
DONE = "already_done"


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

    def data(self, state: GameState) -> dict[str, Any]:
        d: dict[str, Any] = state.vars[self.KEY]
        return d

    def ready_units(self, state: GameState, side: str) -> list[str]:
        """Units of ``side`` that have not yet activated this round (live ones only)."""
        done = set(self.data(state)["done"])
        return [u for u in state.units(side) if u not in done]

    def current(self, state: GameState) -> str | None:
        cur: str | None = self.data(state)["current"]
        return cur

    def begin(self, state: GameState, unit: str) -> None:
        """Mark ``unit`` as the one activating now (its first act this activation)."""
        self.data(state)["current"] = unit

    def finish(self, state: GameState) -> None:
        """End the current activation and hand play to the next side with units left.

        With no activation begun, the side to act passes with its first ready unit (it
        counts as having acted): a side that ends an activation it never began must
        still use one up, or the round would never end."""
        d = self.data(state)
        cur = d["current"]
        if cur is None and state.active is not None:
            ready = self.ready_units(state, state.active)
            cur = ready[0] if ready else None
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
            side: str = d["order"][i]
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


# --- the turn structure a Ruleset declares ---------------------------------------------


@dataclass(frozen=True)
class RollOff:
    """Initiative by a roll-off: every side rolls a d``faces``, highest first, ties
    reroll (``roll_off``). A scenario's ``first`` fixes the order instead."""

    faces: int = 6
    rule: str = ""

    def order(self, state: GameState, ctx: Context, first: str | None) -> list[str]:
        if first:
            return [first] + [s for s in state.sides if s != first]
        return roll_off(ctx.dice, state.sides, self.faces, rule=self.rule, log=ctx.log)


class Flow:
    """What a declared turn structure does for the base ``Ruleset``: whose decision it
    is, the refusals that are about turns rather than rules ("not your turn", "already
    activated"), pending decisions, the end of the game by the last side standing or the
    turn limit, the candidate that moves play on and ``advance``.

    The ruleset keeps only its rules: ``problems`` and ``resolve`` per action,
    ``options`` per unit, and optional hooks (``begin_activation``, ``end_activation``,
    ``at_turn_limit``, ``last_side``, ``replies``).
    """

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        raise NotImplementedError

    def to_act(self, state: GameState) -> str | None:
        if state.over:
            return None
        if state.pending:
            return str(state.pending[0]["side"])
        return state.active

    # --- checking -------------------------------------------------------------------
    def check(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> Legality:
        if state.over:
            return Legality.no(Reason("the game is over", GAME_OVER))
        if state.pending:
            why = _pending_problem(state, action)
            found = [why] if why else rs.answer_problems(state, state.pending[0], action, ctx)
            return Legality.no(*found) if found else Legality.yes()
        why = self.turn_problem(rs, state, action)
        if why:
            return Legality.no(why)
        if isinstance(action, self.passing):
            return Legality.yes()
        found = rs.problems(state, action, ctx)
        return Legality.no(*found) if found else Legality.yes()

    #: the action that moves play on (end of activation, of phase)
    passing: type[Action] = EndActivation

    def turn_problem(self, rs: Ruleset, state: GameState, action: Action) -> str:
        raise NotImplementedError

    # --- applying -------------------------------------------------------------------
    def apply(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        if state.pending:
            decision = state.pending.pop(0)
            rs.answer(state, decision, action, ctx)
        elif isinstance(action, self.passing):
            self.pass_on(rs, state, ctx)
        else:
            self.act(rs, state, action, ctx)
        self.settle(rs, state, ctx)

    def act(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        rs.resolve(state, action, ctx)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        raise NotImplementedError

    def settle(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        """After every action: the last side standing wins; a round that is over ends."""
        if state.over or state.pending:
            return
        alive = [s for s in state.sides if state.live(s)]
        if len(alive) <= 1:
            rs.last_side(state, alive, ctx)
            state.active = None
            return
        if self.round_over(state):
            self.end_round(rs, state, ctx)

    def round_over(self, state: GameState) -> bool:
        return state.active is None

    def end_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        """The turn limit (``state.vars['turn_limit']``, a scenario key) ends the game
        once that many turns are played; else the next turn begins."""
        limit = state.turn_limit
        if limit and state.turn >= limit:
            rs.at_turn_limit(state, ctx)
            state.active = None
            return
        state.turn += 1
        self.new_round(rs, state, ctx)

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        raise NotImplementedError

    # --- choosing -------------------------------------------------------------------
    def candidates(self, rs: Ruleset, state: GameState, side: str, ctx: Context) -> list[Action]:
        if state.pending:
            options = rs.replies(state, state.pending[0], ctx)
        else:
            options = [self.passing()]
            for unit in self.acting_units(state, side):
                options += rs.options(state, unit, ctx)
        return [a for a in options if rs.check(state, a, ctx).ok]

    def acting_units(self, state: GameState, side: str) -> list[str]:
        return []

    def advance(self, rs: Ruleset, state: GameState, ctx: Context) -> Action | None:
        if state.over:
            return None
        if state.pending:
            replies = rs.replies(state, state.pending[0], ctx)
            return replies[-1] if replies else None
        return self.passing()


def _pending_problem(state: GameState, action: Action) -> str:
    """While a decision is owed, only its answers are legal (DESIGN "pending")."""
    d = state.pending[0]
    if action.KIND in d.get("verbs", ("choose",)):
        opts = d.get("options")
        if opts and isinstance(action, Choose) and action.option not in opts:
            return Reason(f"answer with one of: {', '.join(opts)}", PENDING, options=list(opts))
        return ""
    return Reason(f"{d['side']} must answer first: {d.get('text', d['kind'])}", PENDING)


#: the past tense of the engine's verbs, for "b0 has already moved this activation"
_PAST = {"move": "moved", "shoot": "shot", "charge": "charged", "fight": "fought", "turn": "turned"}


def _done(kind: str) -> str:
    return _PAST.get(kind, f"used {kind.replace('_', ' ')}")


def unit_of(state: GameState, actor: str) -> str | None:
    """The unit an actor names (a live model's unit, or a unit id)."""
    m = state.models.get(actor)
    if m is not None:
        return None if m.removed else m.unit
    return actor if actor in state.units() else None


def _actor_unit(state: GameState, action: Action) -> tuple[str, str] | Reason:
    """The acting unit and its side, or the refusal when the actor names nothing on
    the table; both flows start their turn checks here."""
    unit = unit_of(state, action.actor)
    if unit is None:
        return Reason(f"no model or unit '{action.actor}' on the table", NO_SUCH_MODEL)
    return unit, state.units()[unit][0].side


def _note_once(once: Sequence[str], store: dict[str, Any], action: Action) -> None:
    """Remember that the actor has used a once-per-span verb (``_once_problem`` reads
    ``store["used"]``; each flow forgets it when its span ends)."""
    if action.KIND in once:
        store.setdefault("used", {}).setdefault(action.actor, []).append(action.KIND)


def _once_problem(once: Sequence[str], used: Any, action: Action, span: str) -> str:
    """The refusal of a once-per-``span`` verb already used by this actor, else ''."""
    if action.KIND in once and action.KIND in used.get(action.actor, ()):
        return Reason(f"{action.actor} has already {_done(action.KIND)} this {span}", DONE)
    return ""


def _phase_problem(
    once: Sequence[str], used: Any, state: GameState, action: Action, whose: str
) -> str:
    """The refusal of a flow where a side acts through a phase: ``EndPhase`` needs a side
    to act; any other action an actor of the side whose phase (``whose``) it is, and a
    once-per-phase verb not used yet."""
    if isinstance(action, EndPhase):
        return "" if state.active else Reason("no side is to act", NOT_YOUR_TURN)
    found = _actor_unit(state, action)
    if isinstance(found, Reason):
        return found
    side = found[1]
    if side != state.active:
        return Reason(f"it is {whose}, not {side}'s", NOT_YOUR_TURN)
    return _once_problem(once, used, action, "phase")


class AlternatingFlow(Flow, Alternating):
    """Alternating activations after an initiative roll-off, one game turn a round: a
    side activates one unit, ends its activation, and play passes (``Alternating``).

    ``once``: the verbs a model may use once per activation (e.g. move, shoot); the
    flow refuses the second with code ``already_done`` and forgets them when the
    activation ends."""

    def __init__(self, initiative: RollOff | None = None, once: Sequence[str] = ()) -> None:
        self.initiative = initiative or RollOff()
        self.once = tuple(once)

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        self.start_round(state, self.initiative.order(state, ctx, first))

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        self.start_round(state, self.initiative.order(state, ctx, None))

    def turn_problem(self, rs: Ruleset, state: GameState, action: Action) -> str:
        if isinstance(action, EndActivation) and not action.actor:
            return "" if state.active else Reason("no side is to act", NOT_YOUR_TURN)
        found = _actor_unit(state, action)
        if isinstance(found, Reason):
            return found
        unit, side = found
        if side != state.active:
            return Reason(f"it is {state.active}'s turn, not {side}'s", NOT_YOUR_TURN)
        cur = self.current(state)
        if cur is not None and cur != unit:
            return Reason(f"{cur} is activating; end its activation first", ACTIVATING)
        if unit not in self.ready_units(state, side):
            return Reason(f"{unit} has already activated this round", ALREADY_ACTIVATED)
        return _once_problem(self.once, self.data(state).get("used", {}), action, "activation")

    def act(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        unit = unit_of(state, action.actor)
        assert unit is not None
        if self.current(state) != unit:
            self.begin(state, unit)
            rs.begin_activation(state, unit, ctx)
        _note_once(self.once, self.data(state), action)
        rs.resolve(state, action, ctx)
        self.refresh(state)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        unit = self.current(state)
        if unit is None and state.active is not None:
            unit = self.ready_units(state, state.active)[0]
            self.begin(state, unit)
            rs.begin_activation(state, unit, ctx)
        if unit is not None:
            rs.end_activation(state, unit, ctx)
        self.data(state).pop("used", None)
        self.finish(state)

    def acting_units(self, state: GameState, side: str) -> list[str]:
        cur = self.current(state)
        return [cur] if cur else self.ready_units(state, side)


class PhasedFlow(Flow, Phased):
    """Phased turns: the turn's phases in order, and in each phase the sides in the
    turn's initiative order (``Phased``); ``EndPhase`` hands the phase to the next side,
    then the next phase; after the last, the turn ends. ``state.phase`` names the phase,
    which the rules read in ``problems``. ``once``: verbs a model may use once a phase."""

    passing = EndPhase

    def __init__(
        self, phases: Sequence[str], initiative: RollOff | None = None, once: Sequence[str] = ()
    ) -> None:
        Phased.__init__(self, phases)
        self.initiative = initiative or RollOff()
        self.once = tuple(once)

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        self.start_turn(state, self.initiative.order(state, ctx, first))

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        self.start_turn(state, self.initiative.order(state, ctx, None))

    def turn_problem(self, rs: Ruleset, state: GameState, action: Action) -> str:
        used = state.vars[self.KEY].get("used", {})
        whose = f"{state.active}'s {state.phase} phase"
        return _phase_problem(self.once, used, state, action, whose)

    def act(self, rs: Ruleset, state: GameState, action: Action, ctx: Context) -> None:
        _note_once(self.once, state.vars[self.KEY], action)
        rs.resolve(state, action, ctx)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        state.vars[self.KEY].pop("used", None)
        self.next(state)

    def acting_units(self, state: GameState, side: str) -> list[str]:
        return list(state.units(side))
