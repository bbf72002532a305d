"""When an objective is counted (GEM-3.7, GEM-I-OBJECTIVES): the rulebook sets objectives
to reach by a given turn or lose, and lets a game run until a turn that wins it, so the
objective's side wins at the end of the first turn it holds the place, and loses at the
end of turn N if it never did. Held means a figure of its side within the radius and no enemy figure there; it is
counted once a turn, after the morale segment, never in the middle of a turn."""

from engine.actions import EndPhase

from .helpers import make, model

HILL = {"id": "the hill", "x": 36.0, "y": 24.0, "radius": 3.0, "side": "blue", "by_turn": 2}


def _game(blue_at: tuple[float, float], red_at: tuple[float, float] = (36.0, 45.0)):
    specs = [
        model("b", "blue", *blue_at, 90, profile="archer"),
        model("r", "red", *red_at, 270, profile="archer"),
    ]
    return make(specs, vars_={"objectives": [dict(HILL)]})


def _end_turn(g, turn: int) -> list[str]:
    """End segments until turn ``turn`` is over (or the game is): the segments seen, each
    still undecided when it was ended."""
    seen = []
    while not g.state.over and g.state.turn == turn:
        seen.append(g.state.phase)
        g.apply(EndPhase())
    return seen


def test_held_at_the_end_of_the_turn_wins_then_and_not_before():
    """A figure of the objective's side on the hill from the start, no enemy there: the
    game runs through turn 1's segments (those with nothing to do are skipped) and ends
    only when the last has ended."""
    g = _game((36.0, 24.0))
    seen = _end_turn(g, 1)
    assert seen[:2] == ["movement", "movement"] and "missile" in seen
    assert g.state.over and g.state.over["winner"] == "blue"
    assert g.state.over["reason"] == "blue took the hill by turn 1"


def test_an_enemy_figure_inside_the_radius_denies_the_objective():
    """One enemy figure within the radius: the place is not held, the game goes on to
    turn 2, and at its end (the objective's turn) the other side wins."""
    g = _game((36.0, 24.0), red_at=(37.5, 25.5))
    _end_turn(g, 1)
    assert not g.state.over and g.state.turn == 2
    _end_turn(g, 2)
    assert g.state.over and g.state.over["winner"] == "red"
    assert g.state.over["reason"] == "blue did not take the hill by turn 2"


def test_a_figure_just_outside_the_radius_does_not_hold_it():
    """3.2" from the centre of a 3" objective is outside it: nothing is taken."""
    g = _game((36.0, 20.8))
    _end_turn(g, 1)
    assert not g.state.over
