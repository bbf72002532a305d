"""Character creation and army limits (UMR "Character creation" steps 1-3, optional RPG
rules): every limit rejects a character or an army with a message naming the model and
the limit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.umr.chapters import abilities, armies
from rulesets.umr.chapters.abilities import Ability
from tests.rulesets.umr.helpers import RS, spec

ROOT = Path(__file__).resolve().parents[3]


def build(**kw):
    return RS.build_model(spec("m1", "blue", 10, 10, **kw))


def test_fresh_character_has_two_dice_zero_stats_and_15_health():
    """UMR-CHARACTER / UMR-HEALTH: every stat starts at zero, two action dice, 15 health."""
    m, probs = build()
    assert probs == []
    assert m.stats["AD"] == 2
    assert all(
        m.stats[k] == 0 for k in ("MOVE", "MELEE", "BALLISTIC", "DAMAGE", "DEFENSE", "HEALTH")
    )
    assert (m.hp, m.max_hp) == (15, 15)


@pytest.mark.parametrize("points, health", [(0, 15), (1, 20), (2, 25)])
def test_each_health_point_adds_five(points, health):
    """UMR-HEALTH: +5 health for every personality point on HEALTH."""
    m, probs = build(stats={"HEALTH": points})
    assert probs == [] and m.max_hp == health and m.hp == health


def test_three_points_are_fine_four_are_not():
    """UMR-PERSONALITY: three personality points (UMR-I-POINTS: at most three spent)."""
    m, probs = build(stats={"MELEE": 1, "DEFENSE": 1, "HEALTH": 1})
    assert probs == [] and m.max_hp == 20
    m, probs = build(stats={"MELEE": 2, "DEFENSE": 1, "HEALTH": 1})
    assert m is None
    assert probs == [
        ("stats", "model 'm1': 4 personality points spent; a character has 3 (UMR-PERSONALITY)")
    ]


def test_at_most_two_points_on_one_stat():
    """UMR-PERSONALITY: no more than two points on any one stat (HEALTH included)."""
    for stat in ("MOVE", "MELEE", "BALLISTIC", "DAMAGE", "DEFENSE", "HEALTH"):
        m, probs = build(stats={stat: 3})
        assert m is None
        assert (
            f"stats.{stat}",
            f"model 'm1': 3 personality points on {stat}; at most 2 may "
            f"go on one stat (UMR-PERSONALITY)",
        ) in probs


def test_no_stat_above_three_combined(monkeypatch):
    """UMR-PERSONALITY: no stat above +3 of combined bonuses (a house ability with +2)."""
    house = Ability("veteran", "Veteran", None, "UMR-ABILITIES", bonus=(("MELEE", 2),))
    monkeypatch.setitem(abilities.ABILITIES, "veteran", house)
    m, probs = build(stats={"MELEE": 1, "ability": "veteran"})
    assert probs == []
    m, probs = build(stats={"MELEE": 2, "ability": "veteran"})
    assert m is None and probs == [
        (
            "stats.MELEE",
            "model 'm1': MELEE would be +4; no stat "
            "may exceed +3 of combined bonuses "
            "(UMR-PERSONALITY)",
        )
    ]


def test_infantry_gets_three_more_points_but_keeps_the_limits():
    """UMR-INFANTRY: six points instead of an ability; two per stat still applies."""
    m, probs = build(stats={"BALLISTIC": 2, "DEFENSE": 2, "HEALTH": 2, "ability": "infantry"})
    assert probs == [] and m.max_hp == 25
    m, probs = build(
        stats={"BALLISTIC": 2, "DEFENSE": 2, "HEALTH": 2, "MOVE": 1, "ability": "infantry"}
    )
    assert m is None and "7 personality points spent; an infantry character has 6" in probs[0][1]
    m, probs = build(stats={"BALLISTIC": 3, "ability": "infantry"})
    assert m is None and probs[0][0] == "stats.BALLISTIC"
    m, probs = build(stats={"BALLISTIC": 2, "DEFENSE": 2, "ability": "sniper"})
    assert m is None and "4 personality points spent; a character has 3" in probs[0][1]


@pytest.mark.parametrize("ad", [1, 3])
def test_a_character_has_exactly_two_action_dice(ad):
    """UMR-ACTION-DICE: two action dice; points cannot buy more."""
    m, probs = build(stats={"AD": ad})
    assert m is None
    assert probs[0][0] == "stats.AD" and "every character has two action dice" in probs[0][1]


def test_one_known_special_ability():
    """UMR-ABILITIES: one ability from the list (spelling as in the book accepted)."""
    for name, key in (
        ("Drone operator", "drone_operator"),
        ("mounted cavalry", "cavalry"),
        ("Sniper", "sniper"),
        ("none", ""),
    ):
        m, probs = build(stats={"ability": name})
        assert probs == [] and m.stats["ability"] == key
    m, probs = build(stats={"ability": "wizard"})
    assert m is None and "unknown special ability 'wizard'" in probs[0][1]
    m, probs = build(stats={"ability": ["sniper", "tank"]})
    assert m is None and "one special ability, not 2" in probs[0][1]


def test_unknown_stats_and_state_keys_are_named():
    """UMR-CHARACTER: only the profile's stats exist."""
    m, probs = build(stats={"STRENGTH": 1}, state={"mood": 1})
    assert m is None
    assert probs[0][0] == "stats.STRENGTH" and "unknown stat for umr" in probs[0][1]
    assert probs[1][0] == "state.mood"


def test_rpg_stats_take_one_extra_point_only():
    """UMR-RPG-STATS: one extra point, only on diplomacy, perception or mechanics; it does
    not count against the three combat points."""
    m, probs = build(stats={"MELEE": 2, "DEFENSE": 1, "PERCEPTION": 1})
    assert probs == [] and m.stats["PERCEPTION"] == 1
    m, probs = build(stats={"DIPLOMACY": 1, "MECHANICS": 1})
    assert m is None and "2 points on the RPG stats" in probs[0][1]


def test_rpg_abilities_replace_combat_abilities():
    """UMR-RPG-ABILITIES: charismatic, investigator, engineer, no army limit."""
    for name in ("charismatic", "investigator", "engineer"):
        m, probs = build(stats={"ability": name, "DIPLOMACY": 1})
        assert probs == [] and m.stats["ability"] == name
    models = [
        RS.build_model(spec(f"e{i}", "blue", 3 * i + 2, 2, stats={"ability": "engineer"}))[0]
        for i in range(5)
    ]
    assert RS.check_army(models) == []


LIMITED = [
    ("leader", 1),
    ("drone_operator", 2),
    ("cavalry", 3),
    ("sniper", 2),
    ("assassin", 3),
    ("tank", 2),
    ("skirmisher", 3),
]


@pytest.mark.parametrize("key, limit", LIMITED)
def test_army_limits(key, limit):
    """UMR-ABILITIES: per-army limits; one more than the limit names the model and limit."""

    def army(n, side="blue"):
        return [
            RS.build_model(
                spec(
                    f"{side}{i}",
                    side,
                    3 * i + 2,
                    2 if side == "blue" else 40,
                    stats={"ability": key},
                )
            )[0]
            for i in range(n)
        ]

    assert RS.check_army(army(limit) + army(limit, "red")) == []
    probs = RS.check_army(army(limit + 1))
    name = abilities.ABILITIES[key].name.lower()
    rule = abilities.ABILITIES[key].rule
    assert probs == [
        (
            f"blue{limit}",
            f"model 'blue{limit}': side 'blue' fields {limit + 1} "
            f"{name}s; the limit is {limit} per army ({rule})",
        )
    ]


@pytest.mark.parametrize("key", ["infantry", "grenadier", "commando", "guardian", "brawler"])
def test_unlimited_abilities(key):
    """UMR-ABILITIES: the abilities without a limit may be fielded by everyone."""
    models = [
        RS.build_model(spec(f"m{i}", "blue", 3 * i + 2, 2, stats={"ability": key}))[0]
        for i in range(8)
    ]
    assert RS.check_army(models) == []


def test_drones_need_an_operator_and_no_points():
    """UMR-DRONE: a drone has one action die, ten health, no personality points; two per
    operator."""
    d, probs = RS.build_model(spec("d1", "blue", 5, 5, profile="drone", state={"operator": "op"}))
    assert probs == [] and d.stats["AD"] == 1 and (d.hp, d.max_hp) == (10, 10)
    _, probs = RS.build_model(spec("d1", "blue", 5, 5, profile="drone"))
    assert probs[0][0] == "state.operator"
    _, probs = RS.build_model(
        spec("d1", "blue", 5, 5, profile="drone", stats={"MELEE": 1}, state={"operator": "op"})
    )
    assert "a drone has no personality points" in probs[0][1]
    op = RS.build_model(spec("op", "blue", 10, 10, profile="operator"))[0]
    sniper = RS.build_model(spec("sn", "blue", 14, 10, profile="marksman"))[0]
    drones = [
        RS.build_model(
            spec(f"d{i}", "blue", 3 * i + 2, 2, profile="drone", state={"operator": "op"})
        )[0]
        for i in range(3)
    ]
    probs = RS.check_army([op, *drones])
    assert probs == [
        (
            "d2",
            "model 'd2': operator 'op' already has 2 drones; the limit is 2 per "
            "operator (UMR-DRONE)",
        )
    ]
    stray = RS.build_model(spec("dx", "blue", 30, 2, profile="drone", state={"operator": "sn"}))[0]
    assert "'sn' is not a drone operator" in RS.check_army([sniper, stray])[0][1]


def test_every_profile_is_a_legal_character():
    """UMR-CHARACTER: the ready-made profiles in units.toml obey every limit."""
    for name in RS.profiles():
        state = {"operator": "x"} if name == "drone" else {}
        m, probs = RS.build_model(spec("p", "blue", 5, 5, profile=name, state=state))
        assert probs == [], (name, probs)


def test_the_army_lists_are_legal_and_a_broken_one_is_caught(tmp_path):
    """UMR-ABILITIES: the shipped armies keep every limit; a second leader is reported."""
    files = armies.army_files()
    assert len(files) >= 2
    for f in files:
        assert armies.problems(f, RS.profiles()) == [], f
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\nside = "blue"\n[[models]]\nid = "a"\nprofile = "squad_leader"\n'
        '[[models]]\nid = "b"\nstats = { ability = "leader", MELEE = 3 }\n'
    )
    probs = armies.problems(bad, RS.profiles())
    assert any("3 personality points on MELEE" in p for p in probs)
    bad.write_text(
        'name = "x"\nside = "blue"\n[[models]]\nid = "a"\nprofile = "squad_leader"\n'
        '[[models]]\nid = "b"\nstats = { ability = "leader", MOVE = 1, MELEE = 2 }\n'
    )
    assert armies.problems(bad, RS.profiles()) == [
        "b: model 'b': side 'blue' fields 2 leaders; the limit is 1 per army (UMR-LEADER)"
    ]


def test_an_army_character_spends_three_points_and_takes_an_ability(tmp_path):
    """UMR-PERSONALITY / UMR-ABILITIES (UMR-I-POINTS): Step 2 "add three personality
    points", Step 3 "select one special ability":
    a roster character that underspends or takes no ability is refused (audit c13)."""
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\nside = "blue"\n[[models]]\nid = "a"\nstats = { ability = "none" }\n'
        '[[models]]\nid = "b"\nstats = { MELEE = 1, ability = "infantry" }\n'
    )
    assert armies.problems(bad, RS.profiles()) == [
        "models[0].stats.ability: model 'a': select one special ability (UMR-ABILITIES)",
        "models[0].stats: model 'a': 0 personality points spent; a character adds 3 "
        "(UMR-PERSONALITY)",
        "models[1].stats: model 'b': 1 personality points spent; a character adds 6 "
        "(UMR-PERSONALITY)",
    ]


def test_main_run_rejects_a_broken_army_with_exit_2(tmp_path):
    """UMR-ABILITIES / UMR-PERSONALITY: `main.py run` exits 2, one error line per problem."""
    f = tmp_path / "broken.toml"
    f.write_text("""ruleset = "umr"
[[models]]
id = "a"
side = "blue"
x = 10
y = 10
stats = { ability = "leader" }
[[models]]
id = "b"
side = "blue"
x = 20
y = 10
stats = { ability = "leader", MELEE = 3 }
[[models]]
id = "c"
side = "red"
x = 10
y = 30
stats = { DEFENSE = 2, DAMAGE = 2 }
""")
    out = subprocess.run(
        [sys.executable, "main.py", "run", str(f)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 2, out.stdout + out.stderr
    lines = out.stderr.strip().splitlines()
    assert (
        f"error: {f}: models[1].stats.MELEE: model 'b': 3 personality points on MELEE; at "
        f"most 2 may go on one stat (UMR-PERSONALITY)" in lines
    )
    assert (
        f"error: {f}: models[2].stats: model 'c': 4 personality points spent; a character "
        f"has 3 (UMR-PERSONALITY)" in lines
    )
    assert "Traceback" not in out.stderr
    f.write_text(
        f.read_text()
        .replace("MELEE = 3", "MELEE = 1")
        .replace("DEFENSE = 2, DAMAGE = 2", "DEFENSE = 1")
    )
    out = subprocess.run(
        [sys.executable, "main.py", "run", str(f)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"error: {f}: models[1]: model 'b': side 'blue' fields 2 "
        f"leaders; the limit is 1 per army (UMR-LEADER)"
    )
