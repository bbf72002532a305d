"""Build a small game in code and apply actions with forced dice: the rules tests' kit.

Why in the engine: every ruleset's tests need the same two moves (models from scenario
entries on an open table, then an action with the dice the rulebook's example rolls),
and three rulesets had grown three helper modules for them, each with its own names
and small differences. A new ruleset's tests start from these two functions.

    game = make_game("umr", [{"id": "a", "side": "blue", "x": 10, "y": 10},
                             {"id": "b", "side": "red", "x": 20, "y": 10}])
    events = apply(game, Shoot(actor="a", target="b"), dice=[4, 2, 5])

``apply`` insists that the action uses every forced die: a test that forces three faces
and sees two used is testing something else than it says. ``events_of``, ``refusal``,
``logged`` and ``to_phase`` read what happened and move a phased game on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.actions import Action, EndPhase
from engine.battlefield import Battlefield, TerrainFeature
from engine.dice import Dice
from engine.events import Event
from engine.game import Game
from engine.persistence import mark_start
from engine.ruleset import load
from engine.state import GameState, Model


def make_game(
    ruleset: str,
    models: Iterable[Mapping[str, Any]],
    *,
    terrain: Iterable[TerrainFeature] = (),
    first: str | None = "blue",
    seed: int = 1,
    table: tuple[float, float] = (72.0, 48.0),
    turn_limit: int = 0,
    vars: Mapping[str, Any] | None = None,
    setup_dice: Sequence[int] = (),
    check_army: bool = False,
) -> Game:
    """Turn 1 of a game of ``ruleset``, set up as a scenario file would set it up.

    ``models`` are scenario model entries (``id``, ``side``, ``x``, ``y``, ``stats``...);
    the sides come in the order they first appear. ``first`` has the initiative (None:
    rolled). ``vars`` seeds the ruleset's state (``turn_limit`` is one of them);
    ``setup_dice`` are faces the setup itself must roll (an initiative roll-off).
    ``check_army`` also applies the ruleset's army rules. A model the ruleset refuses
    fails the test with its problems.
    """
    rs = load(ruleset)
    built: dict[str, Model] = {}
    sides: list[str] = []
    for spec in models:
        model, problems = rs.build_model(dict(spec))
        if model is None or problems:
            raise AssertionError(f"model {spec.get('id')!r}: {problems}")
        built[model.id] = model
        if model.side not in sides:
            sides.append(model.side)
    if check_army:
        problems = rs.check_army(list(built.values()))
        if problems:
            raise AssertionError(f"army: {problems}")
    state = GameState(ruleset=ruleset, sides=sides, models=built, vars=dict(vars or {}))
    if turn_limit:
        state.vars["turn_limit"] = turn_limit
    dice = Dice(seed=seed)
    dice.force(list(setup_dice))
    game = Game(rs, Battlefield(table[0], table[1], tuple(terrain)), state, dice)
    game.log.action = None
    rs.setup(state, game.ctx, first)
    mark_start(game)
    return game


def apply(
    game: Game, action: Action, dice: Sequence[int] = (), *, exact: bool = True
) -> list[Event]:
    """Apply ``action`` with these faces forced, in order; the events it wrote.

    With ``exact`` (the default) every forced face must be used, else the test fails
    naming the leftovers; leftovers are dropped either way, so they never leak into the
    next action.
    """
    game.dice.force(list(dice))
    events = game.apply(action)
    unused = list(game.dice.forced)
    game.dice.forced = []
    if exact and unused:
        raise AssertionError(f"unused forced dice {unused}: {[e.text for e in events]}")
    return events


def events_of(events: Iterable[Event], kind: str) -> list[Event]:
    """The events of one kind ("resolution", "move", "refused"...), in order."""
    return [e for e in events if e.kind == kind]


def refusal(events: Sequence[Event]) -> str:
    """The text of the refusal ``events`` consists of; fails the test if they are
    anything else (the action was carried out, or wrote more than its refusal)."""
    assert [e.kind for e in events] == ["refused"], [e.to_dict() for e in events]
    return events[0].text


def logged(game: Game, kind: str | None = None) -> list[Event]:
    """Everything the game has logged so far (of one kind, if given)."""
    return [e for e in game.log.events if kind is None or e.kind == kind]


def to_phase(game: Game, phase: str, side: str | None = None, limit: int = 50) -> None:
    """End phases (``EndPhase``) until ``phase`` is reached, with ``side`` to act if
    given; fails the test if it is not reached within ``limit`` steps."""
    for _ in range(limit):
        if game.state.phase == phase and (side is None or game.state.active == side):
            return
        game.apply(EndPhase())
    raise AssertionError(f"never reached {phase} ({game.state.phase}, {game.state.active})")
