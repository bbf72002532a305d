"""Shooting (GM-SHOOT, GM-COVER, GM-TARGET): the shot as the rules see it, the to-hit
dice (two beyond a need of 6), then the hits through ``wounds``.

Why a plan built once: ``problems``, ``resolve`` and ``odds`` need the same weapon,
range, cover and need, and the player must read the same numbers in a refusal, the log
and the preview.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.actions import Shoot
from engine.dice import Modifier
from engine.ruleset import NO_SIGHT, OUT_OF_RANGE, Context, Odds, Reason
from engine.state import GameState, Model
from rulesets.gemini import build
from rulesets.gemini.chapters import measure, wounds
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters.options import fire_hooks, move_hooks
from rulesets.gemini.state import mv


@dataclass
class Plan:
    """One shot: the weapon, the gap, the cover, the modifiers and the need."""

    weapon: dict[str, Any] | None = None
    distance: float = 0.0
    cover: str = ""
    mods: list[Modifier] = field(default_factory=list)
    need: int = 7
    problems: list[str] = field(default_factory=list)


#: the statuses that keep a model from shooting (GM-SHOOT); the computer's score reads
#: the same list
NO_FIRE = ("down", "stunned", "knocked_down", "pinned", "running_for_cover", "routing")


def pick_weapon(m: Model, name: str) -> dict[str, Any] | None:
    ws = build.ranged(m)
    if name:
        ws = [w for w in ws if str(w.get("name", "")).lower() == name.lower()]
    return ws[0] if ws else None


def can_fire(state: GameState, m: Model) -> str:
    """Why the model cannot shoot at all now ("" when it can)."""
    if measure.engaged(state, m):
        return f"{m.id} is in close combat: it fights instead (GM-SHOOT)"
    if mv(m).get("charged") == state.turn:
        return f"{m.id} charged this turn: no shooting (GM-CHARGE)"
    if mv(m).get("ran") == state.turn:
        return f"{m.id} ran this turn: no shooting (GM-I-RUN)"
    for s in NO_FIRE:
        if s in m.status:
            return f"{m.id} is {s.replace('_', ' ')}: no shooting"
    return move_hooks.shoot_problem(state, m)


def shootable(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> str:
    """Why ``t`` cannot be shot with ``w`` at all ("" when it can): range and sight."""
    if any(f.side == m.side for f in measure.foes_in_contact(state, t)):
        return f"{t.id} is in close combat with {m.side}: no shooting into it (GM-I-INTO-MELEE)"
    d = measure.gap(m, t)
    rng = float(w.get("range", 0))
    if d > rng + 1e-9:
        return Reason(f'{t.id} out of range ({d:.1f}" > {rng:g}") (GM-SHOOT)', OUT_OF_RANGE,
                      distance=d, limit=rng)  # fmt: skip
    vis = measure.visible(ctx, m, t)
    if vis < measure.HIDDEN:
        return Reason(f"{t.id} is hidden ({round(vis * 100)}% visible, under a quarter) (GM-COVER)",
                      NO_SIGHT, hidden=1 - vis)  # fmt: skip
    return ""


def closer_counts(state: GameState, ctx: Context, m: Model, other: Model, t: Model) -> bool:
    """GM-TARGET: whether a nearer enemy bars shooting past it (HOOK gasr_targeting:
    downed models and those in cover may be passed over, bikes and cavalry picked out)."""
    return not fire_hooks.passes_over(state, ctx, m, other, t)


def closest_problem(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> str:
    """GM-TARGET: the shooter takes the closest enemy it can shoot at."""
    d = measure.gap(m, t)
    for e in state.live():
        if e.side == m.side or e.id == t.id or measure.gap(m, e) >= d - 1e-6:
            continue
        if shootable(state, ctx, m, e, w) == "" and closer_counts(state, ctx, m, e, t):
            return f"{e.id} is closer: shoot at the closest target (GM-TARGET)"
    return ""


def plan(state: GameState, ctx: Context, a: Shoot, closest: bool = True) -> Plan:
    """The shot as the rules see it. ``closest=False`` leaves out the closest-target
    rule (GM-TARGET), which only refuses: for ``resolve`` and ``odds``, which come after
    ``check`` has applied it (the rule asks whether each nearer foe could be shot)."""
    m, t = state.models[a.actor], state.models.get(a.target)
    p = Plan()
    if t is None or t.removed or t.side == m.side:
        p.problems.append(f"{a.target} is not an enemy model on the table")
        return p
    w = pick_weapon(m, a.weapon)
    if w is None:
        what = f" called {a.weapon}" if a.weapon else ""
        p.problems.append(f"{m.id} has no shooting weapon{what} (GM-WEAPONS)")
        return p
    p.weapon = w
    why = can_fire(state, m) or shootable(state, ctx, m, t, w)
    if why:
        p.problems.append(why)
        return p
    why = closest_problem(state, ctx, m, t, w) if closest else ""
    if why:
        p.problems.append(why)
    p.distance = measure.gap(m, t)
    rng = float(w.get("range", 0))
    if p.distance > rng / 2 + 1e-9:
        p.mods.append(Modifier(-1, f'beyond half range ({rng / 2:g}")', "GM-SHOOT"))
    c = measure.cover(ctx, m, t)
    p.cover = c.kind
    if c.kind == "soft":
        p.mods.append(Modifier(-1, "soft cover", "GM-COVER"))
    elif c.kind == "hard":
        p.mods.append(Modifier(-2, "hard cover", "GM-COVER"))
    if t.stats.get("large"):
        p.mods.append(Modifier(1, "large target", "GM-SHOOT"))
    p.mods += fire_hooks.to_hit_mods(state, m)
    p.need = T.hit_need(int(m.stat("BS")), sum(x.value for x in p.mods))
    if p.need >= 10:
        p.problems.append(f"needs {p.need}: {m.id} cannot hit {t.id} (GM-SHOOT)")
    return p


def problems(state: GameState, ctx: Context, a: Shoot) -> list[str]:
    return plan(state, ctx, a).problems


def need_text(need: int) -> str:
    if need <= 6:
        return f"{need}+"
    return f"{need} (a 6, then {T.second_need(need)}+)"


def roll_to_hit(ctx: Context, m: Model, t: Model, p: Plan, k: int) -> tuple[bool, int]:
    """GM-SHOOT: one to-hit roll; (hit, the first die's natural face). A need of 7 to 9
    rolls a second die after a 6."""
    assert p.weapon is not None
    mods = "".join(f", {x.text()}" for x in p.mods)
    first = min(p.need, 6)
    ch = T.hit_chance(p.need)
    label = f"{m.id} shoots {t.id} with {p.weapon.get('name', 'a weapon')}"
    label += f" (shot {k + 1})" if int(p.weapon.get("shots", 1)) > 1 else ""
    r = ctx.dice.roll(6, f"{label}, BS {m.stat('BS')}{mods}", need=need_text(p.need), chance=ch,
                      actor=m.id, rule="GM-SHOOT",
                      result=lambda tot, f: ("hit" if p.need <= 6 else "6, roll again")
                      if tot >= first and tot > 1 else "miss")  # fmt: skip
    wounds.report(ctx, r, m.id, "GM-SHOOT", t.id)
    face = r.faces[0]
    if r.result == "miss" or p.need <= 6:
        return r.result == "hit", face
    second = T.second_need(p.need)
    r2 = ctx.dice.roll(6, f"{label}: the second die for a need of {p.need}", need=f"{second}+",
                       chance=Fraction(7 - second, 6), actor=m.id, rule="GM-SHOOT",
                       result=lambda tot, f: "hit" if tot >= second else "miss")  # fmt: skip
    wounds.report(ctx, r2, m.id, "GM-SHOOT", t.id)
    return r2.result == "hit", face


def resolve(state: GameState, ctx: Context, a: Shoot) -> None:
    m, t = state.models[a.actor], state.models[a.target]
    p = plan(state, ctx, a, closest=False)  # checked before it is played
    assert p.weapon is not None
    mv(m)["shot"] = state.turn
    fire(state, ctx, m, t, p, int(p.weapon.get("shots", 1)), a.options)


def fire(
    state: GameState,
    ctx: Context,
    m: Model,
    t: Model,
    p: Plan,
    shots: int,
    options: dict[str, Any] | None = None,
) -> None:
    """``shots`` to-hit rolls with the plan's weapon, then the hits through ``wounds``
    (a reaction fires its own number of shots, ``options.react_hooks``)."""
    assert p.weapon is not None
    w = p.weapon
    hits: list[wounds.Hit] = []
    for k in range(shots):
        ok, face = roll_to_hit(ctx, m, t, p, k)
        lucky, stop = fire_hooks.after_to_hit(state, ctx, m, w, face, p.need, ok, options)
        if ok:
            hits.append(
                wounds.Hit(int(w.get("S", 3)), int(w.get("save", 0)), w, "shooting", face, lucky)
            )
        if stop:
            break
    if not hits:
        return
    res = wounds.resolve_hits(state, ctx, m, t, hits, "GM-SHOOT")
    if res.unhurt:
        fire_hooks.shaken_by_fire(state, ctx, t, p.cover != "")
    if fire_hooks.ledge_fall(state, ctx, m, t, w):  # the fall's S3 hit (GM-I-LEDGE)
        fall = wounds.Hit(fire_hooks.FALL_S, 0, {"name": "fall", "S": fire_hooks.FALL_S}, "fall")
        wounds.resolve_hits(state, ctx, m, t, [fall], "GM-I-LEDGE")


def odds(state: GameState, ctx: Context, a: Shoot) -> Odds | None:
    """The exact odds of a shot ``check`` has allowed (the ruleset's ``odds`` checks
    first)."""
    p = plan(state, ctx, a, closest=False)
    if p.problems or p.weapon is None:
        return None
    t = state.models[a.target]
    w = p.weapon
    per = T.hit_chance(p.need) * wounds.p_wound_and_unsaved(
        int(w.get("S", 3)), int(w.get("save", 0)), t
    )
    n = int(w.get("shots", 1))
    dist = binomial(n, per)
    exp = per * n
    lines = [
        f"to hit {need_text(p.need)}" + "".join(f", {x.text()}" for x in p.mods),
        f"each shot takes a wound {float(per):.0%} (GM-WOUND, GM-SAVE)",
    ]
    return Odds(1 - dist[0], dist=dist, lines=lines, expected=exp)


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """The exact distribution of successes in ``n`` tries of chance ``p``."""
    from math import comb

    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}
