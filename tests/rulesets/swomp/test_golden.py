"""Golden scenario tests/scenarios/swomp_frag.toml through `main.py run --json`
(SCENARIO_FORMAT.md): the frag missile example as a script with forced dice."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def run(path: str) -> dict:
    out = subprocess.run(
        [sys.executable, "main.py", "run", path, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_frag_golden_scenario():
    """SWOMP "Blast markers" worked example, run from a scenario file."""
    doc = run("tests/scenarios/swomp_frag.toml")
    assert doc["ruleset"] == "swomp"
    res = [e for e in doc["events"] if e["kind"] == "resolution"]
    first = res[0]
    assert first["action"] == 0 and first["actor"] == "marine" and first["target"] == "g1"
    assert first["rule"] == "SWOMP-SHOOT" and first["outcome"] == "hit"
    assert first["rolls"] == [4, 3] and first["chance"] == 0.6
    assert "PR 4 + WR 3 + 4 = 11 beats DR 3 + cover 1 + moving 1 + 3 = 8" in first["text"]
    blast = [e for e in res if e["rule"] == "SWOMP-BLAST"]
    assert [(e["target"], e["outcome"], e["rolls"]) for e in blast] == [
        ("g2", "hit", [7, 2]),
        ("g3", "miss", [7, 6]),
        ("g4", "miss", [7, 10]),
    ]
    models = doc["models"]
    assert models["g1"]["removed"] and models["g1"]["hp"] == 0
    assert models["g2"]["removed"]
    for k in ("g3", "g4", "g5", "g6", "marine"):
        assert not models[k]["removed"] and models[k]["hp"] == 1
    assert not any(e["kind"] == "refused" for e in doc["events"])


def test_bad_forced_die_is_a_file_error(tmp_path):
    """A die face a d10 does not have is refused at load (exit 2)."""
    src = (ROOT / "tests/scenarios/swomp_frag.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(src.replace("dice = [4, 3, 7, 2, 6, 10]", "dice = [11]"))
    out = subprocess.run(
        [sys.executable, "main.py", "run", str(bad), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2 and "actions[0].dice[0]" in out.stderr


def test_ready_scenarios_validate():
    for name in ("default", "armour", "deployment"):
        out = subprocess.run(
            [sys.executable, "main.py", "validate", f"rulesets/swomp/scenarios/{name}.toml"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr


def test_deployment_golden_scenario():
    """SWOMP "Deployment" as a script: out of turn and beyond 12" refused with reasons,
    the gaunts (SR 3) before the marine (SR 6), then initiative and the first shot."""
    doc = run("tests/scenarios/swomp_deploy.toml")
    refused = [e for e in doc["events"] if e["kind"] == "refused"]
    assert [(e["action"], e["actor"]) for e in refused] == [(0, "marine"), (1, "g1")]
    assert "red's turn to deploy" in refused[0]["reason"]
    assert '13.5" from the north edge' in refused[1]["reason"]
    deploys = [e for e in doc["events"] if e["kind"] == "move" and e["rule"] == "SWOMP-DEPLOY"]
    assert [e["actor"] for e in deploys] == ["g1", "g2", "marine"]
    assert [e["rolls"] for e in doc["events"] if e["kind"] == "initiative"] == [[9], [2]]
    shot = [e for e in doc["events"] if e["kind"] == "resolution"][0]
    assert shot["action"] == 5 and shot["outcome"] == "hit" and shot["rolls"] == [8, 2]
    assert doc["models"]["marine"]["x"] == 30.0 and doc["models"]["marine"]["y"] == 10.0
    assert doc["models"]["g1"]["removed"]


def test_ready_scenarios_start_clear_of_tall_terrain_within_their_zones():
    """Every model of the ready scenarios stands clear of walls, buildings and rocks and
    within 12" of its own table edge (SWOMP "Deployment")."""
    from engine import geometry
    from engine.scenario import load_scenario
    from engine.table import footprint as fp
    from rulesets.swomp.chapters import deploy

    for name in ("default", "armour", "deployment"):
        scn = load_scenario(ROOT / f"rulesets/swomp/scenarios/{name}.toml")
        bf = scn.battlefield
        kinds = {f.id: f.kind for f in bf.terrain}
        for m in scn.models:
            under = [kinds[f] for f in geometry.features_under(fp(m), bf)]
            assert not set(under) & {"wall", "building", "rocks"}, (name, m.id, under)
            edge = "south" if m.side == "blue" else "north"
            deep = max(p[1] if edge == "south" else bf.depth - p[1] for p in deploy.corners(fp(m)))
            assert deep <= 12.0 + 1e-6, (name, m.id, deep)


def test_a_scripted_charge_forces_the_dice_of_its_fight():
    """SCENARIO_FORMAT "Forced dice": a charge's list holds the attacker's then the
    defender's close-combat d10 (SWOMP "Charging"); the defender's stand-or-retreat
    reaction is answered with its default by the runner, so the dice reach the fight."""
    doc = run("tests/scenarios/swomp_charge.toml")
    fight = [e for e in doc["events"] if e["kind"] == "resolution"][0]
    assert fight["action"] == 0 and fight["rolls"] == [9, 2]
    assert "CR 3 + charging 1 + 9 = 13 beats DR 4 + armour 4 + 2 = 10" in fight["text"]
    assert doc["models"]["marine"]["removed"] and doc["models"]["marine"]["hp"] == 0
    assert not any(e["kind"] == "refused" for e in doc["events"])
