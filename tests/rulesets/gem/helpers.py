"""Build small GEM games in code (no scenario file): model entries, blocks laid out in
ranks and terrain pieces in GEM's terms, and turn 1 set up with the given side first (by
:mod:`engine.testing`, which also plays actions, reads the log and moves to a segment)."""

from __future__ import annotations

from typing import Any

from engine.battlefield import TerrainFeature
from engine.game import Game
from engine.testing import make_game


def model(mid: str, side: str, x: float, y: float, facing: float = 0.0, **kw: Any) -> dict:
    """A scenario model entry; like the scenario loader, it names a base only when given
    one (``base=...``), so the profile's base (or 25 mm) applies otherwise."""
    spec = {"id": mid, "side": side, "x": x, "y": y, "facing": facing}
    spec.update(kw)
    return spec


def block_specs(
    prefix: str,
    side: str,
    front: tuple[float, float],
    facing: float,
    n: int,
    files: int,
    profile: str = "hoplite",
    **kw: Any,
) -> list[dict]:
    from rulesets.gem.chapters.blocks import layout

    w = 25.0 / 25.4 + 0.02
    return [
        model(
            f"{prefix}{i + 1}",
            side,
            round(x, 4),
            round(y, 4),
            facing,
            unit=prefix,
            profile=profile,
            **kw,
        )
        for i, (x, y) in enumerate(layout(front, facing, n, files, w, w))
    ]


def terrain(
    kind: str, poly: list[tuple[float, float]], fid: str = "", height: float = 0.0
) -> TerrainFeature:
    return TerrainFeature(fid or kind, kind, tuple(poly), height)


def make(
    specs: list[dict],
    *,
    first: str | None = "blue",
    terrain_: tuple = (),
    seed: int = 1,
    vars_: dict | None = None,
    force: list[int] | None = None,
) -> Game:
    """A game set up for turn 1; ``force`` = dice the setup itself must roll (initiative
    when ``first`` is None, the roll for table edges when deployment is on). See
    :func:`engine.testing.make_game`."""
    return make_game(
        "gem",
        specs,
        terrain=terrain_,
        first=first,
        seed=seed,
        vars=vars_,
        setup_dice=force or [],
    )
