"""The rules reference (every cited id exists, interpretations listed) and exact odds."""

import re
from fractions import Fraction
from pathlib import Path

from engine.actions import Shoot
from engine.ruleset import load
from engine.testing import to_phase

from .helpers import make, model

GEM = Path(__file__).resolve().parents[3] / "rulesets" / "gem"


def test_every_cited_section_exists():
    rs = load("gem")
    cited = set()
    for f in GEM.glob("*.py"):
        cited |= set(re.findall(r"GEM-(?:I-[A-Z]+|\d+(?:\.\d+)*)", f.read_text()))
    missing = sorted(c for c in cited if c not in rs.reference.sections)
    assert not missing, missing
    assert len(rs.reference.interpretations()) >= 15


def test_odds_match_table1_with_modifiers():
    """GEM-2.2.3/2.2.4: bow OFF 4 vs DEF 7 needs 15; over half range -2: 17+ = 4/20."""
    g = make(
        [
            model("a", "blue", 10, 10, 0, profile="archer"),
            model("t", "red", 24, 10, 180, stats={"OFF": 3, "DEF": 7}),
        ]
    )
    to_phase(g, "missile")
    o = g.odds(Shoot(actor="a", target="t", weapon="bow"))
    assert o is not None and o.chance == Fraction(4, 20)
    assert o.dist == {0: Fraction(16, 20), 1: Fraction(4, 20)}
