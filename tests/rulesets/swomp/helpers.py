"""Build SWOMP games straight from model specs (no scenario file) for forced-dice tests:
the SWOMP words for :mod:`engine.testing`, which does the work."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.battlefield import TerrainFeature
from engine.events import Event
from engine.game import Game
from engine.testing import make_game


def make(
    models: list[dict[str, Any]],
    first: str | None = "blue",
    terrain: tuple[tuple[str, Any], ...] = (),
    seed: int = 1,
    turn_limit: int = 0,
    options: dict[str, Any] | None = None,
) -> Game:
    """A SWOMP game from model specs (25 mm bases facing east unless given) and terrain
    as (kind, polygon) pairs; see :func:`engine.testing.make_game`."""
    feats = tuple(
        TerrainFeature(f"t{i}", kind, tuple(map(tuple, poly)))
        for i, (kind, poly) in enumerate(terrain)
    )
    return make_game(
        "swomp",
        [{"facing": 0.0, "base": 25.0, **spec} for spec in models],
        terrain=feats,
        first=first,
        seed=seed,
        turn_limit=turn_limit,
        vars={"options": dict(options)} if options else None,
    )


def attack(game: Game, action: Action, dice: Sequence[int] = (), exact: bool = True) -> list[Event]:
    """A charge or fight whose defenders stand (decline the -2 retreat, SWOMP "Retreating
    from close combat"); the forced dice then go to the contests as before."""
    from engine.actions import Choose
    from rulesets.swomp.chapters import reactions

    game.dice.force(list(dice))
    events = game.apply(action)
    while (p := reactions.owed(game.state)) is not None and reactions.kind(p) == "retreat":
        events += game.apply(Choose(option="stand"))
    if exact:
        assert game.dice.forced == [], f"unused forced dice {game.dice.forced}"
    game.dice.forced = []
    return events
