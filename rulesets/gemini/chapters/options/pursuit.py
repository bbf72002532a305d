"""``pursuit`` in play: a foe left behind in close combat by a routing model (or one
running for cover) may pursue it; halting a pursuit takes an Ld test (GM-PURSUIT,
GM-I-PURSUIT).

Why a decision: the text makes the pursuit optional, so the pursuer's player chooses;
a model that hates its fleeing foe must pass an Ld−1 test to hold back (GM-HATRED).
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, Choose
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters.options import movement_extras as MX
from rulesets.gemini.chapters.options import psychology as P
from rulesets.gemini.chapters.options.common import ld_test, report_all, say
from rulesets.gemini.chapters.options.moving import PURSUIT_KIND, move_toward
from rulesets.gemini.state import mv

FLEEING = frozenset({"routing", "running_for_cover"})


def answers(decision: dict[str, Any]) -> bool:
    return decision.get("kind") == PURSUIT_KIND


def answer(state: GameState, ctx: Context, decision: dict[str, Any], action: Action) -> None:
    """ "pursue": the pursuer follows its M toward the quarry and is pursuing (no
    reactions) until it halts. "stay": it stays, unless it hates the quarry and fails
    its Ld−1 test to hold back (psychology)."""
    d = decision["data"]
    m, q = state.models[d["pursuer"]], state.models[d["quarry"]]
    if m.removed or q.removed:
        return
    go = isinstance(action, Choose) and action.option == "pursue"
    sw = switches.of(state)
    if not go and sw.psychology and P.hates(m, q):
        t = ld_test(ctx.dice, int(m.stats.get("Ld", 7)), f"{m.id} holds back from {q.id}",
                    actor=m.id, rule=P.R_HATRED, mods=P.hatred_ld_mod(m, q, "pursue"),
                    snake_eyes=bool(sw.snake_eyes))  # fmt: skip
        report_all(ctx, t.rolls, m.id)
        go = t.failed
    if go:
        pursue(state, ctx, m, q)


def pursue(state: GameState, ctx: Context, m: Model, q: Model) -> None:
    m.set_status("pursuing")
    mv(m)["quarry"] = q.id
    move_toward(state, ctx, m, q.pos, float(m.stats.get("M", 4)), MX.R_PURSUIT, f"pursues {q.id}")


def turn_start(state: GameState, ctx: Context, m: Model) -> None:
    """At the start of its turn a pursuer whose quarry still flees tests Ld to halt
    (Ld−1 against a hated foe); failing, it follows its M again and has moved. A quarry
    gone, rallied or caught ends the pursuit."""
    if "pursuing" not in m.status:
        return
    q = state.models.get(str(mv(m).get("quarry", "")))
    if q is None or q.removed or not FLEEING & set(q.status) or measure.in_contact(m, q):
        m.set_status("pursuing", False)
        return
    sw = switches.of(state)
    mods = P.hatred_ld_mod(m, q, "end_pursuit") if sw.psychology else []
    t = MX.halt_pursuit(ctx.dice, m, mods, bool(sw.snake_eyes))
    report_all(ctx, t.rolls, m.id)
    if t.passed:
        m.set_status("pursuing", False)
        say(ctx, f"{m.id} halts its pursuit", m.id, MX.R_PURSUIT, "halted")
        return
    pursue(state, ctx, m, q)
    mv(m)["moved"] = state.turn
