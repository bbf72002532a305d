"""The options table (issue #22 "The switches"): every switch name and value is checked
on load; an unknown one stops the file with ``error: FILE: WHERE: WHAT`` and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.gemini.chapters import switches

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = (ROOT / "rulesets" / "gemini" / "scenarios" / "default.toml").read_text()


def run_validate(tmp_path: Path, options: str) -> subprocess.CompletedProcess:
    f = tmp_path / "s.toml"
    f.write_text(SCENARIO + "\n[options]\n" + options + "\n")
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "validate", str(f)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


def test_every_switch_of_the_issue_is_known_with_its_values():
    """GM-I-CORE: the switch list and the word switches' values, as the issue gives them."""
    assert set(switches.SWITCHES) == {
        "snake_eyes", "turns", "reactions", "overwatch", "fast_draw", "movement_save",
        "skills", "observation", "reserve_moves", "psychology", "gasr_morale",
        "broken_nerve", "pursuit", "breaking_off", "follow_up", "all_out_rout",
        "gasr_targeting", "frozen_pinned", "running", "ammo_rolls", "lucky_shots",
        "critical_damage", "extra_wounds", "injuries", "instant_death", "combat_score",
        "parry",
    }  # fmt: skip
    assert switches.SWITCHES["turns"] == ("phases", "initiative", "arap")
    assert switches.SWITCHES["overwatch"] == ("none", "old", "arap")
    assert switches.SWITCHES["running"] == ("none", "double", "d6")
    assert switches.SWITCHES["injuries"] == ("none", "wound_chart", "mordheim", "gasr_table")


def test_parse_gives_the_core_for_what_is_left_out():
    sw = switches.parse({"combat_score": True, "running": False, "turns": "arap"})
    assert sw.combat_score and sw.turns == "arap" and sw.running == "none"
    assert not sw.parry and sw.injuries == "none"
    assert sw.on("combat_score") and not sw.on("running")


def test_all_switches_on_validate(tmp_path):
    out = run_validate(
        tmp_path,
        "\n".join(
            f"{k} = {'true' if isinstance(v[-1], bool) else repr(v[-1]).replace(chr(39), chr(34))}"
            for k, v in switches.SWITCHES.items()
        ),
    )
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize(
    ("line", "where", "what"),
    [
        ("combat_scor = true", "options.combat_scor", "unknown Gemini switch 'combat_scor'"),
        ('turns = "alternate"', "options.turns", "\"alternate\" is not a value of 'turns'"),
        ("snake_eyes = 1", "options.snake_eyes", "1 is not a value of 'snake_eyes'"),
        ('injuries = "bad"', "options.injuries", "not a value of 'injuries'"),
    ],
)
def test_an_unknown_switch_or_value_exits_2(tmp_path, line, where, what):
    out = run_validate(tmp_path, line)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith(f"error: {tmp_path / 's.toml'}: {where}: "), out.stderr
    assert what in out.stderr
