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
from engine.agents.greedy import GreedyAgent, luck, unlucky_mean
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


def test_the_luck_taken_out_of_one_roll_leaves_its_expectation():
    """One roll at 25%: three samples miss (luck -0.25 each), one hits (+0.75) and is
    worth 8. The plain mean says 2.0 by chance; with the luck out it is 0.25 * 8."""
    values = [0.0, 0.0, 0.0, 8.0]
    lucks = [-0.25, -0.25, -0.25, 0.75]
    assert unlucky_mean(values, lucks) == pytest.approx(2.0)
    assert unlucky_mean([0.0, 0.0, 8.0, 8.0], [-0.25, -0.25, 0.75, 0.75]) == pytest.approx(2.0)
    # no spread in the luck: nothing to correct by
    assert unlucky_mean([1.0, 3.0], [0.0, 0.0]) == 2.0


def test_luck_is_unknown_where_a_roll_has_a_third_outcome():
    """Inter Arma logs a save with the chance of "saved" and three outcomes (saved,
    wounded, dead): hits less chances would not average 0 there, so no correction."""
    g = _two_targets()
    assert luck(g) == 0.0
    g.ctx.log.emit("resolution", "hit", chance=0.25, outcome="hit")
    assert luck(g) == pytest.approx(0.75)
    g.ctx.log.emit("resolution", "save", chance=0.5, outcome="wounded")
    assert luck(g) is None


def test_greedys_memo_and_refinement_change_no_value():
    """``weigh`` values a position reached twice once, and refines the best attacks
    from the first look's samples: every option's value is the one it gets alone, on
    the same dice, with nothing remembered."""
    g = _two_targets()
    agent = GreedyAgent(5)
    candidates = g.candidates("blue")
    weighed = agent.weigh(g, "blue", candidates, 0.3, 1234)
    assert len(weighed) == len(candidates)
    for o in weighed:
        alone = GreedyAgent(5).evaluate(g, "blue", o.action, 0.3, 1234, o.samples)
        assert o.samples == alone.samples
        assert o.value == pytest.approx(alone.value, abs=1e-12), o.action.describe()
