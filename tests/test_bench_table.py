"""bench/ai_strength.py's one table (issue 20): each agent's declined attacks over its
decisions, the games it won on a scenario objective (at any turn), and the share of the
opponent lost as its ruleset counts it."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from engine.sim import GameResult

BENCH = Path(__file__).resolve().parents[1] / "bench"


def ai_strength():
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    return importlib.import_module("ai_strength")


def result(game: int, agents: dict[str, str], winner: str | None, reason: str, turns: int, **kw):
    return GameResult(
        game=game,
        seed=1,
        agents=agents,
        winner=winner,
        winner_agent=agents[winner] if winner else None,
        reason=reason,
        turns=turns,
        actions=10,
        casualties={"greeks": 2, "romans": 5},
        decisions={"greeks": 20, "romans": 30},
        declined={"greeks": 1, "romans": 3},
        **kw,
    )


def test_declined_share_and_objective_wins_follow_the_agent_across_sides():
    mod = ai_strength()
    one = {"greeks": "greedy", "romans": "passive"}
    two = {"greeks": "passive", "romans": "greedy"}
    results = [
        result(0, one, "greeks", "greeks took the hill by turn 2", 2),
        result(1, two, "romans", "greeks did not take the hill by turn 8", 8),
    ]
    assert mod.declined_share(results, "greedy") == (1 + 3, 20 + 30)
    # the hill not held at turn 8, GEM default's turn limit, decides the game too
    assert mod.objective_wins(results, "greedy") == 2
    sizes = {"greeks": 10, "romans": 10}
    assert mod.removed_share(results, "passive", sizes) == [0.5, 0.2]


def test_objective_wins_are_read_from_each_rulesets_reasons():
    """GEM-3.7 and GM-I-TASKS decide on a place; the last survivor and the strength
    left at the turn limit (GEM-I-TURNLIMIT, GM-I-END, IA-I-END) do not."""
    mod = ai_strength()
    one = {"greeks": "search", "romans": "greedy"}
    reasons = {
        "greeks took the hill by turn 8": 1,
        "romans did not take the ford by turn 6": 1,
        "turn limit: places found or done greeks 2, romans 1 (GM-I-TASKS)": 1,
        "last survivor": 0,
        "turn limit 8 reached: greeks keeps 60%, romans keeps 40% of its points "
        "(GEM-I-TURNLIMIT)": 0,
        "turn limit: wounds left greeks 50%, romans 20% (GM-I-END)": 0,
        "turn limit (10) reached: losses greeks 1, romans 3 (IA-I-END)": 0,
    }
    for reason, counted in reasons.items():
        won = [result(0, one, "greeks", reason, 8)]
        lost = [result(0, one, "romans", reason, 8)]
        assert mod.objective_wins(won, "search") == counted, reason
        assert mod.objective_wins(lost, "search") == 0, reason


def test_removed_reads_the_rulesets_losses_where_recorded():
    """``Ruleset.losses`` (IA-I-END: the wounded are lost) over the models removed."""
    mod = ai_strength()
    two = {"greeks": "passive", "romans": "greedy"}
    sizes = {"greeks": 10, "romans": 10}
    r = result(0, two, "romans", "last survivor", 3, losses={"greeks": 0.7, "romans": 0.1})
    assert mod.removed_share([r], "passive", sizes) == [0.7]
    assert mod.TARGETS[("search", "rush")] == (0.75, 0.0)


def test_removal_is_judged_over_the_games_not_won_on_an_objective():
    """The lead's rule for issue 20: a game won on a place (GEM's hill, turn 2) ends
    before the turn limit, so the removal target is judged over the other games; all
    objective wins read "n/a (obj)" and count as met."""
    mod = ai_strength()
    one = {"greeks": "greedy", "romans": "passive"}
    sizes = {"greeks": 10, "romans": 10}
    hill = result(0, one, "greeks", "greeks took the hill by turn 2", 2)  # 5 of 10 romans
    fought = result(1, one, "greeks", "last survivor", 6, losses={"romans": 0.8})
    text, met = mod.removal([hill, fought], "greedy", "passive", sizes, 0.6)
    assert (text, met) == ("80% ±0%", True)
    # counted over both games the share would be 65%: the hill game is left out
    short = result(2, one, "greeks", "last survivor", 6, losses={"romans": 0.4})
    assert mod.removal([hill, short], "greedy", "passive", sizes, 0.6) == ("40% ±0%", False)
    assert mod.removal([hill, hill], "greedy", "passive", sizes, 0.6) == ("n/a (obj)", True)
    # an objective the opponent's side won is not the agent's: its game still counts
    lost = result(3, one, "romans", "greeks did not take the hill by turn 8", 8)
    assert mod.removal([lost], "greedy", "passive", sizes, 0.6) == ("50% ±0%", False)
