"""Game rounds (UMR "Game round order"): initiative each round, alternating activation
of one unit at a time, removal at zero health, the end of the game and the turn limit."""

from __future__ import annotations

from engine.actions import Concede, EndActivation, EndTurn, Move, Shoot
from engine.testing import apply, refusal
from tests.rulesets.umr.helpers import game, hp, spec


def duel(**kw):
    return game(
        spec("a", "blue", 10, 10),
        spec("b", "blue", 10, 20),
        spec("x", "red", 20, 10),
        spec("y", "red", 20, 20),
        **kw,
    )


def test_first_fixes_round_one_and_later_rounds_roll_initiative():
    """UMR-ROUND: every round starts with a roll; the scenario's `first` fixes round 1 only.
    Ties are rolled again (UMR-I-ROUNDS: the dice follow the action that ends the round)."""
    g = duel(first="red")
    assert g.state.active == "red" and not g.dice.consumed
    apply(g, EndActivation(actor="x"))
    apply(g, EndActivation(actor="a"))
    apply(g, EndActivation(actor="y"))
    ev = apply(g, EndActivation(actor="b"), [3, 3, 2, 5])  # blue 3, red 3: tie; then 2 vs 5
    assert g.state.turn == 2 and g.state.active == "red"
    inits = [e for e in ev if e.kind == "initiative"]
    assert "tie on 3" in inits[2].text and inits[-1].data["order"] == ["red", "blue"]
    for mid in ("x", "a", "y"):
        apply(g, EndActivation(actor=mid))
    apply(g, EndActivation(actor="b"), [6, 1])
    assert g.state.turn == 3 and g.state.active == "blue"


def test_sides_alternate_one_unit_each():
    """UMR-ROUND: players take turns activating one unit; a unit acts once a round."""
    g = duel()
    apply(g, Move(actor="a", to=(10, 8)), [2])
    assert refusal(apply(g, Move(actor="x", to=(22, 10)))).startswith("it is blue's turn")
    why = refusal(apply(g, Move(actor="b", to=(10, 22))))
    assert why == "a is activating: end its activation first (UMR-ROUND)"
    apply(g, Move(actor="a", to=(8, 8)), [1])  # second die: the activation ends by itself
    assert g.state.active == "red"
    assert refusal(apply(g, Move(actor="b", to=(10, 22)))).startswith("it is red's turn")
    apply(g, EndActivation(actor="x"))
    assert (
        refusal(apply(g, Move(actor="a", to=(10, 12))))
        == "a has already activated this round (UMR-ROUND)"
    )
    apply(g, EndActivation(actor="b"))
    apply(g, EndActivation(actor="y"), [4, 2])
    assert g.state.turn == 2 and g.state.active == "blue"


def test_a_unit_may_activate_and_do_nothing():
    """UMR-ROUND: a player must activate a unit but it need not act."""
    g = duel()
    ev = apply(g, EndActivation(actor="b"))
    assert "b activates and takes no action" in ev[0].text
    assert g.state.active == "red" and "b" in g.state.vars["act"]["done"]


def test_removed_at_zero_health_even_before_activating_and_the_game_ends():
    """UMR-HEALTH, UMR-END: a model at zero health leaves at once; a side with no models
    left loses."""
    g = game(
        spec("a", "blue", 10, 10, stats={"BALLISTIC": 2, "DAMAGE": 1}),
        spec("x", "red", 20, 10, state={"hp": 3}),
        spec("y", "red", 20, 30),
    )
    ev = apply(g, Shoot(actor="a", target="x"), [5, 1, 4])
    assert hp(g, "x") == 0 and g.state.models["x"].removed
    assert [e.kind for e in ev] == ["resolution", "resolution", "removed"]
    assert refusal(apply(g, Shoot(actor="a", target="x"))) == "x has been removed from play"
    apply(g, Shoot(actor="a", target="y"), [6, 2, 6, 6, 6, 2])  # 6+6+6+2 +1 = 21 damage
    assert g.state.over == {"winner": "blue", "reason": "red has no models left (UMR-END)"}
    assert g.to_act() is None


def test_turn_limit_ends_the_game_on_remaining_health():
    """UMR-I-TURN-LIMIT: after the last round the side with more health left wins."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10, state={"hp": 9}), turn_limit=2)
    for _ in range(2):
        apply(g, EndTurn(), [] if g.state.turn == 2 else [5, 2])
    assert g.state.over["winner"] == "blue"
    assert g.state.over["reason"] == (
        "the turn limit of 2 rounds was reached; remaining "
        "health: blue 15, red 9 (UMR-I-TURN-LIMIT)"
    )
    g = game(
        spec("a", "blue", 10, 10, state={"hp": 9}),
        spec("x", "red", 20, 10, state={"hp": 9}),
        turn_limit=1,
    )
    apply(g, EndTurn())
    assert g.state.over["winner"] is None


def test_concede():
    """UMR-END: a player may concede; the other side wins."""
    g = duel()
    apply(g, Concede(actor=""))
    assert g.state.over == {"winner": "red", "reason": "blue conceded (UMR-END)"}


def test_losses_count_health_as_the_turn_limit_does():
    """UMR-I-TURN-LIMIT: remaining health decides the game at the turn limit, so a side's
    losses (the benches' "removed") are the share of its health gone, a wounded model's
    lost health included and a removed model's all of it."""
    g = game(
        spec("a", "blue", 10, 10),
        spec("b", "blue", 10, 20),
        spec("x", "red", 20, 10, state={"hp": 9}),
        spec("y", "red", 20, 20),
    )
    full = {m.id: m.max_hp for m in g.state.models.values()}
    assert g.ruleset.losses(g.state, "blue") == 0.0
    red = full["x"] + full["y"]
    assert g.ruleset.losses(g.state, "red") == 1.0 - (9 + full["y"]) / red
    g.state.models["y"].removed = True
    assert g.ruleset.losses(g.state, "red") == 1.0 - 9 / red
