"""One skeleton for every ruleset (issue 17): the same top-level names mean the same
thing in every rulebook, the rulebook's chapters sit in ``chapters/``, and ruleset state
is read through the typed accessors of ``state.py``, never by raw string keys.

Why: a maintainer who knows one ruleset should find the turn sequence, the AI's options
or the victory rules of any other under the same name, and a typo in a ``vars`` key must
be a type error (a ``TypedDict`` in ``state.py``), not a silent rules bug.

``PENDING`` names the rulesets not yet moved onto the skeleton; it may only shrink (a
ruleset listed there that already conforms fails, so the list is kept honest).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"

#: the top-level modules of a ruleset, each with one meaning everywhere
TOP = {
    "__init__": "the @register class: declarations and hook wiring only",
    "actions": "the ruleset's own action kinds",
    "build": "scenario entries to models and armies",
    "flow": "the turn sequence: setup, who acts, activations, advance",
    "rules": "check/apply dispatch: verb to chapter",
    "candidates": "the options the computer weighs",
    "odds": "exact chances before a roll",
    "score": "the computer's position value",
    "victory": "outcome, turn limit, victory text",
    "state": "typed accessors (TypedDicts) for state.vars and model vars",
}
#: the one subpackage: the rulebook's chapters (shooting, melee, vehicles...)
CHAPTERS = "chapters"
#: rulesets small enough to live in their __init__ (the template to copy)
SINGLE_FILE = {"example_d6"}
#: not yet on the skeleton: may only shrink
PENDING: set[str] = set()

#: a raw string key on a vars dict: ``x.vars["k"]``, ``vars.get("k")``, ``vars.setdefault("k"``
RAW_VARS = re.compile(r"""\bvars\s*(\[\s*|\.(get|setdefault|pop)\(\s*)["']""")


def _keys() -> list[str]:
    return sorted(p.name for p in RULESETS.iterdir() if (p / "__init__.py").is_file())


def problems(key: str) -> list[str]:
    """Every way ``rulesets/<key>`` departs from the skeleton, one line each."""
    base = RULESETS / key
    out: list[str] = []
    modules = {p.stem for p in base.glob("*.py")}
    packages = {p.name for p in base.iterdir() if (p / "__init__.py").is_file()}
    out += [
        f"{key}: missing top-level module {m}.py ({TOP[m]})" for m in sorted(set(TOP) - modules)
    ]
    out += [
        f"{key}: {m}.py belongs in {CHAPTERS}/ (top level is {sorted(TOP)})"
        for m in sorted(modules - set(TOP))
    ]
    out += [f"{key}: subpackage {p}/ belongs in {CHAPTERS}/" for p in sorted(packages - {CHAPTERS})]
    if CHAPTERS not in packages:
        out.append(f"{key}: no {CHAPTERS}/ package")
    for path in sorted(base.rglob("*.py")):
        if path == base / "state.py":
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if RAW_VARS.search(line):
                out.append(
                    f"{path.relative_to(ROOT)}:{n}: raw vars key (use state.py): {line.strip()}"
                )
    return out


@pytest.mark.parametrize("key", [k for k in _keys() if k not in SINGLE_FILE])
def test_ruleset_follows_the_skeleton(key: str) -> None:
    found = problems(key)
    if key in PENDING:
        assert found, f"{key} now follows the skeleton: remove it from PENDING"
    else:
        assert not found, "\n".join(found)


def test_single_file_rulesets_stay_single() -> None:
    for key in SINGLE_FILE:
        assert {p.name for p in (RULESETS / key).glob("*.py")} == {"__init__.py"}


def test_the_checker_sees_a_raw_key() -> None:
    assert RAW_VARS.search('x = state.vars["gem"]')
    assert RAW_VARS.search("m.vars.get('moved', 0)")
    assert RAW_VARS.search('m.vars.setdefault("aboard", None)')
    assert not RAW_VARS.search("gs(state)['order']")
    assert not RAW_VARS.search("state.vars[key]")
