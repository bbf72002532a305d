"""The table never breaks (audit reliability.md D4): after every applied action of the
contract test's random games, in every ruleset and scenario, no two bases on the table
overlap by more than 0.001", every base is on the table, hit points are within their
bounds, and positions and facings are finite numbers.

Models that are not standing on the table are left out: removed ones, undeployed
placeholders (which wait where the scenario put them) and figures riding in a vehicle.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import pytest

from engine import geometry
from engine.game import Game
from engine.scenario import load_scenario, new_game
from engine.state import Model
from tests.test_contract import MAX_ACTIONS, TURN_LIMIT, CheckingAgent, _scenarios

SEEDS = int(os.environ.get("WARBENCH_INVARIANT_SEEDS", "2"))
TOLERANCE = 1e-3  # inches


def _standing(m: Model) -> bool:
    off = ("undeployed", "aboard", "driving")
    return not m.removed and not any(s in m.status or m.vars.get(s) for s in off)


def broken_invariants(game: Game) -> list[str]:
    """Every invariant the table breaks now, as sentences."""
    out = []
    bf = game.battlefield
    live = [m for m in game.state.models.values() if _standing(m)]
    for m in game.state.models.values():
        if not all(math.isfinite(v) for v in (m.x, m.y, m.facing)):
            out.append(f"{m.id} at ({m.x}, {m.y}) facing {m.facing}: not finite")
        if not 0 <= m.hp <= max(m.max_hp, 0) and not m.removed:
            out.append(f"{m.id} has {m.hp} hp of {m.max_hp}")
    if out:
        return out
    feet = {m.id: geometry.Footprint(m.x, m.y, m.facing, m.base) for m in live}
    for m in live:
        x0, y0, x1, y1 = _box(m)
        if x0 < -TOLERANCE or y0 < -TOLERANCE or x1 > bf.width + TOLERANCE:
            out.append(f"{m.id}'s base leaves the table ({x0:.3f}, {y0:.3f}, {x1:.3f})")
        elif y1 > bf.depth + TOLERANCE:
            out.append(f"{m.id}'s base leaves the table (top {y1:.3f})")
    for i, a in enumerate(live):
        for b in live[i + 1 :]:
            if abs(a.x - b.x) > 6 or abs(a.y - b.y) > 6:
                continue  # no base is 6" across
            if geometry.overlaps(feet[a.id], feet[b.id], tol=TOLERANCE):
                out.append(f"{a.id} and {b.id} overlap")
    return out


def _box(m: Model) -> tuple[float, float, float, float]:
    """The bounding box of a model's base (corners of a rectangle, or a circle)."""
    from engine.loader import corners

    pts = corners(m.x, m.y, m.facing, m.base)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _cases() -> list:
    out = []
    for path in _scenarios():
        rid = f"{path.parent.parent.name}/{path.stem}"
        out.append(pytest.param(path, id=rid))
    return out


@pytest.mark.parametrize("path", _cases())
def test_every_action_keeps_the_table_whole(path: Path):
    for seed in range(SEEDS):
        scn = load_scenario(path)
        scn.seed = seed
        scn.turn_limit = min(scn.turn_limit or TURN_LIMIT, TURN_LIMIT)
        game = new_game(scn)
        start = broken_invariants(game)
        assert not start, f"seed {seed}: the scenario starts broken: {start}"
        agents = {s: CheckingAgent(seed * 31 + i) for i, s in enumerate(game.state.sides)}
        n = 0
        while (side := game.to_act()) is not None and n < MAX_ACTIONS:
            action = agents[side].choose(game.clone(dice_seed=n, viewer=side), side)
            game.apply(action)
            broken = broken_invariants(game)
            assert not broken, f"seed {seed}, action {n} ({action.describe()}): {broken}"
            n += 1
