"""Golden scenarios (tests/scenarios/umr_*.toml) run through `main.py run FILE --json`:
the events, health and removals each file's comments promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "scenarios"


def run(name: str) -> dict:
    out = subprocess.run(
        [sys.executable, "main.py", "run", str(GOLDEN / name), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def of(doc: dict, action: int, kind: str | None = None) -> list[dict]:
    return [
        e
        for e in doc["events"]
        if e.get("action") == action and (kind is None or e["kind"] == kind)
    ]


@pytest.fixture(scope="module")
def firefight() -> dict:
    return run("umr_firefight.toml")


def test_firefight_leader_and_tie(firefight):
    """UMR-LEADER / UMR-MELEE: the gift is logged; a tie on a shot goes to the defender."""
    assert of(firefight, 0)[0]["outcome"] == "die given"
    shot = of(firefight, 1, "resolution")[0]
    assert shot["outcome"] == "miss" and shot["rolls"] == [4, 5]
    assert shot["chance"] == pytest.approx(20 / 36, abs=1e-4)


def test_firefight_charge_and_brawler(firefight):
    """UMR-MELEE / UMR-BRAWLER / UMR-SIX-DAMAGE: contact, hit, two separate amounts."""
    assert any(e["outcome"] == "contact" for e in of(firefight, 3))
    hit, first, second = of(firefight, 4, "resolution")
    assert hit["outcome"] == "hit" and hit["data"]["attack"] == 7 and hit["data"]["defence"] == 4
    assert first["data"]["damage"] == 3 and first["rule"] == "UMR-DAMAGE"
    assert second["data"]["damage"] == 7 and second["rule"] == "UMR-BRAWLER"
    assert second["rolls"] == [6, 1]


def test_firefight_break_away_cover_range_and_defence_six(firefight):
    """UMR-BREAK-AWAY, UMR-BALLISTIC, UMR-RANGE, UMR-SIX-DEFENSE, UMR-GRENADIER."""
    move = of(firefight, 5, "move")[0]
    assert move["data"]["to"] == [7.0, 15.0]
    shot, dmg = of(firefight, 6, "resolution")
    assert shot["data"]["attack"] == 5  # 5 + 2 - 1 cover - 1 range
    assert "cover (behind low_wall)" in shot["text"] and 'range 19.0"' in shot["text"]
    assert dmg["data"]["damage"] == 10 and dmg["rolls"] == [6, 4]
    saved = of(firefight, 7, "resolution")[0]
    assert saved["outcome"] == "saved" and saved["data"]["die"] == "granted"
    gren = of(firefight, 8, "resolution")
    assert gren[1]["rule"] == "UMR-GRENADIER" and gren[1]["data"]["damage"] == 7
    m = firefight["models"]
    assert (m["rifle"]["hp"], m["gren"]["hp"], m["brute"]["hp"], m["sarge"]["hp"]) == (8, 5, 20, 15)
    assert not any(v["removed"] for v in m.values())
    assert not any(e["kind"] == "refused" for e in firefight["events"])


def test_river_crossing():
    """UMR-SWIMMING / UMR-CAVALRY / UMR-I-JUMP on maps/borderlands.toml."""
    doc = run("umr_river.toml")
    first = of(doc, 0, "move")[0]
    assert '2.0" of it swimming at half speed' in first["text"]
    assert of(doc, 1)[0]["kind"] == "refused" and "swimming" in of(doc, 1)[0]["reason"]
    assert of(doc, 2, "move")[0]["outcome"] == "reached"
    # three movement rolls in one activation: the rider's extra die pays first
    assert [of(doc, i, "move")[0]["data"]["die"] for i in (0, 2, 3)] == ["ability", "dice", "dice"]
    m = doc["models"]
    assert (m["rider"]["x"], m["rider"]["y"], m["rider"]["hp"]) == (20.0, 29.0, 10)
    assert m["rider"]["status"] == []
    assert (m["scout"]["x"], m["scout"]["y"], m["scout"]["status"]) == (30.0, 26.0, [])
    assert m["slowpoke"]["status"] == ["swimming"]
    assert m["slowpoke"]["y"] == pytest.approx(22.9, abs=0.01)


def test_silo_and_drones():
    """UMR-CLIMBING / UMR-FALLING / UMR-DRONE / UMR-SIX-DEFENSE on maps/ruins.toml."""
    doc = run("umr_climb.toml")
    assert of(doc, 0, "move")[0]["data"]["elev"] == 6.0
    assert of(doc, 1, "move")[0]["data"]["elev"] == 9.0
    assert of(doc, 5, "move")[0]["outcome"] == "on top"
    falls = [e for e in of(doc, 6) if e["rule"] == "UMR-FALLING"]
    # UMR-I-FALL: four floors, one test per floor fallen
    assert falls[0]["data"]["tests"] == 4
    assert [e["outcome"] for e in falls[1:]] == ["hit", "3 damage", "miss", "miss", "miss"]
    assert of(doc, 7, "resolution")[0]["outcome"] == "saved"
    removed = [e["actor"] for e in of(doc, 9, "removed")]
    assert removed == ["op"]  # UMR-I-DRONES: his drones stay
    m = doc["models"]
    assert m["climber"]["hp"] == 8 and not m["op-drone2"]["removed"]
    assert not (doc.get("outcome") or {}).get("winner")
