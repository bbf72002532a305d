"""The Gemini army lists (``rulesets/gemini/armies``): the shape of a GEM-style list,
profiles the ruleset knows, and each bundled scenario's sides set out from them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine import schema
from engine.data import Checker, load_toml
from engine.ruleset import load

ROOT = Path(__file__).resolve().parents[3]
ARMIES = ROOT / "rulesets" / "gemini" / "armies"
SCENARIOS = ROOT / "rulesets" / "gemini" / "scenarios"
#: scenario side -> the army it sets out (mirror: the platoon less one guardsman)
SIDES = {
    ("gasr", "fangs"): "fangs",
    ("gasr", "vipers"): "vipers",
    ("default", "blue"): "guard_patrol",
    ("default", "red"): "ork_mob",
    ("battle", "blue"): "guard_platoon",
    ("battle", "red"): "ork_warband",
}


def army(name: str) -> Counter[str]:
    data = load_toml(str(ARMIES / f"{name}.toml"))
    return Counter({u["profile"]: int(u["count"]) for u in data["units"]})


@pytest.mark.parametrize("path", sorted(ARMIES.glob("*.toml")), ids=lambda p: p.stem)
def test_army_lists_are_valid_and_use_known_profiles(path: Path) -> None:
    data = load_toml(str(path))
    chk = Checker(str(path))
    schema.ARMY.check(chk, data, "")
    assert not chk.problems
    known = load("gemini").profiles()
    assert {u["profile"] for u in data["units"]} <= set(known)


@pytest.mark.parametrize("key", sorted(SIDES), ids=lambda k: "-".join(k))
def test_scenario_sides_are_the_armies(key: tuple[str, str]) -> None:
    scenario, side = key
    data = load_toml(str(SCENARIOS / f"{scenario}.toml"))
    models = Counter(m["profile"] for m in data["models"] if m["side"] == side)
    assert models == army(SIDES[key])
