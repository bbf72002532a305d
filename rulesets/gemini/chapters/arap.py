"""The activation-dice game (GM-ARAP, ``turns = "arap"``): the sides take turns; in its
turn a side activates its models one at a time, each rolling one to three d6 against
its activation number Act: each die of Act or more is one action (a move, a charge, a
shot, a fight). Two or more failed dice end the side's turn once that model has acted.
A frozen model rolls at most two dice.

Why a flow of its own: the number of things a model may do comes from its dice, and a
bad roll hands the turn over, which neither engine preset knows. Bookkeeping lives in
``state.ArapVars`` = {"order": [...sides], "i": side index, "done": [...models],
"current": model or None, "left": actions left, "over": the side's turn ends}.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action, EndActivation
from engine.ruleset import (
    ACTIVATING,
    ALREADY_ACTIVATED,
    NOT_YOUR_TURN,
    Context,
    Reason,
    Ruleset,
)
from engine.state import GameState
from engine.turns import Flow, RollOff, _actor_unit
from rulesets.gemini.actions import Activate
from rulesets.gemini.chapters.wounds import report
from rulesets.gemini.state import ArapVars, arap, set_arap

KEY = "arap"
#: refusal code of an action with no action dice left
NO_ACTIONS = "no_actions"


def max_dice(state: GameState, mid: str) -> int:
    """GM-ARAP: three dice, two for a frozen model."""
    return 2 if "frozen" in state.models[mid].status else 3


class ArapFlow(Flow):
    """Side turns of activations paid for with dice (module docstring)."""

    def __init__(self, initiative: RollOff | None = None) -> None:
        self.initiative = initiative or RollOff()

    def data(self, state: GameState) -> ArapVars:
        return arap(state)

    def setup(self, rs: Ruleset, state: GameState, ctx: Context, first: str | None) -> None:
        order = self.initiative.order(state, ctx, first)
        set_arap(state, {"order": list(order), "i": -1})
        state.phase = "activation"
        self._next_side(state)

    def new_round(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        self.data(state)["i"] = -1
        self._next_side(state)

    def _next_side(self, state: GameState) -> None:
        d = self.data(state)
        d.update({"done": [], "current": None, "left": 0, "over": False})
        d["i"] += 1
        while d["i"] < len(d["order"]) and not self.ready(state, d["order"][d["i"]]):
            d["i"] += 1
        state.active = d["order"][d["i"]] if d["i"] < len(d["order"]) else None

    def ready(self, state: GameState, side: str) -> list[str]:
        done = set(self.data(state).get("done", []))
        return [m.id for m in state.live(side) if m.id not in done]

    def current(self, state: GameState) -> str | None:
        cur: str | None = self.data(state).get("current")
        return cur

    # --- checking -----------------------------------------------------------------------
    def turn_problem(self, rs: Ruleset, state: GameState, a: Action) -> str:
        if isinstance(a, EndActivation) and not a.actor:
            return "" if state.active else Reason("no side is to act", NOT_YOUR_TURN)
        found = _actor_unit(state, a)
        if isinstance(found, Reason):
            return found
        side = found[1]
        if side != state.active:
            return Reason(f"it is {state.active}'s turn, not {side}'s", NOT_YOUR_TURN)
        cur = self.current(state)
        if isinstance(a, Activate):
            if cur is not None:
                return Reason(f"{cur} is activating; end its activation first", ACTIVATING)
            if a.actor not in self.ready(state, side):
                return Reason(f"{a.actor} has already activated this turn", ALREADY_ACTIVATED)
            top = max_dice(state, a.actor)
            if not 1 <= a.count <= top:
                return f"a model rolls 1 to {top} activation dice (GM-ARAP)"
            return ""
        if cur != a.actor:
            return Reason(f"activate {a.actor} first (GM-ARAP)", ACTIVATING)
        if int(self.data(state)["left"]) <= 0:
            return Reason(f"{a.actor} has no actions left (GM-ARAP)", NO_ACTIONS)
        return ""

    # --- applying -----------------------------------------------------------------------
    def act(self, rs: Ruleset, state: GameState, a: Action, ctx: Context) -> None:
        d = self.data(state)
        if isinstance(a, Activate):
            self.activate(rs, state, a, ctx)
            return
        d["left"] = int(d["left"]) - 1
        rs.resolve(state, a, ctx)
        cur = self.current(state)
        if cur is not None and state.models[cur].removed:
            self.pass_on(rs, state, ctx)

    def activate(self, rs: Ruleset, state: GameState, a: Activate, ctx: Context) -> None:
        """GM-ARAP: roll the dice against Act; successes are actions, two failures end
        the side's turn after this model."""
        m = state.models[a.actor]
        act_n = int(m.stat("Act", 4))
        p = Fraction(max(0, 7 - act_n), 6)
        r = ctx.dice.roll(6, f"{m.id} activation dice against Act {act_n}", n=a.count,
                          need=f"{act_n}+ each", chance=1 - (1 - p) ** a.count, actor=m.id,
                          rule="GM-ARAP",
                          result=lambda tot, f: f"{sum(1 for x in f if x >= act_n)} actions")  # fmt: skip
        report(ctx, r, m.id, "GM-ARAP")
        d = self.data(state)
        wins = sum(1 for x in r.faces if x >= act_n)
        d.update({"current": m.id, "left": wins})
        if a.count - wins >= 2:
            d["over"] = True
            ctx.log.emit("status", f"two or more failed dice: {state.active}'s turn ends after {m.id} (GM-ARAP)",
                         actor=m.id, rule="GM-ARAP", outcome="turn over")  # fmt: skip
        rs.begin_activation(state, m.id, ctx)
        if wins == 0:
            self.pass_on(rs, state, ctx)

    def pass_on(self, rs: Ruleset, state: GameState, ctx: Context) -> None:
        """End the model's activation (a bare end with none begun: the side passes)."""
        d = self.data(state)
        cur = d.get("current")
        if cur is None:
            self._next_side(state)
            return
        rs.end_activation(state, cur, ctx)
        d["done"].append(cur)
        d["current"], d["left"] = None, 0
        if d["over"] or not self.ready(state, state.active or ""):
            self._next_side(state)

    # --- choosing -----------------------------------------------------------------------
    def candidates(self, rs: Ruleset, state: GameState, side: str, ctx: Context) -> list[Action]:
        if state.pending:
            return super().candidates(rs, state, side, ctx)
        cur = self.current(state)
        out: list[Action] = [EndActivation()]
        if cur is None:
            for mid in self.ready(state, side):
                out += [Activate(actor=mid, count=n) for n in range(1, max_dice(state, mid) + 1)]
        elif int(self.data(state)["left"]) > 0:
            out += rs.options(state, state.models[cur].unit, ctx)
        return [a for a in out if rs.check(state, a, ctx).ok]
