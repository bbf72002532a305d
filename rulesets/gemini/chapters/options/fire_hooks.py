"""The shooting switches in play: what the core's shooting calls after each to-hit
roll (ammo rolls, lucky shots), for the to-hit modifiers (arm wounds, extra wounds), for
the closest-target rule (GASR targeting) and after a volley (frozen and pinned).

Why here: each is a few lines at one point of the core's shot; kept apart, the core reads
as the plain rule and each switch reads as the text's paragraph.
"""

from __future__ import annotations

from typing import Any

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import measure, switches
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import ledges as L
from rulesets.gemini.chapters.options import morale_extras as ME
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options import shooting_extras as X
from rulesets.gemini.chapters.options import targeting as TG
from rulesets.gemini.chapters.options.common import d6_at_most, report_all, say
from rulesets.gemini.chapters.options.damage import lucky_choice
from rulesets.gemini.chapters.options.sides import friends_of
from rulesets.gemini.state import mv


def to_hit_mods(state: GameState, m: Model) -> list[Modifier]:
    """GM-GASR-WOUNDS arm wounds −1; GM-EXTRA-WOUNDS below half its wounds −1."""
    sw = switches.of(state)
    out = []
    if sw.injuries == "gasr_table" and C.to_hit_penalty(m):
        out.append(Modifier(-1, "wounded arm", "GM-GASR-WOUNDS"))
    if sw.extra_wounds != "none" and X.below_half(m.hp, m.max_hp):
        out.append(Modifier(-1, "below half its wounds", X.R_EXTRA))
    return out


def after_to_hit(
    state: GameState,
    ctx: Context,
    m: Model,
    w: dict[str, Any],
    face: int,
    need: int,
    hit: bool,
    options: dict[str, Any] | None = None,
) -> tuple[str, bool]:
    """After one to-hit roll: (the lucky shot's choice or "", whether the weapon is now
    spent or useless and the volley stops)."""
    sw = switches.of(state)
    lucky = ""
    if hit and sw.lucky_shots and X.is_lucky(face, need):
        lucky = lucky_choice(options)
        what = "+1 Strength" if lucky == "strength" else "three rolls to wound"
        say(ctx, f"lucky shot ({face} against {need}+): {what}", m.id, X.R_LUCKY, "lucky")
    if not sw.ammo_rolls or face != 6:
        return lucky, False
    a = X.ammo_roll(ctx.dice, str(w.get("class", "assault")), [face], m.id)
    report_all(ctx, a.rolls, m.id)
    if a.spent or a.useless:
        mv(m).setdefault("spent", []).append(w.get("name", ""))
        why = "that was its last grenade" if a.spent else "the weapon is out of ammunition"
        say(ctx, f"{m.id}: {why} for the rest of the game", m.id, X.R_AMMO, "spent")
        return lucky, True
    return lucky, False


def passes_over(state: GameState, ctx: Context, m: Model, nearer: Model, target: Model) -> bool:
    """GM-GASR-TARGETING: whether the shooter may pass ``nearer`` over for ``target``."""
    if not switches.of(state).gasr_targeting:
        return False
    near_cover = measure.cover(ctx, m, nearer).kind != ""
    far_cover = measure.cover(ctx, m, target).kind != ""
    return TG.may_pass_over(nearer, near_cover, target, far_cover)


def shaken_by_fire(state: GameState, ctx: Context, t: Model, in_cover: bool) -> None:
    """GM-FROZEN-PINNED: a target hit and not hurt tests once a turn (GASR morale's Ld
    and −1 alone when that switch is on)."""
    sw = switches.of(state)
    if not sw.frozen_pinned or t.removed:
        return
    ld: int | None = None
    mods: list[Modifier] = []
    if sw.gasr_morale:
        ld, mods, _ = ME.morale_ld(int(t.stats.get("Ld", 7)), friends_of(state, t))
    res = N.pin_test(ctx.dice, t, turn=state.turn, in_cover=in_cover,
                     in_combat=measure.engaged(state, t), fearless=bool(t.stats.get("fearless")),
                     snake_eyes=bool(sw.snake_eyes), ld=ld, mods=mods)  # fmt: skip
    if res is None:
        return
    report_all(ctx, res.rolls, t.id)
    if res.why and res.failed:
        say(ctx, res.why, t.id, N.R_FROZEN, "shaken")


# --- ledges (GM-FROZEN-PINNED's last paragraph) ---------------------------------------------

#: the Strength of the fall (GM-I-LEDGE)
FALL_S = 3


def heavy_hit(w: dict[str, Any]) -> bool:
    """A shotgun or a weapon of Strength 7 or more (GM-FROZEN-PINNED)."""
    return "shotgun" in str(w.get("name", "")).lower() or int(w.get("S", 0)) >= 7


def ledge_fall(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> bool:
    """GM-FROZEN-PINNED: a model hit by a shotgun or an S7+ weapon within 1" of a ledge
    passes a d6 Initiative test or falls off: it lands at the foot of the ledge and
    takes one S3 hit (GM-I-LEDGE). True when it fell (the caller resolves the hit)."""
    if not switches.of(state).frozen_pinned or t.removed or not heavy_hit(w):
        return False
    edge = L.ledge_edge(ctx, t)
    if edge is None:
        return False
    test = d6_at_most(ctx.dice, int(t.stats.get("I", 3)), f"{t.id} keeps its footing on the ledge",
                      actor=t.id, rule=N.R_FROZEN)  # fmt: skip
    report_all(ctx, test.rolls, t.id)
    if test.passed:
        return False
    L.drop(ctx, t, edge)
    say(ctx, f"{t.id} falls off the ledge", t.id, N.R_FROZEN, "fell")
    return True
