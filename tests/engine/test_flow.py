"""The base Ruleset's pending decisions: a decision owed hands play to the side that
answers it, only its answers are legal, and play resumes where it was."""

from __future__ import annotations

from engine.actions import Choose, EndActivation, Move, Shoot
from engine.ruleset import PENDING
from rulesets.example_d6 import ExampleD6
from tests.engine.conftest import make_toy_game


class Dodging(ExampleD6):
    """Example d6 where a model shot at may answer 'duck' (it steps back 1") or 'stand'."""

    def resolve(self, state, action, ctx):
        if isinstance(action, Choose):
            if action.option == "duck":
                state.models["r0"].y += 1.0
            return
        super().resolve(state, action, ctx)
        if isinstance(action, Shoot):
            t = state.models[action.target]
            self.ask(state, t.side, "dodge", f"{t.id} is shot at", options=("duck", "stand"))


def test_a_pending_decision_is_answered_by_its_side_then_play_resumes():
    g = make_toy_game()
    g.ruleset = rs = Dodging()
    g.dice.force([1])
    g.apply(Shoot(actor="b0", target="r0"))
    assert g.to_act() == "red" and g.state.pending[0]["kind"] == "dodge"
    assert g.state.to_dict()["pending"][0]["options"] == ["duck", "stand"]
    refused = g.check(Move(actor="b0", to=(10.0, 6.0)))
    assert refused.codes == (PENDING,) and "r0 is shot at" in refused.reason
    assert g.check(Choose(option="jump")).codes == (PENDING,)
    assert rs.candidates(g.state, "red", g.ctx) == [Choose(option="duck"), Choose(option="stand")]
    y = g.state.models["r0"].y
    g.apply(Choose(option="duck"))
    assert g.state.models["r0"].y == y + 1.0 and not g.state.pending
    assert g.to_act() == "blue" and g.check(EndActivation()).ok
    assert "pending" not in g.state.to_dict()  # an empty queue is not saved
