"""From a hit to a casualty (GM-WOUND, GM-SAVE, GM-CASUALTY): Strength against
Toughness per hit, then an armour save per wound, then the wounds come off.

Why one module for shooting and close combat: the text resolves a close-combat hit
"exactly as" a shot once it has landed, so both call ``resolve_hits`` and every switch
that changes damage (critical damage, extra wounds, instant death, injuries) has one
place to plug in. The dice come in the order the issue fixes for scripts: every to-wound
roll first, one per hit, then the saves, one per wound, then any injury dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.dice import Roll
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import damage, nerve_hooks

#: statuses of a model that is out of the fight but still on the table (injuries)
DOWN = ("down", "stunned", "knocked_down")


def report(ctx: Context, r: Roll, actor: str, rule: str, target: str = "", **data: Any) -> None:
    """One roll to the log: its explanation, faces, outcome and chance."""
    ctx.log.emit(
        "resolution",
        r.explain(),
        actor=actor,
        target=target,
        rule=rule,
        chance=None if r.chance is None else float(r.chance),
        rolls=list(r.faces),
        outcome=str(r.result),
        data=dict(data),
    )


@dataclass
class Hit:
    """One hit about to be rolled to wound: its Strength, the weapon's save modifier,
    the weapon, how it came (shooting or melee) and the hit roll's natural face."""

    S: int
    save: int
    weapon: dict[str, Any]
    source: str
    face: int = 0
    #: a lucky shot's choice (the lucky_shots switch: "strength" or "three"), "" for none
    lucky: str = ""


@dataclass
class Result:
    """What the hits did: per hit "no_wound" / "saved" / "wounded", and wounds taken."""

    outcomes: list[str] = field(default_factory=list)
    wounds: int = 0

    @property
    def unhurt(self) -> bool:
        """Hit but not hurt: every hit failed to wound or was saved (GASR pinning)."""
        return bool(self.outcomes) and self.wounds == 0


def wound_roll(ctx: Context, m: Model, t: Model, hit: Hit) -> bool:
    """GM-WOUND: one d6 against the chart; True when it wounds."""
    need = T.wound_need(hit.S, int(t.stat("T")))
    if need is None:
        ctx.log.emit(
            "resolution",
            f"S{hit.S} against T{t.stat('T')}: cannot wound (GM-WOUND)",
            actor=m.id,
            target=t.id,
            rule="GM-WOUND",
            outcome="no wound",
        )
        return False
    p = T.chance(need)
    r = ctx.dice.roll(6, f"to wound, S{hit.S} against T{t.stat('T')}", need=f"{need}+",
                      chance=p, actor=m.id, rule="GM-WOUND",
                      result=lambda tot, f: "wound" if tot >= need else "no wound")  # fmt: skip
    report(ctx, r, m.id, "GM-WOUND", t.id)
    return r.result == "wound"


def save_roll(ctx: Context, m: Model, t: Model, hit: Hit) -> bool:
    """GM-SAVE: a d6 of Sv or more, worsened by the weapon's save; True when saved."""
    need = T.save_need(int(t.stat("Sv", 0)), int(hit.save))
    if need is None:
        return False
    mod = f", save {hit.save}" if hit.save else ""
    r = ctx.dice.roll(6, f"{t.id} armour save (Sv {t.stat('Sv')}+{mod})", need=f"{need}+",
                      chance=T.chance(need), actor=t.id, rule="GM-SAVE",
                      result=lambda tot, f: "saved" if tot >= need else "not saved")  # fmt: skip
    report(ctx, r, t.id, "GM-SAVE", m.id)
    return r.result == "saved"


def resolve_hits(
    state: GameState, ctx: Context, m: Model, t: Model, hits: list[Hit], rule: str
) -> Result:
    """Roll every hit to wound, then every wound's save, then take the wounds off.
    Lucky shots and critical damage change the to-wound step (``options.damage``)."""
    res = Result()
    wounding: list[tuple[Hit, int, bool]] = []
    fancy = damage.wound_switches(state)
    for h in hits:
        n, crit = (
            damage.wound_step(state, ctx, m, t, h)
            if fancy
            else (int(wound_roll(ctx, m, t, h)), False)
        )
        if n:
            wounding.append((h, n, crit))
        else:
            res.outcomes.append("no_wound")
    unsaved: list[tuple[Hit, int]] = []
    for h, n, crit in wounding:
        if not crit and save_roll(ctx, m, t, h):
            res.outcomes.append("saved")
            continue
        res.outcomes.append("wounded")
        res.wounds += n
        unsaved.append((h, n))
    for h, n in unsaved:
        if t.removed:
            break
        take_wound(state, ctx, m, t, h, rule, n)
    nerve_hooks.confused_by(state, ctx, t, [h.weapon for h in hits])
    return res


def take_wound(
    state: GameState, ctx: Context, m: Model, t: Model, hit: Hit, rule: str, n: int = 1
) -> None:
    """GM-CASUALTY: an unsaved hit takes ``n`` W (1, 2 for critical damage); at 0 W the
    model is out of action and removed — unless a damage switch is on: extra wounds,
    instant death and the injury tables are ``options.damage.take``."""
    if damage.take_switches(state):
        if damage.take(state, ctx, m, t, hit, n):
            out_of_action(state, ctx, t, "no wounds left", "GM-CASUALTY")
        return
    t.hp -= n
    ctx.log.emit(
        "status",
        f"{t.id} loses {'a wound' if n == 1 else f'{n} wounds'} ({max(t.hp, 0)} of {t.max_hp} left) (GM-CASUALTY)",
        actor=t.id,
        rule="GM-CASUALTY",
        outcome="wounded",
    )
    if t.hp > 0:
        return
    out_of_action(state, ctx, t, "no wounds left", "GM-CASUALTY")


def out_of_action(state: GameState, ctx: Context, t: Model, why: str, rule: str) -> None:
    """The model takes no further part: it leaves the table."""
    t.removed = True
    t.status = [s for s in t.status if s not in DOWN]
    ctx.log.emit("removed", f"{t.id} is out of action: {why} ({rule})", actor=t.id, rule=rule)
    nerve_hooks.struck_down(state, ctx, t)


def p_wound_and_unsaved(s: int, save_mod: int, t: Model) -> Fraction:
    """The exact chance one hit takes a wound off ``t`` (GM-WOUND then GM-SAVE)."""
    pw = T.chance(T.wound_need(s, int(t.stat("T"))))
    ps = T.chance(T.save_need(int(t.stat("Sv", 0)), save_mod))
    return pw * (1 - ps)
