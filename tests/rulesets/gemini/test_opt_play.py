"""The switches played in a game (forced dice, engine/testing.py): a scenario with the
switch on plays the rule; each test names the reference section (seeds/003 heading)."""

from __future__ import annotations

from engine.actions import Charge, EndPhase, Move, Shoot
from engine.testing import apply
from tests.rulesets.gemini.helpers import RIFLE, duel, to_phase


def kinds(events, word):
    return [e for e in events if word in e.text]


def test_gasr_wound_table_location_then_severity_in_play():
    """GM-GASR-WOUNDS: at 0 W the location die (2: chest) then the severity (3: dazed)."""
    g = duel({"weapons": [RIFLE]}, options={"injuries": "gasr_table"})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 2, 3])
    r = g.state.models["r"]
    assert not r.removed and r.hp == 0 and r.status == ["dazed"]


def test_gasr_head_dead_removes():
    g = duel({"weapons": [RIFLE]}, options={"injuries": "gasr_table"})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 1, 5])
    assert g.state.models["r"].removed


def test_wound_chart_down_then_down_result_at_the_end_of_its_own_shooting():
    """GM-WOUND-CHART 2-5 Down; GM-DOWN-RESULT rolled later (GM-I-DOWN-DUE)."""
    g = duel({"weapons": [RIFLE]}, options={"injuries": "wound_chart"})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 3])
    r = g.state.models["r"]
    assert r.status == ["down"]
    for _ in range(3):  # blue's shooting, close combat, recovery end: red's turn
        apply(g, EndPhase())
    assert g.state.active == "red" and g.state.phase == "movement"
    assert not g.check(Move(actor="r", to=(20.0, 21.0))).ok  # down: cannot move
    to_phase(g, "shooting")
    apply(g, EndPhase(), dice=[1])  # end of red's shooting: the Down Result, 1 flesh wound
    assert r.status == [] and r.stats["WS"] == 2 and r.stats["BS"] == 2


def test_mordheim_stunned_comes_round_in_recovery():
    """GM-MORDHEIM 3-4 stunned; in its recovery phase (GM-RECOVERY) it is knocked down."""
    g = duel({"weapons": [RIFLE]}, options={"injuries": "mordheim"})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 3])
    r = g.state.models["r"]
    assert r.status == ["stunned"]
    for _ in range(3):
        apply(g, EndPhase())
    to_phase(g, "recovery")
    assert r.status == ["knocked_down"]


def test_critical_damage_two_wounds_no_save():
    """GM-CRITICAL: a natural 6 to wound (4+ needed) is 2 wounds, no save rolled."""
    gun = {**RIFLE, "S": 3}
    g = duel({"weapons": [gun]}, {"stats": {"W": 2, "Sv": 3}}, options={"critical_damage": True})
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[5, 6])
    assert g.state.models["r"].removed and kinds(ev, "critical damage")


def test_lucky_shot_three_wound_rolls_by_choice():
    """GM-LUCKY: a 6 against 4+ is lucky; ``choice = "three"`` rolls three times."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"T": 4}}, options={"lucky_shots": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r", options={"choice": "three"}), dice=[6, 2, 3, 5])
    assert g.state.models["r"].removed


def test_lucky_shot_default_is_plus_one_strength():
    """GM-LUCKY: S3 against T4 needs 5+; the lucky S4 needs 4+ and a 4 wounds."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"T": 4}}, options={"lucky_shots": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[6, 4])
    assert g.state.models["r"].removed


def test_ammo_roll_failure_leaves_the_weapon_useless():
    """GM-AMMO: a 6 to hit with rapid fire, then a 3 (4 needed): the rifle is useless."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"T": 6}}, options={"ammo_rolls": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[6, 3, 2])
    assert "rifle" in g.state.models["b"].vars["spent"]


def test_instant_death_takes_every_wound():
    """GM-INSTANT-DEATH: S8 against T4 takes all three wounds at once."""
    gun = {**RIFLE, "S": 8}
    g = duel({"weapons": [gun]}, {"stats": {"T": 4, "W": 3}}, options={"instant_death": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 2])
    assert g.state.models["r"].removed


def test_extra_wounds_rolled_at_setup_and_d6_per_hit():
    """GM-EXTRA-WOUNDS: W on 2d6 at the start; a hit does a d6 of wounds."""
    g = duel({"weapons": [RIFLE]}, options={"extra_wounds": "2d6"}, setup_dice=[3, 4, 5, 5])
    r = g.state.models["r"]
    assert g.state.models["b"].max_hp == 7 and r.hp == 10
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 6])
    assert r.hp == 4


def test_frozen_in_the_open_after_a_saved_hit():
    """GM-FROZEN-PINNED: hit, saved, Ld test failed in the open: frozen, cannot move."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"Sv": 4}}, options={"frozen_pinned": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 5, 6, 5])
    r = g.state.models["r"]
    assert r.status == ["frozen"]
    for _ in range(3):
        apply(g, EndPhase())
    assert not g.check(Move(actor="r", to=(20.0, 22.0))).ok


def test_broken_nerve_friend_flinches():
    """GM-BROKEN-NERVE: a friend 2" away is put out of action; the Ld test fails (12)
    and the witness flinches D6" (3) running for cover."""
    from engine.testing import make_game

    g = make_game(
        "gemini",
        [
            {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, "weapons": [RIFLE]},
            {"id": "r", "side": "red", "x": 20.0, "y": 20.0},
            {"id": "r2", "side": "red", "x": 22.0, "y": 21.5},
        ],
        vars={"options": {"broken_nerve": True}},
    )
    to_phase(g, "shooting")
    before = g.state.models["r2"].pos
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 6, 6, 3])
    r2 = g.state.models["r2"]
    assert "running_for_cover" in r2.status and r2.pos != before


def test_running_double_and_no_shooting_after():
    """GM-RUNNING: twice M (8"), not farther; a runner does not shoot."""
    g = duel({"weapons": [RIFLE]}, gap=30.0, options={"running": "double"})
    assert g.check(Move(actor="b", to=(28.0, 10.0), mode="run")).ok
    assert not g.check(Move(actor="b", to=(29.0, 10.0), mode="run")).ok
    apply(g, Move(actor="b", to=(28.0, 10.0), mode="run"))
    to_phase(g, "shooting")
    assert not g.check(Shoot(actor="b", target="r")).ok


def test_running_not_within_eight_inches():
    g = duel({"weapons": [RIFLE]}, gap=8.5, options={"running": "double"})
    assert not g.check(Move(actor="b", to=(26.0, 10.0), mode="run")).ok


def test_fear_stops_a_charge():
    """GM-FEAR (GM-I-FEAR): a charger failing its fear test does not charge."""
    g = duel({}, {"stats": {"causes_fear": True}}, gap=5.0, options={"psychology": True})
    apply(g, Charge(actor="b", target="r"), dice=[6, 5])
    assert g.state.models["b"].pos == (20.0, 10.0)


def test_all_out_rout_bottle_test_ends_the_game():
    """GM-ALL-OUT-ROUT: half of red gone at the start of its turn; 12 fails the test."""
    from engine.testing import make_game

    g = make_game(
        "gemini",
        [
            {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, "weapons": [RIFLE]},
            {"id": "r", "side": "red", "x": 20.0, "y": 20.0},
            {"id": "r2", "side": "red", "x": 40.0, "y": 30.0},
        ],
        vars={"options": {"all_out_rout": True}},
    )
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4])
    apply(g, EndPhase())
    apply(g, EndPhase())
    apply(g, EndPhase(), dice=[6, 6])
    assert g.state.over and g.state.over["winner"] == "blue"


def test_gasr_targeting_passes_over_a_downed_model():
    """GM-GASR-TARGETING: a nearer downed enemy does not bar a farther one."""
    from engine.testing import make_game

    models = [
        {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, "weapons": [RIFLE]},
        {"id": "near", "side": "red", "x": 20.0, "y": 15.0},
        {"id": "far", "side": "red", "x": 26.0, "y": 20.0},
    ]
    for on in (False, True):
        g = make_game("gemini", models, vars={"options": {"gasr_targeting": on}})
        g.state.models["near"].status.append("down")
        to_phase(g, "shooting")
        assert g.check(Shoot(actor="b", target="far")).ok is on


def _contact(options, blue=None, red=None):
    g = duel({"weapons": [RIFLE], **(blue or {})}, red or {}, gap=1.0, options=options)
    return g


def test_breaking_off_ld_then_the_parting_blow():
    """GM-BREAKING-OFF: Ld test passed (7), then a 3+ (4) lets the foe strike once: S3
    v T3 wounds on 4+ (5): the model is out before it gets away."""
    g = _contact({"breaking_off": True})
    assert not g.check(Charge(actor="b", target="r")).ok
    apply(g, Move(actor="b", to=(20.0, 6.5)), dice=[3, 4, 4, 5])
    assert g.state.models["b"].removed


def test_breaking_off_failed_ld_routs_and_gets_away_on_a_two():
    g = _contact({"breaking_off": True})
    apply(g, Move(actor="b", to=(20.0, 6.5)), dice=[6, 6, 2])
    b = g.state.models["b"]
    assert "routing" in b.status and b.pos == (20.0, 6.5)


def test_no_breaking_off_without_the_switch():
    g = _contact({})
    assert not g.check(Move(actor="b", to=(20.0, 6.5))).ok


def test_follow_up_after_the_foe_is_down():
    """GM-FOLLOW-UP: the foe goes Down (wound chart 3); the winner moves again at once."""
    from engine.actions import Fight

    g = _contact({"follow_up": True, "injuries": "wound_chart"}, {"stats": {"WS": 4}})
    to_phase(g, "close_combat")
    # b (WS 4 v WS 3) hits on 3+, S3 v T3 4+, wound chart 3: Down; r cannot strike back
    apply(g, Fight(actor="b", target="r"), dice=[5, 4, 3])
    assert g.state.models["r"].status == ["down"]
    assert g.check(Move(actor="b", to=(23.0, 10.0))).ok
    apply(g, Move(actor="b", to=(23.0, 10.0)))
    assert g.state.models["b"].pos == (23.0, 10.0)


def test_reserve_move_in_the_recovery_phase():
    """GM-RESERVE-MOVES (GM-I-RESERVE): a model that did nothing moves in recovery, but
    not to within 4" of an enemy."""
    g = duel({}, gap=20.0, options={"reserve_moves": True})
    to_phase(g, "recovery")
    assert g.check(Move(actor="b", to=(20.0, 13.0))).ok
    assert not g.check(Move(actor="b", to=(20.0, 26.0))).ok


def test_hatred_rerolls_misses_in_the_first_round():
    """GM-HATRED: the charger's miss (2) is re-rolled (5) against the hated foe."""
    from engine.actions import Fight

    g = duel({"stats": {"hatred": True}}, gap=3.0, options={"psychology": True})
    apply(g, Charge(actor="b", target="r"))
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[2, 5, 4])
    assert g.state.models["r"].removed and kinds(ev, "re-rolls")


def test_stupid_model_forgets_to_attack_on_4_plus():
    """GM-STUPIDITY: failed at the start of its turn (12 against 6); in combat a 4+
    means no attacks."""
    from engine.actions import Fight

    g = duel({"stats": {"stupidity": 6}}, gap=1.0, options={"psychology": True}, setup_dice=[6, 6])
    assert "stupid" in g.state.models["b"].status
    to_phase(g, "close_combat")
    apply(g, Fight(actor="b", target="r"), dice=[4, 1])  # forgets; r strikes: a 1 misses
    assert not g.state.models["r"].removed


def test_stunned_defends_at_ws_zero_in_the_combat_score():
    """GM-GASR-WOUNDS: a stunned model adds WS 0 to its Combat Score."""
    from engine.actions import Fight

    g = _contact({"combat_score": True, "injuries": "gasr_table"})
    g.state.models["r"].status.append("stunned")
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 3, 6, 2, 5], exact=False)
    assert "WS 0" in " ".join(e.text for e in ev)


def test_reaction_to_a_move_within_nine_inches():
    """GM-REACTIONS: red moves within 9" of blue; blue is asked, fires: 2d6 against Act
    4 (5, 2: one success: a rapid-fire weapon fires twice), two hits on 4+ and wounds."""
    from engine.actions import Choose

    g = duel({"weapons": [RIFLE]}, {"stats": {"W": 2}}, gap=13.0, options={"reactions": True})
    for _ in range(4):
        apply(g, EndPhase())
    assert g.state.active == "red"
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    assert g.state.pending and g.state.pending[0]["side"] == "blue"
    apply(g, Choose(option="fire"), dice=[5, 2, 4, 5, 4, 4])
    assert g.state.models["r"].removed
    assert g.state.models["b"].vars["reacted"] == 1


def test_reaction_hold_and_heavy_weapon_needs_two_successes():
    from engine.actions import Choose

    cannon = {"name": "cannon", "range": 36, "S": 6, "class": "heavy"}
    g = duel({"weapons": [cannon]}, gap=13.0, options={"reactions": True})
    for _ in range(4):
        apply(g, EndPhase())
    apply(g, Move(actor="r", to=(20.0, 19.0)))
    ev = apply(g, Choose(option="fire"), dice=[4, 1])  # one success: no heavy fire
    assert not g.state.models["r"].removed and kinds(ev, "cannot fire")


def test_old_overwatch_fires_in_the_enemy_move():
    """GM-OVERWATCH-OLD: blue neither moved nor fired: in overwatch, it fires at red's
    move with its usual shots."""
    from engine.actions import Choose

    g = duel({"weapons": [RIFLE]}, gap=28.0, options={"overwatch": "old"})
    for _ in range(4):
        apply(g, EndPhase())
    assert "overwatch" in g.state.models["b"].status
    apply(g, Move(actor="r", to=(20.0, 34.0)))
    apply(g, Choose(option="fire"), dice=[5, 4])  # 5+ beyond half range, then 4+ wounds
    assert g.state.models["r"].removed
    assert "overwatch" not in g.state.models["b"].status


def test_terror_routs_the_charged_model_which_runs_for_the_edge():
    """GM-TERROR: charged by a terror-causer, red tests at Cl 7 − 1 (7 fails) and routs
    (GM-I-ROUT); at the start of its turn it runs 2D6" to the nearest table edge and
    tests to rally."""
    g = duel({"stats": {"causes_terror": True}}, {}, gap=5.0, options={"psychology": True})
    apply(g, Charge(actor="b", target="r"), dice=[4, 3])
    r = g.state.models["r"]
    assert "routing" in r.status
    before = r.pos
    for _ in range(3):
        apply(g, EndPhase())
    apply(g, EndPhase(), dice=[3, 3, 6, 6])  # red's turn: 6" to the edge, rally fails
    assert "routing" in r.status and r.pos != before


def test_frenzy_distance_tested_at_the_start_of_the_turn():
    """GM-FRENZY: Frenzy-7 with a distance of 12: an enemy 10" away; 9 fails: frenzied,
    and rolls twice its attacks (GM-I-FRENZIED)."""
    g = duel({}, {"stats": {"frenzy": [7, 12]}}, gap=10.0, options={"psychology": True})
    for _ in range(3):
        apply(g, EndPhase())
    apply(g, EndPhase(), dice=[4, 5])
    assert "frenzied" in g.state.models["r"].status


def test_gasr_morale_leader_ld_for_pinning():
    """GM-GASR-MORALE: the pinning test of a model within 6" of its Ld 9 leader uses 9."""
    from engine.testing import make_game

    g = make_game(
        "gemini",
        [
            {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, "weapons": [RIFLE]},
            {"id": "r", "side": "red", "x": 20.0, "y": 20.0, "stats": {"Sv": 4}},
            {"id": "boss", "side": "red", "x": 22.0, "y": 21.0, "stats": {"Ld": 9, "leader": True}},
        ],
        vars={"options": {"frozen_pinned": True, "gasr_morale": True}},
    )
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[5, 4, 5, 4, 5])  # 9 against Ld 9
    assert g.state.models["r"].status == []
