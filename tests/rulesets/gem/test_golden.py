"""Golden scenario tests/scenarios/gem_charge.toml through `main.py run --json`
(SCENARIO_FORMAT.md): a block charge (GEM-2.3), a bow hit taken off the block's rear
(GEM-2.1.4), the fight with Table 3 (GEM-2.3.1) and spears (GEM-2.3.2), a refusal."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(path: str) -> dict:
    out = subprocess.run(
        [sys.executable, "main.py", "run", path, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_gem_charge_golden():
    doc = _run("tests/scenarios/gem_charge.toml")
    assert doc["ruleset"] == "gem"
    ev = doc["events"]
    charge = [e for e in ev if e.get("action") == 0 and e["kind"] == "status"]
    assert charge and charge[0]["data"]["zone"] == "front"
    shot = [e for e in ev if e.get("action") == 1 and e["kind"] == "resolution"]
    assert shot[0]["outcome"] == "hit" and shot[0]["rolls"] == [20]
    assert shot[0]["chance"] == 0.25 and shot[0]["rule"] == "GEM-2.2.3"
    fight = [e for e in ev if e.get("action") == 2 and e["kind"] == "resolution"]
    assert fight[0]["rolls"] == [15, 1, 1, 1, 1] and fight[0]["data"]["hits"] == 1
    assert fight[0]["data"]["modifier"] == 4 and "spears" in fight[0]["text"]
    refused = [e for e in ev if e["kind"] == "refused"]
    assert len(refused) == 1 and refused[0]["action"] == 3 and "too far" in refused[0]["reason"]
    models = doc["models"]
    assert models["hop8"]["removed"] and not models["hop4"]["removed"]
    assert models["sk1"]["removed"] and models["sk1"]["status"] == ["slain"]
    assert models["hop1"]["y"] == 22.0
    assert doc["turn"] == 2


def test_bad_gem_file_exits_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'ruleset = "gem"\n[[models]]\nid = "a"\nside = "x"\nx = 1\ny = 1\n'
        'stats = { OFF = 11, DEF = 3 }\n[[models]]\nid = "b"\nside = "y"\n'
        'x = 5\ny = 5\nprofile = "archer"\n'
    )
    out = subprocess.run(
        [sys.executable, "main.py", "run", str(bad), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    assert "models[0].stats.OFF" in out.stderr and "1 to 10" in out.stderr


def test_gem_deployment_golden():
    """tests/scenarios/gem_deployment.toml: the edge roll (GEM-2.0.3), a plan refused for
    leaving the 12" zone and a legal one (GEM-2.0.4), placing by the plan with a placement
    off it refused, and the first move of turn 1 after the reveal."""
    doc = _run("tests/scenarios/gem_deployment.toml")
    ev = doc["events"]
    edge = [e for e in ev if e.get("rule") == "GEM-2.0.3" and e["kind"] == "initiative"]
    assert [e["rolls"] for e in edge] == [[11], [1]]
    chosen = [e for e in ev if e.get("action") == 0]
    assert "greeks chooses the south edge" in chosen[0]["text"]
    refused = {e["action"]: e["reason"] for e in ev if e["kind"] == "refused"}
    assert set(refused) == {1, 5}
    assert '14.0" from the south edge' in refused[1] and '12"' in refused[1]
    assert "deployment follows the plan" in refused[5]
    drawn = [e for e in ev if e.get("action") in (2, 3)]
    assert all("hidden until" in e["text"] for e in drawn)
    assert any("revealed" in e["text"] for e in ev if e.get("action") == 6)
    models = doc["models"]
    assert (models["arc1"]["x"], models["arc1"]["y"]) == (19.0, 8.0)
    assert models["leg1"]["y"] == 36.5 and models["consul"]["y"] == 44.0
    assert all(m["status"] == [] for m in models.values())
    assert doc["turn"] == 1 and doc["phase"] == "movement"


def test_gem_convoy_golden():
    """tests/scenarios/gem_convoy.toml: a carrier drives (GEM-3.1), a squad gets out and a
    trooper gets in (GEM-I-EMBARK), getting out the same turn is refused, and a torn-off
    main body rolls a damage roll for the trooper inside at the attack's OFF (GEM-3.3)."""
    doc = _run("tests/scenarios/gem_convoy.toml")
    ev = doc["events"]

    def of(i: int, kind: str) -> list[dict]:
        return [e for e in ev if e.get("action") == i and e["kind"] == kind]

    assert 'drives at 4" straight on to (20.00, 14.00)' in of(0, "move")[0]["text"]
    assert len(of(1, "move")) == 2 and "in base contact" in of(1, "move")[0]["text"]
    assert "gets into apc" in of(2, "move")[0]["text"]
    assert "got in this turn" in of(3, "refused")[0]["reason"]
    res = of(4, "resolution")
    assert res[1]["outcome"] == "torn_off" and res[1]["rolls"] == [5, 5]
    assert "OFF 5 vs DEF 5" in res[2]["text"] and res[2]["rolls"] == [20]
    m = doc["models"]
    assert m["apc"]["removed"] and m["tr3"]["status"] == ["slain"]
    assert not m["tr1"]["removed"] and not m["tr2"]["removed"]
    assert m["bike"]["hp"] == 1
