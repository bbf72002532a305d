"""Close combat (GM-MELEE): models in base contact strike in Initiative order, chargers
first in the turn they charge; each Attack die hits on the WS chart, then Strength
against Toughness and the save as for a shot. With the ``combat_score`` switch the fight
is the text's Combat Score instead (``combat_score.fight``).

Why a fight is one action between two models: the side to act picks which foe each of
its models fights; each model strikes once a phase (``struck``), so a model in contact
with two enemies answers the first that fights it and is then only struck (GM-I-FIGHT).
"""

from __future__ import annotations

from engine.actions import Fight
from engine.ruleset import Context, Odds
from engine.state import GameState, Model
from rulesets.gemini import build
from rulesets.gemini.chapters import combat_score, measure, switches, wounds
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import fight_hooks, move_hooks
from rulesets.gemini.state import mv
from rulesets.gemini.state import stamp as gstamp

#: statuses that keep a model from striking (the switches set them)
HELPLESS = ("down", "stunned", "knocked_down")


def stamp(state: GameState) -> int:
    """The number of the phase or activation now being played (``rules.step``)."""
    return gstamp(state)


def can_strike(state: GameState, m: Model) -> bool:
    return (
        not m.removed
        and mv(m).get("struck") != stamp(state)
        and not any(s in m.status for s in HELPLESS)
        and fight_hooks.can_fight(state, m)
        and not move_hooks.fell(state, m)
    )


def problems(state: GameState, ctx: Context, a: Fight) -> list[str]:
    m, t = state.models[a.actor], state.models.get(a.target)
    if t is None or t.removed or t.side == m.side:
        return [f"{a.target} is not an enemy model on the table"]
    if not measure.in_contact(m, t):
        return [f"{m.id} is not in base contact with {t.id} (GM-MELEE)"]
    if mv(m).get("struck") == stamp(state):
        return [f"{m.id} has already fought this phase (GM-I-FIGHT)"]
    for s in HELPLESS:
        if s in m.status:
            return [f"{m.id} is {s.replace('_', ' ')}: it cannot fight"]
    if not fight_hooks.can_fight(state, m):
        return [f"{m.id} cannot fight in its state ({', '.join(m.status)})"]
    if move_hooks.fell(state, m):
        return [f"{m.id} fell over this turn: it cannot strike (GM-I-AGILITY)"]
    return []


def order(state: GameState, a: Model, b: Model) -> list[list[Model]]:
    """GM-MELEE: the strikers in groups, first to last: chargers this turn first, then by
    Initiative; equal ranks strike at the same time (GM-I-TIES)."""
    ready = [x for x in (a, b) if can_strike(state, x)]

    def rank(x: Model) -> tuple[int, int, int]:
        last = 0 if fight_hooks.strikes_last(state, x) else 1  # dazed strikes last
        return (last, 1 if mv(x).get("charged") == state.turn else 0, int(x.stat("I")))

    groups: list[list[Model]] = []
    for r in sorted({rank(x) for x in ready}, reverse=True):
        groups.append([x for x in ready if rank(x) == r])
    return groups


def strike(state: GameState, ctx: Context, m: Model, t: Model) -> wounds.Result:
    """GM-MELEE: the striker's A dice against the foe's WS, then the hits' wounds."""
    w = build.melee_weapon(m)
    t_ws = fight_hooks.defend_ws(state, t)
    need = fight_hooks.need(state, m, t, T.melee_need(int(m.stat("WS")), t_ws))
    n = fight_hooks.attack_dice(state, ctx, m, max(1, int(m.stat("A", 1))))
    if n <= 0:
        return wounds.Result()
    p = T.chance(need)
    r = ctx.dice.roll(6, f"{m.id} strikes {t.id}: {n} attack dice, WS {m.stat('WS')} against WS {t_ws}",
                      n=n, need=f"{need}+ each", chance=1 - (1 - p) ** n, actor=m.id, rule="GM-MELEE",
                      result=lambda tot, f: f"{sum(1 for x in f if x >= need)} hits")  # fmt: skip
    wounds.report(ctx, r, m.id, "GM-MELEE", t.id)
    faces = list(r.faces)
    misses = sum(1 for f in faces if f < need)
    if misses and fight_hooks.rerolls_misses(state, m, t):
        r2 = ctx.dice.roll(6, f"{m.id} hates {t.id}: re-rolls {misses} misses", n=misses,
                           need=f"{need}+ each", actor=m.id, rule="GM-HATRED",
                           result=lambda tot, f: f"{sum(1 for x in f if x >= need)} hits")  # fmt: skip
        wounds.report(ctx, r2, m.id, "GM-HATRED", t.id)
        faces = [f for f in faces if f >= need] + list(r2.faces)
    s = int(w.get("S", m.stat("S")))
    hits = [
        wounds.Hit(s, int(w.get("save", 0)), w, "melee", f, fight_hooks.lucky(state, f, need))
        for f in faces
        if f >= need
    ]
    if not hits:
        return wounds.Result()
    return wounds.resolve_hits(state, ctx, m, t, hits, "GM-MELEE")


def resolve(state: GameState, ctx: Context, a: Fight) -> None:
    m, t = state.models[a.actor], state.models[a.target]
    if switches.of(state).combat_score:
        mv(m)["struck"] = stamp(state)  # the foe may still be fought by others
        combat_score.fight(state, ctx, m, t)
        fight_hooks.after_fight(state, ctx, m, t)
        move_hooks.follow_up_after_fight(state, ctx, m, t)
        return
    for group in order(state, m, t):
        standing = [x for x in group if not x.removed]
        for x in standing:
            mv(x)["struck"] = stamp(state)
            foe = t if x is m else m
            if not foe.removed:
                strike(state, ctx, x, foe)
    fight_hooks.after_fight(state, ctx, m, t)
    move_hooks.follow_up_after_fight(state, ctx, m, t)


def odds(state: GameState, ctx: Context, a: Fight) -> Odds | None:
    """The chance the actor's own strike takes at least one wound (its dice alone)."""
    m, t = state.models[a.actor], state.models[a.target]
    if switches.of(state).combat_score:
        return None
    w = build.melee_weapon(m)
    p = T.chance(T.melee_need(int(m.stat("WS")), int(t.stat("WS"))))
    per = p * wounds.p_wound_and_unsaved(int(w.get("S", m.stat("S"))), int(w.get("save", 0)), t)
    n = max(1, int(m.stat("A", 1)))
    none = (1 - per) ** n
    lines = [f"{n} attack dice, each takes a wound {float(per):.0%} (GM-MELEE)"]
    return Odds(1 - none, dist={0: none, 1: 1 - none}, lines=lines, expected=per * n)
