"""Scenario files (SCENARIO_FORMAT.md): one `error: FILE: WHERE: WHAT` line per problem,
and the script played as a player would."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.data import DataError
from engine.scenario import load_scenario, new_game, result_json, run_script

GOOD = """
title = "toy duel"
ruleset = "example_d6"
seed = 3
first = "blue"
[[models]]
id = "a"
side = "blue"
x = 10
y = 10
stats = { SK = 1 }
[[models]]
id = "b"
side = "red"
x = 10
y = 30
"""


def _write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    f = tmp_path / name
    f.write_text(textwrap.dedent(text))
    return f


def _errors(path: Path) -> list[str]:
    with pytest.raises(DataError) as e:
        load_scenario(path)
    return [p.line() for p in e.value.problems]


def test_a_good_file_loads(tmp_path):
    scn = load_scenario(_write(tmp_path, GOOD))
    assert scn.ruleset == "example_d6" and scn.first == "blue" and scn.sides == ["blue", "red"]
    assert [m.id for m in scn.models] == ["a", "b"]
    assert scn.battlefield.width == 72 and scn.battlefield.depth == 48


@pytest.mark.parametrize(
    "extra, where, what",
    [
        ("colour = 'red'\n", "colour", "unknown key"),
        ("seed = 'x'\n", "seed", "expected an integer, got a string"),
        ("table = [72]\n", "table", "expected a point"),
        ("first = 'green'\n", "first", "'green' is not a side"),
        (
            "map = 'maps/nope.toml'\n",
            "map",
            "bad map reference 'maps/nope.toml': file: no such file",
        ),
    ],
)
def test_top_level_problems(tmp_path, extra, where, what):
    key = extra.split(" =")[0]
    text = "\n".join(
        line for line in textwrap.dedent(GOOD).splitlines() if not line.startswith(key + " =")
    )
    f = _write(tmp_path, extra + text)
    lines = _errors(f)
    assert any(line.startswith(f"error: {f}: {where}: ") and what in line for line in lines), lines


def test_unknown_ruleset(tmp_path):
    f = _write(tmp_path, GOOD.replace('"example_d6"', '"chess"'))
    assert any("ruleset: unknown ruleset 'chess'" in e for e in _errors(f))


def test_not_toml_names_the_line(tmp_path):
    f = _write(tmp_path, 'title = "x"\nruleset = = "toy"\n')
    (line,) = _errors(f)
    assert line.startswith(f"error: {f}: line 2: not valid TOML")


def test_missing_file(tmp_path):
    (line,) = _errors(tmp_path / "nope.toml")
    assert line == f"error: {tmp_path / 'nope.toml'}: file: no such file"


@pytest.mark.parametrize(
    "model_extra, where, what",
    [
        ('colour = "red"', "models[1].colour", "unknown key"),
        ('facing = "north"', "models[1].facing", "expected a number, got a string"),
        ('base = "big"', "models[1].base", "expected a diameter"),
        ("stats = { XX = 1 }", "models[1].stats.XX", "unknown stat"),
    ],
)
def test_model_problems(tmp_path, model_extra, where, what):
    f = _write(tmp_path, GOOD + model_extra + "\n")
    lines = _errors(f)
    assert any(f": {where}: " in e and what in e for e in lines), lines


def test_off_the_table_and_overlap(tmp_path):
    text = (
        GOOD.replace("y = 30", "y = 47.9")
        + """
[[models]]
id = "c"
side = "red"
x = 10.5
y = 10
"""
    )
    lines = _errors(_write(tmp_path, text))
    assert any("models[1]: model 'b' is off the table" in e for e in lines), lines
    text2 = (
        GOOD
        + """
[[models]]
id = "c"
side = "red"
x = 10.5
y = 10
"""
    )
    lines = _errors(_write(tmp_path, text2, "t.toml"))
    assert any("models[2]: base of 'c' overlaps 'a'" in e for e in lines), lines


def test_touching_bases_do_not_overlap(tmp_path):
    text = (
        GOOD
        + f"""
[[models]]
id = "c"
side = "red"
x = {10 + 25 / 25.4}
y = 10
"""
    )
    assert len(load_scenario(_write(tmp_path, text)).models) == 3


@pytest.mark.parametrize(
    "action, where, what",
    [
        ('actor = "zz"\ndo = "move"\nto = [1, 1]', "actions[0].actor", "unknown model 'zz'"),
        ('actor = "a"\ndo = "shoot"\ntarget = "zz"', "actions[0].target", "unknown model 'zz'"),
        (
            'actor = "a"\ndo = "shoot"\ntarget = "b"\ndice = [3, 9]',
            "actions[0].dice[1]",
            "die face 9 out of range",
        ),
        ('actor = "a"\ndo = "dance"', "actions[0].do", "unknown action 'dance'"),
        ('actor = "a"\ndo = "move"\nto = [1, "x"]', "actions[0].to", "expected a number"),
        ('actor = "a"\ndo = "move"\nspeed = 3', "actions[0].speed", "not a field of 'move'"),
    ],
)
def test_action_problems(tmp_path, action, where, what):
    f = _write(tmp_path, GOOD + "[[actions]]\n" + action + "\n")
    lines = _errors(f)
    assert any(f": {where}: " in e and what in e for e in lines), lines


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    text = GOOD.replace("x = 10\ny = 10", 'x = "ten"\ny = 10') + "colour = 1\n"
    lines = _errors(_write(tmp_path, text))
    assert len(lines) >= 2


def test_script_reaches_the_next_action_as_a_player_would(tmp_path):
    """a moves, then b shoots: the runner ends a's activation first (red's turn)."""
    text = (
        GOOD
        + """
[[actions]]
actor = "a"
do = "move"
to = [10, 14]
[[actions]]
actor = "b"
do = "shoot"
target = "a"
dice = [6]
[[actions]]
actor = "b"
do = "move"
to = [10, 100]
"""
    )
    scn = load_scenario(_write(tmp_path, text))
    game = new_game(scn)
    run_script(game, scn)
    doc = result_json(game)
    kinds = [(e["kind"], e.get("action")) for e in doc["events"]]
    assert ("move", 0) in kinds and ("resolution", 1) in kinds and ("refused", 2) in kinds
    res = next(e for e in doc["events"] if e["kind"] == "resolution")
    assert (
        res["rolls"] == [6] and res["outcome"] == "hit" and res["chance"] == 0.5
    )  # b has no SK: d6 >= 4
    ref = next(e for e in doc["events"] if e["kind"] == "refused")
    assert "too far" in ref["reason"]
    assert doc["models"]["a"]["hp"] == 1 and doc["models"]["a"]["y"] == 14.0
    assert set(doc["models"]["a"]) >= {"side", "x", "y", "facing", "hp", "removed", "status"}


def _played(tmp_path: Path, moves: list[tuple[str, int]]):
    """GOOD with its models moving to (10, y) in turn, played as a script."""
    text = GOOD + "".join(
        f'[[actions]]\nactor = "{who}"\ndo = "move"\nto = [10, {y}]\n' for who, y in moves
    )
    scn = load_scenario(_write(tmp_path, text))
    game = new_game(scn)
    run_script(game, scn)
    return game, scn


def test_an_action_out_of_reach_this_turn_is_refused_and_changes_nothing(tmp_path):
    game, _ = _played(tmp_path, [("a", 14), ("a", 16)])
    refused = [e for e in game.log.events if e.kind == "refused"]
    assert len(refused) == 1 and refused[0].action == 1
    assert game.state.models["a"].y == 14.0


def test_an_out_of_turn_action_is_refused_for_the_rules_reason_not_the_turn(tmp_path):
    """Audit (umr.md, finding 11, c02b): an action that is both out of turn and against the
    rules is refused for the rule a player would hit once play reaches the actor, not
    with "it is blue's turn"."""
    game, scn = _played(tmp_path, [("a", 14), ("b", 100)])
    fresh = new_game(scn)
    fresh.apply(scn.actions[0][0])
    assert not fresh.check(scn.actions[1][0]).ok  # a is still activating
    refused = [e for e in game.log.events if e.kind == "refused"]
    assert [e.action for e in refused] == [1]
    assert "too far" in refused[0].text and "turn" not in refused[0].text
    assert game.state.models["b"].y != 100.0
