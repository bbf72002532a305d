"""check / apply per action kind, and the activation flow around them (UMR-ROUND).

Why a dispatcher: each verb's rules live in their own module (movement, attacks,
support); this one decides which verbs spend a die, ends an activation when its unit has
nothing left to do, and keeps the turn order valid after every act.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr import flow, victory
from rulesets.umr.actions import Climb, Jump, Lead, RpgTest
from rulesets.umr.chapters import action_dice, attacks, leader, movement, rpg


def check(state: GameState, a: act.Action, ctx: Context, quick: bool = False) -> list[str]:
    """Every reason ``a`` is illegal now ([] when legal). Rolls no dice.

    ``quick`` is for the AI's candidate list, which only needs the verdict: the same
    verdict, but a shot's reasons may be terser (see ``attacks.check_shoot``)."""
    if state.over:
        return ["the game is over"]
    if isinstance(a, act.Move):
        return movement.check_move(state, a, ctx)
    if isinstance(a, act.Charge):
        return movement.check_charge(state, a, ctx)
    if isinstance(a, act.Shoot):
        return attacks.check_shoot(state, a, ctx, quick)
    if isinstance(a, act.Fight):
        return attacks.check_fight(state, a, ctx)
    if isinstance(a, Jump):
        return movement.check_jump(state, a, ctx)
    if isinstance(a, Climb):
        return movement.check_climb(state, a, ctx)
    if isinstance(a, Lead):
        return leader.check_lead(state, a, ctx)
    if isinstance(a, RpgTest):
        return rpg.check_rpg(state, a, ctx)
    if isinstance(a, act.EndActivation):
        return check_end_activation(state, a)
    if isinstance(a, act.Concede):
        return []
    if isinstance(a, act.EndTurn):
        return ["end turn ends every activation left this round, one at a time"]
    return [
        f"umr has no '{a.KIND}' action (verbs: move, charge, jump, climb, shoot, fight, "
        f"lead, rpg_test, end_activation, concede)"
    ]


def _unit_of(state: GameState, actor: str) -> str | None:
    if actor in state.models:
        return state.models[actor].unit
    if actor in state.units(live=False):
        return actor
    return None


def check_end_activation(state: GameState, a: act.EndActivation) -> list[str]:
    cur = flow.current(state)
    side = state.active
    if side is None:
        return ["no side is to act"]
    if not a.actor:
        return (
            []
            if cur is not None or flow.ready(state, side)
            else [f"{side} has no unit left to activate"]
        )
    unit = _unit_of(state, a.actor)
    if unit is None:
        return [f"unknown model '{a.actor}'"]
    if cur is not None:
        return [] if unit == cur else [f"{cur} is activating, not {a.actor} (UMR-ROUND)"]
    if unit not in flow.ready(state, side):
        return [
            f"{a.actor} cannot activate now: it is {side}'s turn and {a.actor} is not one "
            f"of its units waiting to act (UMR-ROUND)"
        ]
    return []


def apply(state: GameState, a: act.Action, ctx: Context) -> None:
    """Apply a checked action; ends the activation when nothing is left to do."""
    if isinstance(a, act.EndActivation):
        _end_activation(state, a, ctx)
        return
    if isinstance(a, act.Concede):
        side = state.active or ""
        ctx.log.emit(
            "status", f"{side} concedes (UMR-END)", actor=side, rule="UMR-END", outcome="concede"
        )
        victory.concede(state, side)
        return
    ended = False
    m = state.models.get(a.actor)
    removed = _removed(state)
    if isinstance(a, act.Move):
        movement.apply_move(state, a, ctx)
    elif isinstance(a, act.Charge):
        movement.apply_charge(state, a, ctx)
    elif isinstance(a, Jump):
        movement.apply_jump(state, a, ctx)
    elif isinstance(a, Climb):
        movement.apply_climb(state, a, ctx)
    elif isinstance(a, act.Shoot):
        assert m is not None
        ended = attacks.apply_attack(state, ctx, m, state.models[a.target], ranged=True)
    elif isinstance(a, act.Fight):
        assert m is not None
        ended = attacks.apply_attack(state, ctx, m, attacks.melee_target(state, a), ranged=False)
    elif isinstance(a, Lead):
        leader.apply_lead(state, a, ctx)
    elif isinstance(a, RpgTest):
        rpg.apply_rpg(state, a, ctx)
    if _removed(state) != removed:
        flow.settle(state, ctx)
    if state.over:
        return
    if ended and flow.current(state) is not None:
        flow.finish(state, ctx)
    else:
        maybe_finish(state, ctx)


def _end_activation(state: GameState, a: act.EndActivation, ctx: Context) -> None:
    cur = flow.current(state)
    if cur is None:
        side = state.active
        assert side is not None
        unit = _unit_of(state, a.actor) if a.actor else flow.ready(state, side)[0]
        assert unit is not None
        flow.begin(state, unit)
        cur = unit
        ctx.log.emit(
            "status",
            f"{cur} activates and takes no action (UMR-ROUND)",
            actor=cur,
            rule="UMR-ROUND",
            outcome="pass",
        )
    else:
        ctx.log.emit(
            "status",
            f"{cur} ends its activation (UMR-ROUND)",
            actor=cur,
            rule="UMR-ROUND",
            outcome="end",
        )
    flow.finish(state, ctx)


def _removed(state: GameState) -> int:
    """Models removed from play so far. Why: ``flow.settle`` (the end of the game when a
    side has nothing left, who acts after a removal) has nothing to do after an action
    that removed no one, and its questions were a few percent of a random game (issue
    24): every action that removes no model leaves the turn exactly as it was."""
    return sum(1 for m in state.models.values() if m.removed)


def unit_busy(state: GameState, models: list[Model]) -> bool:
    """Whether the unit activating still has something it could do."""
    return any(action_dice.any_left(x) or leader.can_lead(state, x) for x in models)


def maybe_finish(state: GameState, ctx: Context) -> None:
    """An activation with no dice left (and no leader's gift to give) ends by itself."""
    unit = flow.current(state)
    if unit is None or state.over:
        return
    if not unit_busy(state, flow.unit_models(state, unit)):
        ctx.log.emit(
            "status",
            f"{unit} has no action dice left: its activation ends (UMR-ROUND)",
            actor=unit,
            rule="UMR-ROUND",
            outcome="end",
        )
        flow.finish(state, ctx)


def advance(state: GameState) -> act.Action | None:
    if state.over or state.active is None:
        return None
    return act.EndActivation(actor="")
