"""Build small UMR games in memory: model entries with UMR's defaults, box terrain and
the army rules applied (the UMR words for :mod:`engine.testing`, which builds the game
and plays actions with forced dice).

Why no files: most rule tests need two or three models on an open table; writing the
scenario inline keeps each test's setup next to its assertions. Golden tests use files.
"""

from __future__ import annotations

from typing import Any

from engine.battlefield import TerrainFeature
from engine.game import Game
from engine.ruleset import load
from engine.testing import make_game

RS = load("umr")


def spec(mid: str, side: str, x: float, y: float, **kw: Any) -> dict[str, Any]:
    """A scenario model entry: stats given as keyword ``stats``, ``state``, ``base``..."""
    return {
        "id": mid,
        "side": side,
        "x": float(x),
        "y": float(y),
        "facing": 0.0,
        "base": float(kw.pop("base", 25.0)),
        **kw,
    }


def terrain(
    fid: str, kind: str, box: tuple[float, float, float, float], height: float = 0.0
) -> TerrainFeature:
    x0, y0, x1, y1 = box
    return TerrainFeature(fid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def game(
    *specs: dict[str, Any],
    features: tuple[TerrainFeature, ...] = (),
    first: str = "blue",
    seed: int = 1,
    turn_limit: int = 0,
    table: tuple[float, float] = (72.0, 48.0),
) -> Game:
    """A UMR game from model specs (see :func:`engine.testing.make_game`); the army
    rules apply, as in a scenario file."""
    return make_game(
        "umr",
        specs,
        terrain=features,
        first=first,
        seed=seed,
        turn_limit=turn_limit,
        table=table,
        check_army=True,
    )


def hp(g: Game, mid: str) -> int:
    return g.state.models[mid].hp
