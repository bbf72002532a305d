"""The search's rollout policy weighs charges (``engine.agents.policy``, issue 20).

A GEM charge carries no damage odds (its blows fall in the melee segment), so a policy
of "the attack with the best expected damage, else end" never charged: the enemy's
answer to a move into its reach was always to end its movement, and the rollouts
rewarded stepping into the enemy's charge. Now a side's charge is played when the
position after it is worth more to that side than ending its movement."""

from engine.actions import Charge, EndPhase
from engine.agents import SearchAgent
from engine.testing import to_phase
from tests.rulesets.gem.helpers import block_specs, make


def _face_off(first: str):
    """Two blocks of four hoplites, fronts 3.5" apart (within a charge); ``first`` won
    the initiative. Red is to move: first, or after blue has ended its movement."""
    specs = block_specs("bh", "blue", (14, 10), 0.0, 4, 2) + block_specs(
        "rh", "red", (17.5, 10), 180.0, 4, 2
    )
    g = make(specs, first=first, vars_={"objectives": [], "turn_limit": 8})
    to_phase(g, "movement", first)
    if first == "blue":
        g.apply(EndPhase())
    assert g.state.phase == "movement" and g.to_act() == "red"
    assert g.allowed(Charge(actor="rh", target="bh1"))
    return g


def test_the_side_that_strikes_first_answers_with_its_charge():
    """Red has the initiative: it strikes first in this turn's melee (GEM-2.0.1) and
    with the charge's +2 (GEM-2.3.1), so its charge is worth more than ending; without
    ``charges`` the policy ends the movement, as before."""
    g = _face_off("red")
    agent = SearchAgent(1)
    assert agent._after(g, "red", Charge(actor="rh", target="bh1")) > agent._after(
        g, "red", EndPhase()
    )
    picked = agent._policy(g.clone(dice_seed=1), "red", 5)
    assert isinstance(picked, Charge) and picked.actor == "rh"
    old = SearchAgent(1, charges=False)._policy(g.clone(dice_seed=1), "red", 5)
    assert isinstance(old, EndPhase)


def test_no_charge_that_leaves_the_charger_worse_than_ending():
    """Blue has the initiative and strikes first: red's score puts its charge below
    ending its movement, and the policy ends it. A charge is played for its side's
    position value, not because it attacks."""
    g = _face_off("blue")
    agent = SearchAgent(1)
    assert agent._after(g, "red", Charge(actor="rh", target="bh1")) < agent._after(
        g, "red", EndPhase()
    )
    assert isinstance(agent._policy(g.clone(dice_seed=1), "red", 5), EndPhase)


def test_rulesets_without_the_knob_keep_the_old_policy():
    """Only a ruleset that says so (``rollout_charges``, GEM) has its charges weighed."""
    g = _face_off("red")
    assert getattr(g.ruleset, "rollout_charges", False) is True
    agent = SearchAgent(1)
    assert agent._charges(g)
    g.ruleset.__dict__["rollout_charges"] = False  # this instance only
    try:
        assert not agent._charges(g)
        assert isinstance(agent._policy(g.clone(dice_seed=1), "red", 5), EndPhase)
    finally:
        del g.ruleset.__dict__["rollout_charges"]
