"""GM-BROKEN-NERVE in play: the friends of a model struck down test their nerve, and
those who fail flinch toward cover.

Why its own module: the trigger comes from two places (the core removing a model, an
injury leaving one down or stunned) and both call :func:`struck_down`.
"""

from __future__ import annotations

from typing import Any

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import switches
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.chapters.options.moving import flee
from rulesets.gemini.chapters.options.sides import friend, friends_of


def struck_down(state: GameState, ctx: Context, casualty: Model) -> None:
    """Every friend within 3" of ``casualty`` tests its nerve; a failure flinches D6"
    toward cover and leaves it running for cover."""
    sw = switches.of(state)
    if not sw.broken_nerve:
        return
    near = [o for o in state.live(casualty.side) if o.id != casualty.id]
    witnesses = set(N.witnesses(friend(casualty, o) for o in near))
    for m in near:
        if m.id not in witnesses or m.removed or "running_for_cover" in m.status:
            continue
        if m.stats.get("fearless"):
            continue
        t = N.nerve_test(ctx.dice, m, friends_of(state, m), [casualty.id], bool(sw.snake_eyes))
        report_all(ctx, t.rolls, m.id)
        if t.passed:
            continue
        say(ctx, f"{m.id} loses its nerve at {casualty.id}'s fall", m.id, N.R_NERVE, "nerve broken")
        r = N.flinch(ctx.dice, m.id)
        report_all(ctx, [r], m.id)
        flee(state, ctx, m, r.total, N.R_NERVE)


def confused_by(state: GameState, ctx: Context, t: Model, weapons: list[dict[str, Any]]) -> None:
    """GM-CONFUSION (GM-I-CONFUSED): a model hit by a weapon with ``confusion`` (hurt or
    not) tests Ld, never Cl, once for the volley or the blows; failing, it is confused
    until the end of its next turn (it forgets to attack on a 4+, as a stupid model)."""
    from rulesets.gemini.chapters.options import psychology as P

    sw = switches.of(state)
    if not sw.psychology or t.removed or "confused" in t.status:
        return
    if not any(w.get("confusion") for w in weapons):
        return
    test = P.confusion_test(ctx.dice, t, bool(sw.snake_eyes))
    report_all(ctx, test.rolls, t.id)
    if test.failed:
        say(ctx, f"{t.id} is confused", t.id, P.R_CONFUSION, "confused")
