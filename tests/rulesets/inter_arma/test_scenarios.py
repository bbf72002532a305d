"""The bundled Inter Arma scenarios load as the text describes them and play to the end
with the computer on both sides (issue 21's ready content)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agents import make
from engine.scenario import load_scenario, new_game

FOLDER = Path(__file__).resolve().parents[3] / "rulesets" / "inter_arma" / "scenarios"


def test_night_raid_is_the_texts_test_game():
    """IA-INITIATIVE c: the barbarian attacker of a Roman camp has the initiative; night."""
    g = new_game(load_scenario(str(FOLDER / "night_raid.toml")))
    s = g.state
    assert s.vars["conditions"] == "night" and s.active == "gauls"
    assert s.vars["ia"]["order"] == ["gauls", "rome"]
    assert [m.id for m in s.live("rome") if m.vars.get("sentry")] == ["vigil1", "vigil2"]
    assert sum("crawling" in m.status for m in s.live("gauls")) == 4
    assert [o["kind"] for o in s.vars["objectives"]] == ["standard"]


@pytest.mark.parametrize("name", ["default", "mirror", "night_raid"])
def test_greedy_plays_each_scenario_to_its_end(name: str):
    g = new_game(load_scenario(str(FOLDER / f"{name}.toml")))
    agents = {s: make("greedy", seed=i) for i, s in enumerate(g.state.sides)}
    n = 0
    while (side := g.to_act()) is not None and n < 600:
        events = g.apply(agents[side].choose(g.clone(dice_seed=n, viewer=side), side))
        assert not [e for e in events if e.kind == "refused"], [e.text for e in events]
        n += 1
    assert g.state.over, n
