"""Issue 20: GEM's position value counts what a rout check will take, and keeps a
figure's pull toward the foe it out-fights once it is in the melee.

A unit that has lost 60% of its start rolls a rout check each morale segment and leaves
the table whole on a failure (GEM-2.4.2, GEM-2.4.3: 18+ on a d20, with the modifiers of
GEM-2.4.4). Counted figure by figure, the second of three archers struck down was worth
no more than the first, though it takes the third with it."""

import pytest

from engine.actions import Charge
from engine.testing import to_phase
from rulesets.gem import score
from rulesets.gem.chapters import melee_value

from .helpers import block_specs, make, model


def _archers(prefix: str, side: str, x: float, y: float, facing: float) -> list[dict]:
    return [
        model(f"{prefix}{i + 1}", side, x + 2.5 * i, y, facing, unit=prefix, profile="archer")
        for i in range(3)
    ]


def _gain(g, removed: list[str]) -> float:
    """Blue's score with the red figures ``removed`` taken off, less its score now."""
    base = score.score(g.state, "blue")
    c = g.clone(dice_seed=0)
    for mid in removed:
        c.state.models[mid].removed = True
    return score.score(c.state, "blue") - base


def test_the_figure_that_routs_its_unit_is_worth_the_unit():
    """Red's archers ``ra`` have lost one of three; ``rb`` none, set out the same way.
    Striking down a second ``ra`` (67% lost, no leader near: no roll passes 18 - 4)
    leaves its third to the rout check: worth two archers, where a first ``rb`` is one."""
    specs = (
        _archers("ba", "blue", 10, 5, 90.0)
        + _archers("ra", "red", 5, 40, 270.0)
        + _archers("rb", "red", 25, 40, 270.0)
    )
    g = make(specs, vars_={"objectives": []})
    g.state.models["ra1"].removed = True
    one = _gain(g, ["rb2"])
    assert one > 0
    assert _gain(g, ["ra2"]) == pytest.approx(2 * one, rel=0.1)
    assert score.rout_risk(g.state, "red") == 0.0


def test_a_leader_near_keeps_a_share():
    """GEM-2.4.4: with its general within command range a unit at 67% lost passes on
    18+ (15 in 100), so its last archer keeps 15% of its worth in the score."""
    specs = _archers("ra", "red", 5, 40, 270.0) + [
        model("rg", "red", 7.5, 42, 270.0, profile="general"),
        model("bg", "blue", 50, 5, 90.0, profile="general"),
    ]
    g = make(specs, vars_={"objectives": []})
    g.state.models["ra1"].removed = True
    g.state.models["ra2"].removed = True
    last = score.worth(g.state.models["ra3"])
    assert score.rout_risk(g.state, "red") == pytest.approx(0.85 * last)


def test_a_charge_keeps_the_pull_of_the_foe_it_outfights():
    """A block in charge reach of a foe it out-fights pulls in full (``close_pull``);
    charging it keeps that pull rather than dropping it to nothing, so the charge is
    not priced four figures' pull below standing still."""
    specs = block_specs("bh", "blue", (10, 10), 0.0, 4, 2) + [
        model("ra1", "red", 13.5, 10, 180.0, unit="ra", profile="archer")
    ]
    g = make(specs, vars_={"objectives": []})
    to_phase(g, "movement", "blue")
    before = score.close_pull(g.state, "blue")
    assert before == pytest.approx(4.0, abs=0.01)
    charge = Charge(actor="bh", target="ra1")
    assert g.check(charge).ok
    c = g.clone(dice_seed=0)
    c.apply(charge)
    assert score.close_pull(c.state, "blue") == pytest.approx(before, abs=0.01)


def test_a_blow_on_a_routing_unit_is_worth_what_the_rout_leaves():
    """``rout_risk`` writes off the last of three archers with no leader near (no roll
    passes 18 - 4), so a charge on it threatens nothing more: counted in full, the
    figure was worth more alive in a melee than struck down, and greedy's archers
    stopped fighting a doomed foe (mirror greedy-rush game 4)."""
    specs = block_specs("bh", "blue", (10, 10), 0.0, 4, 2) + _archers("ra", "red", 12.5, 10, 180.0)
    g = make(specs, vars_={"objectives": []})
    whole = melee_value.threats(g.state, "red")
    assert whole > 0 and melee_value.standing(g.state, "ra") == 1.0
    for mid in ("ra2", "ra3"):
        g.state.models[mid].removed = True
    assert melee_value.standing(g.state, "ra") == 0.0
    assert melee_value.threats(g.state, "red") == 0.0
