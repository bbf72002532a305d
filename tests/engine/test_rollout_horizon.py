"""How far the search's rollouts play (``SearchAgent.through``, docs/decisions/0010).

Inter Arma moves every side first, then shoots, then fights (IA-SEQUENCE). A rollout
of a movement-phase option stopped when play came back to its side after the enemy's
go (``through=1``): the enemy's go was only the end of its movement, so no shot of
either side was ever seen and every move was valued by its one step alone. With
``through=3`` the rollout plays on until the enemy has attacked and play is back with
its side: both sides' volleys are in the move's value (opt-in until measured better)."""

from __future__ import annotations

from engine.agents import SearchAgent
from engine.game import Game
from tests.engine.rollout_spy import rollout_attacks
from tests.rulesets.inter_arma.helpers import fig, game

BOW = [{"name": "bow", "kind": "bow"}]


def _archers() -> Game:
    """Blue's archer 8" from three red archers (in bow range, in the open), blue to
    move: whatever blue's one arrow does, at least two red archers shoot back."""
    g = game(
        fig("b_arc", "blue", 30.0, 20.0, weapons=BOW),
        fig("r_arc1", "red", 38.0, 18.0, weapons=BOW),
        fig("r_arc2", "red", 38.0, 20.0, weapons=BOW),
        fig("r_arc3", "red", 38.0, 22.0, weapons=BOW),
        fig("b_far", "blue", 5.0, 45.0),
        fig("r_far", "red", 67.0, 45.0),
    )
    assert g.state.phase == "movement" and g.to_act() == "blue"
    return g


def test_a_movement_rollout_plays_on_to_both_sides_volleys():
    g = _archers()
    _, old = rollout_attacks(SearchAgent(1, through=1), g)
    assert old == []  # red's answer was the end of its movement: no shot seen
    _, first = rollout_attacks(SearchAgent(1, through=2), g)
    assert first == ["blue", "red"]  # on to red's first arrow, and no further
    gain, new = rollout_attacks(SearchAgent(1, through=3), g)
    assert new[:1] == ["blue"] and new.count("red") >= 2  # red's whole volley
