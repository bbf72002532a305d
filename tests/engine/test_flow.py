"""The base Ruleset's flow beyond example_d6's alternating activations: pending decisions
(a decision owed hands play to the side that answers it, only its answers are legal,
play resumes where it was) and phased turns."""

from __future__ import annotations

from engine.actions import Choose, EndActivation, EndPhase, Move, Shoot
from engine.ruleset import NOT_YOUR_TURN, PENDING
from engine.turn_orders import InitiativeFlow, PlayerTurnFlow
from engine.turns import DONE, PhasedFlow, RollOff
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


class Phases(ExampleD6):
    """Example d6 in two phases: everyone moves, then everyone shoots."""

    #: example d6 declares an alternating flow; this one is phased
    turns = PhasedFlow(("movement", "shooting"), RollOff(6), once=("move", "shoot"))  # type: ignore[assignment]

    def problems(self, state, action, ctx):
        if action.KIND != {"movement": "move", "shooting": "shoot"}[state.phase]:
            return [f"no {action.KIND} in the {state.phase} phase"]
        return super().problems(state, action, ctx)


def test_a_phased_turn_plays_each_phase_side_by_side_then_the_next_turn():
    g = make_toy_game(turn_limit=2)
    g.ruleset = rs = Phases()
    rs.setup(g.state, g.ctx, "blue")
    assert (g.state.phase, g.to_act()) == ("movement", "blue")
    assert not g.check(Shoot(actor="b0", target="r0")).ok
    g.apply(Move(actor="b0", to=(10.0, 8.0)))
    g.apply(Move(actor="b1", to=(15.0, 8.0)))
    assert g.check(Move(actor="b0", to=(10.0, 9.0))).codes == (DONE,)
    g.apply(EndPhase())
    assert (g.state.phase, g.to_act()) == ("movement", "red")
    assert g.check(Move(actor="b0", to=(10.0, 9.0))).codes == (NOT_YOUR_TURN,)
    g.apply(EndPhase())
    assert (g.state.phase, g.to_act()) == ("shooting", "blue")
    assert EndPhase() in rs.candidates(g.state, "blue", g.ctx)
    for _ in range(2):
        g.apply(EndPhase())
    assert (g.state.turn, g.state.phase, g.to_act()) == (
        2,
        "movement",
        g.state.vars["phased"]["order"][0],
    )
    for _ in range(4):
        g.apply(EndPhase())
    assert g.outcome().reason == "turn limit" and g.state.turn == 2


class PlayerTurns(ExampleD6):
    """Example d6 in player turns: one side moves then shoots, then the other."""

    turns = PlayerTurnFlow(("movement", "shooting"), RollOff(6), once=("move", "shoot"))  # type: ignore[assignment]

    def problems(self, state, action, ctx):
        if action.KIND != {"movement": "move", "shooting": "shoot"}[state.phase]:
            return [f"no {action.KIND} in the {state.phase} phase"]
        return super().problems(state, action, ctx)


def test_player_turns_play_every_phase_of_a_side_then_the_next_side():
    g = make_toy_game(turn_limit=2)
    g.ruleset = PlayerTurns()
    g.ruleset.setup(g.state, g.ctx, "blue")
    seen = []
    while g.state.turn == 1 and not g.state.over:
        seen.append((g.state.active, g.state.phase))
        g.apply(EndPhase())
    assert seen == [
        ("blue", "movement"),
        ("blue", "shooting"),
        ("red", "movement"),
        ("red", "shooting"),
    ]
    assert g.state.active == "blue" and g.state.phase == "movement"
    assert g.check(Move(actor="r0", to=(10.0, 38.0))).codes == (NOT_YOUR_TURN,)
    g.apply(Move(actor="b0", to=(10.0, 8.0)))
    assert g.check(Move(actor="b0", to=(10.0, 9.0))).codes == (DONE,)


class ByInitiative(ExampleD6):
    """Example d6 whose models act one at a time in order of their SK."""

    turns = InitiativeFlow("SK", RollOff(6), once=("move", "shoot"))  # type: ignore[assignment]


def test_initiative_order_acts_highest_first_ties_by_a_die_and_first_moves_first():
    g = make_toy_game()
    for mid, sk in (("b0", 1), ("b1", 3), ("r0", 2), ("r1", 1)):
        g.state.models[mid].stats["SK"] = sk
    rs = g.ruleset = ByInitiative()
    # b0 and r1 tie on SK 1: a roll-off, red 5 against blue 2, puts r1 first
    g.dice.force([2, 5])
    rs.setup(g.state, g.ctx, None)
    assert g.state.vars[InitiativeFlow.KEY]["order"] == ["b1", "r0", "r1", "b0"]
    assert g.to_act() == "blue" and g.check(Move(actor="b0", to=(10.0, 6.0))).codes == (
        "activating",
    )
    order = []
    while g.state.turn == 1:
        order.append(rs.turns.current(g.state))
        g.apply(EndActivation())
    assert order == ["b1", "r0", "r1", "b0"]
    # an ambush: red's models have the first moves of turn 1
    g2 = make_toy_game()
    for mid, sk in (("b0", 3), ("b1", 3), ("r0", 1), ("r1", 2)):
        g2.state.models[mid].stats["SK"] = sk
    g2.ruleset = ByInitiative()
    g2.ruleset.setup(g2.state, g2.ctx, "red")
    assert g2.state.vars[InitiativeFlow.KEY]["order"] == ["r1", "r0", "b0", "b1"]
