"""The damage switches in play: what the core's hit → wound → save chain calls when
``lucky_shots``, ``critical_damage``, ``extra_wounds``, ``instant_death`` or ``injuries``
is on.

Why a separate layer: the rule functions (``shooting_extras``, ``injuries``,
``conditions``) know nothing of a game; these take the game's state and context, roll
through them, write the log, and leave the model in the state the rules say. The core's
``wounds`` module calls :func:`wound_step` for each hit and :func:`take` for each unsaved
one; a hit is anything with the core ``Hit``'s fields (S, save, weapon, source, face,
lucky).
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini.chapters import switches
from rulesets.gemini.chapters.options import conditions as C
from rulesets.gemini.chapters.options import injuries as I
from rulesets.gemini.chapters.options import ledges as L
from rulesets.gemini.chapters.options import shooting_extras as X
from rulesets.gemini.chapters.options.common import report, report_all, say
from rulesets.gemini.state import stamp


class HitLike(Protocol):
    S: int
    save: int
    weapon: dict[str, Any]
    source: str
    face: int
    lucky: str


def wound_switches(state: GameState) -> bool:
    """Whether a switch changes the to-wound step (lucky shots, critical damage)."""
    sw = switches.of(state)
    return bool(sw.lucky_shots or sw.critical_damage)


def take_switches(state: GameState) -> bool:
    """Whether a switch changes how an unsaved hit is taken."""
    sw = switches.of(state)
    return bool(sw.extra_wounds != "none" or sw.injuries != "none" or sw.instant_death)


def phase_key(state: GameState) -> str:
    """The phase or activation being played (the core's stamp): one critical each."""
    return str(stamp(state))


def wound_step(
    state: GameState, ctx: Context, m: Model, t: Model, hit: HitLike
) -> tuple[int, bool]:
    """GM-LUCKY, GM-CRITICAL: the to-wound roll(s) for one hit; (wounds, no save)."""
    sw = switches.of(state)
    key = phase_key(state)
    lucky = hit.lucky if sw.lucky_shots else ""
    w = X.to_wound(
        ctx.dice,
        hit.S,
        int(t.stat("T", 3)),
        actor=m.id,
        lucky=lucky,
        critical=bool(sw.critical_damage),
        rending=bool(hit.weapon.get("rending")),
        crit_used=X.crit_used(m, key),
    )
    if not w.rolls:
        say(
            ctx,
            f"S{hit.S} against T{t.stat('T')}: cannot wound",
            m.id,
            "GM-WOUND",
            "no wound",
            t.id,
        )
    report_all(ctx, w.rolls, m.id, t.id)
    if w.critical:
        X.mark_crit(m, key)
        say(
            ctx,
            f"critical damage: {t.id} takes 2 wounds, no save",
            m.id,
            X.R_CRIT,
            "critical",
            t.id,
        )
    return w.wounds, w.no_save


def lucky_choice(options: dict[str, Any] | None) -> str:
    """GM-LUCKY: the choice a script makes — +1 S unless ``choice = "three"``."""
    c = str((options or {}).get("choice", "strength"))
    return "three" if c in ("three", "three_rolls") else "strength"


def _wounds_of(state: GameState, ctx: Context, m: Model, t: Model, hit: HitLike, n: int) -> int:
    """How many wounds one unsaved hit takes: 1 (2 critical), a d6 with extra wounds,
    everything left with instant death."""
    sw = switches.of(state)
    if sw.extra_wounds != "none":
        r = ctx.dice.roll(6, f"{t.id} damage", n=n, actor=m.id, rule=X.R_EXTRA)
        report(ctx, r, m.id, target=t.id)
        n = r.total
    if sw.instant_death and I.instant_death(hit.S, int(t.stat("T", 3))) and t.hp > n:
        say(
            ctx,
            f"S{hit.S} is twice {t.id}'s T{t.stat('T')}: all its wounds",
            m.id,
            I.R_INSTANT,
            "instant death",
            t.id,
        )
        n = t.hp
    return n


def take(state: GameState, ctx: Context, m: Model, t: Model, hit: HitLike, wounds: int = 1) -> bool:
    """Take one unsaved hit of ``wounds`` (2 for critical damage) off ``t`` with the
    switches; True when ``t`` is out of action (the core removes it)."""
    sw = switches.of(state)
    n = _wounds_of(state, ctx, m, t, hit, wounds)
    before = t.hp
    t.hp = max(0, t.hp - n)
    say(
        ctx,
        f"{t.id} loses {n} wound{'s' if n != 1 else ''} ({t.hp} of {t.max_hp} left)",
        t.id,
        "GM-CASUALTY",
        "wounded",
    )
    if t.hp > 0:
        return False
    if sw.injuries == "none":
        return True
    rolls = 1 if sw.extra_wounds != "none" else I.injury_rolls(before, n)
    size = str(hit.weapon.get("size", "normal"))
    had = set(t.status)
    for _ in range(rolls):
        inj = I.roll_injury(ctx.dice, sw.injuries, hit.S, size, t.id, bool(hit.weapon.get("blunt")))
        report_all(ctx, inj.rolls, t.id, m.id)
        if C.apply_injury(t, inj):
            return True
        where = f" ({inj.location})" if inj.location else ""
        say(
            ctx,
            f"{t.id}: {inj.result.replace('_', ' ')}{where}",
            t.id,
            inj.rolls[-1].rule,
            inj.result,
        )
    L.downed_fall(state, ctx, t, had)  # GM-LEDGE: going down near a ledge
    return False
