"""The one schema every loader shares (engine/schema.py): wrong types, non-finite numbers,
special files and huge inputs come back as ``error: FILE: WHERE: WHAT`` lines, never a
traceback, a hang or a corrupted game (audit reliability.md D1, D2, D7, D8, D10-D14, D20).
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from engine import actions as act
from engine.data import MAX_PROBLEM_LINES, DataError, problem_lines
from engine.scenario import load_scenario, new_game

BASE = """
title = "repro"
ruleset = "umr"
seed = 1
table = [48, 36]
first = "blue"

[[models]]
id = "a"
side = "blue"
profile = "rifleman"
x = 10.0
y = 15.0

[[models]]
id = "b"
side = "red"
profile = "rifleman"
x = 30.0
y = 15.0
"""


def _file(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "s.toml"
    f.write_text(textwrap.dedent(text))
    return f


def _problems(path: Path) -> list[tuple[str, str]]:
    with pytest.raises(DataError) as e:
        load_scenario(path)
    return [(p.where, p.what) for p in e.value.problems]


def _model_b(line: str) -> str:
    """BASE with ``line`` added to model b's table."""
    return BASE + line + "\n"


# (name, file text, WHERE, part of WHAT)
BAD = [
    ("stats str", _model_b('stats = "x"'), "models[1].stats", "expected a table"),
    ("stats list", _model_b("stats = [1]"), "models[1].stats", "expected a table"),
    ("state int", _model_b("state = 5"), "models[1].state", "expected a table"),
    ("status int", _model_b("state = { status = 5 }"), "models[1].state.status", "a list"),
    ("weapons table", _model_b("weapons = { a = 1 }"), "models[1].weapons", "expected a list"),
    ("weapon no name", _model_b("weapons = [{ range = 3 }]"), "models[1].weapons[0].name", ""),
    ("weapon nan", _model_b('weapons = [{ name = "w", range = nan }]'), "range", "finite"),
    (
        "profile list",
        BASE.replace('"rifleman"\nx = 30.0', '["rifleman"]\nx = 30.0'),
        "models[1].profile",
        "a string",
    ),
    ("facing nan", _model_b("facing = nan"), "models[1].facing", "finite"),
    ("facing inf", _model_b("facing = inf"), "models[1].facing", "finite"),
    ("stat inf", _model_b("stats = { MOVE = inf }"), "models[1].stats.MOVE", "finite"),
    ("stat huge", _model_b("stats = { MOVE = 1e30 }"), "models[1].stats.MOVE", "within"),
    ("moved nan", _model_b("state = { moved = nan }"), "models[1].state.moved", "finite"),
    ("moved negative", _model_b("state = { moved = -3 }"), "models[1].state.moved", "at least"),
    ("base inf", _model_b("base = inf"), "models[1].base", "finite"),
    ("table inf", BASE.replace("[48, 36]", "[inf, 36]"), "table", "finite"),
    ("table nan", BASE.replace("[48, 36]", "[nan, 36]"), "table", "finite"),
    ("turn limit", "turn_limit = -1\n" + BASE, "turn_limit", "at least 0"),
    ("objectives int", "objectives = 5\n" + BASE, "objectives", "expected a list"),
    ("objectives str", 'objectives = "abc"\n' + BASE, "objectives", "expected a list"),
    ("objective ints", "objectives = [1, 2]\n" + BASE, "objectives[0]", "expected a table"),
    ("objective no x", "objectives = [{ y = 1 }]\n" + BASE, "objectives[0].x", "missing"),
    ("ruleset dotted", BASE.replace('"umr"', '"a.b"'), "ruleset", "unknown ruleset"),
    ("ruleset submodule", BASE.replace('"umr"', '"gem.balance"'), "ruleset", "unknown"),
    ("ruleset parent", BASE.replace('"umr"', '"../umr"'), "ruleset", "unknown ruleset"),
    (
        "ruleset not built",
        BASE.replace('"umr"', '"infestation"'),
        "ruleset",
        "unknown ruleset 'infestation'",
    ),
    (
        "nan polygon",
        BASE + "[[terrain]]\nkind = 'woods'\npolygon = [[1, 1], [nan, 1], [2, 2]]\n",
        "terrain[0].polygon[1]",
        "finite",
    ),
    (
        "collinear polygon",
        BASE + "[[terrain]]\nkind = 'hill'\npolygon = [[1, 1], [2, 2], [3, 3]]\n",
        "terrain[0].polygon",
        "no area",
    ),
    (
        "one-point polygon",
        BASE + "[[terrain]]\nkind = 'hill'\npolygon = [[1, 1], [1, 1], [1, 1]]\n",
        "terrain[0].polygon",
        "no area",
    ),
    (
        "height nan",
        BASE + "[[terrain]]\nkind = 'hill'\nheight = nan\npolygon = [[1, 1], [4, 1], [3, 3]]\n",
        "terrain[0].height",
        "finite",
    ),
    (
        "action facing nan",
        BASE + '[[actions]]\nactor = "a"\ndo = "move"\nto = [12, 15]\nfacing = nan\n',
        "actions[0].facing",
        "finite",
    ),
    (
        "action far away",
        BASE + '[[actions]]\nactor = "a"\ndo = "move"\nto = [12, 1e308]\n',
        "actions[0].to[1]",
        "within",
    ),
    ("deep", "x = " + "[" * 40 + "1" + "]" * 40 + "\n" + BASE, "file", "nested more than"),
    ("deep stats", _model_b("stats = " + "{a = " * 30 + "1" + "}" * 30), "file", "nested"),
    (
        "options edges",
        "options = { edges = 'x' }\n" + BASE,
        "options.edges",
        "expected a table",
    ),
    ("options edge", "options = { edges = { blue = 1 } }\n" + BASE, "options.edges.blue", ""),
    ("unit is another id", _model_b('unit = "a"'), "models[1].unit", "is the id of models[0]"),
]


@pytest.mark.parametrize("name, text, where, what", BAD, ids=[b[0] for b in BAD])
def test_bad_values_are_refused_where_they_are(tmp_path, name, text, where, what):
    probs = _problems(_file(tmp_path, text))
    assert any(where in w and what in t for w, t in probs), probs


def test_one_bad_model_does_not_blame_the_good_ones(tmp_path):
    """D13: army-wide checks and ``first`` wait until every model is sound."""
    text = BASE.replace('first = "blue"', 'first = "red"').replace("x = 30.0", "x = -3.0")
    probs = _problems(_file(tmp_path, text))
    assert [w for w, _ in probs] == ["models[1]"], probs


def test_an_unknown_ruleset_does_not_flag_every_key_and_verb(tmp_path):
    text = BASE.replace('"umr"', '"nope"') + '[[actions]]\nactor = "a"\ndo = "climb"\n'
    text = text.replace('profile = "rifleman"', 'profile = "rifleman"\narmy = "x"')
    assert [w for w, _ in _problems(_file(tmp_path, text))] == ["ruleset"]


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "dir", ""])
def test_special_files_are_refused_without_reading(tmp_path, special):
    """D10: a FIFO or /dev/zero as the scenario or as its map cannot freeze the loader."""
    target = {"fifo": tmp_path / "p", "dir": tmp_path}.get(special, special)
    if special == "fifo":
        os.mkfifo(target)
    if special:
        with pytest.raises(DataError) as e:
            load_scenario(target)
        assert e.value.problems[0].where == "file"
    probs = _problems(_file(tmp_path, f'map = "{target}"\n' + BASE))
    assert probs[0][0] == "map", probs


def test_stacked_models_print_at_most_50_lines_and_a_count(tmp_path):
    models = "".join(
        f'[[models]]\nid = "m{i}"\nside = "{"ab"[i % 2]}"\nprofile = "rifleman"\nx = 10.0\ny = 10.0\n'
        for i in range(300)
    )
    with pytest.raises(DataError) as e:
        load_scenario(_file(tmp_path, 'ruleset = "umr"\ntable = [48, 36]\n' + models))
    assert len(e.value.problems) == 299  # one line per model, not one per pair (44,850)
    lines = problem_lines(e.value.problems)
    assert len(lines) == MAX_PROBLEM_LINES + 1
    assert lines[-1].endswith("file: 249 more problems not shown")


def test_ten_thousand_models_validate(tmp_path):
    models = "".join(
        f'[[models]]\nid = "m{i}"\nside = "{"ab"[i % 2]}"\nprofile = "rifleman"\n'
        f"x = {5 + (i % 100) * 9.5}\ny = {5 + (i // 100) * 9.5}\n"
        for i in range(10_000)
    )
    scn = load_scenario(_file(tmp_path, 'ruleset = "umr"\ntable = [1000, 1000]\n' + models))
    assert len(scn.models) == 10_000


def test_an_id_with_a_newline_stays_on_one_line(tmp_path):
    """D14: an id cannot forge a second ``error:`` line."""
    text = BASE.replace('id = "b"', 'id = "b\\nerror: fake.toml: x: fine"')
    text = text.replace("x = 30.0", "x = -3.0")
    with pytest.raises(DataError) as e:
        load_scenario(_file(tmp_path, text))
    lines = problem_lines(e.value.problems)
    assert all("\n" not in line for line in lines)
    assert any("'b\\nerror: fake.toml: x: fine' holds control characters" in line for line in lines)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 1e308])
def test_the_engine_refuses_actions_no_table_can_hold(tmp_path, bad):
    """D2: whoever builds the action (agent, window, script), NaN/inf/1e308 positions and
    facings are refused with a reason before the ruleset sees them, and change nothing."""
    game = new_game(load_scenario(_file(tmp_path, BASE)))
    before = game.state.checksum()
    for a in (
        act.Move(actor="a", to=(12.0, bad)),
        act.Move(actor="a", to=(12.0, 15.0), facing=bad),
        act.Move(actor="a", path=((11.0, 15.0), (bad, 15.0))),
    ):
        legal = game.check(a)
        assert not legal.ok and "finite" in (legal.reason or "")
        game.apply(a)
    assert game.state.checksum() == before
