"""Initiative (GEM-2.0.1) with the rulebook's own worked example."""

from engine.actions import EndPhase

from .helpers import make, model


def _game():
    return make(
        [
            model("a1", "A", 10, 10, profile="archer"),
            model("b1", "B", 10, 40, 270, profile="archer"),
        ],
        first="A",
    )


def test_the_rulebook_example():
    """GEM-2.0.1: A has won the last two turns and rolls 18 -> 8; B rolls 8: a tie, both
    roll again; A 14, B 16: B wins, and next turn B has -5."""
    g = _game()
    g.state.vars["gem"]["streak"] = {"A": 2, "B": 0}
    from rulesets.gem.flow import roll_initiative

    g.dice.force([18, 8, 14, 16])
    order = roll_initiative(g.state, g.ctx)
    assert order == ["B", "A"]
    texts = [e.text for e in g.log.events if e.kind == "initiative"]
    assert any("= 8" in t for t in texts)
    assert any("tie on 8" in t for t in texts)
    assert g.state.vars["gem"]["streak"] == {"A": 0, "B": 1}
    from rulesets.gem.flow import streak_modifiers

    assert [m.value for m in streak_modifiers(g.state, "B")] == [-5]


def test_new_turn_rolls_initiative_with_the_streak():
    """GEM-2.0.1: turn 2 rolls d20 each; the side that won turn 1 has -5."""
    g = _game()
    assert g.state.vars["gem"]["streak"] == {"A": 1, "B": 0}
    g.dice.force([12, 9])
    for _ in range(20):
        if g.state.turn == 2:
            break
        g.apply(EndPhase())
    assert g.state.turn == 2
    assert g.state.vars["gem"]["order"] == ["B", "A"]  # 12 - 5 = 7 < 9
