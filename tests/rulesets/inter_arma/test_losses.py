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


def test_the_turn_limit_counts_soldiers_not_civilians():
    """IA-I-END with IA-I-ALLIES: at the turn limit the side that lost fewer soldiers
    wins. Blue lost two civilians and red one soldier: red lost more soldiers, so blue
    wins; counting the civilians would have given the win to red."""
    from rulesets.inter_arma.victory import finish_on_losses

    civilians = []
    for n in range(2):
        c = fig(f"c{n}", "blue", 14 + 2 * n, 2)
        c["state"] = {"civilian": True}
        civilians.append(c)
    g = game(fig("b", "blue", 10, 2), *civilians, fig("r", "red", 40, 40), fig("r2", "red", 44, 40))
    for mid in ("c0", "c1", "r"):
        g.state.models[mid].removed = True
    finish_on_losses(g.state, g.ctx, "turn limit (6) reached")
    assert g.state.over is not None
    assert g.state.over["winner"] == "blue"
    assert "losses blue 0, red 1" in g.state.over["reason"]


def test_the_turn_limit_is_a_draw_on_equal_soldier_losses():
    """IA-I-END: equal soldier losses are a draw, whatever civilians died beside them."""
    from rulesets.inter_arma.victory import finish_on_losses

    c = fig("c", "blue", 14, 2)
    c["state"] = {"civilian": True}
    g = game(fig("b", "blue", 10, 2), fig("b2", "blue", 12, 2), c, fig("r", "red", 40, 40),
             fig("r2", "red", 44, 40))  # fmt: skip
    for mid in ("c", "b", "r"):
        g.state.models[mid].removed = True
    finish_on_losses(g.state, g.ctx, "turn limit (6) reached")
    assert g.state.over is not None and g.state.over["winner"] is None
