"""Missile fire (GEM-2.2): who may fire, arcs, Table 2 from the measured table, area
weapons with their scatter.

Why the modifiers come from measurements: Table 2 is about what the shooter can see
(how wide the target looks across the line of fire, what it hides behind, how far it
is), so each modifier is computed from the bases and terrain on the table, never
declared by the player.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engine.dice import Modifier, percent
from engine.ruleset import NO_SIGHT, OUT_OF_ARC, OUT_OF_RANGE, Context, Reason
from engine.state import GameState, Model
from engine.whether import only_whether

from ..build import def_value, parse_dice
from ..state import disorganized, in_melee, is_block, live_models, mtype, mv
from . import blocks, measure
from .combat import Attack, roll_attack
from .damage import apply_hits
from .spell_effects import target_bonus
from .tables import area, rng, table2, terrain


def is_ranged(w: dict[str, Any]) -> bool:
    return float(w.get("range", 0) or 0) > 0


def arc_of(state: GameState, m: Model) -> float:
    """GEM-2.2.2: cavalry and vehicles fire all round; skirmishers and single figures in a
    90 degree arc on their front; blocks straight ahead (handled separately)."""
    t = mtype(m)
    if t in ("cavalry", "vehicle"):
        return 360.0
    return 90.0


def sight(state: GameState, ctx: Context, m: Model, t: Model) -> measure.Sight:
    return measure.sight(ctx, m, t, terrain("soft_cover"), terrain("hard_cover"))


def problems(
    state: GameState,
    ctx: Context,
    m: Model,
    t: Model,
    w: dict[str, Any] | None,
) -> list[str]:
    """Every reason ``m`` may not fire ``w`` at ``t`` now (no dice)."""
    out: list[str] = []
    if w is None:
        return [f"{m.id} has no such weapon"]
    if not is_ranged(w):
        return [f"{w.get('name')} is a hand-to-hand weapon (GEM-2.2.1)"]
    if t.removed:
        return [f"{t.id} is no longer on the table"]
    if t.side == m.side and not float(w.get("radius", 0) or 0):
        out.append(f"{t.id} is on your side")
    if mv(m).get("fired"):
        out.append(f"{m.id} has already fired this turn")
    if disorganized(m):
        out.append(f"{m.id} is disorganized and cannot fire missiles (GEM-2.4.5)")
    if mv(m).get("rushed"):
        out.append(f"{m.id} moved in a rush this turn and cannot fire (GEM-2.2.1)")
    if w.get("heavy") and float(mv(m).get("moved", 0) or 0) > 0:
        out.append(f"{w.get('name')} is a heavy weapon and {m.id} has moved (GEM-2.2.1)")
    if out and only_whether():
        return out  # refused on the figure's own state: nothing on the table to measure
    if in_melee(state, m.unit):
        out.append(f"{m.id} is locked in melee (GEM-2.2.1)")
    if mtype(m) == "vehicle":
        from .vehicles import weapon_problem

        why = weapon_problem(m, w)
        if why:
            out.append(why)
    if is_block(state, m.unit):
        front = blocks.front_rank(state, m.unit)
        if m not in front:
            out.append(f"only the front rank of {m.unit} may fire (GEM-2.2.2)")
        elif not measure.straight_ahead(front, m.facing, t):
            out.append(
                Reason(f"{t.id} is not straight ahead of {m.unit}'s front (GEM-2.2.2)", OUT_OF_ARC)
            )
    elif not measure.in_arc(m, t, arc_of(state, m)):
        arc = arc_of(state, m)
        out.append(
            Reason(
                f"{t.id} is outside {m.id}'s {arc:g} degree fire arc (GEM-2.2.2)",
                OUT_OF_ARC,
                arc=arc,
            )
        )
    dist = measure.distance(m, t)
    rng_ = float(w.get("range", 0))
    if dist > rng_ + 1e-9:
        out.append(
            Reason(
                f'target out of range ({dist:.1f}" > {rng_:g}")',
                OUT_OF_RANGE,
                distance=dist,
                limit=rng_,
            )
        )
    if out and only_whether():
        return out  # refused already: sight, the dear measure, can wait (issue 24)
    s = sight(state, ctx, m, t)
    if not s.visible:
        out.append(Reason(f"{t.id} cannot be seen: {s.why}", NO_SIGHT))
    gap = rng("friendly_fire_gap")
    own_block = is_block(state, m.unit)
    for f in live_models(state, m.side):
        if f.id in (m.id, t.id) or (own_block and f.unit == m.unit):
            continue
        if measure.segment_within(f, m.pos, t.pos, gap - 1e-9):
            out.append(f'the fire path passes within 1" of friendly {f.id} (GEM-2.2.2)')
            break
    return out


def modifiers(
    state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]
) -> list[Modifier]:
    """Table 2 (GEM-2.2.4), every modifier measured."""
    t2 = table2()
    out: list[Modifier] = []
    width = measure.width_across(t, m.pos)
    if width > t2["large_max_mm"]:
        out.append(
            Modifier(
                t2["extremely_large_target"],
                f"extremely large target ({width:.0f} mm across the line of fire)",
                "GEM-2.2.4",
            )
        )
    elif width >= t2["large_min_mm"]:
        out.append(
            Modifier(
                t2["large_target"],
                f"large target ({width:.0f} mm across the line of fire)",
                "GEM-2.2.4",
            )
        )
    elif width < t2["small_below_mm"]:
        out.append(
            Modifier(
                t2["small_target"],
                f"small target ({width:.0f} mm across the line of fire)",
                "GEM-2.2.4",
            )
        )
    if float(mv(m).get("moved", 0) or 0) > 0:
        out.append(
            Modifier(
                t2["fired_after_moving"],
                f'firing after moving {float(mv(m)["moved"]):.1f}"',
                "GEM-2.2.4",
            )
        )
    if float(mv(t).get("moved", 0) or 0) > 0:
        out.append(Modifier(t2["target_moved"], f"{t.id} has moved", "GEM-2.2.4"))
    dist = measure.distance(m, t)
    half = float(w.get("range", 0)) / 2
    if dist > half + 1e-9:
        out.append(
            Modifier(
                t2["over_half_range"], f'over half range ({dist:.1f}" > {half:g}")', "GEM-2.2.4"
            )
        )
    s = sight(state, ctx, m, t)
    if s.cover == "hard":
        out.append(Modifier(t2["hard_cover"], f"hard cover: {s.why}", "GEM-2.2.5"))
    elif s.cover == "soft":
        out.append(Modifier(t2["soft_cover"], f"soft cover: {s.why}", "GEM-2.2.5"))
    out += target_bonus(state, t)
    return out


def attack_for(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> Attack:
    return Attack(
        int(w.get("OFF", m.stat("OFF", 1))),
        def_value(t, str(w.get("attack", "")), vehicle=True),
        int(w.get("ATT", 1)),
        tuple(modifiers(state, ctx, m, t, w)),
        f"{m.id}'s {w.get('name')} at {t.id}",
    )


def shoot(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> None:
    """Resolve one figure's shot (the checks have passed)."""
    mv(m)["fired"] = True
    if mtype(m) == "vehicle":
        from .vehicles import may_act

        if not may_act(state, ctx, m, "fire a weapon"):
            return
    if float(w.get("radius", 0) or 0) > 0:
        area_fire(state, ctx, m, t, w)
        return
    a = attack_for(state, ctx, m, t, w)
    hits, faces, text, chance = roll_attack(ctx, a, actor=m.id, target=t.id, rule="GEM-2.2.3")
    ctx.log.emit(
        "resolution",
        text,
        actor=m.id,
        target=t.id,
        rule="GEM-2.2.3",
        chance=float(chance),
        rolls=faces,
        outcome="hit" if hits else "miss",
        data={"hits": hits, "need": a.cell.need, "modifier": a.mod},
    )
    apply_hits(state, ctx, t, hits, off=a.off, missile=True, rule="GEM-2.2.3")


def deviation_mods(m: Model) -> list[Modifier]:
    """GEM-2.2.6: targeting modifiers on the deviation d6 (the -1 for firing after
    moving; Table 2 does not apply to templates)."""
    if float(mv(m).get("moved", 0) or 0) > 0:
        return [Modifier(-1, "firing after moving", "GEM-2.2.6")]
    return []


def area_fire(state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]) -> None:
    """GEM-2.2.6: template over the target, d6 5-6 direct hit, else d12 clock and the
    weapon's deviation dice; everyone under it attacked; part-covered on a d6 of 4-6."""
    radius = float(w["radius"])
    ar = area()
    mods = deviation_mods(m)
    p_direct = Fraction(
        sum(1 for f in range(1, 7) if f + sum(x.value for x in mods) >= ar["direct_hit_from"]), 6
    )
    r = ctx.dice.roll(
        6,
        "deviation",
        modifiers=mods,
        need=f"{ar['direct_hit_from']}+",
        chance=p_direct,
        actor=m.id,
        rule="GEM-2.2.6",
        result=lambda tot, _f: "direct hit" if tot >= ar["direct_hit_from"] else "deviates",
    )
    centre = t.pos
    rolls = list(r.faces)
    text = r.explain()
    if r.result != "direct hit":
        line = measure.bearing(m.pos, t.pos)
        clock = ctx.dice.roll(12, "deviation direction (clock)", actor=m.id, rule="GEM-2.2.6")
        n, sides = parse_dice(w.get("deviation", "d6")) or (1, 6)
        dist = ctx.dice.roll(sides, "deviation distance", n=n, actor=m.id, rule="GEM-2.2.6")
        centre = measure.clock_point(t.pos, line, clock.total, float(dist.total))
        rolls += list(clock.faces) + list(dist.faces)
        text += (
            f"; the template moves {dist.total}\" towards {clock.total} o'clock "
            f"to ({centre[0]:.1f}, {centre[1]:.1f})"
        )
    ctx.log.emit(
        "scatter",
        text,
        actor=m.id,
        target=t.id,
        rule="GEM-2.2.6",
        chance=float(p_direct),
        rolls=rolls,
        outcome=str(r.result),
        data={"centre": [round(centre[0], 2), round(centre[1], 2)]},
    )
    under = template_victims(state, centre, radius)
    for vid, share in under:
        v = state.models[vid]
        if v.removed:
            continue
        if share < 1.0 - 1e-9:
            pr = Fraction(7 - ar["partial_hit_from"], 6)
            pc = ctx.dice.roll(
                6,
                f"{vid} partly under the template",
                need=f"{ar['partial_hit_from']}+",
                chance=pr,
                actor=m.id,
                rule="GEM-2.2.6",
                result=lambda tot, _f: "under" if tot >= ar["partial_hit_from"] else "safe",
            )
            ctx.log.emit(
                "resolution",
                pc.explain() + f" ({share:.0%} covered)",
                actor=m.id,
                target=vid,
                rule="GEM-2.2.6",
                chance=float(pr),
                rolls=list(pc.faces),
                outcome=str(pc.result),
            )
            if pc.result != "under":
                continue
        a = Attack(
            int(w.get("OFF", 1)),
            def_value(v, str(w.get("attack", "")), vehicle=True),
            int(w.get("ATT", 1)),
            (),
            f"{w.get('name')} template on {vid}",
        )
        hits, faces, txt, chance = roll_attack(ctx, a, actor=m.id, target=vid, rule="GEM-2.2.6")
        ctx.log.emit(
            "resolution",
            txt,
            actor=m.id,
            target=vid,
            rule="GEM-2.2.6",
            chance=float(chance),
            rolls=faces,
            outcome="hit" if hits else "miss",
            data={"hits": hits},
        )
        apply_hits(state, ctx, v, hits, off=a.off, missile=True, rule="GEM-2.2.6")


def template_victims(
    state: GameState, centre: tuple[float, float], radius: float
) -> list[tuple[str, float]]:
    """(model id, covered share) of every live figure under the template, id order."""
    shares = measure.template_shares(state.live(), centre, radius)
    return sorted(shares.items())


def shot_odds(
    state: GameState, ctx: Context, m: Model, t: Model, w: dict[str, Any]
) -> tuple[Fraction, dict[int, Fraction], list[str]]:
    """Exact chance of at least one hit and the distribution of hits (direct fire), or for
    a template the chance the target itself is hit."""
    if float(w.get("radius", 0) or 0) > 0:
        ar = area()
        mods = sum(x.value for x in deviation_mods(m))
        p_direct = Fraction(sum(1 for f in range(1, 7) if f + mods >= ar["direct_hit_from"]), 6)
        a = Attack(
            int(w.get("OFF", 1)),
            def_value(t, str(w.get("attack", "")), vehicle=True),
            int(w.get("ATT", 1)),
            (),
            "template",
        )
        p = p_direct * a.p_any()
        lines = [
            f"direct hit on d6 {ar['direct_hit_from']}+: {percent(p_direct)} "
            f"(GEM-2.2.6); a deviating template may still catch the target"
        ] + a.lines()
        dist = {k: v * p_direct for k, v in a.dist().items()}
        dist[0] = dist.get(0, Fraction(0)) + (1 - p_direct)
        return p, dist, lines
    a = attack_for(state, ctx, m, t, w)
    return a.p_any(), a.dist(), a.lines()


def volley_shooters(
    state: GameState, ctx: Context, unit: str, t: Model, weapon: str
) -> list[Model]:
    """The front-rank figures of a block that may fire ``weapon`` at ``t``."""
    out = []
    for m in blocks.front_rank(state, unit):
        w = m.weapon(weapon) if weapon else next((x for x in m.weapons if is_ranged(x)), None)
        if w is not None and not problems(state, ctx, m, t, w):
            out.append(m)
    return out


def can_volley(state: GameState, ctx: Context, unit: str, t: Model, weapon: str) -> bool:
    """Whether ``volley_shooters`` is not empty, stopping at the first figure that may
    fire (``check`` needs the verdict, the odds need every shooter)."""
    for m in blocks.front_rank(state, unit):
        w = m.weapon(weapon) if weapon else next((x for x in m.weapons if is_ranged(x)), None)
        if w is not None and not problems(state, ctx, m, t, w):
            return True
    return False


def default_weapon(m: Model) -> dict[str, Any] | None:
    return next((w for w in m.weapons if is_ranged(w)), None)
