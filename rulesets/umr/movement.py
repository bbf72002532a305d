"""Movement (UMR-MOVEMENT): a move or charge spends one action die, rolled in inches; a
jump or a climb adds several dice into one roll. Rough ground takes one inch off a roll,
water is swum at half speed, a climb covers half the dice, and a model that drops from
high up may be hurt (UMR-FALLING).

How a scripted or clicked move plays (designer's interpretation UMR-I-MOVE): the player
names the path first, then the die is rolled, and the model goes as far along that path
as the roll allows (water inches cost two); the physics service stops it at the first
base or wall it touches. Inches the path does not need are lost. So check() can say
whether the move is possible at all without rolling, and odds() gives the exact chance
of reaching the end of the path.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.actions import Charge, Move
from engine.battlefield import TerrainFeature
from engine.dice import Modifier, percent
from engine.polygons import point_in_polygon, polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint
from rulesets.umr import combat, common, measure, pool
from rulesets.umr.actions import Climb, Jump
from rulesets.umr.attacks import deal, roll_damage
from rulesets.umr.combat import HIT, SAVED, Defence
from rulesets.umr.terrain import Point, TerrainIndex, table

#: A base this close (inches) to a wall, building or rocks may start to climb it.
CLIMB_REACH = 0.5


def sync(state: GameState, ctx: Context) -> None:
    ctx.physics.sync({m.id: footprint(m) for m in state.live()})


def move_mods(m: Model, rough_id: str | None) -> list[Modifier]:
    mods = []
    k = int(m.stats.get("MOVE", 0))
    if k:
        mods.append(Modifier(k, "MOVE", "UMR-PERSONALITY"))
    if rough_id:
        mods.append(Modifier(-1, f"rough ground ({rough_id})", "UMR-ROUGH"))
    return mods


def cost_to_rough(idx: TerrainIndex, path: list[Point]) -> tuple[TerrainFeature, float] | None:
    """The first rough ground the path's centre line meets, and the allowance spent
    before reaching it (water counted double); None when the path stays clear.

    Why: UMR-ROUGH takes an inch off the roll of a model moving *through* rough ground,
    so a roll that runs out before the rough ground pays nothing for it."""
    f = idx.rough_on(path)
    if f is None:
        return None
    if point_in_polygon(path[0][0], path[0][1], f.polygon):
        return f, 0.0
    at, run = math.inf, 0.0
    poly = f.polygon
    for a, b in zip(path, path[1:]):
        seg = math.dist(a, b)
        for i in range(len(poly)):
            t = _cross(a, b, poly[i], poly[(i + 1) % len(poly)])
            if t is not None:
                at = min(at, run + t * seg)
        if at < math.inf:
            break
        run += seg
    return f, idx.cost(_prefix(path, at if at < math.inf else 0.0))


def _cross(a: Point, b: Point, c: Point, d: Point) -> float | None:
    """Where (0..1 along a->b) the segment a->b crosses the segment c->d, or None."""
    rx, ry, sx, sy = b[0] - a[0], b[1] - a[1], d[0] - c[0], d[1] - c[1]
    den = rx * sy - ry * sx
    if abs(den) < 1e-12:
        return None
    qx, qy = c[0] - a[0], c[1] - a[1]
    t, u = (qx * sy - qy * sx) / den, (qx * ry - qy * rx) / den
    return max(0.0, t) if -1e-12 <= t <= 1 + 1e-12 and -1e-12 <= u <= 1 + 1e-12 else None


def _prefix(path: list[Point], length: float) -> list[Point]:
    """The first ``length`` inches of ``path``."""
    out = [path[0]]
    left = length
    for a, b in zip(path, path[1:]):
        d = math.dist(a, b)
        if d >= left:
            t = left / d if d > 0 else 0.0
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            return out
        out.append(b)
        left -= d
    return out


def rough_allowance(rolled: int, before: float | None) -> tuple[float, bool]:
    """The inches a roll gives on a path whose rough ground starts ``before`` inches in:
    the full roll if it runs out first; otherwise one inch less, but never short of the
    rough ground's edge (the lost inch is paid inside it). Returns (allowance, paid)."""
    if before is None or rolled <= before + 1e-9:
        return float(rolled), False
    return max(before, rolled - 1.0), True


def reach_chance(bonus: int, cost: float) -> Fraction:
    """Chance that one movement die (+bonus) covers ``cost`` inches."""
    return combat.at_least(math.ceil(cost - 1e-9), bonus)


# --------------------------------------------------------------------------- checks


def _path_problems(ctx: Context, path: tuple[Point, ...] | list[Point]) -> list[str]:
    why = []
    if len(path) < 2 or all(math.dist(p, path[0]) < 1e-9 for p in path[1:]):
        return ["the move goes nowhere: give `to` or `path`"]
    bf = ctx.battlefield
    for p in path[1:]:
        if not bf.on_table(*p):
            why.append(f"the path leaves the table at ({p[0]:g}, {p[1]:g})")
            break
    f = table(ctx).tall_on(list(path))
    if f is not None:
        why.append(
            f"the path runs into {f.id} ({f.kind}): walls, buildings and rocks "
            f"cannot be walked through, only climbed (UMR-CLIMBING)"
        )
    return why


def _leave_melee(state: GameState, m: Model) -> list[str]:
    if measure.foes_in_contact(state, m):
        why = measure.break_away(state, m)
        return [why] if why else []
    return []


def _start(state: GameState, m: Model, group: str = "move", n: int = 1) -> list[str]:
    return common.climbing(m) + common.need_die(state, m, group, n)


def check_move(state: GameState, a: Move, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    why = _start(state, m)
    if a.mode not in ("", "walk"):
        why.append(
            f"umr moves have no '{a.mode}' mode: a move is one die; use jump or climb "
            f"to add dice together, charge to close with an enemy (UMR-MOVEMENT)"
        )
    why += _path_problems(ctx, a.waypoints(m.pos))
    return why + _leave_melee(state, m)


def charge_path(m: Model, t: Model, given: tuple[Point, ...] = ()) -> list[Point]:
    """The charge's path: the player's waypoints (if any), then straight at the target to
    where the bases touch (the physics service stops the base at the contact)."""
    pts: list[Point] = [m.pos] + [p for p in given if math.dist(p, m.pos) > 1e-9]
    last = pts[-1]
    d = math.dist(last, t.pos)
    if d < 1e-9:
        return pts
    run = (measure.gap(m, t) if len(pts) == 1 else d - _radius(m) - _radius(t)) + 0.05
    if run > 0.05 + 1e-9 or len(pts) == 1:
        ux, uy = (t.x - last[0]) / d, (t.y - last[1]) / d
        pts.append((last[0] + ux * run, last[1] + uy * run))
    return pts


def check_charge(state: GameState, a: Charge, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    why = _start(state, m)
    t = state.models.get(a.target)
    if t is None or t.removed or t.side == m.side:
        return why + [f"'{a.target}' is not an enemy on the table"]
    if measure.in_contact(m, t):
        return why + [f"{m.id} already touches {t.id}: fight instead (UMR-MELEE)"]
    if float(t.vars.get("elev", 0.0)) > 0:
        # a charger up on a feature drops to the ground first (UMR-I-FALL); a target up
        # on one can only be reached by climbing
        why.append(f"{t.id} is up on {t.vars.get('on')}: it cannot be reached on foot")
    if not why:
        path = charge_path(m, t, a.path)
        off = [p for p in path[1:] if not ctx.battlefield.on_table(*p)]
        if off:
            why.append(f"the path leaves the table at ({off[0][0]:g}, {off[0][1]:g})")
        f = table(ctx).tall_on(path)
        if f is not None:
            why.append(
                f"{f.id} ({f.kind}) stands between {m.id} and {t.id}: no straight "
                f"charge (UMR-CLIMBING)"
            )
    return why + _leave_melee(state, m)


def check_jump(state: GameState, a: Jump, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    n = a.count or common.dice_for(state, m, "move")
    if a.count < 0:
        return why + ["a jump adds 1 or more dice"]
    why = _start(state, m, n=max(1, n))
    if a.to is None:
        return why + ["a jump needs `to`: where the model leaps"]
    why += _path_problems(ctx, [m.pos, a.to])
    return why + _leave_melee(state, m)


def _route(
    ctx: Context, m: Model, fid: str, to: Point | None
) -> tuple[list[tuple[str, float]], float]:
    """The climb's stretches ("up", "across", "down") and the starting elevation."""
    idx = table(ctx)
    f = idx.tall_feature(fid)
    assert f is not None
    h = idx.readings.height_of(f)
    on_top = m.vars.get("on") == fid and float(m.vars.get("elev", 0.0)) > 0
    legs: list[tuple[str, float]] = [] if on_top else [("up", float(h))]
    if to is not None:
        legs.append(("across", float(idx.length_inside(f, m.pos, to))))
        legs.append(("down", h))
    return legs, (h if on_top else 0.0)


def check_climb(state: GameState, a: Climb, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    n = a.count or common.dice_for(state, m, "move")
    if a.count < 0:
        return why + ["a climb adds 1 or more dice"]
    why = common.need_die(state, m, "move", max(1, n))
    cur = m.vars.get("climb")
    if cur:
        if a.feature and a.feature != cur["feature"]:
            why.append(
                f"{m.id} is part-way up {cur['feature']}: it must finish that climb (UMR-CLIMBING)"
            )
        if a.to is not None:
            why.append("a climb already under way keeps its destination; leave `to` out")
        return why
    idx = table(ctx)
    f = idx.tall_feature(a.feature) if a.feature else None
    if f is None:
        return why + [f"'{a.feature}' is not a wall, building or rocks to climb (UMR-CLIMBING)"]
    on_top = m.vars.get("on") == f.id and float(m.vars.get("elev", 0.0)) > 0
    if float(m.vars.get("elev", 0.0)) > 0 and not on_top:
        why.append(f"{m.id} is up on {m.vars.get('on')}, not on {f.id}")
    rad = _radius(m)
    if not on_top and polygon_distance(m.pos, f.polygon) - rad > CLIMB_REACH:
        why.append(
            f"{m.id} is not at the foot of {f.id}: its base must be within "
            f'{CLIMB_REACH:g}" of it to climb (UMR-CLIMBING)'
        )
    if on_top and a.to is None:
        why.append(
            f"{m.id} is already on top of {f.id}: give `to`, the ground point to climb down to"
        )
    if a.to is not None:
        why += _landing_problems(state, ctx, m, f.id, a.to, rad, idx)
    if not on_top:
        why += _leave_melee(state, m)
    return why


def _landing_problems(
    state: GameState, ctx: Context, m: Model, fid: str, to: Point, rad: float, idx: TerrainIndex
) -> list[str]:
    why = []
    f = idx.tall_feature(fid)
    assert f is not None
    if not ctx.battlefield.on_table(*to):
        return [f"({to[0]:g}, {to[1]:g}) is off the table"]
    if point_in_polygon(to[0], to[1], f.polygon) or idx.tall_at(to) is not None:
        return [f"({to[0]:g}, {to[1]:g}) is not on the ground: it is inside a tall feature"]
    if polygon_distance(to, f.polygon) - rad > CLIMB_REACH:
        why.append(f'({to[0]:g}, {to[1]:g}) is not at the foot of {f.id} (within {CLIMB_REACH:g}")')
    other = idx.tall_on([m.pos, to], skip=fid)
    if other is not None:
        why.append(f"the way over {f.id} to ({to[0]:g}, {to[1]:g}) runs into {other.id}")
    for o in state.live():
        if o.id != m.id and math.dist(o.pos, to) < rad + _radius(o) - 1e-6:
            why.append(f"({to[0]:g}, {to[1]:g}) is taken by {o.id}")
            break
    return why


# --------------------------------------------------------------------------- falling


def fall(state: GameState, ctx: Context, m: Model) -> None:
    """Drop from a tall feature to the ground (UMR-FALLING): one floor or less is safe
    ("anyone falling from one floor or lower receives no penalties"); a longer fall takes
    "a damage test of one attack dice per floor", one for every whole floor fallen
    (UMR-I-FALL): an attack die against a defence die, no bonuses, damage on a win."""
    elev = float(m.vars.get("elev", 0.0))
    fid = m.vars.get("on", "")
    floor = table(ctx).readings.floor
    floors = int(elev / floor + 1e-9)
    tests = floors if floors > 1 else 0
    m.vars["elev"] = 0.0
    m.vars["on"] = ""
    m.vars.pop("climb", None)
    ctx.log.emit(
        "status",
        f'{m.id} drops {elev:g}" ({floors} floor{"s" if floors != 1 else ""}'
        f' of {floor:g}") from {fid}: {tests} falling damage test'
        f"{'s' if tests != 1 else ''} (UMR-FALLING)",
        actor=m.id,
        rule="UMR-FALLING",
        outcome="falls",
        data={"tests": tests},
    )
    p = combat.contest(0, Defence())
    for i in range(tests):
        ar = ctx.dice.roll(
            6, f"falling test {i + 1}", actor=m.id, rule="UMR-FALLING", chance=p[HIT]
        )
        dr = ctx.dice.roll(6, "defence (no bonus)", actor=m.id, rule="UMR-FALLING")
        a, d = ar.faces[0], dr.faces[0]
        if d == 6 or a <= d:
            why = "natural six on defence" if d == 6 else f"{a} does not beat {d}"
            ctx.log.emit(
                "resolution",
                f"{m.id} falling test {i + 1}: attack d6 {a} vs defence "
                f"d6 {d}: {why}, unhurt (UMR-FALLING)",
                actor=m.id,
                target=m.id,
                rule="UMR-FALLING",
                chance=float(p[HIT]),
                rolls=[a, d],
                outcome=SAVED if d == 6 else "miss",
            )
            continue
        ctx.log.emit(
            "resolution",
            f"{m.id} falling test {i + 1}: attack d6 {a} beats defence d6 {d}: hurt (UMR-FALLING)",
            actor=m.id,
            target=m.id,
            rule="UMR-FALLING",
            chance=float(p[HIT]),
            rolls=[a, d],
            outcome=HIT,
        )
        amount, faces = roll_damage(ctx, m.id, 0, "falling damage", "UMR-FALLING")
        deal(
            state,
            ctx,
            m,
            amount,
            f"{m.id} falls: damage {' + '.join(map(str, faces))}",
            m.id,
            "UMR-FALLING",
            faces,
        )
        if m.removed:
            return


# --------------------------------------------------------------------------- applying


def _go(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    allowance: float,
    airborne: bool = False,
) -> tuple[float, float, str | None, bool]:
    """Walk ``path`` with ``allowance`` inches; returns (travelled, swum, blocked_by,
    reached_end)."""
    idx = table(ctx)
    if airborne:
        total = math.dist(path[0], path[-1])
        run = min(total, allowance)
        end = (
            path[-1]
            if run >= total
            else (
                path[0][0] + (path[-1][0] - path[0][0]) * run / total,
                path[0][1] + (path[-1][1] - path[0][1]) * run / total,
            )
        )
        pts, swum, complete = [path[0], end], 0.0, run >= total - 1e-9
    else:
        w = idx.walk(path, allowance)
        pts = [path[0]] + [leg.b for leg in w.legs]
        swum, complete = w.extra, w.complete
    if len(pts) < 2 or math.dist(pts[0], pts[-1]) < 1e-9:
        return 0.0, 0.0, None, False
    sync(state, ctx)
    res = ctx.physics.move(m.id, pts[1:])
    m.x, m.y = res.end
    m.vars["moved"] = round(float(m.vars.get("moved", 0.0)) + res.travelled, 2)
    return (
        res.travelled,
        (swum if res.complete else min(swum, res.travelled)),
        res.blocked_by,
        complete and res.complete,
    )


def _move_text(
    m: Model,
    verb: str,
    roll_txt: str,
    allowance: float,
    length: float,
    cost: float,
    travelled: float,
    swum: float,
    blocked: str | None,
    reached: bool,
    chance: Fraction,
) -> str:
    s = f'{m.id} {verb}: {roll_txt} = {allowance:g}"; goes {travelled:.1f}"'
    if swum > 0:
        s += f' ({swum:.1f}" of it swimming at half speed, UMR-SWIMMING)'
    if blocked:
        s += f", stopped by {blocked}"
    elif reached:
        s += " and reaches the end of its path"
        if allowance - cost > 0.05:
            s += " (the inches left over are lost, UMR-ACTION-DICE)"
    else:
        s += f' of a {length:.1f}" path'
        if cost > length + 0.05:
            s += f' that costs {cost:.1f}" with the water'
        s += ": the roll runs out"
    return s + f" (chance to reach the end {percent(chance)}, UMR-MOVEMENT)"


def _roll_move(
    ctx: Context,
    m: Model,
    purpose: str,
    mods: list[Modifier],
    n: int,
    srcs: list[str],
    chance: Fraction | None,
) -> tuple[int, list[int], list[str]]:
    r = ctx.dice.roll(
        6, purpose, n=n, modifiers=mods, actor=m.id, rule="UMR-MOVEMENT", chance=chance
    )
    sixes = [rule for f, s in zip(r.faces, srcs, strict=True) if (rule := pool.six_bonus(m, f, s))]
    return max(0, r.total), list(r.faces), sixes


def _six_text(m: Model, sixes: list[str]) -> str:
    if not sixes:
        return ""
    n = len(sixes)
    what = "a bonus action die" if n == 1 else f"{n} bonus action dice"
    return (
        f"; {'a natural six earns' if n == 1 else f'{n} natural sixes earn'} {m.id} "
        f"{what} to use at once ({sixes[0]})"
    )


def _drop_first(state: GameState, ctx: Context, m: Model) -> bool:
    """A model up on a feature that walks or jumps off falls first; True if it survives."""
    if float(m.vars.get("elev", 0.0)) > 0 and not m.vars.get("climb"):
        fall(state, ctx, m)
    return not m.removed


def apply_path_move(
    state: GameState,
    ctx: Context,
    m: Model,
    path: list[Point],
    verb: str,
    facing: float | None = None,
) -> None:
    common.start(state, m)
    if not _drop_first(state, ctx, m):
        return
    idx = table(ctx)
    rough = cost_to_rough(idx, path)
    mods = move_mods(m, None)
    cost = idx.cost(path)
    full = move_mods(m, rough[0].id if rough else None)
    chance = reach_chance(sum(x.value for x in full), cost)
    src = pool.spend(m, "move")
    rolled, faces, sixes = _roll_move(
        ctx, m, f"movement ({pool.source_name(m, src)})", mods, 1, [src], chance
    )
    allowance, paid = rough_allowance(rolled, rough[1] if rough else None)
    if paid:
        mods = full
    travelled, swum, blocked, reached = _go(state, ctx, m, path, allowance)
    if facing is not None:
        m.facing = float(facing)
    length = sum(math.dist(p, q) for p, q in zip(path, path[1:]))
    txt = _move_text(
        m,
        verb,
        f"movement d6 {faces[0]}{common.mods_text(mods)}",
        allowance,
        length,
        cost,
        travelled,
        swum,
        blocked,
        reached,
        chance,
    )
    ctx.log.emit(
        "move",
        txt + _six_text(m, sixes),
        actor=m.id,
        rule="UMR-MOVEMENT",
        chance=float(chance),
        rolls=faces,
        outcome="reached" if reached else "short",
        data={"to": [m.x, m.y], "inches": round(travelled, 2), "die": src},
    )
    common.after_die_action(state, m)
    common.refresh_status(ctx, m)


def apply_move(state: GameState, a: Move, ctx: Context) -> None:
    m = state.models[a.actor]
    apply_path_move(state, ctx, m, list(a.waypoints(m.pos)), "moves", a.facing)


def apply_charge(state: GameState, a: Charge, ctx: Context) -> None:
    m = state.models[a.actor]
    t = state.models[a.target]
    apply_path_move(state, ctx, m, charge_path(m, t, a.path), f"charges {t.id}")
    if not m.removed and measure.in_contact(m, t):
        ctx.log.emit(
            "status",
            f"{m.id} is in base contact with {t.id}: it may fight (UMR-MELEE)",
            actor=m.id,
            target=t.id,
            rule="UMR-MELEE",
            outcome="contact",
        )


def _spend_n(m: Model, n: int) -> list[str]:
    return [pool.spend(m, "move") for _ in range(n)]


def apply_jump(state: GameState, a: Jump, ctx: Context) -> None:
    """Jump (UMR-MOVEMENT, UMR-I-JUMP): the dice are added, +MOVE once, -1 when taking
    off from rough ground; the model leaps in a straight line over water and rough ground
    and lands where the total runs out (in the water if it falls short of the far bank)."""
    m = state.models[a.actor]
    common.start(state, m)
    if not _drop_first(state, ctx, m):
        return
    assert a.to is not None
    n = a.count or common.dice_for(state, m, "move")
    idx = table(ctx)
    rough = idx.in_rough(m.pos)
    mods = move_mods(m, rough.id if rough else None)
    dist = math.dist(m.pos, a.to)
    srcs = _spend_n(m, n)
    total, faces, sixes = _roll_move(ctx, m, f"jump ({n} dice added)", mods, n, srcs, None)
    travelled, _, blocked, reached = _go(state, ctx, m, [m.pos, a.to], total, airborne=True)
    txt = (
        f"{m.id} jumps: {n}d6 {' + '.join(map(str, faces))}{common.mods_text(mods)} = "
        f'{total}" toward a {dist:.1f}" leap; goes {travelled:.1f}"'
    )
    if blocked:
        txt += f", stopped by {blocked}"
    elif reached:
        txt += " and lands on the spot"
    else:
        txt += " and falls short"
        if common.swimming(ctx, m):
            txt += " into the water, swimming (UMR-SWIMMING)"
    ctx.log.emit(
        "move",
        txt + f"; UMR-MOVEMENT{_six_text(m, sixes)}",
        actor=m.id,
        rule="UMR-MOVEMENT",
        rolls=faces,
        outcome="reached" if reached else "short",
        data={"to": [m.x, m.y], "inches": round(travelled, 2), "dice": n},
    )
    common.after_die_action(state, m)
    common.refresh_status(ctx, m)


def _advance(legs: list[tuple[str, float]], done: float, pips: float) -> float:
    """How far along the climb's route ``pips`` inches of dice carry a model that has
    already covered ``done``: up and down cost two pips an inch (UMR-CLIMBING: the dice
    are halved "to see how many inches you can climb vertically"); the stretch across
    the top is walked, an inch a pip."""
    at = 0.0
    for kind, length in legs:
        if done >= at + length - 1e-12:
            at += length
            continue
        rate = 1.0 if kind == "across" else 2.0
        here = max(done, at)
        step = min(at + length - here, pips / rate)
        done = here + step
        pips -= step * rate
        at += length
        if pips <= 1e-12:
            break
    return done


def pips_needed(legs: list[tuple[str, float]], done: float = 0.0) -> float:
    """Dice pips still needed to finish a climb: two an inch up or down, one across."""
    need, at = 0.0, 0.0
    for kind, length in legs:
        left = max(0.0, at + length - max(done, at))
        need += left * (1.0 if kind == "across" else 2.0)
        at += length
    return need


def _elev_at(legs: list[dict], start: float, done: float) -> float:
    e = start
    left = done
    for kind, length in legs:
        step = min(left, length)
        if kind == "up":
            e += step
        elif kind == "down":
            e -= step
        left -= step
        if left <= 0:
            break
    return max(0.0, e)


def apply_climb(state: GameState, a: Climb, ctx: Context) -> None:
    """Climb (UMR-CLIMBING, UMR-I-CLIMB): the dice are added, +MOVE once; halved, they
    are the inches climbed up or down; the stretch across the top is walked at full rate."""
    m = state.models[a.actor]
    common.start(state, m)
    cur = m.vars.get("climb")
    if not cur:
        legs, e0 = _route(ctx, m, a.feature, a.to)
        cur = {
            "feature": a.feature,
            "to": [float(a.to[0]), float(a.to[1])] if a.to else None,
            "legs": [list(x) for x in legs],
            "start": e0,
            "done": 0.0,
        }
    n = a.count or common.dice_for(state, m, "move")
    mods = move_mods(m, None)
    srcs = _spend_n(m, n)
    total, faces, sixes = _roll_move(ctx, m, f"climb ({n} dice added, halved)", mods, n, srcs, None)
    gain = total / 2
    route = sum(x[1] for x in cur["legs"])
    legs = [(k, float(v)) for k, v in cur["legs"]]
    cur["done"] = min(route, _advance(legs, float(cur["done"]), total))
    elev = _elev_at(legs, float(cur["start"]), cur["done"])
    fid = cur["feature"]
    txt = (
        f"{m.id} climbs {fid}: {n}d6 {' + '.join(map(str, faces))}"
        f'{common.mods_text(mods)} = {total}, halved = {gain:g}" up or down'
        f"{' (the top is walked at full rate)' if any(k == 'across' for k, _ in legs) else ''}; "
    )
    if cur["done"] < route - 1e-9:
        m.vars["climb"] = cur
        m.vars["elev"] = round(elev, 2)
        m.vars["on"] = fid
        txt += f'{cur["done"]:g} of {route:g}" done, {elev:g}" up: still climbing'
        outcome = "climbing"
    else:
        m.vars.pop("climb", None)
        to = cur["to"]
        if to is None:
            m.vars["elev"] = round(elev, 2)
            m.vars["on"] = fid
            txt += f'reaches the top of {fid}, {elev:g}" up'
            outcome = "on top"
        else:
            taken = [
                o.id
                for o in state.live()
                if o.id != m.id and math.dist(o.pos, to) < _radius(o) + _radius(m) - 1e-6
            ]
            if taken:
                h = max(float(v) for k, v in cur["legs"] if k == "down")
                m.vars["elev"] = float(h)
                m.vars["on"] = fid
                txt += f"the landing spot is taken by {taken[0]}: it waits on top"
                outcome = "on top"
            else:
                m.x, m.y = float(to[0]), float(to[1])
                m.vars["elev"] = 0.0
                m.vars["on"] = ""
                txt += f"climbs down at ({to[0]:g}, {to[1]:g})"
                outcome = "down"
    ctx.log.emit(
        "move",
        txt + f" (UMR-CLIMBING){_six_text(m, sixes)}",
        actor=m.id,
        rule="UMR-CLIMBING",
        rolls=faces,
        outcome=outcome,
        data={"elev": m.vars.get("elev", 0.0), "gain": gain},
    )
    common.after_die_action(state, m)
    common.refresh_status(ctx, m)


def _radius(m: Model) -> float:
    from engine.battlefield import base_radius_in

    return base_radius_in(m.base)
