"""Issue 20: a block overrunning its own skirmishers pays for them.

GEM-2.1.5: a unit may move through its own skirmishers, and they are removed at once.
The greedy agent did this to archers fighting a strong foe, because the score priced
their melee as ``min(expected hits, HIT left)``: two archers facing 2.1 expected hits
were taken as sure to die both, so removing them cost nothing more. The hits are a
count that varies (Poisson), and some of those archers live."""

import math

import pytest

from engine.actions import Charge, EndPhase
from engine.testing import to_phase
from rulesets.gem import score
from rulesets.gem.chapters import melee_value

from .helpers import block_specs, make, model

#: OFF 4, ATT 3: with the charge's +2 it hits an archer (DEF 3) 70% of the time
#: (Table 1, GEM-2.2.3), 2.1 hits a turn on the two archers' two HIT
BRUTE = {"OFF": 4, "DEF": 7, "HIT": 3, "ATT": 3, "MOV": 6, "MOR": 5}


def test_capped_hits_is_the_mean_of_a_poisson_count_capped():
    """Two expected hits on a unit with two HIT strike off P(X>=1) + P(X>=2) of them;
    with HIT to spare, all of them."""
    e = math.exp(-2.0)
    assert melee_value.capped_hits(2.0, 2) == pytest.approx((1 - e) + (1 - 3 * e))
    assert melee_value.capped_hits(2.0, 1) == pytest.approx(1 - e)
    assert melee_value.capped_hits(0.5, 16) == 0.5
    assert melee_value.capped_hits(0.0, 3) == 0.0


def _archers_charged():
    """A blue hoplite block with its two archers just in front, whom a red brute has
    charged; blue's movement."""
    specs = block_specs("bh", "blue", (10, 10), 0.0, 4, 2) + [
        model("ba1", "blue", 12.2, 9.5, 0, unit="ba", profile="archer"),
        model("ba2", "blue", 12.2, 10.5, 0, unit="ba", profile="archer"),
        model("rg", "red", 16, 10, 180, profile="general", stats=dict(BRUTE)),
        model("r2", "red", 60, 40, 180, profile="general"),
    ]
    g = make(specs, first="red", vars_={"objectives": []})
    to_phase(g, "movement", "red")
    g.dice.force([20, 20])  # fear checks pass
    g.apply(Charge(actor="rg", target="ba1"))
    g.apply(EndPhase())
    assert (g.state.phase, g.state.active) == ("movement", "blue")
    return g


def test_archers_left_in_the_melee_are_not_priced_as_lost():
    """The block's charge on the brute would remove both archers (GEM-2.1.5); left alone
    they lose 1.5 of their 2 HIT on average (``capped_hits``) and strike back. The old
    score took them as lost either way (``min(2.1, 2)``) and charged through them for
    nothing. (Whether to charge is now a close call, within a point: the block's fight
    with the brute this turn against half an archer more lost. Greedy once refused it
    only because a charge dropped the block's ``close_pull``, see test_score_routs.)"""
    g = _archers_charged()
    charge = Charge(actor="bh", target="rg")
    c = g.clone(dice_seed=0)
    events = c.apply(charge)
    assert sum("friendly skirmisher" in (e.text or "") for e in events) == 2
    both = sum(score.worth(g.state.models[m]) for m in ("ba1", "ba2"))
    c = g.clone(dice_seed=0)
    c.apply(EndPhase())
    assert c.state.phase != "movement"
    left = -melee_value.melee_edge(c.state, "blue")
    assert 0.7 * both < left < 0.8 * both
