"""``skills`` and ``observation`` in a game: the scenario's hidden things and tasks
(GM-SKILLS, GM-OBSERVATION, GM-I-TASKS), forced dice through the game and the scenario
file's checks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.actions import Move, from_dict
from engine.scenario import load_scenario, new_game, run_script
from engine.testing import apply
from rulesets.gemini.actions import Attempt, Search
from rulesets.gemini.chapters.options.tasks import record
from tests.rulesets.gemini.helpers import duel

ROOT = Path(__file__).resolve().parents[3]
CACHE = {"id": "cache", "name": "the ammo cache", "kind": "hidden", "x": 20.0, "y": 14.0, "radius": 3.0}  # fmt: skip
DOOR = {"id": "door", "name": "the vault door", "kind": "task", "x": 20.0, "y": 11.0,
        "skill": "lockpicking", "difficulty": "hard", "radius": 1.0}  # fmt: skip


def game(places, blue=None, **opts):
    g = duel(blue=blue, gap=30.0, options={"observation": True, "skills": True, **opts})
    g.state.vars["objectives"] = [dict(p) for p in places]
    return g


def why(g, a):
    return " ".join(map(str, g.check(a).reasons))


def found(g, side="blue"):
    return {k.split(":", 1)[1] for k in record(g.state, "found") if k.startswith(side + ":")}


def test_entering_a_hidden_things_area_calls_one_observation_roll():
    """GM-OBSERVATION: a d10 of I or less; I 3 (core), a 3 spots it (by 0)."""
    g = game([CACHE])
    ev = apply(g, Move(actor="b", to=(20.0, 12.0)), dice=[3])
    assert found(g) == {"cache"}
    assert any("notices the ammo cache (by 0)" in e.text for e in ev)


def test_a_failed_observation_is_not_rolled_again_by_that_model():
    g = game([CACHE])
    apply(g, Move(actor="b", to=(20.0, 12.0)), dice=[4])
    assert found(g) == set() and g.state.models["b"].vars["observed"] == ["cache"]


def test_search_covers_half_m_and_spends_the_move():
    """GM-OBSERVATION: M 4 searches 2" around its base; a 2 on the d10 finds it; the
    model may not move after (GM-I-TASKS: a search takes its move)."""
    g = game([{**CACHE, "y": 12.4}])
    ev = apply(g, Search(actor="b"), dice=[2])
    assert found(g) == {"cache"} and any("finds the ammo cache" in e.text for e in ev)
    assert not g.check(Move(actor="b", to=(20.0, 11.0))).ok


def test_search_out_of_reach_finds_nothing_and_rolls_nothing():
    g = game([{**CACHE, "y": 16.0}])
    ev = apply(g, Search(actor="b"))
    assert found(g) == set() and any("finds nothing" in e.text for e in ev)
    assert not [e for e in ev if e.kind == "roll"]


def test_skilled_task_rolls_3d6_against_the_skill_level():
    """GM-SKILLS: lockpicking 12: 4+4+4 = 12 passes; the door is done for blue."""
    g = game([DOOR], blue={"stats": {"skills": ["lockpicking 12"]}})
    apply(g, Attempt(actor="b", place="door"), dice=[4, 4, 4])
    assert record(g.state, "done") == {"blue:door": "b"}


def test_skilled_task_fails_above_the_level():
    g = game([DOOR], blue={"stats": {"skills": ["lockpicking 12"]}})
    apply(g, Attempt(actor="b", place="door"), dice=[4, 4, 5])
    assert record(g.state, "done") == {}


def test_unskilled_hard_task_rolls_against_ld_minus_4():
    """GM-SKILLS: unskilled, a hard task is 3d6 against Ld−4: Ld 7 needs 3 or less."""
    g = game([DOOR])
    ev = apply(g, Attempt(actor="b", place="door"), dice=[1, 1, 2])
    assert record(g.state, "done") == {}
    assert any("Ld-4" in e.text for e in ev)
    g = game([DOOR])
    apply(g, Attempt(actor="b", place="door"), dice=[1, 1, 1])
    assert record(g.state, "done") == {"blue:door": "b"}


def test_task_modifier_and_skilled_only_and_reach():
    g = game([{**DOOR, "modifier": -2}], blue={"stats": {"skills": ["lockpicking 12"]}})
    apply(g, Attempt(actor="b", place="door"), dice=[4, 4, 3])  # 11 > 12 − 2
    assert record(g.state, "done") == {}
    g = game([{**DOOR, "skilled_only": True}])
    assert "needs it" in why(g, Attempt(actor="b", place="door"))
    g = game([{**DOOR, "y": 14.0}])
    assert "to attempt it" in why(g, Attempt(actor="b", place="door"))


def test_no_switch_no_verbs():
    g = duel(gap=30.0)
    g.state.vars["objectives"] = [dict(DOOR)]
    assert "skills switch" in why(g, Attempt(actor="b", place="door"))
    assert "observation switch" in why(g, Search(actor="b"))


def test_the_computer_offers_the_task_in_reach():
    g = game([DOOR, {**CACHE, "y": 12.0}])
    acts = g.candidates()
    assert Attempt(actor="b", place="door") in acts and Search(actor="b") in acts


def test_turn_limit_counts_places_first():
    """GM-I-TASKS: at the turn limit the side with more places found or done wins,
    even with fewer wounds left; no places: wounds alone (GM-I-END)."""
    from rulesets.gemini.victory import at_turn_limit

    g = game([DOOR, CACHE])
    record(g.state, "done")["red:door"] = "r"
    g.state.models["r"].hp = 0
    at_turn_limit(g.state)
    assert g.state.over["winner"] == "red" and "GM-I-TASKS" in g.state.over["reason"]
    g = game([DOOR, CACHE])
    g.state.models["r"].hp = 0
    at_turn_limit(g.state)
    assert g.state.over["winner"] == "blue" and "GM-I-END" in g.state.over["reason"]


def test_verbs_from_a_script():
    assert from_dict({"do": "attempt", "actor": "b", "place": "door"}, "gemini") == Attempt(
        actor="b", place="door"
    )


BAD = """
ruleset = "gemini"
[options]
skills = true
[[models]]
id = "a"
side = "blue"
x = 5
y = 5
stats = {{ skills = ["lockpicking"] }}
[[models]]
id = "z"
side = "red"
x = 20
y = 20
[[objectives]]
{place}
"""


@pytest.mark.parametrize(
    ("place", "where", "what"),
    [
        ('kind = "task"\nx = 1\ny = 1', "objectives[0].skill", "names the skill"),
        ('kind = "task"\nskill = "x"\ndifficulty = "tricky"\nx = 1\ny = 1', "objectives[0].difficulty", "'tricky'"),
        ('kind = "hidden"\nx = 1\ny = 1', "objectives[0]", "observation switch"),
        ('kind = "hold"\nx = 1\ny = 1', "objectives[0].kind", "'hidden' or 'task'"),
        ('kind = "hidden"\nskill = "x"\nx = 1\ny = 1', "objectives[0].skill", "takes no 'skill'"),
    ],
)  # fmt: skip
def test_bad_places_stop_the_load_naming_where(tmp_path, place, where, what):
    p = tmp_path / "bad.toml"
    p.write_text(BAD.format(place=place))
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "validate", str(p)],
                       capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    assert r.returncode == 2
    assert f"error: {p}: {where}: " in r.stderr and what in r.stderr
    assert f"error: {p}: models[0].stats.skills[0]: " in r.stderr


def test_the_vault_scenario_plays_its_places():
    """The bundled scenario: its script searches and picks the lock with forced dice."""
    scn = load_scenario(ROOT / "rulesets/gemini/scenarios/vault.toml")
    g = new_game(scn)
    run_script(g, scn)
    done = record(g.state, "done")
    assert any(k.endswith(":vault_door") for k in done)
    assert any(k.endswith(":cache") for k in record(g.state, "found"))
