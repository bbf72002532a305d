"""Example d6: the smallest complete ruleset, the one to copy (docs/RULESETS.md).

Its rulebook is reference.toml: sides alternate activating one unit after a d6 roll-off
(D6-1); in its activation each model may move up to 6" (D6-2) and shoot once: a d6 plus
its skill SK, 4 or more hits and takes one hit point (D6-3). Distances are centre to
centre. The base class plays the game (turns, game end, candidates); this file states
only the rules.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from engine.actions import Action, Move, Shoot
from engine.dice import Modifier, die, prob
from engine.ruleset import TOO_FAR, Context, Odds, Reason, Ruleset, register
from engine.state import GameState
from engine.turns import AlternatingFlow, RollOff

MOVE = 6.0  # inches a model may move in its activation (D6-2)


def to_hit(sk: int) -> Fraction:
    """D6-3: the chance a d6 plus SK scores 4 or more."""
    return prob(die(6), lambda f: f + sk >= 4)


@register
class ExampleD6(Ruleset):
    key = "example_d6"
    title = "Example d6: a ruleset to copy"
    rulebook = "rulesets/example_d6/reference.toml"
    stat_keys = ("SK", "HP")
    stat_defaults = {"SK": 0, "HP": 2}
    turns = AlternatingFlow(RollOff(6, rule="D6-1"), once=("move", "shoot"))

    def stat_problems(self, stats: Mapping[str, Any]) -> list[tuple[str, str]]:
        """The stat schema: SK and HP are whole numbers (a scenario's typo is a load error)."""
        return [(f"stats.{k}", "must be a whole number") for k in ("SK", "HP")
                if type(stats.get(k, 0)) is not int]  # fmt: skip

    def problems(self, state: GameState, action: Action, ctx: Context) -> list[str]:
        m = state.models[action.actor]
        if isinstance(action, Move):
            pts = action.waypoints(m.pos)
            far = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
            if far > MOVE + 1e-9:
                return [Reason(f'too far ({far:.1f}" > 6")', TOO_FAR, distance=far, limit=MOVE)]
            return []
        if isinstance(action, Shoot):
            t = state.models.get(action.target)
            return [] if t and not t.removed and t.side != m.side else ["no enemy target"]
        return [f"example_d6 has no '{action.KIND}' (verbs: move, shoot, end_activation)"]

    def resolve(self, state: GameState, action: Action, ctx: Context) -> None:
        m = state.models[action.actor]
        if isinstance(action, Move):
            m.x, m.y = action.waypoints(m.pos)[-1]
            ctx.log.emit("move", f"{m.id} moves to ({m.x:g}, {m.y:g})", actor=m.id, rule="D6-2")
            return
        assert isinstance(action, Shoot)  # the only other verb (check refused the rest)
        t, sk = state.models[action.target], int(m.stat("SK"))
        r = ctx.dice.roll(6, "to hit", modifiers=[Modifier(sk, "SK", "D6-3")] if sk else [],
                          need="4+", chance=to_hit(sk), actor=m.id, rule="D6-3",
                          result=lambda total, faces: "hit" if total >= 4 else "miss")  # fmt: skip
        ctx.log.emit("resolution", r.explain(), actor=m.id, target=t.id, rule="D6-3",
                     chance=float(to_hit(sk)), rolls=list(r.faces), outcome=str(r.result))  # fmt: skip
        if r.result == "hit":
            t.hp -= 1
            if t.hp <= 0:
                self.remove(state, t, ctx, "no hit points left", "D6-3")

    def options(self, state: GameState, unit: str, ctx: Context) -> list[Action]:
        out: list[Action] = []
        for m in state.units()[unit]:
            out += [Shoot(actor=m.id, target=t.id) for t in state.live() if t.side != m.side]
            out.append(Move(actor=m.id, to=(m.x, min(m.y + 3, ctx.battlefield.depth - 1))))
        return out

    def allowance(self, state: GameState, actor: str, ctx: Context, mode: str = "") -> float:
        return MOVE

    def odds(self, state: GameState, action: Action, ctx: Context) -> Odds | None:
        if not isinstance(action, Shoot):
            return None
        sk = int(state.models[action.actor].stat("SK"))
        p = to_hit(sk)  # a hit takes one hit point: the expected damage is the chance
        return Odds(p, dist={0: 1 - p, 1: p}, lines=[f"d6 + {sk} needs 4+ (D6-3)"], expected=p)
