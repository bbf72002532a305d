"""Golden scenario tests/scenarios/gemini_combat_score.toml through `main.py run --json`:
the issue's Combat Score example as a script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_combat_score_example_as_a_script():
    """GM-COMBAT-SCORE: 10 against 8, two hits; one wounds and r is out of action."""
    out = subprocess.run(
        [sys.executable, "main.py", "run", "tests/scenarios/gemini_combat_score.toml", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    fight = [e for e in doc["events"] if e.get("action") == 1]
    score = next(e for e in fight if e["text"].startswith("Combat Score"))
    assert {k: score["data"][k] for k in ("scores", "hits")} == {"scores": {"b": 10, "r": 8}, "hits": 2}  # fmt: skip
    b, r = score["data"]["contest"]  # what the window draws (tests/ui/test_contest.py)
    assert (b["model"], b["dice"], b["score"], r["model"], r["dice"], r["score"]) == ("b", [5, 1], 10, "r", [4], 8)  # fmt: skip
    assert b["sum"] == "5 + WS 4 + 1 charging" and score["data"]["verdict"] == "b wins: 2 hit(s)"
    assert score["rolls"] == [5, 1, 4]
    assert [e["outcome"] for e in fight if e.get("rule") == "GM-WOUND"] == ["wound", "no wound"]
    assert any(e["kind"] == "removed" and e["actor"] == "r" for e in fight)
