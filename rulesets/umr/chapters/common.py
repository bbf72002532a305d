"""Checks and helpers every UMR action shares: is it this model's activation, has it a
die for this kind of action, is it stuck on a climb or in the water.

Why shared: the window shows check()'s reasons on hover, so every verb must say the same
thing, in the same words, about whose turn it is and which dice are left.
"""

from __future__ import annotations

from engine.dice import Modifier
from engine.state import GameState, Model
from rulesets.umr import flow
from rulesets.umr.chapters import action_dice
from rulesets.umr.state import mv, remember


def actor(state: GameState, actor_id: str) -> tuple[Model | None, list[str]]:
    """The acting model and, if it may not act now, why (asked once per model while the
    state is frozen for the AI's candidate list: every option of a model asks it)."""
    m, why = remember(state, ("actor", actor_id), lambda: _actor(state, actor_id))
    return m, list(why)


def _actor(state: GameState, actor_id: str) -> tuple[Model | None, list[str]]:
    if state.over:
        return None, ["the game is over"]
    m = state.models.get(actor_id)
    if m is None:
        return None, [f"unknown model '{actor_id}'"]
    if m.removed:
        return m, [f"{m.id} has been removed from play"]
    if m.side != state.active:
        return m, [f"it is {state.active}'s turn to activate, not {m.side}'s (UMR-ROUND)"]
    cur = flow.current(state)
    if cur is not None and m.unit != cur:
        return m, [f"{cur} is activating: end its activation first (UMR-ROUND)"]
    if cur is None and m.unit not in flow.ready(state, m.side):
        return m, [f"{m.id} has already activated this round (UMR-ROUND)"]
    return m, []


def fresh(state: GameState, m: Model) -> bool:
    """True when ``m``'s activation has not begun (its dice are not yet taken up)."""
    return flow.current(state) != m.unit


def dice_for(state: GameState, m: Model, group: str) -> int:
    return action_dice.available(m, group, fresh(state, m))


def need_die(state: GameState, m: Model, group: str, n: int = 1) -> list[str]:
    """Why ``m`` cannot pay ``n`` dice for an action of ``group`` ([] when it can)."""
    return list(remember(state, ("need", m.id, group, n), lambda: _need_die(state, m, group, n)))


def _need_die(state: GameState, m: Model, group: str, n: int) -> list[str]:
    have = dice_for(state, m, group)
    if have >= n:
        return []
    word = {"move": "movement", "shoot": "a ballistic attack", "fight": "a melee attack"}[group]
    if have == 0:
        return [f"{m.id} has no action dice left for {word} (UMR-ACTION-DICE)"]
    return [f"{m.id} has only {have} action dice for {word}, not {n} (UMR-ACTION-DICE)"]


def climbing(m: Model) -> list[str]:
    c = mv(m).get("climb")
    if c:
        return [
            f"{m.id} is climbing {c['feature']}: it must finish the climb before doing "
            f"anything else (UMR-CLIMBING)"
        ]
    return []


def start(state: GameState, m: Model) -> None:
    """Begin the model's unit activation if this is its first act."""
    if flow.current(state) != m.unit:
        flow.begin(state, m.unit)


def after_die_action(state: GameState, m: Model) -> None:
    """A bonus die from a six must be used at once: another model of the unit acting
    loses it (UMR-SIX-ACTION)."""
    for o in flow.unit_models(state, m.unit):
        if o.id != m.id:
            mv(o)["bonus"] = 0


def mods_text(mods: list[Modifier] | tuple[Modifier, ...]) -> str:
    return "".join(f" {m.text()}" for m in mods)
