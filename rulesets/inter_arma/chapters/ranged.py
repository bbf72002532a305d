"""Ranged combat (IA-RANGED, IA-JAVELIN): bands in cm, the to-hit roll, then the saves.

Why the plan is built once: ``check``, ``apply`` and ``odds`` all need the same band and
modifiers, and the player must read the same numbers in the refusal, the log and the
preview.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.actions import Shoot
from engine.dice import Modifier
from engine.ruleset import OUT_OF_RANGE, Context, Odds, Reason
from engine.state import GameState, Model
from engine.whether import only_whether
from rulesets.inter_arma.build import mounted, ranged_weapons
from rulesets.inter_arma.chapters import combat, measure, spotting
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs, mv


@dataclass
class Plan:
    """One shot as the rules see it: band, need, modifiers, reasons it is refused."""

    weapon: dict[str, Any] | None = None
    band: str = ""
    distance: float = 0.0
    need: int = 7
    height: bool = False
    mods: list[Modifier] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def pick_weapon(m: Model, name: str) -> dict[str, Any] | None:
    ws = ranged_weapons(m)
    if name:
        ws = [
            w
            for w in ws
            if str(w.get("name", "")).lower() == name.lower() or w["kind"] == name.lower()
        ]
    usable = [w for w in ws if w["kind"] != "javelin" or int(mv(m).get("javelins", 0)) > 0]
    pool = usable or ws
    return pool[0] if pool else None


def band_of(w: dict[str, Any], d_cm: float, bonus: float) -> str:
    """IA-RANGED: the first band whose limit (plus a height bonus) reaches ``d_cm``."""
    for name, lim in zip(("short", "medium", "long"), T.RANGES[w["kind"]], strict=True):
        if lim is not None and d_cm <= lim + bonus + 1e-9:
            return name
    return ""


def plan(state: GameState, ctx: Context, a: Shoot) -> Plan:
    m, t = state.models[a.actor], state.models.get(a.target)
    p = Plan()
    if t is None or t.removed or t.side == m.side:
        p.problems.append(f"{a.target} is not an enemy figure on the table")
        return p
    w = pick_weapon(m, a.weapon)
    if w is None:
        p.problems.append(
            f"{m.id} has no missile weapon{' called ' + a.weapon if a.weapon else ''} (IA-RANGED)"
        )
        return p
    p.weapon = w
    if w["kind"] == "javelin" and int(mv(m).get("javelins", 0)) <= 0:
        p.problems.append(f"{m.id} has thrown its javelin (one each, IA-JAVELIN)")
    if "crawling" in m.status:
        p.problems.append(f"{m.id} is crawling: no shooting while crawling (IA-MOVE f)")
    if measure.enemies_in_contact(state, m):
        p.problems.append(f"{m.id} is in contact with the enemy: it fights instead (IA-I-CONTACT)")
    if p.problems and only_whether():
        return p  # refused already: sight can wait (issue 24)
    atop = measure.perch(ctx, m)
    p.distance = measure.from_base_cm(ctx, atop, t) if atop else measure.gap_cm(m, t)
    p.height = bool(atop) or measure.higher(ctx, m, t)
    up = w["kind"] in T.HEIGHT_WEAPONS and p.height
    p.band = band_of(w, p.distance, T.HEIGHT_BONUS if up else 0)
    # out of range: the verdict is known before sight is measured (issue 24)
    seen = (
        ""
        if not p.band and only_whether()
        else spotting.unseen(state, m, t) or measure.sees(state, ctx, m, t)
    )
    if seen:
        p.problems.append(Reason(seen, "no_sight"))
    if not p.band:
        longest = max(x for x in T.RANGES[w["kind"]] if x is not None) + (
            T.HEIGHT_BONUS if up else 0
        )
        p.problems.append(Reason(f"{t.id} out of range ({p.distance:.1f} cm > {longest:g} cm for {w['kind']}, IA-RANGED)",
                                 OUT_OF_RANGE, distance=p.distance, limit=longest))  # fmt: skip
        return p
    p.need = T.TO_HIT[p.band]
    q = combat.quality(m)
    if q > 0 and p.band in ("short", "medium"):
        p.mods.append(Modifier(q, f"{m.stats['class']} at {p.band} range", "IA-RANGED"))
    if q < 0:
        p.mods.append(Modifier(q, "conscript", "IA-CONSCRIPT"))
    if mounted(m):
        p.mods.append(Modifier(-1, "from horseback", "IA-RANGED"))
    for k in measure.shot_cover(ctx, m, t):
        p.mods.append(Modifier(-1, k.replace("_", " "), "IA-RANGED"))
        break
    if atop:
        p.mods.append(Modifier(0, f"from atop {atop}, measured from its base", "IA-RANGED"))
    if up:
        p.mods.append(Modifier(0, "shooting down from a height: +4 cm range", "IA-RANGED"))
    return p


def check(state: GameState, ctx: Context, a: Shoot) -> list[str]:
    m = state.models[a.actor]
    if mv(m).get("shot") == state.turn:
        return [f"{m.id} has already shot this turn (IA-SEQUENCE)"]
    return plan(state, ctx, a).problems


def odds(state: GameState, ctx: Context, a: Shoot) -> Odds:
    p = plan(state, ctx, a)
    t = state.models[a.target]
    mod = sum(x.value for x in p.mods)
    hit = combat.to_hit_chance(p.need, mod)
    d = combat.hit_dist(t, p.band, combat.situational(state, ctx, t, p.band, a.actor, p.height))
    down = hit * combat.p_down(d)
    lines = [f"{p.band} range ({p.distance:.1f} cm): d6 needs {p.need}+" + "".join(f", {x.text()}" for x in p.mods if x.value),
             f"hit {float(hit):.0%}; then {t.id} fails its save {float(combat.p_down(d)):.0%} (IA-SAVE)"]  # fmt: skip
    return Odds(down, dist={0: 1 - down, 1: down}, lines=lines, expected=down)


def apply(state: GameState, ctx: Context, a: Shoot) -> None:
    m, t = state.models[a.actor], state.models[a.target]
    p = plan(state, ctx, a)
    assert p.weapon is not None
    mv(m)["shot"] = state.turn
    mod = sum(x.value for x in p.mods)
    ch = combat.to_hit_chance(p.need, mod)
    r = ctx.dice.roll(6, f"{m.id} shoots {t.id} with {p.weapon.get('name', p.weapon['kind'])} at {p.band} range ({p.distance:.1f} cm)",
                      modifiers=[x for x in p.mods if x.value], need=f"{p.need}+", chance=ch, actor=m.id, rule="IA-RANGED",
                      result=lambda tot, f: "hit" if tot >= p.need else "miss")  # fmt: skip
    combat.report(ctx, r, actor=m.id, target=t.id, rule="IA-RANGED", chance=float(ch))
    mv(t)["shot_at"] = state.turn
    if p.weapon["kind"] == "javelin":
        mv(m)["javelins"] = int(mv(m).get("javelins", 0)) - 1
        if r.result == "miss" and not p.weapon.get("pilum"):
            gs(state).setdefault("javelin_markers", []).append([round(t.x, 2), round(t.y, 2)])
    if r.result == "hit":
        combat.resolve_hit(state, ctx, t, p.band, [], m.id, p.height)


def expected_down(state: GameState, ctx: Context, a: Shoot) -> Fraction:
    return odds(state, ctx, a).chance
