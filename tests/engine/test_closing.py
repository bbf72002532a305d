"""engine.closing: the one pull toward the enemy every ruleset's score uses (issue 20),
pinned with exact figures."""

import pytest

from engine.closing import closeness, pull
from engine.state import Model


def at(mid: str, side: str, x: float, y: float) -> Model:
    return Model(id=mid, side=side, unit=mid, x=x, y=y)


def test_closeness_is_full_within_reach_and_fades_linearly_beyond():
    assert closeness(-2.0, 12.0) == 1.0
    assert closeness(0.0, 12.0) == 1.0
    assert closeness(3.0, 12.0) == pytest.approx(0.75)
    assert closeness(12.0, 12.0) == 0.0
    assert closeness(30.0, 12.0) == 0.0


def test_pull_without_a_gain_counts_the_nearest_foe_per_model():
    """Reach 6", span 12": a model 9" from its nearest foe is 3" beyond reach (0.75), one
    at 20" is 14" beyond (nothing); the farther foe adds nothing."""
    mine = [at("a", "blue", 0, 0), at("b", "blue", 0, 30)]
    foes = [at("x", "red", 9, 0), at("y", "red", 40, 0)]
    assert pull(mine, foes, lambda m: 6.0, 12.0) == pytest.approx(0.75 + 0.0)
    mine[1].y = 0.0
    mine[1].x = 20.0  # 11" from x: 5" beyond reach
    assert pull(mine, foes, lambda m: 6.0, 12.0) == pytest.approx(0.75 + 7 / 12)


def test_pull_weighs_each_foe_by_the_gain_and_ignores_foes_it_cannot_hurt():
    """The best gain x closeness wins: a foe worth 4 at 3" beyond (3.0) beats one worth
    1 within reach (1.0); a gain of nothing or less pulls nowhere."""
    mine = [at("a", "blue", 0, 0)]
    foes = [at("near", "red", 5, 0), at("rich", "red", 9, 0)]
    gains = {"near": 1.0, "rich": 4.0}
    assert pull(mine, foes, lambda m: 6.0, 12.0, gain=lambda m, e: gains[e.id]) == 3.0
    assert pull(mine, foes, lambda m: 6.0, 12.0, gain=lambda m, e: -1.0) == 0.0
