"""Fuzz every bundled scenario and army list: whatever is damaged, the program answers
with exit 0 or 2, never a traceback; every problem is one ``error: FILE: WHERE: WHAT``
line; at most 50 problem lines then a count; ``run --json`` prints strict JSON.

The default run tries a fixed, small number of mutants (FUZZ_EXAMPLES, 40 per target)
so the suite stays quick, and draws them from a fixed seed (``derandomize``), so a CI
run fails only on a change that breaks input handling, never on a latent bug a new random
draw happens to meet in code the change never touched. A long hunt sets an environment
variable, which also makes the draws random again:

    WARBENCH_FUZZ=5000 ./warbench test tests/test_fuzz.py

Mutants are checked in-process through ``main.main`` (fast); a few fixed mutants also go
through a real ``python main.py`` process, so the interpreter's own exit is covered.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from engine.data import MAX_PROBLEM_LINES

ROOT = Path(__file__).resolve().parent.parent
FUZZ_EXAMPLES = int(os.environ.get("WARBENCH_FUZZ", "40"))
SCENARIOS = sorted(ROOT.glob("rulesets/*/scenarios/*.toml")) + sorted(
    (ROOT / "tests" / "scenarios").glob("*.toml")
)
ARMIES = sorted(ROOT.glob("rulesets/gem/armies/*.toml"))
LINE = re.compile(r"^error: [^\n]+: [^\n]+: [^\n]+$")
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    derandomize="WARBENCH_FUZZ" not in os.environ,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# --- a TOML writer for mutants (tomllib only reads) ------------------------------------


def to_toml(doc: dict[str, Any]) -> str:
    """``doc`` as TOML: every top-level key on its own line, everything else inline."""
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in doc.items())


def _key(k: str) -> str:
    return _string(str(k))


def _string(s: str) -> str:
    out = json.dumps(s, ensure_ascii=False)
    return out.replace("\x7f", "\\u007f")


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v))


# --- mutations ------------------------------------------------------------------------

DEEP: Any = 1
for _ in range(20):
    DEEP = [DEEP]
NASTY = [
    math.nan,
    math.inf,
    -math.inf,
    1e308,
    -1e308,
    -1,
    0,
    0.0,
    2**70,
    -(2**63),
    "",
    "x",
    "a\nerror: forged.toml: models[0]: fine",
    "\u202e\x00\x07",
    "gem.balance",
    "../umr",
    "/dev/zero",
    [],
    {},
    [1],
    [math.nan, 1.0],
    [[1, 2], [1, 2], [1, 2]],
    {"a": 1},
    {"status": 5},
    True,
    DEEP,
]
VALUES = st.one_of(
    st.sampled_from(NASTY),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**65), max_value=2**65),
    st.text(max_size=6),
)


def mutate(doc: Any, data: st.DataObject) -> None:
    """Replace, delete or duplicate one value somewhere in ``doc`` (in place)."""
    parent: Any = None
    key: Any = None
    node: Any = doc
    for _ in range(8):
        if isinstance(node, dict) and node:
            k = data.draw(st.sampled_from(sorted(node, key=str)))
        elif isinstance(node, list) and node:
            k = data.draw(st.integers(0, len(node) - 1))
        else:
            break
        parent, key, node = node, k, node[k]
        if not isinstance(node, (dict, list)) or data.draw(st.booleans()):
            break
    if parent is None:
        return
    how = data.draw(st.sampled_from(["replace", "replace", "replace", "delete", "copy"]))
    if how == "delete":
        del parent[key]
    elif how == "copy" and isinstance(parent, list):
        parent.append(json.loads(json.dumps(parent[key])))
    else:
        parent[key] = copy.deepcopy(data.draw(VALUES))  # NASTY's lists stay as written


def stack_models(doc: dict[str, Any]) -> None:
    """Every model on one spot: thousands of overlaps must print 50 lines and a count."""
    models = doc.get("models")
    for m in models if isinstance(models, list) else []:
        if isinstance(m, dict):
            m["x"], m["y"] = 10.0, 10.0


# --- the checks -----------------------------------------------------------------------


def run_main(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main.main(argv)
    return code, out.getvalue(), err.getvalue()


def _strict(text: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"{name} in run --json output: not strict JSON")

    return json.loads(text, parse_constant=refuse)


def check_answer(code: int, out: str, err: str, json_out: bool) -> None:
    assert code in (0, 2), (code, err[-2000:])
    assert "Traceback" not in err
    if code == 2:
        lines = err.splitlines()
        assert lines and len(lines) <= MAX_PROBLEM_LINES + 1, len(lines)
        assert all(LINE.match(line) for line in lines), lines[:5]
        assert out == ""
    elif json_out:
        doc = _strict(out)
        assert isinstance(doc, dict) and "models" in doc


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
@FUZZ
@given(data=st.data())
def test_mutated_scenarios_answer_cleanly(tmp_path, path, data):
    doc = tomllib.loads(path.read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(doc, data)
    if data.draw(st.integers(0, 9)) == 0:
        stack_models(doc)
    f = tmp_path / "mutant.toml"
    f.write_text(to_toml(doc))
    code, out, err = run_main(["run", str(f), "--json"])
    check_answer(code, out, err, json_out=True)


@pytest.mark.parametrize("path", ARMIES, ids=lambda p: p.name)
@FUZZ
@given(data=st.data())
def test_mutated_army_lists_answer_cleanly(tmp_path, path, data):
    doc = tomllib.loads(path.read_text())
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(doc, data)
    f = tmp_path / "rulesets" / path.parts[-3] / "army.toml"  # its folder names its ruleset
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(to_toml(doc))
    code, out, err = run_main(["points", str(f)])
    check_answer(code, out, err, json_out=False)


def test_the_toml_writer_round_trips_every_bundled_file():
    for path in SCENARIOS + ARMIES:
        doc = tomllib.loads(path.read_text())
        assert tomllib.loads(to_toml(doc)) == doc, path


FIXED = {
    "nan facing": lambda d: d["models"][0].__setitem__("facing", math.nan),
    "stats string": lambda d: d["models"][0].__setitem__("stats", "x"),
    "stacked": stack_models,
    "forged id": lambda d: d["models"][0].__setitem__("id", "a\nerror: f: x: y"),
    "map dev zero": lambda d: d.__setitem__("map", "/dev/zero"),
    "deep": lambda d: d.__setitem__("objectives", DEEP),
}


@pytest.mark.parametrize("name", sorted(FIXED))
def test_a_real_process_answers_cleanly(tmp_path, name):
    doc = tomllib.loads((ROOT / "rulesets/umr/scenarios/default.toml").read_text())
    FIXED[name](doc)
    f = tmp_path / "mutant.toml"
    f.write_text(to_toml(doc))
    p = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "run", str(f), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    check_answer(p.returncode, p.stdout, p.stderr, json_out=True)
    assert p.returncode == 2
