"""docs/SCENARIO_FORMAT.md is true: every example loads and runs, every key and verb it
names is accepted, and every command it shows parses.

Why a test: the page is what a user writes scenarios from; if the loader or the command
line changes under it, this fails instead of the user's first scenario.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

import main
from engine import ruleset, scenario

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "SCENARIO_FORMAT.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)


def _examples() -> list[str]:
    """The complete scenarios of the page (the ones with models)."""
    return [b for b in _blocks("toml") if "[[models]]" in b]


def _section(title: str) -> str:
    """The text under a heading, up to the next heading of any level."""
    m = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#)", DOC + "\n#", re.S | re.M)
    assert m, f"no section {title!r} in SCENARIO_FORMAT.md"
    return m.group(1)


def _table_keys(title: str) -> set[str]:
    """Every `name` in the first column of the table under a heading."""
    keys: set[str] = set()
    for line in _section(title).splitlines():
        if line.startswith("| `"):
            keys.update(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return keys


def _run(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, Any]:
    code = main.main(["run", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def _with_doc_actions(example: str) -> str:
    """The first example with its script replaced by the Actions section's."""
    actions = [b for b in _blocks("toml") if "[[models]]" not in b]
    assert len(actions) == 1
    return example.split("[[actions]]")[0] + actions[0]


def _all_tables() -> list[dict[str, Any]]:
    return [tomllib.loads(b) for b in [*_examples(), _with_doc_actions(_examples()[0])]]


@pytest.mark.parametrize("index", range(len(_examples())))
def test_every_example_loads_and_plays_without_a_refusal(index, tmp_path, capsys):
    path = tmp_path / f"example{index}.toml"
    path.write_text(_examples()[index], encoding="utf-8")
    doc = _run(capsys, path)
    assert [e for e in doc["events"] if e["kind"] == "refused"] == []


def test_the_actions_section_plays_on_the_complete_scenario(tmp_path, capsys):
    path = tmp_path / "actions.toml"
    path.write_text(_with_doc_actions(_examples()[0]), encoding="utf-8")
    doc = _run(capsys, path)
    assert [e for e in doc["events"] if e["kind"] == "refused"] == []
    assert {e["action"] for e in doc["events"] if "action" in e} >= {0, 1}


def test_every_top_level_terrain_model_and_action_key_named_is_used_in_an_example():
    tables = _all_tables()
    used = {
        "Top-level keys": {k for t in tables for k in t},
        "Terrain keys": {k for t in tables for f in t.get("terrain", []) for k in f},
        "Model keys": {k for t in tables for m in t["models"] for k in m},
        "Actions": {k for t in tables for a in t.get("actions", []) for k in a},
    }
    for title, keys in used.items():
        named = _table_keys(title)
        assert named, title
        assert named <= keys, f"{title}: named but never used in an example: {named - keys}"


def test_the_top_level_and_model_keys_named_are_the_ones_the_loader_knows():
    assert _table_keys("Top-level keys") == set(scenario.TOP_KEYS)
    assert _table_keys("Model keys") == set(scenario.MODEL_KEYS)


def test_every_verb_named_is_one_a_ruleset_offers():
    text = _section("Actions").split("Verbs every ruleset", 1)[1].split("\n\n")[0]
    named = set(re.findall(r"`([a-z_]+)`", text))
    offered = set(scenario.COMMON_VERBS)
    for key in ruleset.available():
        offered |= set(ruleset.load(key).verbs)
    assert named and named <= offered, named - offered


def test_every_ruleset_named_exists_and_every_stat_named_is_its_own():
    named = set(re.findall(r"`([a-z_]+)`", _table_keys_line("ruleset")))
    assert named and named <= set(ruleset.available()), named - set(ruleset.available())
    stats = _section("Model keys").split("`stats` per ruleset:", 1)[1].split("Weapons:")[0]
    for key, names in re.findall(r"(gem|swomp|umr) `([^`]+)`", stats):
        assert set(names.split()) <= set(ruleset.load(key).stat_keys), key


def _table_keys_line(key: str) -> str:
    for line in _section("Top-level keys").splitlines():
        if line.startswith(f"| `{key}` |"):
            return line.split("|")[2]
    raise AssertionError(key)


def test_every_command_shown_parses_and_names_a_file_that_exists():
    lines = [ln for b in _blocks("sh") for ln in b.splitlines() if ln.startswith("./warbench")]
    assert len(lines) >= 4
    parser = main.build_parser()
    for line in lines:
        argv = shlex.split(line.split("#")[0])[1:]
        args = parser.parse_args(argv)
        if getattr(args, "file", None):
            assert (ROOT / args.file).exists(), line


def test_the_error_line_shown_is_the_one_the_loader_prints(tmp_path, capsys):
    shown = next(ln for b in _blocks("text") for ln in b.splitlines() if ln.startswith("error:"))
    where = shown.split(": ")[2]
    bad = _examples()[0].replace("x = 44.0", 'x = "far"')
    path = tmp_path / "my_scenario.toml"
    path.write_text(bad, encoding="utf-8")
    assert main.main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert shown.replace("my_scenario.toml", str(path)) in err.splitlines(), (where, err)


def test_the_json_shown_has_the_keys_run_prints(tmp_path, capsys):
    shown = json.loads(_blocks("json")[0])
    path = tmp_path / "actions.toml"
    path.write_text(_with_doc_actions(_examples()[0]), encoding="utf-8")
    doc = _run(capsys, path)
    assert set(shown) <= set(doc)
    resolution = next(e for e in doc["events"] if e["kind"] == "resolution")
    assert set(shown["events"][0]) <= set(resolution)
    for model in doc["models"].values():
        assert set(shown["models"]["g1"]) <= set(model)
