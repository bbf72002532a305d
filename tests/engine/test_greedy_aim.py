"""Issue 20: the greedy agent aims where the dice pay most. Its options are sampled on
common dice (every candidate meets the same faces), so the choice between two shots is
not left to which one happened to roll well in its own few samples.

UMR positions (UMR-BALLISTIC, UMR-DAMAGE): a rifleman with two riflemen in view, alike in
range and cover, one of them down to 1 health. Shooting the wounded one removes a model
on any hit (5 health's worth in the score, UMR-I-TURN-LIMIT, and its shots for the rest of
the game); the other only loses a few health. With 4 samples each on its own dice,
greedy shot the unhurt rifleman or walked off in 15 of these 24 seeds
(docs/decisions/0007)."""

from __future__ import annotations

import pytest

from engine.actions import Shoot
from engine.agents.greedy import GreedyAgent
from tests.rulesets.umr.helpers import game, spec


def _two_targets():
    return game(
        spec("b0", "blue", 36, 10, profile="rifleman"),
        spec("r_hurt", "red", 33, 28, profile="rifleman", state={"hp": 1}),
        spec("r_whole", "red", 39, 28, profile="rifleman"),
    )


@pytest.mark.parametrize("seed", range(24))
def test_greedy_finishes_the_wounded_model(seed):
    g = _two_targets()
    shots = sorted(a.target for a in g.candidates("blue") if isinstance(a, Shoot))
    assert shots == ["r_hurt", "r_whole"]
    assert g.odds(Shoot(actor="b0", target="r_hurt")).chance == pytest.approx(
        float(g.odds(Shoot(actor="b0", target="r_whole")).chance)
    )
    assert GreedyAgent(seed).choose(g, "blue") == Shoot(actor="b0", target="r_hurt")
