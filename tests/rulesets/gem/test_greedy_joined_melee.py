"""Issue 20: a figure already in a melee is still open to the enemy's charges.

GEM-2.3: a charge may join a melee (the rules refuse only a charge on a unit the charger
already fights). The score counted the enemy's charges only on figures not yet in a
melee, so greedy sent its general after an archer beside a hoplite block, counted it
safe there, and lost it to the block's charge (GEM mirror, greedy against random)."""

import pytest

from engine.actions import Charge, EndPhase
from engine.testing import to_phase
from rulesets.gem.chapters import blocks, melee_value
from rulesets.gem.chapters.tables import table3

from .helpers import block_specs, make, model


def _general_in_melee():
    """Blue's general has charged a red archer; a red hoplite block stands 4" off."""
    specs = [
        model("g", "blue", 20.0, 10.0, 0.0, profile="general"),
        model("a", "red", 23.0, 10.0, 180.0, profile="archer"),
    ] + block_specs("rh", "red", (22.0, 14.0), 270.0, 4, 2)
    g = make(specs, first="blue", vars_={"objectives": []})
    to_phase(g, "movement", "blue")
    g.dice.force([20, 20])  # any fear check at contact passes
    g.apply(Charge(actor="g", target="a"))
    return g


def test_a_block_may_charge_a_general_already_fighting():
    """The threat is real: in red's movement the block's charge on the general is legal."""
    g = _general_in_melee()
    g.apply(EndPhase())
    assert g.state.phase == "movement" and g.state.active == "red"
    assert g.check(Charge(actor="rh", target="g")).ok


def test_the_score_counts_a_charge_on_a_figure_in_a_melee():
    """Blue's threats are the block's best exchange on the general (``_threat``), not
    nothing because the general is fighting the archer."""
    g = _general_in_melee()
    st = g.state
    lead = blocks.front_rank(st, "rh")[0]
    want = melee_value._threat(
        st, lead, melee_value.charge_dice(st, lead), st.models["g"], int(table3()["charged"])
    )
    assert want > 0
    assert melee_value.threats(st, "blue") == pytest.approx(want)
