"""Issue 20: a block that must turn to reach an objective has a move toward it.

GEM-3.7: a side wins by holding an objective at the end of a turn, so the computer's menu
offers each unit a way onto it. A block pays for a wheel with the distance its outer
front corner travels (GEM-I-WHEEL), and the old advances faced the objective at once and
walked 0.9 or 0.4 of MOV on top: a block more than about 60 degrees off the objective
had no legal move toward it (the Roman legion stood beside the hill all game)."""

import math

from engine.actions import Move
from engine.testing import to_phase
from rulesets.gem.chapters import blocks

from .helpers import block_specs, make, model

AT = (40.0, 30.0)
HILL = {"id": "the hill", "x": AT[0], "y": AT[1], "radius": 3, "side": "blue", "by_turn": 8}


def _front_gap(g, action: Move) -> float:
    c = g.clone(dice_seed=0)
    c.apply(action)
    rec = blocks.record(c.state, "bh")
    return math.dist((rec["front"][0], rec["front"][1]), AT)


def test_a_block_facing_away_can_still_advance_on_the_objective():
    """A block of twelve (4 files) faces east; the hill is 20" to its north, 90 degrees
    off: a full wheel costs 2" x pi/2 = 3.1" of its 4" move. It is offered a legal move
    that brings its front nearer the hill, turned toward it."""
    specs = block_specs("bh", "blue", (40, 10), 0.0, 12, 4, profile="legionary") + [
        model("r", "red", 4, 44, 180, profile="general"),
    ]
    g = make(specs, vars_={"objectives": [HILL]})
    to_phase(g, "movement", "blue")
    rec = blocks.record(g.state, "bh")
    now = math.dist((rec["front"][0], rec["front"][1]), AT)
    moves = [a for a in g.candidates("blue") if isinstance(a, Move) and a.actor == "bh"]
    nearer = [a for a in moves if _front_gap(g, a) < now - 0.5]
    assert nearer, [a.to_dict() for a in moves]
    assert all(g.check(a).ok for a in nearer)
