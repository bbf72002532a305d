"""A run folder is never overwritten by surprise nor written through a symbolic link
(audit reliability D15), and names its ruleset and scenario."""

from __future__ import annotations

import json
import os

import pytest

from engine.batch_files import OutputError, folder_name, prepare

RUN = {
    "ruleset": "umr",
    "scenario": "s.toml",
    "agents": ["a", "b"],
    "seed": 1,
    "turn_limit": 0,
    "games": 4,
}


def test_folder_is_named_by_ruleset_and_scenario():
    assert folder_name("umr", "rulesets/umr/scenarios/default.toml") == "umr-default"
    assert folder_name("gem", "x/default.toml") == "gem-default"
    assert folder_name("gem", "...toml") == "gem-scenario"  # never '..'
    assert folder_name("swomp", "a b/c;d.toml") == "swomp-c_d"


def test_a_second_run_needs_force_or_resume(tmp_path):
    prepare(tmp_path, RUN, force=False, resume=False)
    (tmp_path / "games.jsonl").write_text('{"game": 0}\n{"game": 9}\n')
    (tmp_path / "summary.json").write_text("{}")
    with pytest.raises(OutputError, match="--force"):
        prepare(tmp_path, RUN, force=False, resume=False)
    kept = prepare(tmp_path, RUN, force=False, resume=True)
    assert kept == [{"game": 0}]  # game 9 is not part of a 4-game run
    assert not (tmp_path / "summary.json").exists()  # no stale summary if killed again
    with pytest.raises(OutputError, match="seed"):
        prepare(tmp_path, {**RUN, "seed": 2}, force=False, resume=True)
    assert prepare(tmp_path, {**RUN, "seed": 2}, force=True, resume=False) == []
    assert json.loads((tmp_path / "run.json").read_text())["seed"] == 2
    assert (tmp_path / "games.jsonl").read_text() == ""


def test_a_symlink_is_replaced_never_followed(tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(target, out / "games.jsonl")
    with pytest.raises(OutputError):
        prepare(out, RUN, force=False, resume=False)
    prepare(out, RUN, force=True, resume=False)
    assert target.read_text() == "keep me"
    assert not (out / "games.jsonl").is_symlink()
    link = tmp_path / "link"
    os.symlink(out, link)
    with pytest.raises(OutputError, match="symbolic link"):
        prepare(link, RUN, force=True, resume=False)


def test_an_output_path_that_is_a_file_is_an_error(tmp_path):
    f = tmp_path / "f"
    f.write_text("")
    with pytest.raises(OutputError, match="not a folder"):
        prepare(f, RUN, force=True, resume=False)
