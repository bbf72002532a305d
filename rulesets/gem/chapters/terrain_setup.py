"""Terrain placement (GEM-2.0.2): before the sides are chosen, the sides take turns, the
side that goes first first, placing one bunch of terrain anywhere on the table until none
is left. Played when the scenario sets ``options = { terrain_placement = true }``
(GEM-I-TERRAIN): each terrain piece of the scenario is a bunch, and the map's drawing is
where a bunch lies until it is placed (and where "end phase" leaves it).

Why the state holds every bunch's centre (``vars.gem.bunches.at``) and not how far it
moved: the battlefield a game measures on is derived from it (``placed``), the same
whatever battlefield it starts from, so a save replayed from its start, an undo and an
AI's clone all see the terrain the state says (``Game`` follows it after each action).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.actions import Action, EndPhase
from engine.battlefield import Battlefield, TerrainFeature, base_radius_in
from engine.polygons import polygon_distance
from engine.ruleset import Context, load
from engine.state import GameState

from ..actions import PlaceTerrain
from ..state import gs, option

STEP = "terrain"
TEXT = "places a bunch of terrain anywhere on the table (GEM-2.0.2)"
VERBS = ("place_terrain", "end_phase")
EPS = 1e-6


def centre(f: TerrainFeature) -> tuple[float, float]:
    """Where a bunch is said to stand: the mean of its outline's corners."""
    n = len(f.polygon)
    return sum(p[0] for p in f.polygon) / n, sum(p[1] for p in f.polygon) / n


def placed(bf: Battlefield, state: GameState) -> Battlefield:
    """``bf`` with every bunch moved to the centre the state gives it; ``bf`` itself
    when nothing moves (the measuring memos live on the battlefield object)."""
    at = gs(state).get("bunches", {}).get("at") if "gem" in state.vars else None
    if not at:
        return bf
    feats, moved = [], False
    for f in bf.terrain:
        want = at.get(f.id)
        if want is not None:
            cx, cy = centre(f)
            dx, dy = float(want[0]) - cx, float(want[1]) - cy
            if abs(dx) > EPS or abs(dy) > EPS:
                f = replace(f, polygon=tuple((x + dx, y + dy) for x, y in f.polygon))
                moved = True
        feats.append(f)
    return replace(bf, terrain=tuple(feats)) if moved else bf


def start(state: GameState, ctx: Context, order: list[str]) -> bool:
    """GEM-2.0.2 begins: every bunch lies where the map drew it, and the side that goes
    first places one. False when the table has no terrain to place."""
    bunches = sorted(f.id for f in ctx.battlefield.terrain)
    if not bunches:
        return False
    gs(state)["bunches"] = {
        "at": {f.id: list(centre(f)) for f in ctx.battlefield.terrain},
        "left": bunches,
        "order": list(order),
    }
    ctx.log.emit(
        "note",
        f"the terrain is set up first: {len(bunches)} bunches, placed in turn from "
        f"{order[0]} (GEM-2.0.2)",
        actor=order[0],
        rule="GEM-2.0.2",
    )
    _ask(state, order[0])
    return True


def _ask(state: GameState, side: str) -> None:
    state.phase, state.active = STEP, side
    load("gem").ask(state, side, STEP, f"{side} {TEXT}", verbs=VERBS)


def wanted(state: GameState) -> bool:
    return option(state, "terrain_placement") and "bunches" not in gs(state)


def problems(state: GameState, decision: Mapping[str, Any], a: Action, ctx: Context) -> list[str]:
    """A bunch not yet placed, put wholly on the table; with the figures already on the
    table (no deployment), not on top of one (GEM-I-TERRAIN)."""
    if isinstance(a, EndPhase) or not isinstance(a, PlaceTerrain):
        return []
    left = gs(state)["bunches"]["left"]
    if a.feature not in left:
        return [f"no bunch of terrain '{a.feature}' left to place (left: {', '.join(left)})"]
    if a.to is None:
        return ["place_terrain needs `to`: where the bunch's centre goes"]
    f = _moved(ctx.battlefield.feature(a.feature), a.to)
    w, d = ctx.battlefield.width, ctx.battlefield.depth
    if not all(-EPS <= x <= w + EPS and -EPS <= y <= d + EPS for x, y in f.polygon):
        return [f"{a.feature} at ({a.to[0]:g}, {a.to[1]:g}) would reach off the table (GEM-2.0.2)"]
    if not option(state, "deployment"):
        under = _figures_under(state, f)
        if under:
            return [f"{a.feature} at ({a.to[0]:g}, {a.to[1]:g}) would lie on {under[0]}"]
    return []


def _moved(f: TerrainFeature, to: tuple[float, float]) -> TerrainFeature:
    cx, cy = centre(f)
    dx, dy = float(to[0]) - cx, float(to[1]) - cy
    return replace(f, polygon=tuple((x + dx, y + dy) for x, y in f.polygon))


def _figures_under(state: GameState, f: TerrainFeature) -> list[str]:
    """Figures whose base the bunch would touch (a rectangular base by the circle round
    it: a bunch is not put snug against a figure's corner either)."""
    return [
        m.id
        for m in state.live()
        if polygon_distance((m.x, m.y), f.polygon) < base_radius_in(m.base) - EPS
    ]


def answer(state: GameState, decision: Mapping[str, Any], a: Action, ctx: Context) -> None:
    """Place the bunch (end phase: the first bunch left stays where the map has it),
    then the other side's turn, until none is left."""
    side = str(decision["side"])
    rec = gs(state)["bunches"]
    if isinstance(a, PlaceTerrain) and a.to is not None:
        fid, to = a.feature, (float(a.to[0]), float(a.to[1]))
        why = "places"
    else:
        fid = rec["left"][0]
        to = tuple(rec["at"][fid])
        why = "leaves where the map has it"
    rec["left"].remove(fid)
    rec["at"][fid] = [to[0], to[1]]
    ctx.log.emit(
        "move",
        f"{side} {why} {fid} at ({to[0]:.1f}, {to[1]:.1f}) (GEM-2.0.2)",
        actor=side,
        rule="GEM-2.0.2",
    )
    if rec["left"]:
        order = rec["order"]
        _ask(state, order[(order.index(side) + 1) % len(order)])


def replies(state: GameState, decision: Mapping[str, Any], ctx: Context) -> list[Action]:
    """Leave the next bunch where the map has it, or put a bunch in one of a few places:
    the table's centre line at a quarter, half and three quarters of its width."""
    out: list[Action] = [EndPhase()]
    bf = ctx.battlefield
    for fid in gs(state)["bunches"]["left"][:3]:
        for k in (1, 2, 3):
            out.append(PlaceTerrain(feature=fid, to=(bf.width * k / 4, bf.depth / 2)))
    return [a for a in out if not problems(state, decision, a, ctx)]
