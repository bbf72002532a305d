"""Audit gem.md defect 12: a scripted action refused in another side's turn is reported
with the rule a player would meet in his own segment (GEM-2.2.1, locked in melee), not
"it is red's turn" nor the segment it was asked in: GEM's turn, segment and card
refusals carry the engine's codes (not_your_turn, not_now)."""

from __future__ import annotations

from pathlib import Path

from engine.scenario import load_scenario, new_game, run_script

D12 = """
title = "D12"
ruleset = "gem"
seed = 1
first = "red"
models = [
  { id = "troll", side = "red", profile = "troll", x = 20.0, y = 20.0, facing = 270 },
  { id = "arc", side = "blue", profile = "archer", x = 20.0, y = 16.0, facing = 90 },
]
actions = [
  { actor = "troll", do = "charge", target = "arc", dice = [20] },
  { actor = "arc", do = "shoot", target = "troll", weapon = "bow" },
]
"""


def test_a_shot_out_of_turn_is_refused_for_being_locked_in_melee(tmp_path: Path) -> None:
    path = tmp_path / "d12.toml"
    path.write_text(D12)
    scn = load_scenario(path)
    game = new_game(scn)
    run_script(game, scn)
    refused = [e for e in game.log.events if e.kind == "refused"]
    assert [e.action for e in refused] == [1]
    assert refused[0].text == "arc is locked in melee (GEM-2.2.1)"
