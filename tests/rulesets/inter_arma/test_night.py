"""Inter Arma 1.06: night (4.II d): the direction dice and disorder, forced dice."""

from __future__ import annotations

from engine.actions import EndPhase, Move
from rulesets.inter_arma.chapters import night
from tests.rulesets.inter_arma.helpers import act, fig, game, texts


def test_direction_bands_and_the_commanders_help():
    """IA-NIGHT d: 12-11 90 left, 10-9 45 left, 8-6 as meant, 5-4 45 right, 3-2 90 right;
    a commander present adds or takes 1 where it makes a difference."""
    assert [night.veer(t) for t in (12, 11, 10, 9, 8, 6, 5, 4, 3, 2)] == [
        90, 90, 45, 45, 0, 0, -45, -45, -90, -90,
    ]  # fmt: skip
    assert [night.helped(t) for t in (11, 9, 7, 5, 3)] == [10, 8, 7, 6, 4]


def test_a_group_veers_at_night():
    """IA-NIGHT d: 6+6 = 12 turns the walk 90 degrees left (east becomes north)."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 60, 40), conditions="night")
    ev = act(g, Move(actor="b", to=(12, 10)), [6, 6])
    assert "90\u00b0 left" in texts(ev)
    b = g.state.models["b"]
    assert (round(b.x, 6), round(b.y, 6)) == (10, 12)


def test_one_throw_per_group_and_turn():
    """IA-I-NIGHT: the first figure of a unit to move throws for all of it."""
    a = fig("a", "blue", 10, 10)
    b = fig("b", "blue", 10, 14)
    a["unit"] = b["unit"] = "band"
    g = game(a, b, fig("r", "red", 60, 40), conditions="night")
    act(g, Move(actor="a", to=(12, 10)), [2, 3])  # 5: 45 right
    act(g, Move(actor="b", to=(12, 14)), [])
    assert round(g.state.models["b"].y, 3) < 14


def test_disorder_after_five_night_turns():
    """IA-NIGHT: out of combat for five night turns, figures are disordered and each
    side takes one extra morale test (here 5+5 and 6+6: regular, inspired)."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 60, 40), conditions="night")
    for _ in range(5 * 6 - 1):
        act(g, EndPhase())
    ev = act(g, EndPhase(), [5, 5, 6, 6])
    assert "disordered" in g.state.models["b"].status and "army morale" in texts(ev)
