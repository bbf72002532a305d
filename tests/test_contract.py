"""The contract every ruleset passes (DESIGN.md "Tests and benchmarks"): games between
random agents from many seeds end without error, every candidate the AI is offered is
legal, ``check`` never changes the state, no illegal action is ever applied (a refusal
changes nothing), every rule a roll or refusal cites is in the ruleset's reference, a
game played to its turn limit ends by it, saves round-trip and replays reproduce every
roll and the final checksum.

Runs for each ruleset present in rulesets/ and each of its ready scenarios. The default
run plays ``SEEDS`` seeds per scenario (the fast tier); ``WARBENCH_CONTRACT_SEEDS=12``
(or more) runs the long tier.
"""

from __future__ import annotations

import json
import os
import pickle
import re
from pathlib import Path

import pytest

from engine import persistence
from engine.actions import Move
from engine.agents import RandomAgent
from engine.game import Game
from engine.ruleset import available, load
from engine.scenario import load_scenario, new_game

ROOT = Path(__file__).resolve().parent.parent
SEEDS = int(os.environ.get("WARBENCH_CONTRACT_SEEDS", "2"))
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
        before = pickle.dumps(game.state)
        for a in options:
            legal = game.check(a)
            assert legal.ok, f"candidate {a.describe()} is illegal: {legal.reason}"
        if pickle.dumps(game.state) != before:
            _find_writer(game, options, before)
        self.decisions += 1
        return self.inner.choose(game, side)


def _find_writer(game: Game, options: list, before: bytes) -> None:
    """Some ``check`` wrote to the state: name the first candidate whose check does."""
    for a in options:
        game.state = pickle.loads(before)
        game.check(a)
        assert pickle.dumps(game.state) == before, f"check({a.describe()}) changed the state"
    raise AssertionError("checking the candidates changed the state")


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
            cited = {e.rule for e in events if e.rule} - set(game.ruleset.reference.sections)
            assert not cited, f"seed {seed}: events cite rules not in the reference: {cited}"
            n += 1
        assert game.outcome() is not None, f"seed {seed}: no outcome after {n} actions"
        json.dumps(game.state.to_dict())
        f = tmp_path / f"{seed}.json"
        persistence.save(game, f)
        loaded = persistence.load(f)
        assert loaded.state.checksum() == game.state.checksum()
        _, report = persistence.replay_file(f)
        assert report.ok, f"seed {seed}: {report.message}"


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_a_game_played_to_its_turn_limit_ends_by_it(path: Path):
    """Sides that only move play on (``advance``, else their first candidate) reach the
    turn limit, and the game ends there: turns advance, and the limit is honoured."""
    limit = 2
    scn = load_scenario(path)
    scn.turn_limit = limit
    game = new_game(scn)
    n = 0
    while (side := game.to_act()) is not None and n < MAX_ACTIONS:
        step = game.ruleset.advance(game.state, game.ctx)
        if step is None or not game.check(step).ok:
            step = game.candidates(side)[0]
        game.apply(step)
        n += 1
    out = game.outcome()
    assert out is not None, f"no outcome after {n} actions (turn {game.state.turn})"
    assert game.state.turn == limit, f"ended in turn {game.state.turn}: {out.reason}"


#: a section id as rulesets cite it: rule="D6-3", "(GEM-2.2.2)", R_ARC = "SWOMP-ARC"
_CITE = re.compile(r"[\"'(\s]([A-Z][A-Z0-9]*-[A-Z0-9](?:[A-Z0-9.\-]*[A-Z0-9])?)[\"')\s,;:]")


@pytest.mark.parametrize("key", available())
def test_every_rule_a_ruleset_cites_is_in_its_reference(key: str):
    """A cited section id (in ``rule=``, a Modifier, a refusal's text) that the ruleset's
    reference.toml lacks is a typo the window's rule links and the log would show."""
    ids = set(load(key).reference.sections)
    prefixes = {i.split("-")[0] for i in ids}
    missing: dict[str, set[str]] = {}
    for f in sorted((ROOT / "rulesets" / key).rglob("*.py")):
        for cite in _CITE.findall(f.read_text()):
            if cite.split("-")[0] in prefixes and cite not in ids:
                missing.setdefault(f.name, set()).add(cite)
    assert not missing, f"{key} cites sections its reference lacks: {missing}"
