"""The switches at the turn's seams: the start of a side's turn, the end of its shooting,
the start of close combat, its recovery phase and the end of its turn.

Why at the seams: the text hangs its lasting states on them — a knocked-down model
stands up at the start of its turn, a stunned one comes round in the recovery phase, a
Down model rolls at the end of a shooting phase or before a combat round, frozen and
pinned models recover at the end of the next game turn, a model running for cover runs
and tests at the start of its turn, and the bottle test comes at the start of a turn.
The core's turn code calls these five functions and nothing else of the switches.
"""

from __future__ import annotations

import math
from typing import Any

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import morale_extras as ME
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options import psychology as P
from rulesets.gemini.chapters.options import pursuit
from rulesets.gemini.chapters.options import shooting_extras as X
from rulesets.gemini.chapters.options.common import ld_test, report_all, say
from rulesets.gemini.chapters.options.moving import flee, move_toward
from rulesets.gemini.chapters.options.react_hooks import offer_waited, overwatch_at_turn_end
from rulesets.gemini.chapters.options.sides import force_of, friends_of, nearest_enemy
from rulesets.gemini.state import mv

R_ROUT = "GM-I-ROUT"


def turn_start(state: GameState, ctx: Context, side: str) -> None:
    """The start of ``side``'s turn: the bottle test, then each model's statuses move
    on, its psychology and its shaken running (GM-I-PSY-ORDER for the order)."""
    sw = switches.of(state)
    if sw.all_out_rout:
        bottle(state, ctx, side)
        if state.over:
            return
    for m in list(state.live(side)):
        if sw.injuries != "none":
            for line in C.at_turn_start(m):
                say(ctx, line, m.id, "GM-I-DAZED")
        if sw.psychology:
            psychology_start(state, ctx, m)
            fear_start(state, ctx, m)  # after Frenzy and Stupidity (GM-I-PSY-ORDER)
        if not m.removed:
            shaken_start(state, ctx, m)
        if sw.pursuit and not m.removed:
            pursuit.turn_start(state, ctx, m)


def bottle(state: GameState, ctx: Context, side: str) -> None:
    """GM-ALL-OUT-ROUT: half the force lost calls the bottle test; failing it ends the
    game as the side's defeat (GM-I-ROUT-COUNT)."""
    force = force_of(state, side)
    if not ME.bottle_due(force):
        return
    t = ME.bottle_test(ctx.dice, force, side, bool(switches.of(state).snake_eyes))
    report_all(ctx, t.rolls, side)
    if t.passed:
        return
    others = [s for s in state.sides if s != side]
    state.over = {
        "winner": others[0] if len(others) == 1 else None,
        "reason": f"{side} fails its bottle test and quits the field (GM-ALL-OUT-ROUT)",
    }
    state.active = None
    ctx.log.emit("status", state.over["reason"], rule=ME.R_ROUT, outcome="over")


#: a terror-causing enemy this near calls the Terror test at the start of a turn
TERROR_RANGE = 8.0


def fear_start(state: GameState, ctx: Context, m: Model) -> None:
    """GM-I-FEAR-TURN: Fear and Terror outside a charge. At the start of its turn a
    model takes its once-a-game Terror test for the nearest terror-causing enemy within
    8" (a failure routs it), else its Fear test for a fear-causing enemy in base contact
    (a failure leaves it afraid of it this turn: it hits only on 6s)."""
    if {"routing", "running_for_cover"} & set(m.status):
        return  # already fleeing: nothing more to fear
    snake = bool(switches.of(state).snake_eyes)
    foes = sorted(
        (e for e in state.live() if e.side != m.side), key=lambda e: (measure.gap(m, e), e.id)
    )
    source = next(
        (e for e in foes if measure.gap(m, e) <= TERROR_RANGE and P.terror_due(m, e)), None
    )
    if source is None:
        source = next((e for e in foes if measure.in_contact(m, e) and P.fear_due(m, e)), None)
    if source is None:
        return
    t = P.face_fear(ctx.dice, m, source, snake)
    if t is None:
        return
    report_all(ctx, t.rolls, m.id)
    if t.failed and t.why:
        say(ctx, t.why, m.id, P.R_TERROR, "routing", source.id)


def psychology_start(state: GameState, ctx: Context, m: Model) -> None:
    """Frenzy with a distance, then Stupidity (its wander out of combat); Fear and
    Terror follow (``fear_start``)."""
    snake = bool(switches.of(state).snake_eyes)
    if P.frenzy_due_at_start(m, nearest_enemy(state, m)):
        t = P.frenzy_test(ctx.dice, m, "enemy within its frenzy distance", snake)
        report_all(ctx, t.rolls, m.id)
    t2 = P.stupidity_test(ctx.dice, m, snake)
    if t2 is None:
        return
    report_all(ctx, t2.rolls, m.id)
    if t2.failed and not measure.engaged(state, m):
        bearing, r = P.wander_direction(ctx.dice, m)
        report_all(ctx, [r], m.id)
        rad = math.radians(bearing)
        d = float(m.stats.get("M", 4))
        goal = (m.x + d * math.cos(rad), m.y + d * math.sin(rad))
        move_toward(state, ctx, m, goal, d, P.R_STUPID, "wanders")


def shaken_start(state: GameState, ctx: Context, m: Model) -> None:
    """GM-BROKEN-NERVE, GM-I-ROUT: a model running for cover (or routing) runs 2D6" and
    tests to rally; one in cover with broken nerve tests, unmodified."""
    sw = switches.of(state)
    snake = bool(sw.snake_eyes)
    if "routing" in m.status:
        r = ctx.dice.roll(6, f"{m.id} routs (inches)", n=2, actor=m.id, rule=R_ROUT)
        report_all(ctx, [r], m.id)
        if flee(state, ctx, m, r.total, R_ROUT, to_edge=True):
            return
        ld, mods = int(m.stats.get("Ld", 7)), list[Modifier]()
        if sw.gasr_morale:
            ld, mods, _ = ME.morale_ld(ld, friends_of(state, m))
        t = ld_test(ctx.dice, ld, f"{m.id} rallies", actor=m.id, rule=R_ROUT, mods=mods,
                    snake_eyes=snake)  # fmt: skip
        report_all(ctx, t.rolls, m.id)
        if t.passed:
            m.set_status("routing", False)
        return
    if not {"running_for_cover", "nerve_broken"} & set(m.status):
        return
    in_cover = measure.in_cover(state, ctx, m)
    if "running_for_cover" in m.status and not in_cover:
        r = N.cover_run(ctx.dice, m.id)
        report_all(ctx, [r], m.id)
        if flee(state, ctx, m, r.total, N.R_NERVE):
            return
        in_cover = measure.in_cover(state, ctx, m)
    ts = N.start_of_turn(ctx.dice, m, friends_of(state, m), in_cover=True, snake_eyes=snake)
    report_all(ctx, ts.rolls, m.id)
    if ts.rallied:
        say(ctx, f"{m.id} rallies", m.id, N.R_NERVE, "rallied")
    elif in_cover:
        N.reached_cover(m)


def after_shooting(state: GameState, ctx: Context, side: str) -> None:
    """GM-DOWN-RESULT (GM-I-DOWN-DUE): at the end of a side's shooting phase its Down
    and Reeling models out of combat roll on the Down Result table."""
    if switches.of(state).injuries != "wound_chart":
        return
    for m in list(state.live(side)):
        if C.down_roll_due(m) and not measure.engaged(state, m):
            down_roll(state, ctx, m)


def before_combat(state: GameState, ctx: Context, side: str) -> None:
    """GM-DOWN-RESULT: before the close combat phase, Down and Reeling models in base
    contact (either side) roll on the Down Result table."""
    if switches.of(state).injuries != "wound_chart":
        return
    for m in list(state.live()):
        if (
            C.down_roll_due(m)
            and measure.engaged(state, m)
            and mv(m).get("down_rolled") != state.turn
        ):
            down_roll(state, ctx, m)


def down_roll(state: GameState, ctx: Context, m: Model) -> None:
    mv(m)["down_rolled"] = state.turn
    inj, out = C.resolve_down(ctx.dice, m)
    report_all(ctx, inj.rolls, m.id)
    if out:
        m.removed = True
        C.clear_injury_statuses(m)
        ctx.log.emit("removed", f"{m.id} is out of action ({C.R_DOWN})", actor=m.id, rule=C.R_DOWN)
    else:
        say(ctx, f"{m.id}: {inj.result.replace('_', ' ')}", m.id, C.R_DOWN, inj.result)


def recovery(state: GameState, ctx: Context, side: str) -> None:
    """GM-MORDHEIM, GM-GASR-WOUNDS: in its side's recovery phase a stunned model comes
    round, knocked down."""
    if switches.of(state).injuries in ("mordheim", "gasr_table"):
        for m in state.live(side):
            for line in C.at_recovery(m):
                say(ctx, line, m.id, "GM-MORDHEIM")


def turn_end(state: GameState, ctx: Context, side: str, game_turn_over: bool, turn: int) -> None:
    """The end of ``side``'s turn: dazed and one-turn states wear off; at the end of
    game turn ``turn`` frozen and pinned models whose time is up recover."""
    for m in state.live():
        own = m.side == side
        for line in C.at_turn_end(m, own):
            say(ctx, line, m.id, "GM-I-DAZED")
        if own:
            for w in ("stupid", "afraid", "confused"):
                m.set_status(w, False)
            overwatch_at_turn_end(state, m, turn)
        if game_turn_over and N.expire(m, turn):
            say(ctx, f"{m.id} is no longer frozen or pinned", m.id, N.R_FROZEN, "recovered")


def setup(state: GameState, ctx: Context) -> None:
    """Before turn 1: extra wounds rolled (GM-EXTRA-WOUNDS), the Frenzied frenzied, and
    the first side's turn begins."""
    sw = switches.of(state)
    if sw.extra_wounds != "none":
        for m in state.models.values():
            r = ctx.dice.roll(6, f"{m.id} wounds", n=X.extra_wounds_dice(sw.extra_wounds),
                              actor=m.id, rule=X.R_EXTRA)  # fmt: skip
            report_all(ctx, [r], m.id)
            m.hp = m.max_hp = r.total
    if sw.psychology:
        for m in state.models.values():
            P.start_frenzied(m)
    if state.active and sw.turns == "phases":
        turn_start(state, ctx, state.active)
    elif sw.turns != "phases":
        for s in state.sides:
            turn_start(state, ctx, s)


def stepped(state: GameState, ctx: Context, before: tuple[Any, ...]) -> None:
    """After the play moved on from ``before`` (turn, phase, side, activation): the
    seams it crossed, in the order they come."""
    if state.over:
        return
    turn0, phase0, side0 = before[0], before[1], before[2]
    turns = switches.of(state).turns
    if turns == "arap" and isinstance(side0, str) and state.active != side0:
        offer_waited(state, ctx, side0)  # GM-I-REACT-WAIT: that side's turn is over
    if turns != "phases":
        if state.turn != turn0 and turns == "initiative":
            offer_waited(state, ctx, None)
        if state.turn != turn0:
            for s in state.sides:
                after_shooting(state, ctx, s)
                recovery(state, ctx, s)
                turn_end(state, ctx, s, True, int(turn0))
            for s in state.sides:
                turn_start(state, ctx, s)
        return
    side = state.active
    if (
        phase0 == "shooting"
        and isinstance(side0, str)
        and (state.phase != "shooting" or side != side0)
    ):
        after_shooting(state, ctx, side0)
    if state.phase == "close_combat" and side and phase0 != "close_combat":
        before_combat(state, ctx, side)
    if state.phase == "recovery" and side and phase0 != "recovery":
        recovery(state, ctx, side)
    if (
        phase0 == "recovery"
        and isinstance(side0, str)
        and (state.phase != "recovery" or side != side0)
    ):
        turn_end(state, ctx, side0, state.turn != turn0 or side is None, int(turn0))
        offer_waited(state, ctx, side0)  # GM-I-REACT-WAIT
    if state.phase == "movement" and side and (phase0 != "movement" or side != side0):
        turn_start(state, ctx, side)
