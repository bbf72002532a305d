"""``fast_draw`` in play: a shot at a model that could shoot straight back is a
face-off, and the d6 + I of each says who fires first (GM-FAST-DRAW, GM-I-FAST-DRAW).

Why a decision: the target's player chooses whether to draw (it is his model's one
reaction of the turn) or to take the shot; the shot waits for the answer, so the dice
fall in the order the text gives: the draw, the first to fire, then the other.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Choose, Shoot
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, shooting, switches
from rulesets.gemini.chapters.options import reactions as R
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.state import mv

KIND = "gemini_fast_draw"


def _aim(state: GameState, ctx: Context, m: Model, t: Model) -> shooting.Plan | None:
    """``m``'s shot at ``t`` if it may fire at it (the closest-target rule aside)."""
    p = shooting.plan(state, ctx, Shoot(actor=m.id, target=t.id))
    bad = [x for x in p.problems if "(GM-TARGET)" not in str(x)]
    return None if bad or p.weapon is None else p


def ask(state: GameState, ctx: Context, a: Shoot) -> bool:
    """A face-off is offered when the target may react (once a turn, not in combat,
    pinned...) and could shoot the shooter back now; True when the shot waits (the
    shooter has then shot this turn)."""
    m, t = state.models[a.actor], state.models[a.target]
    if not switches.of(state).fast_draw or t.removed:
        return False
    if R.may_react(t, state.turn, measure.engaged(state, t)) or _aim(state, ctx, t, m) is None:
        return False
    state.pending.append(
        {
            "side": t.side,
            "kind": KIND,
            "text": f"{m.id} draws on {t.id}: draw back or take the shot?",
            "options": ["draw", "hold"],
            "verbs": ["choose"],
            "data": {"shooter": m.id, "target": t.id, "weapon": a.weapon, "opts": dict(a.options)},
        }
    )
    mv(m)["shot"] = state.turn
    return True


def answers(decision: dict[str, Any]) -> bool:
    return decision.get("kind") == KIND


def answer(state: GameState, ctx: Context, decision: dict[str, Any], action: Action) -> None:
    """ "hold": the shot is fired. "draw": each rolls d6 + I (+1 pistol, −1 heavy); the
    higher fires first and the other, if it still can, after; equal scores fire at once
    (both shots go off, whatever the first does)."""
    d = decision["data"]
    m, t = state.models[d["shooter"]], state.models[d["target"]]
    p = shooting.plan(state, ctx, Shoot(actor=m.id, target=t.id, weapon=d.get("weapon", "")))
    assert p.weapon is not None
    Shot = tuple[Model, Model, shooting.Plan, int, dict[str, Any]]
    shot: Shot = (m, t, p, int(p.weapon.get("shots", 1)), dict(d.get("opts", {})))
    if not isinstance(action, Choose) or action.option != "draw":
        shooting.fire(state, ctx, *shot)
        return
    back = _aim(state, ctx, t, m)
    assert back is not None and back.weapon is not None
    mv(t)["reacted"] = state.turn
    reply: Shot = (t, m, back, int(back.weapon.get("shots", 1)), {})
    first, rolls = R.fast_draw(ctx.dice, m, str(p.weapon.get("class", "")),
                               t, str(back.weapon.get("class", "")))  # fmt: skip
    report_all(ctx, rolls, m.id, t.id)
    order = [reply, shot] if first == t.id else [shot, reply]
    who = "both at once" if first == "both" else f"{first} first"
    say(ctx, f"fast draw: {who}", m.id, R.R_FAST, "draw", t.id)
    for k, (a, b, plan, n, opts) in enumerate(order):
        if k == 1 and first != "both" and (a.removed or shooting.can_fire(state, a)):
            say(ctx, f"{a.id} cannot fire back", a.id, R.R_FAST, "held")
            continue
        shooting.fire(state, ctx, a, b, plan, n, opts)
