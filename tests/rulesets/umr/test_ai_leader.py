"""The computer and the leader's gift (UMR-LEADER, issue 20): once a round the leader
gives a character of his team an extra action die, for free. The score values a die
given and not yet rolled as its holder's best shot, and the gift comes first among the
leader's options, so the computer gives it every round it has a shot to give it to."""

from __future__ import annotations

import pytest

from engine.actions import Shoot
from engine.agents import GreedyAgent
from engine.testing import apply
from rulesets.umr import candidates, score
from rulesets.umr.actions import Lead
from tests.rulesets.umr.helpers import game, spec


def _squad(*extra: dict):
    """A blue squad leader and rifleman 10" from a red rifleman on an open table: short
    range, no cover (UMR-BALLISTIC, UMR-RANGE)."""
    return game(
        spec("lead", "blue", 10, 10, profile="squad_leader"),
        spec("rifle", "blue", 10, 14, profile="rifleman"),
        spec("x", "red", 21, 12, profile="rifleman"),
        *extra,
    )


def test_a_die_given_is_worth_its_holders_best_shot():
    """UMR-LEADER: the rifleman given a die can shoot once more this round; the score
    rises by his best shot's expected damage (the old score did not move at all)."""
    g = _squad()
    before = g.score("blue")
    shot = score.best_shots(g.state, g.ctx)["rifle"]
    assert shot > 1.0
    apply(g, Lead(actor="lead", target="rifle"), [])
    assert g.score("blue") - before == pytest.approx(shot, rel=1e-9)
    assert g.score("red") - (-before) == pytest.approx(-shot, rel=1e-9)


def test_the_gift_is_offered_though_the_leader_has_foes_in_view():
    """UMR-LEADER, the menu: six blue units (a budget of 9 options each, ``LIMIT``) and six red
    riflemen in view of the leader: his five shots, two charges and two steps filled
    the budget and the gift, offered last, was never on the menu."""
    reds = [spec(f"r{i}", "red", 20 + 3 * i, 30, profile="rifleman") for i in range(6)]
    blues = [spec(f"b{i}", "blue", 20 + 3 * i, 12, profile="rifleman") for i in range(5)]
    g = game(spec("lead", "blue", 36, 14, profile="squad_leader"), *blues, *reds)
    menu = g.candidates("blue")
    gifts = [a for a in menu if isinstance(a, Lead)]
    assert Lead(actor="lead", target="lead") in gifts
    assert len(gifts) == 2
    assert sum(isinstance(a, Shoot) and a.actor == "lead" for a in menu) >= 4


@pytest.mark.parametrize("seed", range(6))
def test_greedy_gives_the_die_before_it_ends(seed):
    """UMR-LEADER: the leader has spent his two dice; his options are the gift (to himself or the
    rifleman) or ending his activation. The gift is a shot more: greedy gives it (the old
    score valued both the same and the pick fell to the tie-break)."""
    g = _squad()
    apply(g, Shoot(actor="lead", target="x"), [1, 2])  # misses: 1 does not beat 2 + 2
    apply(g, Shoot(actor="lead", target="x"), [1, 2])
    assert candidates.candidates(g.state, "blue", g.ctx)
    picked = GreedyAgent(seed).choose(g, "blue")
    assert isinstance(picked, Lead), picked


def test_a_die_given_to_a_model_with_no_shot_is_still_worth_a_walk():
    """UMR-LEADER, UMR-MOVEMENT: in round 1 of a battle no one is in range. The die still
    walks its holder: worth ``GIFT_FLOOR``, so the gift beats ending the activation."""
    g = game(
        spec("lead", "blue", 10, 10, profile="squad_leader"),
        spec("x", "red", 60, 40, profile="rifleman"),
    )
    assert score.best_shots(g.state, g.ctx)["lead"] == 0.0
    before = g.score("blue")
    apply(g, Lead(actor="lead", target="lead"), [])
    assert g.score("blue") - before == pytest.approx(score.GIFT_FLOOR)
