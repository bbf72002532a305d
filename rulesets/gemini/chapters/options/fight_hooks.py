"""The close-combat switches in play: psychology in a fight (hatred's re-rolls, the
stupid forgetting to attack, frenzied attacks, fear before and under a charge) and the
injury states' defence (a downed model defends at WS 1).

Why at these points: the core's fight asks how many attack dice a model rolls, what WS
it defends with, what it needs to hit and whether it re-rolls its misses; a charge asks
whether the charger dares; after a fight a frenzied model may calm down and a winner
may follow up. Each answer depends on switches only, so it lives here.
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options import psychology as P
from rulesets.gemini.chapters.options import shooting_extras as X
from rulesets.gemini.chapters.options.common import report_all, say
from rulesets.gemini.chapters.options.fire_hooks import to_hit_mods
from rulesets.gemini.state import mv


def first_round(state: GameState, m: Model, foe: Model) -> bool:
    """The first round of a combat: the turn one of the two charged (GM-HATRED)."""
    return mv(m).get("charged") == state.turn or mv(foe).get("charged") == state.turn


def attack_dice(state: GameState, ctx: Context, m: Model, n: int) -> int:
    """How many attack dice ``m`` rolls: a stupid model forgets on a 4+ (none), a
    frenzied one rolls twice its dice (GM-I-FRENZIED)."""
    sw = switches.of(state)
    if not sw.psychology:
        return n
    if "stupid" in m.status or "confused" in m.status:
        t = P.forgets_to_attack(ctx.dice, m)
        report_all(ctx, t.rolls, m.id)
        if t.passed:
            say(ctx, f"{m.id} forgets what it is doing: no attacks", m.id, P.R_STUPID, "forgets")
            return 0
    return P.frenzied_attacks(m, n)


def defend_ws(state: GameState, m: Model) -> int:
    """The WS ``m`` defends with: 1 (0 with the Combat Score) when down, reeling,
    knocked down or stunned; else its own."""
    sw = switches.of(state)
    lim = C.limits(m, sw.injuries, bool(sw.combat_score))
    return int(m.stats.get("WS", 3)) if lim.defend_ws is None else lim.defend_ws


def can_fight(state: GameState, m: Model) -> bool:
    """Whether ``m`` strikes at all (down, reeling, knocked down, stunned do not)."""
    sw = switches.of(state)
    return C.limits(m, sw.injuries, bool(sw.combat_score)).fight


def strikes_last(state: GameState, m: Model) -> bool:
    """A dazed model strikes last whatever its Initiative."""
    sw = switches.of(state)
    return C.limits(m, sw.injuries, bool(sw.combat_score)).strikes_last


def need(state: GameState, m: Model, foe: Model, base: int) -> int:
    """The score a blow needs: the WS chart's, +1 for a wounded arm (GM-GASR-WOUNDS) or
    below half wounds (GM-EXTRA-WOUNDS); only 6s for an afraid model (GM-I-FEAR)."""
    worse = -sum(x.value for x in to_hit_mods(state, m))
    n = min(6, base + worse)
    if switches.of(state).psychology and "afraid" in m.status and mv(m).get("afraid_of") == foe.id:
        return 6
    return n


def rerolls_misses(state: GameState, m: Model, foe: Model) -> bool:
    """GM-HATRED: misses re-rolled against a hated foe in the first round."""
    return bool(switches.of(state).psychology) and P.rerolls_misses(
        m, foe, first_round(state, m, foe)
    )


def dares_charge(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """Before a charge (GM-FEAR, GM-TERROR, GM-FRENZY): the charger faces its fear of
    the target (failing, it does not charge); the target faces its fear of the charger;
    a charger subject to frenzy tests to stay calm. False: the charge does not go in.
    A frozen, pinned or running target charged fights back (GM-FROZEN-PINNED)."""
    sw = switches.of(state)
    if sw.psychology and not _psychology_of_charge(state, ctx, m, t):
        return False
    N.charged(t)
    return True


def _psychology_of_charge(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    snake = bool(switches.of(state).snake_eyes)
    t1 = P.face_fear(ctx.dice, m, t, snake)
    if t1 is not None:
        report_all(ctx, t1.rolls, m.id)
        if t1.failed:
            say(ctx, f"{m.id} dares not charge {t.id}", m.id, P.R_FEAR, "afraid", t.id)
            return False
    if P.frenzy_due_on_charge(m):
        report_all(ctx, P.frenzy_test(ctx.dice, m, "charging", snake).rolls, m.id)
    t2 = P.face_fear(ctx.dice, t, m, snake)
    if t2 is not None:
        report_all(ctx, t2.rolls, t.id)
    return True


def after_fight(state: GameState, ctx: Context, m: Model, foe: Model) -> None:
    """After a fight: a frenzied model no longer in contact may calm down."""
    sw = switches.of(state)
    if not sw.psychology:
        return
    for x in (m, foe):
        if x.removed or measure.engaged(state, x):
            continue
        t = P.calm_down(ctx.dice, x, bool(sw.snake_eyes))
        if t is not None:
            report_all(ctx, t.rolls, x.id)


def lucky(state: GameState, face: int, need: int) -> str:
    """GM-LUCKY in close combat without the Combat Score: a blow beating its need by 2
    wounds at +1 S (the default choice)."""
    sw = switches.of(state)
    if sw.lucky_shots and not sw.combat_score and X.is_lucky(face, need):
        return "strength"
    return ""
