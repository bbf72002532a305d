"""A tiny ruleset used only to test the engine core without any real rulebook.

Alternating activation; each unit may move up to 6" and shoot once (d6 + SK >= 4 hits
and removes one hp) per activation. Distances are centre to centre, so it needs no
geometry service.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.actions import Action, EndActivation, Move, Shoot
from engine.dice import Modifier, die, prob
from engine.ruleset import TOO_FAR, Context, Legality, Odds, Reason, Ruleset, register
from engine.state import GameState, Model
from engine.turns import Alternating, roll_off

TURNS = Alternating()


@register
class Toy(Ruleset):
    key = "toy"
    title = "Toy rules for engine tests"
    max_die = 6
    stat_keys = ("SK", "HP")
    verbs = ()

    def build_model(self, spec):
        probs = []
        stats = dict(spec.get("stats", {}))
        for k in stats:
            if k not in self.stat_keys:
                probs.append(
                    (f"stats.{k}", f"unknown stat (toy stats: {', '.join(self.stat_keys)})")
                )
        if probs:
            return None, probs
        hp = int(stats.get("HP", 2))
        return Model(
            id=spec["id"],
            side=spec["side"],
            unit=spec.get("unit", spec["id"]),
            x=spec["x"],
            y=spec["y"],
            facing=spec.get("facing", 0.0),
            base=spec.get("base", 25.0),
            stats=stats,
            hp=hp,
            max_hp=hp,
        ), []

    def setup(self, state: GameState, ctx: Context, first: str | None) -> None:
        order = self._order(state, ctx, first)
        TURNS.start_round(state, order)

    def _order(self, state, ctx, first):
        if first:
            return [first] + [s for s in state.sides if s != first]
        return roll_off(ctx.dice, state.sides, 6, log=ctx.log, rule="TOY-1")

    def _actor_ok(self, state: GameState, actor: str) -> str:
        m = state.models.get(actor)
        if m is None or m.removed:
            return f"no model '{actor}' on the table"
        if m.side != state.active:
            return f"it is {state.active}'s turn, not {m.side}'s"
        cur = TURNS.current(state)
        if cur is not None and cur != m.unit:
            return f"{cur} is activating; end its activation first"
        if m.unit not in TURNS.ready_units(state, m.side):
            return f"{m.unit} has already activated this round"
        return ""

    def check(self, state, action, ctx) -> Legality:
        if isinstance(action, EndActivation):
            return Legality.yes()
        why = self._actor_ok(state, action.actor)
        if why:
            return Legality.no(why)
        m = state.models[action.actor]
        if isinstance(action, Move):
            if m.vars.get("moved"):
                return Legality.no("already moved this activation")
            pts = action.waypoints(m.pos)
            length = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
            if length > 6 + 1e-9:
                return Legality.no(
                    Reason(f'too far ({length:.1f}" > 6")', TOO_FAR, distance=length, limit=6.0)
                )
            return Legality.yes()
        if isinstance(action, Shoot):
            t = state.models.get(action.target)
            if t is None or t.removed or t.side == m.side:
                return Legality.no("no enemy target")
            if m.vars.get("shot"):
                return Legality.no("already shot this activation")
            return Legality.yes()
        return Legality.no(f"toy rules have no '{action.KIND}'")

    def apply(self, state, action, ctx) -> None:
        if isinstance(action, EndActivation):
            cur = TURNS.current(state)
            if cur is None:
                cur = TURNS.ready_units(state, state.active)[0]
                TURNS.begin(state, cur)
            for m in state.units()[cur] if cur in state.units() else []:
                m.vars.pop("moved", None)
                m.vars.pop("shot", None)
            TURNS.finish(state)
            self._round_end(state, ctx)
            return
        m = state.models[action.actor]
        TURNS.begin(state, m.unit)
        if isinstance(action, Move):
            end = action.waypoints(m.pos)[-1]
            m.x, m.y = end
            m.vars["moved"] = True
            ctx.log.emit("move", f"{m.id} moves to {end}", actor=m.id)
        elif isinstance(action, Shoot):
            t = state.models[action.target]
            sk = int(m.stat("SK"))
            p = self._p(sk)
            r = ctx.dice.roll(
                6,
                "to hit",
                modifiers=[Modifier(sk, "SK", "TOY-2")] if sk else [],
                need="4+",
                chance=p,
                actor=m.id,
                rule="TOY-2",
                result=lambda tot, f: "hit" if tot >= 4 else "miss",
            )
            m.vars["shot"] = True
            if r.result == "hit":
                t.hp -= 1
                if t.hp <= 0:
                    t.removed = True
                    TURNS.refresh(state)
            ctx.log.emit(
                "resolution",
                r.explain(),
                actor=m.id,
                target=t.id,
                rule="TOY-2",
                chance=float(p),
                rolls=list(r.faces),
                outcome=str(r.result),
            )
            self._check_over(state)

    def _p(self, sk: int) -> Fraction:
        return prob(die(6), lambda f: f + sk >= 4)

    def _check_over(self, state):
        alive = {m.side for m in state.live()}
        if len(alive) <= 1:
            state.over = {"winner": next(iter(alive), None), "reason": "last side standing"}
            state.active = None

    def _round_end(self, state, ctx):
        if state.over:
            return
        if TURNS.round_over(state):
            limit = state.vars.get("turn_limit", 0)
            if limit and state.turn >= limit:
                state.over = {"winner": None, "reason": "turn limit"}
                state.active = None
                return
            state.turn += 1
            TURNS.start_round(state, self._order(state, ctx, None))

    def advance(self, state, ctx) -> Action | None:
        return None if state.over else EndActivation()

    def candidates(self, state, side, ctx) -> list[Action]:
        out: list[Action] = [EndActivation()]
        cur = TURNS.current(state)
        units = [cur] if cur else TURNS.ready_units(state, side)
        for u in units:
            for m in state.units().get(u, []):
                for t in state.live():
                    a = Shoot(actor=m.id, target=t.id)
                    if t.side != side and self.check(state, a, ctx).ok:
                        out.append(a)
                a = Move(actor=m.id, to=(m.x, min(m.y + 3, 47.0)))
                if self.check(state, a, ctx).ok:
                    out.append(a)
        return out

    def odds(self, state, action, ctx):
        if isinstance(action, Shoot):
            sk = int(state.models[action.actor].stat("SK"))
            p = self._p(sk)  # a hit removes one hp: the expected damage is the chance
            return Odds(p, dist={0: 1 - p, 1: p}, lines=[f"d6 + {sk} needs 4+"], expected=p)
        return None
