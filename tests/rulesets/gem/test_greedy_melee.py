"""Issue 20: on normal, GEM chose "end phase" over a melee at 99%. In a small melee the
greedy agent fights, and counts no declined attack."""

from engine.actions import Charge, EndPhase, Fight
from engine.agents.greedy import GreedyAgent
from engine.testing import to_phase

from .helpers import make, model


def test_greedy_fights_the_melee_at_99_percent_rather_than_ending_the_phase():
    """b (OFF 9, ATT 2) charged r (DEF 2, 3 HIT); a second red figure far off keeps the
    game going. In the melee phase the fight lands at least one blow in 399 of 400
    (GEM-2.2.3, Table 1) and is worth more than ending the segment."""
    specs = [
        model("b", "blue", 10, 10, 0, stats={"OFF": 9, "DEF": 5, "MOV": 6, "ATT": 2}),
        model("r", "red", 14, 10, 180, stats={"OFF": 2, "DEF": 2, "HIT": 3, "MOR": 5}),
        model("r2", "red", 60, 40, 180, stats={"OFF": 2, "DEF": 2}),
    ]
    g = make(specs, vars_={"objectives": []})
    to_phase(g, "movement", "blue")
    g.dice.force([20])  # any fear check passes
    g.apply(Charge(actor="b", target="r"))
    to_phase(g, "melee", "blue")
    fight = Fight(actor="b", target="r")
    assert g.candidates("blue") == [EndPhase(), fight]
    assert float(g.odds(fight).chance) == 399 / 400
    agent = GreedyAgent(1)
    assert agent.choose(g, "blue") == fight
    assert agent.last[0].value > agent.last[1].value
    assert agent.tally == {"decisions": 1, "declined": 0}
