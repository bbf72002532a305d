"""Build SWOMP games straight from model specs (no scenario file) for forced-dice tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.actions import Action
from engine.battlefield import Battlefield, TerrainFeature
from engine.dice import Dice
from engine.events import Event
from engine.game import Game
from engine.ruleset import load
from engine.state import GameState


def make(
    models: list[dict[str, Any]],
    first: str | None = "blue",
    terrain: tuple = (),
    seed: int = 1,
    turn_limit: int = 0,
    options: dict[str, Any] | None = None,
) -> Game:
    rs = load("swomp")
    built = {}
    sides: list[str] = []
    for spec in models:
        m, probs = rs.build_model({"facing": 0.0, "base": 25.0, **spec})
        assert not probs, probs
        assert m is not None
        built[m.id] = m
        if m.side not in sides:
            sides.append(m.side)
    feats = tuple(
        TerrainFeature(f"t{i}", kind, tuple(map(tuple, poly)))
        for i, (kind, poly) in enumerate(terrain)
    )
    state = GameState(ruleset="swomp", sides=sides, models=built)
    if turn_limit:
        state.vars["turn_limit"] = turn_limit
    if options:
        state.vars["options"] = dict(options)
    game = Game(rs, Battlefield(72.0, 48.0, feats), state, Dice(seed=seed))
    rs.setup(state, game.ctx, first)
    return game


def do(game: Game, action: Action, dice: Sequence[int] = (), exact: bool = True) -> list[Event]:
    """Apply with forced dice; by default every forced die must be used."""
    game.dice.force(list(dice))
    events = game.apply(action)
    if exact:
        assert game.dice.forced == [], f"unused forced dice {game.dice.forced}"
    game.dice.forced = []
    return events


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def attack(game: Game, action: Action, dice: Sequence[int] = (), exact: bool = True) -> list[Event]:
    """A charge or fight whose defenders stand (decline the -2 retreat, SWOMP "Retreating
    from close combat"); the forced dice then go to the contests as before."""
    from engine.actions import Choose
    from rulesets.swomp import reactions

    game.dice.force(list(dice))
    events = game.apply(action)
    while (p := reactions.owed(game.state)) is not None and reactions.kind(p) == "retreat":
        events += game.apply(Choose(option="stand"))
    if exact:
        assert game.dice.forced == [], f"unused forced dice {game.dice.forced}"
    game.dice.forced = []
    return events
