"""Shooting: sighting, fire arcs, targeting, the shooting contest, sustained and linked
fire, jams, called shots, blast markers and scatter (SWOMP "Shooting").

Why the range is not in ``problems``: the rulebook forbids measuring the range before a
shot is declared, so a shot at a target beyond the weapon's reach is legal to declare
and simply misses when measured (SWOMP-I-RANGE). Everything else a player can see at the
table (sight, arc, which target is closest) is checked before any die is rolled.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.dice import Modifier
from engine.ruleset import NO_SIGHT, OUT_OF_ARC, Context, Reason
from engine.state import GameState, Model

from ..state import mv
from . import contest, core, table, vehicles
from .catalog import COVER_BONUS

R_SHOOT = "SWOMP-SHOOT"
R_SIGHT = "SWOMP-SIGHT"
R_ARC = "SWOMP-ARC"
R_RANGE = "SWOMP-RANGE"
R_TARGET = "SWOMP-TARGET"
R_BONUS = "SWOMP-MOVE-BONUS"
R_STAND = "SWOMP-ACTIONS"
R_TWO = "SWOMP-TWO-WEAPONS"
R_SUSTAINED = "SWOMP-SUSTAINED"
R_LINKED = "SWOMP-LINKED"
R_JAM = "SWOMP-JAM"
R_CALLED = "SWOMP-CALLED"
R_BLAST = "SWOMP-BLAST"
R_SCATTER = "SWOMP-SCATTER"
R_OVERWATCH = "SWOMP-OVERWATCH"
R_CREW = "SWOMP-VEH-CREW"
R_DAM = "SWOMP-DAM"

CALLED_SHOT = -4
TWO_WEAPONS = -1
TARGETERS_OUT = -2


@dataclass(frozen=True)
class Seen:
    """An enemy the shooter could aim at: how far, which size class, what cover, and
    how hard to hit it is for the targeting rule (cover plus movement bonus)."""

    dist: float
    id: str
    size: str
    cover: str
    evasion: int


def weapon_of(m: Model, name: str) -> dict | None:
    if not name:
        ws = core.ranged(m)
        return ws[0] if ws else None
    w = m.weapon(name)
    return w if w is not None and w.get("kind", "ranged") != "melee" else None


def sighted(
    state: GameState, ctx: Context, shooter: Model, target: Model, weapon: dict
) -> tuple[bool, str]:
    """SWOMP "Sighting": most weapons need the shooter's own line of sight; a spotter
    weapon may use any friend's; a radar weapon needs none. Returns (sighted, cover)."""
    kind = weapon.get("sight", "los")
    seen, cover = table.sight(ctx, shooter, target, _foes(state, shooter.side))
    if not seen and kind == "spotter":
        for f in state.live(shooter.side):
            if f.id != shooter.id and table.sight(ctx, f, target, _foes(state, f.side))[0]:
                seen, cover = True, table.sight(ctx, f, target)[1]
                break
    if not seen and kind == "radar":
        seen, cover = True, table.HARD
    standing = mv(target).get("cover", table.NONE)
    if COVER_BONUS.get(standing, 0) > COVER_BONUS.get(cover, 0):
        cover = standing
    if weapon.get("radar"):
        cover = table.NONE  # microwave radar sights see through cover (SWOMP wargear)
    return seen, cover


def _foes(state: GameState, side: str) -> Iterator[Model]:
    """The models a shooter of ``side`` may look at, listed only when a sight is measured
    (the batch ``table.visible`` measures with the asked pair)."""
    yield from (m for m in state.live() if m.side != side)


def in_view(state: GameState, ctx: Context, shooter: Model, target: Model, weapon: dict) -> bool:
    """``sighted``'s first answer alone, without the cover (the exact measure)."""
    kind = weapon.get("sight", "los")
    if kind == "radar" or table.in_view(ctx, shooter, target, _foes(state, shooter.side)):
        return True
    if kind == "spotter":
        return any(
            f.id != shooter.id and table.in_view(ctx, f, target, _foes(state, f.side))
            for f in state.live(shooter.side)
        )
    return False


def move_bonus(m: Model) -> int:
    src = vehicles.speed(m) if core.is_vehicle(m) else float(mv(m).get("moved", 0.0))
    return contest.speed_bonus(src)


def seen_enemies(
    state: GameState,
    ctx: Context,
    shooter: Model,
    weapon: dict,
    size: str | None = None,
    within: float | None = None,
) -> list[Seen]:
    """Every enemy the weapon can be aimed at: sighted, in the fire arc, not locked in
    close combat (SWOMP-I-MELEE-FIRE). Nearest first; optionally only one size class and
    only those no farther than ``within``."""
    return list(seen_in_order(state, ctx, shooter, weapon, size, within))


def seen_in_order(
    state: GameState,
    ctx: Context,
    shooter: Model,
    weapon: dict,
    size: str | None = None,
    within: float | None = None,
) -> Iterator[Seen]:
    """``seen_enemies`` one at a time, nearest first, each enemy's sight measured only
    when the caller asks for the next: why, a list of choices wants the nearest few
    targets, and sight is the dearest measure on the table."""
    arc = float(weapon.get("arc", 360))
    near = []
    for t in state.live():
        if t.side == shooter.side or core.engaged(t):
            continue
        if size is not None and mv(t).get("size", "medium") != size:
            continue
        d = table.distance(shooter, t)
        if within is not None and d > within + 1e-9:
            continue
        near.append((d, t.id, t))
    near.sort(key=lambda e: (e[0], e[1]))
    for d, _, t in near:
        if not table.in_arc(shooter, t, arc):
            continue
        ok, cover = sighted(state, ctx, shooter, t, weapon)
        if not ok:
            continue
        ev = COVER_BONUS.get(cover, 0) + move_bonus(t)
        yield Seen(d, t.id, mv(t).get("size", "medium"), cover, ev)


def legal_targets(seen: list[Seen]) -> list[Seen]:
    """SWOMP "Targeting": for each size class the shooter aims at the closest, but may
    pass over closer targets that are harder to hit (faster or in more cover)."""
    out = []
    for s in seen:
        closer = [c for c in seen if c.size == s.size and (c.dist, c.id) < (s.dist, s.id)]
        if all(c.evasion > s.evasion for c in closer):
            out.append(s)
    return out


def target_problem(
    state: GameState,
    ctx: Context,
    shooter: Model,
    target: Model,
    weapon: dict,
    also: frozenset[str] = frozenset(),
) -> str:
    """'' if ``target`` may be aimed at with ``weapon``; else the reason, in words. Models
    in ``also`` are already being shot at (spread fire) and do not count as closer."""
    if target.side == shooter.side:
        return f"{target.id} is on your side"
    if core.engaged(target):
        return f"{target.id} is locked in close combat (SWOMP-I-MELEE-FIRE)"
    arc = float(weapon.get("arc", 360))
    if not table.in_arc(shooter, target, arc):
        return Reason(
            f"{target.id} is outside the {weapon['name']}'s {arc:g}\u00b0 fire arc ({R_ARC})",
            OUT_OF_ARC,
            arc=arc,
        )
    if not in_view(state, ctx, shooter, target, weapon):
        return Reason(f"{target.id} cannot be sighted by {shooter.id} ({R_SIGHT})", NO_SIGHT)
    size = mv(target).get("size", "medium")
    d = table.distance(shooter, target)
    me: Seen | None = None
    # the closer ones one at a time, nearest first, up to the first that is no harder to
    # hit: why, each cover is an exact measure, and the target's own cover is needed
    # only when a closer one is in view
    for c in seen_in_order(state, ctx, shooter, weapon, size, d):
        if (c.dist, c.id) >= (d, target.id):
            break
        if c.id in also:
            continue
        me = me or seen_one(state, ctx, shooter, target, weapon, d)
        if me is None:
            return f"{target.id} cannot be aimed at"
        if c.evasion <= me.evasion:
            return (
                f"{target.id} is not the closest {me.size} target: {c.id} is closer and "
                f"no harder to hit: no more cover or speed ({R_TARGET})"
            )
    return ""


def seen_one(
    state: GameState, ctx: Context, shooter: Model, t: Model, weapon: dict, d: float
) -> Seen | None:
    """The shooter's ``Seen`` of one enemy at distance ``d`` (as ``seen_in_order`` would
    yield it), or None when it is not sighted, out of the arc or in close combat."""
    if t.side == shooter.side or core.engaged(t):
        return None
    if not table.in_arc(shooter, t, float(weapon.get("arc", 360))):
        return None
    ok, cover = sighted(state, ctx, shooter, t, weapon)
    if not ok:
        return None
    ev = COVER_BONUS.get(cover, 0) + move_bonus(t)
    return Seen(d, t.id, mv(t).get("size", "medium"), cover, ev)


# --- the two sides of the shooting contest -------------------------------------------------


def defence(target: Model, cover: str, moving: bool = True, crew: bool = False) -> contest.Side:
    """The target's value: DR, armour and field (one at a time), cover, and the movement
    bonus (SWOMP "Movement bonus"; not against blasts). A vehicle's DR is its armour; an
    exposed crewman uses his own DR, armour and field with the vehicle's speed."""
    terms: list[tuple[str, int]] = []
    if core.is_vehicle(target) and crew:
        c = mv(target)["veh"].get("crew", {})
        terms += [
            ("crew DR", int(c.get("DR", 3))),
            ("armour", int(c.get("AR", 0))),
            ("field", int(c.get("FR", 0))),
        ]
    elif core.is_vehicle(target):
        terms.append(("DR", core.stat(target, "DR")))
    else:
        terms += [
            ("DR", core.stat(target, "DR")),
            ("armour", core.stat(target, "AR")),
            ("field", core.stat(target, "FR")),
        ]
    terms.append(("cover", COVER_BONUS.get(cover, 0)))
    if moving:
        terms.append(("moving", move_bonus(target)))
    return contest.side(*terms)


def attack(shooter: Model, weapon: dict, stance: str, extra: list[tuple[str, int]]) -> contest.Side:
    terms: list[tuple[str, int]] = [("PR", core.stat(shooter, "PR")), ("WR", int(weapon["WR"]))]
    if (
        stance in ("stood", "overwatch")
        and not weapon.get("heavy")
        and not core.is_vehicle(shooter)
    ):
        terms.append(("standing still" if stance == "stood" else "overwatch", 1))
    terms += extra
    if core.is_vehicle(shooter):
        if mv(shooter).get("wpen"):
            terms.append(("vehicle damage", -int(mv(shooter)["wpen"])))
        if "targeters" in mv(shooter).get("effects", []):
            terms.append(("targeters out", TARGETERS_OUT))
    return contest.side(*terms)


def extra_terms(options: dict[str, Any], two: bool) -> list[tuple[str, int]]:
    out = []
    if two:
        out.append(("two weapons", TWO_WEAPONS))
    if options.get("location"):
        out.append(("called shot", CALLED_SHOT))
    return out


# --- firing ----------------------------------------------------------------------------------


def battery(shooter: Model, weapon: dict) -> list[dict]:
    """Linked weapons fire together at one target (SWOMP "Linked Weapons")."""
    link = weapon.get("link")
    if not link:
        return [weapon]
    return [w for w in core.ranged(shooter) if w.get("link") == link]


def jam(shooter: Model, names: list[str]) -> None:
    j = set(mv(shooter).get("jammed", []))
    j.update(names)
    mv(shooter)["jammed"] = sorted(j)
    shooter.set_status("jammed")


def fire(
    state: GameState,
    ctx: Context,
    shooter: Model,
    target: Model,
    weapon: dict,
    options: dict[str, Any],
    stance: str,
    two: bool = False,
) -> None:
    """Declare a shot, then measure and resolve it: every weapon of the battery, every
    shot of a sustained-fire weapon, jams, damage, blasts and scatter."""
    extra = extra_terms(options, two)
    ws = battery(shooter, weapon)
    jammed_any = False
    for w in ws:
        if target.removed:
            ctx.log.emit(
                "note",
                f"{shooter.id}'s {w['name']}: the battery's target is dead; "
                f"its remaining shots are forfeited",
                actor=shooter.id,
                rule=R_LINKED,
            )
            continue
        targets = [target.id] + [t for t in options.get("targets", []) if t != target.id]
        jammed_any |= _fire_weapon(state, ctx, shooter, w, targets, options, stance, extra)
    if jammed_any:
        jam(shooter, [w["name"] for w in ws])
        ctx.log.emit(
            "status",
            f"{shooter.id}'s {', '.join(w['name'] for w in ws)} "
            f"{'is' if len(ws) == 1 else 'are'} jammed: a full action clears it",
            actor=shooter.id,
            target=shooter.id,
            rule=R_JAM,
            outcome="jammed",
        )


def _fire_weapon(
    state: GameState,
    ctx: Context,
    shooter: Model,
    w: dict,
    targets: list[str],
    options: dict[str, Any],
    stance: str,
    extra: list[tuple[str, int]],
) -> bool:
    shots = int(w.get("shots", 1))
    spread = options.get("fire") == "spread" and len(targets) > 1
    jammed = False
    rot = 0
    for i in range(shots):
        if spread:
            alive = [t for t in targets if not state.models[t].removed]
            if not alive:
                break
            tid = alive[rot % len(alive)]
            rot += 1
        else:
            tid = targets[0]
            if state.models[tid].removed:
                ctx.log.emit(
                    "note",
                    f"{w['name']}: the target is dead; the remaining {shots - i} shot(s) are lost",
                    actor=shooter.id,
                    rule=R_SUSTAINED,
                )
                break
        t = state.models[tid]
        rng = float(w.get("range", 0))
        d = table.distance(shooter, t)
        tag = f" (shot {i + 1} of {shots})" if shots > 1 else ""
        if d > rng + 1e-9:
            ctx.log.emit(
                "resolution",
                f"{shooter.id} fires {w['name']} at {t.id}{tag}: "
                f'measured after declaring, {d:.1f}" is beyond its {rng:g}" range: '
                f"the shot misses automatically",
                actor=shooter.id,
                target=t.id,
                rule=R_RANGE,
                chance=0.0,
                outcome="out of range",
                data={"distance": round(d, 2), "range": rng},
            )
            continue
        res = resolve_shot(state, ctx, shooter, t, w, options, stance, extra, d, tag)
        if res is not None and res.a_face == 1 and w.get("jam") and not jammed:
            n = int(w["jam"])
            p = contest.d10_under(n)
            r = ctx.dice.roll(
                10,
                f"jam roll ({w['name']})",
                need=f"{n} or less",
                chance=p,
                actor=shooter.id,
                rule=R_JAM,
                result=contest.under_word(n, "jammed", "clear"),
            )
            ctx.log.emit(
                "resolution",
                f"{shooter.id} rolled a 1 with the {w['name']}: jam roll "
                f"d10 {r.faces[0]}, jams on {n} or less: {r.result}",
                actor=shooter.id,
                rule=R_JAM,
                chance=float(p),
                rolls=list(r.faces),
                outcome=str(r.result),
            )
            jammed = r.result == "jammed"
    return jammed


def resolve_shot(
    state: GameState,
    ctx: Context,
    shooter: Model,
    t: Model,
    w: dict,
    options: dict[str, Any],
    stance: str,
    extra: list[tuple[str, int]],
    dist: float,
    tag: str = "",
) -> contest.Result | None:
    """One shooting contest and its consequences."""
    location = options.get("location") or None
    crew = False
    if core.is_vehicle(t) and location is None and mv(t)["veh"].get("exposed"):
        location = vehicles.roll_location(ctx, t, shooter.id, "hit location (exposed crew)")
        crew = location in mv(t)["veh"]["exposed"] and location not in mv(t).get("crew_out", [])
    elif core.is_vehicle(t) and location is not None:
        # a called shot at an exposed crewman contests his DR, armour and field, as a
        # rolled one does (SWOMP "Exposed crewmen")
        exposed = mv(t)["veh"].get("exposed", [])
        crew = location in exposed and location not in mv(t).get("crew_out", [])
    _, cover = sighted(state, ctx, shooter, t, w)
    att = attack(shooter, w, stance, extra)
    dfn = defence(t, cover, moving=True, crew=crew)
    res = contest.roll(ctx, att, dfn, "shooting contest", R_SHOOT, shooter.id, t.id)
    outcome = "hit" if res.won else "miss"
    ctx.log.emit(
        "resolution",
        f'{shooter.id} shoots {t.id} with {w["name"]}{tag} at {dist:.1f}": {res.text}: {outcome}',
        actor=shooter.id,
        target=t.id,
        rule=R_SHOOT,
        chance=float(res.chance),
        rolls=res.rolls,
        outcome=outcome,
        data={"weapon": w["name"], "attacker": res.a_total, "defender": res.d_total},
    )
    centre = t.pos
    if res.won:
        dam = int(w.get("Dam", 1))
        if core.is_vehicle(t):
            vehicles.damage(state, ctx, t, dam, location, f"{w['name']} hit", shooter.id, blast)
        else:
            core.wound(state, ctx, t, dam, f"hit by {w['name']}, Dam {dam}", R_DAM, shooter.id)
        if w.get("blast"):
            blast(state, ctx, shooter, centre, w, exclude=(t.id,), rule=R_BLAST)
    elif w.get("blast"):
        scatter(state, ctx, shooter, t, w)
    return res


def blast(
    state: GameState,
    ctx: Context,
    source: Model,
    centre: tuple[float, float],
    w: dict,
    exclude: tuple[str, ...] = (),
    rule: str = R_BLAST,
) -> None:
    """Every other model under the marker contests the Blast Rating: one roll for the
    blast, one for each model, no movement bonus (SWOMP "Blast markers")."""
    diameter = float(w["blast"])
    ids = table.under_marker(centre, diameter, [m for m in state.live() if m.id not in exclude])
    if not ids:
        ctx.log.emit(
            "note",
            f'{w["name"]}: no other model under the {diameter:g}" marker',
            actor=source.id,
            rule=rule,
        )
        return
    br = int(w.get("BR", w.get("WR", 0)))
    att = contest.side(("Blast Rating", br))
    r = ctx.dice.roll(
        10,
        f"blast ({w['name']})",
        modifiers=[Modifier(br, "Blast Rating", rule)],
        actor=source.id,
        rule=rule,
    )
    ctx.log.emit(
        "note",
        f'{w["name"]} {diameter:g}" marker at ({centre[0]:.1f}, '
        f"{centre[1]:.1f}) covers {', '.join(ids)}: Blast Rating {br} + {r.faces[0]} = "
        f"{br + r.faces[0]}",
        actor=source.id,
        rule=rule,
        rolls=list(r.faces),
        data={"under": ids},
    )
    for mid in ids:
        m = state.models[mid]
        if m.removed:
            continue
        seen, cover = table.sight(ctx, source, m)
        if not seen:
            cover = table.HARD
        elif COVER_BONUS.get(mv(m).get("cover", "none"), 0) > COVER_BONUS.get(cover, 0):
            cover = mv(m)["cover"]
        dfn = defence(m, cover, moving=False)
        res = contest.roll(ctx, att, dfn, "blast contest", rule, source.id, m.id, a_face=r.faces[0])
        outcome = "hit" if res.won else "miss"
        ctx.log.emit(
            "resolution",
            f"{w['name']} blast on {m.id}: {res.text}: {outcome}",
            actor=source.id,
            target=m.id,
            rule=rule,
            chance=float(res.chance),
            rolls=res.rolls,
            outcome=outcome,
        )
        if res.won:
            dam = int(w.get("Dam", 1))
            if core.is_vehicle(m):
                vehicles.damage(state, ctx, m, dam, None, f"{w['name']} blast", source.id, blast)
            else:
                core.wound(state, ctx, m, dam, f"caught in the {w['name']} blast", rule, source.id)


def scatter(state: GameState, ctx: Context, shooter: Model, t: Model, w: dict) -> None:
    """A lost blast shot lands elsewhere (SWOMP-I-SCATTER): a d10 direction in tenths of a
    full turn from the line of fire (10 = straight on), a d10 distance in inches; every
    model under the marker then contests the Blast Rating."""
    lof = table.bearing(shooter.pos, t.pos)
    dr = ctx.dice.roll(10, "scatter direction", actor=shooter.id, rule=R_SCATTER)
    dd = ctx.dice.roll(10, "scatter distance", actor=shooter.id, rule=R_SCATTER)
    direction = (lof + 36.0 * dr.faces[0]) % 360.0
    centre = table.offset(t.pos, direction, float(dd.faces[0]))
    ctx.log.emit(
        "scatter",
        f'{w["name"]} misses and scatters {dd.faces[0]}" towards '
        f"{direction:.0f}\u00b0 (line of fire {lof:.0f}\u00b0 + {dr.faces[0]} x 36\u00b0) "
        f"to ({centre[0]:.1f}, {centre[1]:.1f})",
        actor=shooter.id,
        rule=R_SCATTER,
        rolls=[dr.faces[0], dd.faces[0]],
        data={"centre": list(centre)},
    )
    blast(state, ctx, shooter, centre, w, exclude=(), rule=R_SCATTER)
