"""Special abilities (UMR "Character creation", step 3) with their exact effects and
once-per-round limits, and the optional RPG tests."""

from __future__ import annotations

from engine.actions import EndActivation, EndTurn, Fight, Move, Shoot
from engine.testing import apply, events_of, refusal
from rulesets.umr.actions import Lead, RpgTest
from tests.rulesets.umr.helpers import game, hp, spec

TOUCH = 0.99


def melee(att, dfn, **kw):
    return game(
        spec("a", "blue", 10, 10, stats=att),
        spec("x", "red", 10 + TOUCH, 10, stats=dfn),
        spec("far", "red", 60, 40),
        **kw,
    )


def ranged(att, dfn, **kw):
    return game(
        spec("a", "blue", 10, 10, stats=att),
        spec("x", "red", 16, 10, stats=dfn),
        spec("far", "red", 60, 40),
        **kw,
    )


def next_round(g, dice=(5, 1)):
    """End every activation left and roll the next round's initiative (blue first)."""
    turn = g.state.turn
    g.dice.force(list(dice))
    g.apply(EndTurn())
    assert g.state.turn == turn + 1 and not g.dice.forced


def damages(ev):
    return [e.data["damage"] for e in events_of(ev, "resolution") if "damage" in e.data]


def test_leader_gives_a_teammate_one_extra_die_once_a_round():
    """UMR-LEADER (UMR-I-LEADER): once per round, a teammate gets an extra die of any kind."""
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("b", "blue", 10, 14),
        spec("x", "red", 20, 14),
        spec("y", "red", 60, 40),
    )
    ev = apply(g, Lead(actor="boss", target="b"))
    assert ev[0].rule == "UMR-LEADER" and g.state.models["b"].vars["granted"] == 1
    assert "once per round" in refusal(apply(g, Lead(actor="boss", target="b")))
    apply(g, EndActivation(actor="boss"))
    apply(g, EndActivation(actor="y"))
    apply(g, Shoot(actor="b", target="x"), [1, 2])
    apply(g, Shoot(actor="b", target="x"), [1, 2])
    ev = apply(g, Move(actor="b", to=(10, 18)), [2])  # the third die: the leader's
    assert ev[0].data["die"] == "granted" and g.state.active == "red"
    apply(g, EndActivation(actor="x"), [4, 2])
    assert g.state.turn == 2 and g.state.models["b"].vars["granted"] == 0


def test_leader_gift_rules():
    """UMR-LEADER: "any character on your team" (himself included, never an enemy or a
    drone); an action die is refused to a teammate whose activation is over."""
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("b", "blue", 10, 14),
        spec("x", "red", 20, 14),
        spec("y", "red", 60, 40),
    )
    assert "not on boss's team" in refusal(apply(g, Lead(actor="boss", target="x")))
    assert "not a leader" in refusal(apply(g, Lead(actor="b", target="boss")))
    assert "not a roll" in refusal(apply(g, Lead(actor="boss", target="b", roll="luck")))
    apply(g, EndActivation(actor="b"))
    apply(g, EndActivation(actor="x"))
    assert "already activated" in refusal(apply(g, Lead(actor="boss", target="b")))


def test_leader_may_give_himself_the_roll():
    """UMR-LEADER "any character on your team": the leader is one (audit c05)."""
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("x", "red", 20, 14),
        spec("y", "red", 60, 40),
    )
    apply(g, Lead(actor="boss", target="boss"))
    assert g.state.models["boss"].vars["granted"] == 1


def test_leader_gives_after_his_own_activation():
    """UMR-LEADER "once per game round": no tie to his own activation (audit c06)."""
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("mate", "blue", 10, 20),
        spec("x", "red", 40, 14),
        spec("y", "red", 60, 40),
    )
    apply(g, EndActivation(actor="boss"))
    apply(g, EndActivation(actor="x"))
    apply(g, Lead(actor="boss", target="mate"))
    assert g.state.models["mate"].vars["granted"] == 1


def test_leader_gives_a_defence_or_damage_roll():
    """UMR-LEADER "an additional dice roll of any kind": a defence die kept if higher
    (audit c18), a damage die added to the next damage roll."""
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("mate", "blue", 10, 20),
        spec("x", "red", 20, 20),
        spec("y", "red", 60, 40),
    )
    apply(g, Lead(actor="boss", target="mate", roll="defence"))
    apply(g, EndActivation(actor="boss"))
    ev = apply(g, Shoot(actor="x", target="mate"), [4, 2, 5])  # 4 vs 2, leader's die 5 kept
    assert events_of(ev, "resolution")[0].outcome == "miss" and g.state.models["mate"].hp == 15
    assert "leader's extra die 5, keeps 5" in events_of(ev, "resolution")[0].text
    g = game(
        spec("boss", "blue", 10, 10, stats={"ability": "leader"}),
        spec("x", "red", 20, 10),
        spec("y", "red", 60, 40),
    )
    apply(g, Lead(actor="boss", target="boss", roll="damage"))
    apply(g, Shoot(actor="boss", target="x"), [5, 1, 3, 4])  # hit: damage 3 + leader's 4
    assert g.state.models["x"].hp == 15 - 7


def test_drone_operator_gets_two_drones_placed_beside_him():
    """UMR-DRONE (UMR-I-DRONES): two drones, one die, ten health, no operator bonuses;
    they stay when their operator dies (the book gives no rule removing them, audit c07)."""
    g = game(
        spec("op", "blue", 20, 20, stats={"ability": "drone operator", "MELEE": 2, "BALLISTIC": 1}),
        spec("x", "red", 20 + TOUCH, 20, stats={"MELEE": 2, "DAMAGE": 1}),
        spec("y", "red", 60, 40),
    )
    drones = [m for m in g.state.models.values() if m.vars.get("operator") == "op"]
    assert sorted(d.id for d in drones) == ["op-drone1", "op-drone2"]
    for d in drones:
        assert (d.hp, d.max_hp, d.stats["AD"]) == (10, 10, 1)
        assert d.stats.get("MELEE", 0) == 0 and d.side == "blue" and d.unit == d.id
    d = g.state.models["op-drone1"]
    apply(g, Move(actor=d.id, to=(d.x, d.y + 5)), [3])
    assert g.state.active == "red"  # one die: the drone's activation is over
    apply(g, Fight(actor="x", target="op"), [6, 1, 6, 6, 6, 2])  # 20 damage
    assert g.state.models["op"].removed
    assert not any(g.state.models[i].removed for i in ("op-drone1", "op-drone2"))
    assert not g.state.over


def test_drones_placed_in_the_scenario():
    """UMR-DRONE: drones may be placed anywhere at the start (their own model entries)."""
    g = game(
        spec("op", "blue", 20, 20, profile="operator"),
        spec("d1", "blue", 50, 5, profile="drone", state={"operator": "op"}),
        spec("d2", "blue", 5, 45, profile="drone", state={"operator": "op"}),
        spec("x", "red", 60, 40),
    )
    assert sorted(g.state.models) == ["d1", "d2", "op", "x"]


def test_assassin_one_extra_ranged_die_a_round():
    """UMR-ASSASSIN: one additional ranged attack die per round, for shooting only."""
    g = ranged({"ability": "assassin"}, {})
    for _ in range(3):
        apply(g, Shoot(actor="a", target="x"), [1, 2])
    assert g.state.active == "red"
    next_round(g)
    apply(g, Shoot(actor="a", target="x"), [1, 2])
    assert g.state.models["a"].vars["used"] == ["assassin"]
    g = ranged({"ability": "assassin"}, {})
    apply(g, Move(actor="a", to=(10, 5)), [1])
    apply(g, Move(actor="a", to=(10, 5)), [1])
    assert g.state.active == "blue"  # the assassin's die waits for a shot
    assert "no action dice left for movement" in refusal(apply(g, Move(actor="a", to=(9, 5))))


def test_skirmisher_one_bonus_melee_die_a_round():
    """UMR-SKIRMISHER: one bonus melee attack die per round."""
    g = melee({"ability": "skirmisher"}, {})
    for _ in range(3):
        apply(g, Fight(actor="a", target="x"), [1, 2])
    assert g.state.active == "red"


def test_a_six_on_an_ability_die_becomes_a_normal_action_die():
    """UMR-SIX-ABILITY: the skirmisher's extra melee die shows six: a die for anything."""
    g = melee({"ability": "skirmisher"}, {})
    ev = apply(g, Fight(actor="a", target="x"), [6, 2, 1])
    assert events_of(ev, "resolution")[0].data["die"] == "ability"
    assert "UMR-SIX-ABILITY" in events_of(ev, "resolution")[0].text
    ev = apply(g, Move(actor="a", to=(5, 10)), [1])  # the bonus die, used at once
    assert ev[0].data["die"] == "bonus"


def test_grenadier_extra_damage_die_once_a_round():
    """UMR-GRENADIER (UMR-I-ABILITY-TIMING): the first successful ranged attack of the
    round adds a second damage die to the first; DAMAGE counts once."""
    g = ranged({"ability": "grenadier", "DAMAGE": 1}, {"HEALTH": 2})
    ev = apply(g, Shoot(actor="a", target="x"), [5, 1, 3, 4])
    assert damages(ev) == [8] and hp(g, "x") == 17
    ev = apply(g, Shoot(actor="a", target="x"), [5, 1, 3])
    assert damages(ev) == [4] and hp(g, "x") == 13
    g = ranged({"ability": "grenadier"}, {"HEALTH": 2})
    ev = apply(g, Shoot(actor="a", target="x"), [5, 1, 2, 6, 6, 1])  # the extra die explodes
    assert damages(ev) == [15]


def test_grenadier_needs_a_hit_and_a_ranged_attack():
    """UMR-GRENADIER: not in melee, and a miss does not use it up."""
    g = melee({"ability": "grenadier"}, {})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 3])
    assert damages(ev) == [3]
    g = ranged({"ability": "grenadier"}, {})
    apply(g, Shoot(actor="a", target="x"), [1, 4])
    assert g.state.models["a"].vars["used"] == []


def test_commando_extra_defence_die_against_ranged_once_a_round():
    """UMR-COMMANDO: shot at, rolls an additional defence die (keeps the higher)."""
    g = ranged({"BALLISTIC": 2}, {"ability": "commando"})
    ev = apply(g, Shoot(actor="a", target="x"), [3, 1, 5])  # 5 vs best(1, 5) = 5: miss
    r = events_of(ev, "resolution")[0]
    assert r.outcome == "miss" and r.rolls == [3, 1, 5]
    ev = apply(g, Shoot(actor="a", target="x"), [3, 1, 2])  # second shot: one die only
    assert events_of(ev, "resolution")[0].outcome == "hit"
    g = melee({}, {"ability": "commando"})
    ev = apply(g, Fight(actor="a", target="x"), [3, 1, 2])
    assert events_of(ev, "resolution")[0].rolls == [3, 1]  # not against melee


def test_commando_extra_die_six_wins_outright():
    """UMR-COMMANDO / UMR-SIX-DEFENSE: a six on the extra defence die saves."""
    g = ranged({"BALLISTIC": 2}, {"ability": "commando"})
    ev = apply(g, Shoot(actor="a", target="x"), [6, 1, 6])
    assert events_of(ev, "resolution")[0].outcome == "saved" and g.state.active == "red"


def test_guardian_rerolls_a_losing_melee_defence_once_a_round():
    """UMR-GUARDIAN (UMR-I-ABILITY-TIMING): reroll the defence die when it would lose."""
    g = melee({"MELEE": 1}, {"ability": "guardian"})
    ev = apply(g, Fight(actor="a", target="x"), [4, 2, 5])
    r = events_of(ev, "resolution")[0]
    assert r.outcome == "miss" and r.rolls == [4, 2, 5] and "guardian rerolls 2 -> 5" in r.text
    ev = apply(g, Fight(actor="a", target="x"), [4, 2, 3])
    assert events_of(ev, "resolution")[0].outcome == "hit" and events_of(ev, "resolution")[
        0
    ].rolls == [4, 2]
    next_round(g)
    ev = apply(g, Fight(actor="a", target="x"), [3, 4])  # wins anyway: reroll kept for later
    assert events_of(ev, "resolution")[0].rolls == [3, 4] and g.state.models["x"].vars["used"] == []
    g = ranged({"BALLISTIC": 1}, {"ability": "guardian"})
    ev = apply(g, Shoot(actor="a", target="x"), [4, 2, 1])
    assert events_of(ev, "resolution")[0].outcome == "hit"  # no reroll against ranged attacks


def test_tank_counter_die_negates_damage_once_a_round():
    """UMR-TANK: when hit, a counter die takes its value off the damage, never below 0."""
    g = melee({"DAMAGE": 1}, {"ability": "tank"})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 4, 2])  # 4 + 1 - 2 = 3
    assert damages(ev) == [3] and hp(g, "x") == 12
    assert "tank counter die 2 negates 2" in events_of(ev, "resolution")[1].text
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 4])  # second hit: no counter die
    assert damages(ev) == [5] and hp(g, "x") == 7
    g = melee({}, {"ability": "tank"})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 2, 6])
    assert damages(ev) == [0] and hp(g, "x") == 15


def test_brawler_second_damage_die_is_separate():
    """UMR-BRAWLER: a second damage die, rolled and applied separately (DAMAGE on each)."""
    g = melee({"ability": "brawler", "DAMAGE": 1}, {"HEALTH": 2})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 3, 4])
    assert damages(ev) == [4, 5] and hp(g, "x") == 16
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 3])
    assert damages(ev) == [4]


def test_brawler_against_tank_counter_takes_the_larger_amount():
    """UMR-BRAWLER / UMR-TANK (UMR-I-ABILITY-TIMING): the counter die cuts one amount."""
    g = melee({"ability": "brawler"}, {"ability": "tank"})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 2, 5, 3])
    assert damages(ev) == [2, 2] and hp(g, "x") == 11


def test_rpg_test_with_the_matching_ability():
    """UMR-RPG-STATS / UMR-RPG-ABILITIES (UMR-I-RPG): d6 + point, a second die for the
    matching ability, against the difficulty; free of action dice."""
    g = game(
        spec("a", "blue", 10, 10, stats={"ability": "charismatic", "DIPLOMACY": 1}),
        spec("x", "red", 60, 40),
    )
    ev = apply(g, RpgTest(actor="a", stat="diplomacy", need=9), [3, 5])
    assert ev[0].outcome == "success" and ev[0].rolls == [3, 5]
    assert g.state.models["a"].vars["dice"] == 2
    ev = apply(g, RpgTest(actor="a", stat="perception", need=4), [3])
    assert ev[0].outcome == "failure" and ev[0].chance == 0.5
    assert "not an RPG stat" in refusal(apply(g, RpgTest(actor="a", stat="charm")))
