"""bench/ai_strength.py's seed-pair count: the skill column is split by which agent won
both games of a seed, and a seed one side won twice never counts as skill."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import SimpleNamespace

BENCH = Path(__file__).resolve().parents[1] / "bench"


def ai_strength():
    """The bench module; bench/ goes at the end of the path, so its script names (such
    as geometry.py) never shadow anything else."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    return importlib.import_module("ai_strength")


def game(n: int, winner: str | None, agents: dict[str, str]) -> SimpleNamespace:
    return SimpleNamespace(game=n, winner=winner, winner_agent=agents[winner] if winner else None)


def test_pairs_split_skill_by_agent_and_keep_side_wins_apart():
    one = {"red": "search", "blue": "greedy"}
    two = {"red": "greedy", "blue": "search"}
    results = [
        game(0, "red", one),
        game(1, "blue", two),  # search won both
        game(2, "red", one),
        game(3, "blue", two),  # search won both
        game(4, "blue", one),
        game(5, "red", two),  # greedy won both
        game(6, "red", one),
        game(7, "red", two),  # red won both: the side took the seed
        game(8, "red", one),
        game(9, None, two),  # a win and a draw
        game(10, "red", one),  # its pair unplayed: not counted
    ]
    assert ai_strength().pairs(results, "search") == (2, 1, 1, 1)
    assert ai_strength().pairs(results, "greedy") == (1, 2, 1, 1)


def test_pairings_read_levels_as_their_agents_and_refuse_unknown_names():
    """A row named by level (normal, hard) plays and counts the agent the game records;
    an unknown or malformed name is refused before any game is played."""
    parse = ai_strength().parse_pairings
    assert parse("normal-rush,hard-passive,search-greedy") == [
        ("greedy", "rush"),
        ("search", "passive"),
        ("search", "greedy"),
    ]
    for bad in ("normal-ruhs", "greedy", "greedy-rush-passive"):
        try:
            parse(bad)
        except ValueError as e:
            assert bad.split("-")[-1] in str(e) or "AGENT-AGENT" in str(e)
        else:
            raise AssertionError(f"{bad!r} was accepted")
