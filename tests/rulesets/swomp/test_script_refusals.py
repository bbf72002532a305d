"""Audit swomp.md finding 16: a scripted action that is out of turn *and* against the
rules is refused for the rule (here SWOMP-ACTIONS' move allowance), not for the turn order
(SWOMP-ROUND), because SWOMP's turn-order refusals carry the engine's codes."""

from __future__ import annotations

from pathlib import Path

from engine.actions import EndActivation, Move
from engine.ruleset import ACTIVATING, ALREADY_ACTIVATED, NOT_YOUR_TURN, code_of
from engine.scenario import load_scenario, new_game, run_script
from engine.testing import apply, events_of
from rulesets.swomp import flow

from .helpers import make

SCRIPT = """
title = "a red move asked while blue acts"
ruleset = "swomp"
seed = 1
table = [48, 48]
first = "blue"

[[models]]
id = "b1"
side = "blue"
profile = "space_marine"
x = 10.0
y = 5.0
facing = 90

[[models]]
id = "r1"
side = "red"
profile = "space_marine"
x = 30.0
y = 40.0
facing = 270

[[actions]]
actor = "b1"
do = "move"
to = [10.0, 7.0]

[[actions]]
actor = "r1"
do = "move"
to = [30.0, 10.0]
"""


def test_an_out_of_turn_move_is_refused_for_its_length(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SCRIPT)
    scn = load_scenario(path)
    game = new_game(scn)
    run_script(game, scn)
    refused = [e for e in game.log.events if e.kind == "refused"]
    assert len(refused) == 1 and refused[0].action == 1
    assert 'may move 8"' in refused[0].text and "SWOMP-ACTIONS" in refused[0].text
    assert game.state.models["r1"].pos == (30.0, 40.0)


def test_turn_order_refusals_carry_the_engine_codes() -> None:
    """SWOMP-ROUND: not red's action, another unit acting, a unit that has acted: each is
    told apart by its code, not its words."""
    marine = {"side": "blue", "profile": "space_marine", "y": 5.0}
    g = make(
        [
            {"id": "b1", "x": 10.0, **marine},
            {"id": "b2", "x": 20.0, **marine},
            {"id": "r1", "side": "red", "profile": "space_marine", "x": 30.0, "y": 40.0},
        ]
    )
    assert code_of(flow.turn_problem(g.state, "r1", "red")) == NOT_YOUR_TURN
    assert flow.turn_problem(g.state, "b1", "blue") == ""
    assert not events_of(apply(g, Move(actor="b1", to=(10.0, 7.0))), "refused")
    assert code_of(flow.turn_problem(g.state, "b2", "blue")) == ACTIVATING
    apply(g, EndActivation(actor="b1"))
    apply(g, EndActivation(actor="r1"))
    assert code_of(flow.turn_problem(g.state, "b1", "blue")) == ALREADY_ACTIVATED
