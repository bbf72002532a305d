"""Inter Arma's losses as its victory counts them (IA-I-END, IA-I-ALLIES): the share of a
side's soldiers killed or wounded, which the benches report (``Ruleset.losses``)."""

from __future__ import annotations

from engine.actions import Shoot
from tests.rulesets.inter_arma.helpers import BASE, RS, act, fig, game, to_phase

BOW = [{"name": "bow", "kind": "bow"}]


def test_a_wounded_figure_counts_as_lost_though_still_on_the_table():
    """IA-I-END: a wounded figure is out of the fight; the base hook would count it a
    survivor, since it is not removed. A bow at 14 cm hits on 4, the save fails on 3."""
    g = game(
        fig("a", "blue", 10, 10, weapons=BOW),
        fig("r", "red", 10 + BASE + 7, 10),
        fig("r2", "red", 40, 40),
    )
    assert RS.losses(g.state, "red") == 0.0
    to_phase(g, "ranged")
    act(g, Shoot(actor="a", target="r"), [4, 3])
    r = g.state.models["r"]
    assert "wounded" in r.status and not r.removed
    assert RS.losses(g.state, "red") == 0.5
    assert RS.losses(g.state, "blue") == 0.0


def test_civilians_are_neither_losses_nor_strength():
    """IA-I-ALLIES: a civilian killed is no soldier lost, and not part of the strength."""
    c = fig("c", "blue", 14, 2)
    c["state"] = {"civilian": True}
    g = game(fig("b", "blue", 10, 2), fig("b2", "blue", 12, 2), c, fig("r", "red", 40, 40))
    g.state.models["c"].removed = True
    assert RS.losses(g.state, "blue") == 0.0
    g.state.models["b"].removed = True
    assert RS.losses(g.state, "blue") == 0.5
