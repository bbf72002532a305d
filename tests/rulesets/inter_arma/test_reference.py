"""The Inter Arma rules reference: every rule id the code cites exists, and what is not
yet enforced is said in one place."""

from __future__ import annotations

import re
from pathlib import Path

from tests.rulesets.inter_arma.helpers import RS

FOLDER = Path(__file__).resolve().parents[3] / "rulesets" / "inter_arma"


def test_every_cited_rule_exists():
    cited = set()
    for f in FOLDER.rglob("*.py"):
        for m in re.finditer(r"IA-[A-Z0-9]+(?:-[A-Z0-9]+)*(-\{)?", f.read_text()):
            if not m.group(1):
                cited.add(m.group(0))
    missing = sorted(c for c in cited if c not in RS.reference.sections)
    assert not missing, missing
    assert len(RS.reference.interpretations()) >= 15
