"""The contract every ruleset passes (DESIGN.md "Tests and benchmarks"): games between
random agents from many seeds end without error, every candidate the AI is offered is
legal, no illegal action is ever applied (a refusal changes nothing), saves round-trip
and replays reproduce every roll and the final checksum.

Runs for each ruleset present in rulesets/ and each of its ready scenarios.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import persistence
from engine.actions import Move
from engine.agents import RandomAgent
from engine.game import Game
from engine.ruleset import available
from engine.scenario import load_scenario, new_game

ROOT = Path(__file__).resolve().parent.parent
SEEDS = int(os.environ.get("WARBENCH_CONTRACT_SEEDS", "4"))
TURN_LIMIT = 5
MAX_ACTIONS = 4000


def _scenarios() -> list[Path]:
    out = []
    for key in available():
        out += sorted((ROOT / "rulesets" / key / "scenarios").glob("*.toml"))
    return out


def test_every_ruleset_has_a_default_scenario():
    keys = available()
    assert "umr" in keys
    for key in keys:
        assert (ROOT / "rulesets" / key / "scenarios" / "default.toml").exists(), key
        assert (ROOT / "rulesets" / key / "reference.toml").exists(), key


class CheckingAgent:
    """A random agent that also audits the ruleset at every decision."""

    name = "audit"

    def __init__(self, seed: int) -> None:
        self.inner = RandomAgent(seed)
        self.decisions = 0

    def choose(self, game: Game, side: str):
        options = game.candidates(side)
        assert options, f"no candidates offered to {side}"
        for a in options:
            legal = game.check(a)
            assert legal.ok, f"candidate {a.describe()} is illegal: {legal.reason}"
        self.decisions += 1
        return self.inner.choose(game, side)


def _illegal_probe(game: Game) -> None:
    """An action by a model of a side that is not to act must be refused, changing nothing."""
    side = game.to_act()
    others = [m for m in game.state.live() if m.side != side]
    if not others:
        return
    m = others[0]
    before = game.state.checksum()
    hist = len(game.history)
    events = game.apply(Move(actor=m.id, to=(m.x + 0.5, m.y)))
    assert [e.kind for e in events] == ["refused"], [e.to_dict() for e in events]
    assert game.state.checksum() == before and len(game.history) == hist


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_random_games_end_save_and_replay(path: Path, tmp_path: Path):
    for seed in range(SEEDS):
        scn = load_scenario(path)
        scn.seed = seed
        scn.turn_limit = min(scn.turn_limit or TURN_LIMIT, TURN_LIMIT)
        game = new_game(scn)
        agents = {s: CheckingAgent(seed * 31 + i) for i, s in enumerate(game.state.sides)}
        n = 0
        while (side := game.to_act()) is not None and n < MAX_ACTIONS:
            if n % 25 == 0:
                _illegal_probe(game)
            action = agents[side].choose(game.clone(dice_seed=n, viewer=side), side)
            events = game.apply(action)
            assert not any(e.kind == "refused" for e in events), (
                f"seed {seed}: {action.describe()} passed check but was refused"
            )
            n += 1
        assert game.outcome() is not None, f"seed {seed}: no outcome after {n} actions"
        json.dumps(game.state.to_dict())
        f = tmp_path / f"{seed}.json"
        persistence.save(game, f)
        loaded = persistence.load(f)
        assert loaded.state.checksum() == game.state.checksum()
        _, report = persistence.replay_file(f)
        assert report.ok, f"seed {seed}: {report.message}"
