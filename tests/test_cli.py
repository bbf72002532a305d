"""main.py as a player or a script calls it (SCENARIO_FORMAT.md "Commands"): exit codes,
one `error: FILE: WHERE: WHAT` line per problem, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

GOOD = """title = "cli"
ruleset = "umr"
seed = 2
first = "blue"
[[models]]
id = "a"
side = "blue"
profile = "rifleman"
x = 10
y = 10
[[models]]
id = "b"
side = "red"
profile = "rifleman"
x = 10
y = 20
"""


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "main.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_a_valid_file_runs_and_prints_one_json_document(tmp_path):
    f = tmp_path / "ok.toml"
    f.write_text(GOOD + '[[actions]]\nactor = "a"\ndo = "shoot"\ntarget = "b"\ndice = [6, 1, 3]\n')
    out = run("run", str(f), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["ruleset"] == "umr" and set(doc["models"]) == {"a", "b"}
    assert any(e["kind"] == "resolution" and e["action"] == 0 for e in doc["events"])
    text = run("run", str(f))
    assert text.returncode == 0 and "-- action 0: a shoot b" in text.stdout


@pytest.mark.parametrize(
    "name, content, where, what",
    [
        ("not_toml", 'title = "x"\nruleset = \n', "line 2", "not valid TOML"),
        ("ruleset", GOOD.replace('"umr"', '"chess"'), "ruleset", "unknown ruleset 'chess'"),
        ("key", "colour = 3\n" + GOOD, "colour", "unknown key"),
        (
            "type",
            GOOD.replace("x = 10\ny = 20", 'x = "ten"\ny = 20'),
            "models[1].x",
            "expected a number",
        ),
        ("off_table", GOOD.replace("y = 20", "y = 60"), "models[1]", "off the table"),
        ("overlap", GOOD.replace("y = 20", "y = 10.5"), "models[1]", "overlaps 'a'"),
        (
            "die_face",
            GOOD + '[[actions]]\nactor = "a"\ndo = "shoot"\ntarget = "b"\ndice = [7]\n',
            "actions[0].dice[0]",
            "out of range",
        ),
        (
            "unknown_model",
            GOOD + '[[actions]]\nactor = "zed"\ndo = "shoot"\ntarget = "b"\n',
            "actions[0].actor",
            "unknown model 'zed'",
        ),
        ("bad_map", 'map = "maps/atlantis.toml"\n' + GOOD, "map", "bad map reference"),
        (
            "limit",
            GOOD.replace(
                'profile = "rifleman"\nx = 10\ny = 10', "stats = { MELEE = 3 }\nx = 10\ny = 10"
            ),
            "models[0]",
            "MELEE",
        ),
    ],
)
def test_unusable_files_exit_2_with_one_line_per_problem(tmp_path, name, content, where, what):
    f = tmp_path / f"{name}.toml"
    f.write_text(content)
    out = run("run", str(f), "--json")
    assert out.returncode == 2
    assert out.stdout == ""
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines and all(line.startswith(f"error: {f}: ") for line in lines), lines
    assert any(line.startswith(f"error: {f}: {where}") and what in line for line in lines), lines


def test_missing_file():
    out = run("run", "no/such/file.toml")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == "error: no/such/file.toml: file: no such file"


def test_validate_and_points():
    assert run("validate", "rulesets/umr/scenarios/default.toml").returncode == 0
    pts = run("points", "rulesets/gem/armies/romans.toml")
    assert pts.returncode == 0 and "total" in pts.stdout
    bad = run("points", "no/such.toml")
    assert bad.returncode == 2 and bad.stderr.startswith("error: no/such.toml")


def test_points_asks_the_army_s_own_ruleset():
    """A SWOMP army is priced by SWOMP's formula (SWOMP-I-POINTS), not checked as GEM's;
    a ruleset without points says so."""
    pts = run("points", "rulesets/swomp/armies/eldar_host.toml")
    assert pts.returncode == 0 and "total 603 points" in pts.stdout, pts.stderr
    umr = run("points", "rulesets/umr/armies/iron_wolves.toml")
    assert umr.returncode == 2 and "'umr' has no points system" in umr.stderr
    assert run("balance", "umr").returncode == 2


def test_points_never_guesses_the_ruleset(tmp_path):
    """Outside ``rulesets/<key>/`` the file's ``ruleset`` key says whose formula prices
    it; without one the command asks, instead of reading it as a GEM list (#17)."""
    eldar = (ROOT / "rulesets/swomp/armies/eldar_host.toml").read_text()
    (tmp_path / "named.toml").write_text('ruleset = "swomp"\n' + eldar)
    pts = run("points", str(tmp_path / "named.toml"))
    assert pts.returncode == 0 and "total 603 points" in pts.stdout, pts.stderr
    (tmp_path / "bare.toml").write_text(eldar)
    bare = run("points", str(tmp_path / "bare.toml"))
    assert bare.returncode == 2 and "whose points?" in bare.stderr
    assert "gem" not in bare.stderr.split("(known")[0], bare.stderr
    romans = (ROOT / "rulesets/gem/armies/romans.toml").read_text()
    (tmp_path / "romans.toml").write_text('ruleset = "gem"\n' + romans)
    gem = run("points", str(tmp_path / "romans.toml"))
    assert gem.returncode == 0 and "total" in gem.stdout, gem.stderr


def test_simulate_writes_results_and_summary(tmp_path):
    args = ("simulate", "rulesets/umr/scenarios/default.toml", "--games", "2", "--workers", "0")
    args += ("--agents", "random,random", "--turn-limit", "1", "--out", str(tmp_path))
    out = run(*args)
    assert out.returncode == 0, out.stderr
    assert "random" in out.stdout and "win rate" in out.stdout
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 2
    for name in ("wins.png", "luck.png", "summary.json", "run.json"):
        assert (tmp_path / name).exists(), name
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["ruleset"] == "umr"
    assert summary["scenario"] == "rulesets/umr/scenarios/default.toml"
    assert out.stderr == ""  # no progress bar when stdout is not a terminal
    again = run(*args)
    assert again.returncode == 2 and "Traceback" not in again.stderr
    assert again.stderr.startswith(f"error: {tmp_path}: output folder: holds an earlier run")
    assert run(*args, "--force").returncode == 0
    bad = run("simulate", "rulesets/umr/scenarios/default.toml", "--agents", "random")
    assert bad.returncode == 2 and bad.stderr.startswith("error: --agents")


def test_simulate_and_balance_show_their_defaults_in_help():
    sim = " ".join(run("simulate", "--help").stdout.split())
    assert "(default: 20)" in sim and "(default: greedy,random)" in sim
    assert "out/simulate/RULESET-" in sim and "--scheduler" in sim
    bal = " ".join(run("balance", "--help").stdout.split())
    assert "(default: 60)" in bal and "(default: out/balance)" in bal


def test_simulate_says_so_when_the_cluster_cannot_be_reached(tmp_path):
    out = run(
        "simulate",
        "rulesets/umr/scenarios/default.toml",
        "--scheduler",
        "tcp://127.0.0.1:9",
        "--out",
        str(tmp_path),
    )
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("error: --scheduler: could not reach tcp://127.0.0.1:9")


def test_simulate_is_reproducible_from_the_seed(tmp_path):
    outs = []
    for k in range(2):
        d = tmp_path / str(k)
        r = run(
            "simulate",
            "rulesets/umr/scenarios/default.toml",
            "--games",
            "2",
            "--workers",
            "0",
            "--agents",
            "random,random",
            "--turn-limit",
            "1",
            "--seed",
            "9",
            "--out",
            str(d),
        )
        assert r.returncode == 0, r.stderr
        rows = [json.loads(x) for x in (d / "games.jsonl").read_text().splitlines()]
        outs.append(sorted((r["game"], r["winner"], r["actions"]) for r in rows))
    assert outs[0] == outs[1]


def test_balance_runs_the_gem_point_study(tmp_path):
    out = run(
        "balance", "gem", "--pairs", "2", "--duels", "1", "--workers", "0", "--out", str(tmp_path)
    )
    assert out.returncode == 0, out.stderr
    assert "best fit k" in out.stdout and out.stderr == ""
    assert (tmp_path / "gem.png").read_bytes()[:4] == b"\x89PNG"
    bad = run("balance", "nope")
    assert bad.returncode == 2 and bad.stderr.startswith("error: balance:")
