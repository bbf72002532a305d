"""Issue 20: GEM's position value prices who charges first next movement segment.

The sides move in initiative order (GEM-2), each turn's order rolled again with -5 for
each turn in a row a side has won it (GEM-2.0.1), and a charger strikes with Table 3's
bonus (GEM-2.3.1). In the mirror both sides counted only the enemy's charge, so two
equal hoplite blocks stood 13.6" apart all game and every game was drawn."""

import pytest

from engine.actions import Move
from engine.agents.greedy import GreedyAgent
from engine.testing import to_phase
from rulesets.gem import score

from .helpers import block_specs, make

#: the fronts of two hoplite blocks (MOV 4) this far apart: out of each other's charge,
#: and one 4" step from inside it
GAP = 7.5


def _standoff(first: str, limit: int = 8):
    """Two blocks of four hoplites facing each other ``GAP`` inches apart; ``first``
    moves first in turn 1. Blue is to move."""
    specs = block_specs("bh", "blue", (10, 10), 0.0, 4, 2) + block_specs(
        "rh", "red", (10 + GAP, 10), 180.0, 4, 2
    )
    g = make(specs, first=first, vars_={"objectives": [], "turn_limit": limit})
    to_phase(g, "movement", "blue")
    return g


def test_initiative_odds_favour_the_side_that_lost_it():
    """GEM-2.0.1: a d20 against a d20 less 5 (the winner's streak), ties rolled again:
    the side that lost this turn's initiative wins the next 70 of 96.25 times."""
    assert score.p_initiative(0, 5) == pytest.approx(0.7 / 0.9625)
    assert score.p_initiative(0, 0) == pytest.approx(0.5)


def test_who_charges_first():
    """Blue's movement begins with nothing moved: its charges go in first (and red's,
    to red, come after). Once blue has moved while red has yet to move, red's charge on
    whatever blue left in reach comes first for sure; once red has moved, next turn's
    initiative decides (red won this turn: -5); at the turn limit no charge is left to
    come. (Blue fresh to move was once priced as charged first: ending the last segment
    of a turn, which rolls the next initiative, then looked worse than it was.)"""
    g = _standoff("blue")
    assert score.first_charge(g.state, "blue") == (1.0, 0.0)
    assert score.first_charge(g.state, "red") == (0.0, 1.0)  # blue moves now
    assert score.first_charge(_after(g, _step_in()), "blue") == (0.0, 1.0)
    g = _standoff("red")
    assert score.first_charge(g.state, "blue") == (1.0, 0.0)  # red is done: blue's turn
    p = score.p_initiative(0, 5)
    assert score.first_charge(_after(g, _step_in()), "blue") == pytest.approx((p, 1 - p))
    g = _standoff("red", limit=1)
    assert score.first_charge(_after(g, _step_in()), "blue") == (0.0, 0.0)


def _step_in() -> Move:
    return Move(actor="bh", to=(14.0, 10.0), facing=0.0)


def _after(g, action):
    c = g.clone(dice_seed=0)
    c.apply(action)
    return c.state


def test_greedy_steps_into_reach_after_the_enemy_moved():
    """Red moved first this turn: blue steps in, and next turn charges first 73 times in
    100: the race is in blue's favour and red's block ends in its reach."""
    g = _standoff("red")
    assert g.check(_step_in()).ok
    after = _after(g, _step_in())
    assert score.charge_race(after, "blue") > 0 > score.charge_race(after, "red")
    chosen = GreedyAgent(1).choose(g, "blue")
    assert isinstance(chosen, Move) and chosen.actor == "bh"
    assert score.threats(_after(g, chosen), "red") > 0  # red's block is in its reach


def test_greedy_keeps_out_of_reach_when_the_enemy_moves_next():
    """Blue moves first: red, still to move this turn, would charge a block stepped into
    its reach, so blue does not step in. (The old score valued a block's charge without
    its spears, so no block threatened another, and blue walked into red's charge.)"""
    g = _standoff("blue")
    assert score.charge_race(_after(g, _step_in()), "blue") < 0
    chosen = GreedyAgent(1).choose(g, "blue")
    assert score.threats(_after(g, chosen), "blue") == 0.0


def test_no_charge_to_come_after_the_turn_limit():
    """In the last turn's movement, after red has moved, neither side's charge can come:
    stepping in neither gains nor costs a charge."""
    g = _standoff("red", limit=1)
    assert score.charge_race(_after(g, _step_in()), "blue") == 0.0


def test_a_block_charges_with_its_spears():
    """GEM-2.3.2: a hoplite block of two files and two ranks strikes with its front rank
    and half its second: 3 dice, charging as when charged."""
    g = _standoff("red")
    lead = g.state.models["bh1"]
    assert score.charge_dice(g.state, lead) == 3
