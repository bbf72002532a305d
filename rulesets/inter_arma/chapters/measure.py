"""Measuring the table for Inter Arma: distances in cm, sight, terrain under a figure.

Why through the services: distances and lines of sight come from the engine's geometry
service (like every other ruleset), so the window, the AI and the rules agree to the
hundredth of an inch; this module only turns them into the text's centimetres and bands.
"""

from __future__ import annotations

from engine.battlefield import TERRAIN_CLASSES, Footprint, base_is_round, base_radius_in
from engine.geometry import (
    crossings,
    distance,
    distance_point,
    features_at,
    features_under,
    footprint_outline,
)
from engine.polygons import polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.whether import only_whether, whether
from rulesets.inter_arma.build import mounted
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs

#: edge-to-edge gap (inches) at which two bases are in contact (physics stops at 0.01")
CONTACT = 0.05
WOODS = ("woods", "heavy_woods")


def footprint(m: Model) -> Footprint:
    return Footprint(m.x, m.y, m.facing, tuple(m.base) if isinstance(m.base, list) else m.base)


def gap_cm(a: Model, b: Model) -> float:
    """Base edge to base edge, in cm (the engine measures inches)."""
    return T.cm(distance(footprint(a), footprint(b)))


def in_contact(a: Model, b: Model) -> bool:
    # bounding circles farther apart than CONTACT: the bases are too (the exact measure
    # is never less), and most pairs on the table are (issue 24)
    reach = base_radius_in(_base(a)) + base_radius_in(_base(b)) + CONTACT + 1e-9
    if abs(a.x - b.x) > reach or abs(a.y - b.y) > reach:
        return False
    return distance(footprint(a), footprint(b)) <= CONTACT


def _base(m: Model) -> float | tuple[float, float]:
    return tuple(m.base) if isinstance(m.base, list) else m.base


def kinds_under(ctx: Context, m: Model) -> set[str]:
    """Terrain kinds the figure's base stands on."""
    bf = ctx.battlefield
    return {bf.feature(f).kind for f in features_under(footprint(m), bf)}


def enemies_in_contact(state: GameState, m: Model) -> list[Model]:
    return [e for e in state.live() if e.side != m.side and in_contact(m, e)]


def conditions(state: GameState) -> str:
    return str(gs(state).get("conditions", "day"))


def sight_cm(state: GameState, ctx: Context, m: Model, t: Model) -> tuple[float, list[str]]:
    """IA-SIGHT, IA-WEATHER, IA-NIGHT: how far ``m`` sees ``t`` (cm) and why."""
    cond = conditions(state)
    cav = mounted(m) and cond == "day"
    rng = float(T.SIGHT_MOUNTED if cav else T.SIGHT_FOOT)
    why = [f"sight {rng:g} cm ({'mounted' if cav else 'on foot'}, IA-SIGHT)"]
    line = [m.pos, t.pos]
    woods = (kinds_under(ctx, m) | kinds_under(ctx, t)) & set(WOODS) or crossings(
        line, ctx.battlefield, WOODS
    )
    if woods:
        rng -= T.SIGHT_WOODS
        why.append("woods \u22126 cm (IA-SIGHT)")
    if cond in ("rain", "fog"):
        rng -= T.SIGHT_RAIN
        why.append(f"{cond} \u22124 cm (IA-WEATHER)")
    elif cond == "night":
        rng -= T.SIGHT_NIGHT
        why.append("night \u22128 cm (IA-NIGHT)")
    return rng, why


def line_blocked(ctx: Context, m: Model, t: Model) -> list[str]:
    """IA-SIGHT: rocks, buildings and walls (the tall terrain) or a crest between the two
    block the line; woods only shorten sight (they are measured by ``sight_cm``)."""
    s = ctx.geo.sight(footprint(m), footprint(t))
    if s.visible > 0:
        return []
    bf = ctx.battlefield
    tall = [
        b for b in s.blockers if TERRAIN_CLASSES.get(bf.feature(b).kind) in ("tall", "elevation")
    ]
    return tall


def sees(state: GameState, ctx: Context, m: Model, t: Model) -> str:
    """'' when ``m`` sees ``t``; else the reason, in cm (IA-SIGHT). Verdict only
    (``engine.whether``): a figure beyond the longest sight of all is refused before its
    sight is measured through the woods and the line drawn (issue 24)."""
    d = gap_cm(m, t)
    if d > T.SIGHT_MOUNTED + 1e-9 and only_whether():
        return f"{t.id} is beyond sight ({d:.1f} cm > {T.SIGHT_MOUNTED} cm, IA-SIGHT)"
    rng, why = sight_cm(state, ctx, m, t)
    if d > rng + 1e-9:
        return f"{t.id} is beyond sight ({d:.1f} cm > {rng:g} cm: {', '.join(why)})"
    blk = line_blocked(ctx, m, t)
    if blk:
        return f"{t.id} is out of sight: {', '.join(blk)} block the line (IA-SIGHT)"
    return ""


def in_sight(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """Whether ``m`` sees ``t`` (``sees`` asked for its verdict alone)."""
    with whether():
        return not sees(state, ctx, m, t)


def shot_cover(ctx: Context, m: Model, t: Model) -> list[str]:
    """IA-RANGED: wheat fields and heavy woods the target stands in or the shot crosses."""
    kinds = kinds_under(ctx, t) & set(T.SHOT_COVER)
    bf = ctx.battlefield
    kinds |= {bf.feature(f).kind for f in crossings([m.pos, t.pos], bf, T.SHOT_COVER)}
    return sorted(kinds)


def higher(ctx: Context, m: Model, t: Model) -> bool:
    """Whether ``m`` shoots down from a height (its ground is above the target's)."""
    return ctx.geo.elevation_at(m.pos) > ctx.geo.elevation_at(t.pos) + 1e-9


def base_radius(m: Model) -> float:
    from engine.battlefield import base_radius_in

    return base_radius_in(m.base)


def perch(ctx: Context, m: Model) -> str:
    """IA-RANGED: the building (tower, keep) the figure stands atop, '' if none."""
    bf = ctx.battlefield
    return next((f for f in features_at(m.pos, bf) if bf.feature(f).kind == "building"), "")


def from_base_cm(ctx: Context, building: str, t: Model) -> float:
    """IA-RANGED: a shot from atop a building is measured from its base: the gap (cm)
    from the building's footprint to the target's base (the nearest vertex of either
    to the other shape; a round base exactly)."""
    poly = list(ctx.battlefield.feature(building).polygon)
    fp = footprint(t)
    if base_is_round(fp.base):
        d = max(0.0, polygon_distance(t.pos, poly) - base_radius_in(fp.base))
    else:
        d = min(
            min(polygon_distance(v, poly) for v in footprint_outline(fp)),
            min(distance_point(fp, v) for v in poly),
        )
    return T.cm(d)
