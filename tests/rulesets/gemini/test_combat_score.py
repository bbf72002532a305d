"""The Combat Score system and parrying (GM-COMBAT-SCORE, GM-PARRY) with forced dice,
the issue's worked example first."""

from __future__ import annotations

from engine.actions import Charge, Fight
from engine.testing import apply
from rulesets.gemini.chapters import combat_score
from tests.rulesets.gemini.helpers import duel, to_phase

CONTACT = 25.0 / 25.4 + 0.01
SWORD = {"name": "sword", "class": "melee", "parry": 4}
KNIFE = {"name": "knife", "class": "melee", "parry": 0, "size": "small"}


def score_event(events):
    return next(e for e in events if e.rule == "GM-COMBAT-SCORE" and e.text.startswith("Combat"))


def test_the_worked_example_ten_against_eight_is_two_hits():
    """GM-COMBAT-SCORE: WS 4, A 2, charging, rolls 5 and 1; the foe WS 3, A 1, rolls 4:
    5 + 4 + 1 (charging) = 10 against 4 + 3 + 1 (the charger's fumble) = 8, two hits."""
    g = duel(
        {"stats": {"WS": 4, "A": 2}, "weapons": [KNIFE]},
        {"stats": {"WS": 3, "A": 1, "T": 3}, "facing": 270.0, "weapons": [KNIFE]},
        gap=5.0,
        options={"combat_score": True},
    )
    apply(g, Charge(actor="b", target="r"))
    to_phase(g, "close_combat")
    # attack dice 5, 1 (b) then 4 (r); then b's two wound rolls (S3 v T3, 4+): 2, 3
    ev = apply(g, Fight(actor="b", target="r"), dice=[5, 1, 4, 2, 3])
    e = score_event(ev)
    assert e.data["scores"] == {"b": 10, "r": 8} and e.data["hits"] == 2
    assert "b wins: 2 hit(s)" in e.text
    assert [x.outcome for x in ev if x.rule == "GM-WOUND"] == ["no wound", "no wound"]


def test_each_six_after_the_first_adds_one_and_a_tie_goes_to_initiative():
    """GM-COMBAT-SCORE 2-4: three 6s are +2; a tie is won by the higher I with one hit;
    still tied, a stand-off."""
    g = duel({"stats": {"A": 3, "WS": 3}, "weapons": [KNIFE]},
             {"stats": {"A": 1, "WS": 8}, "weapons": [KNIFE]}, gap=CONTACT,
             options={"combat_score": True})  # fmt: skip
    to_phase(g, "close_combat")
    # b: 6 + 3 + 2 = 11; r: 3 + 8 = 11; equal I: a stand-off
    ev = apply(g, Fight(actor="b", target="r"), dice=[6, 6, 6, 3])
    e = score_event(ev)
    assert e.data["scores"] == {"b": 11, "r": 11} and e.outcome == "stand-off"
    g2 = duel({"stats": {"I": 4}, "weapons": [KNIFE]}, {"weapons": [KNIFE]}, gap=CONTACT,
              options={"combat_score": True})  # fmt: skip
    to_phase(g2, "close_combat")
    ev = apply(g2, Fight(actor="b", target="r"), dice=[3, 3, 6])  # 6 = b's wound roll
    e = score_event(ev)
    assert e.data["hits"] == 1 and "b wins" in e.text
    assert g2.state.models["r"].removed


def test_a_weapon_in_each_hand_adds_a_die_and_unarmed_is_minus_two():
    """GM-COMBAT-SCORE 1 and modifiers: +1 die for a second weapon; unarmed −2."""
    g = duel({"weapons": [SWORD, KNIFE]}, {"weapons": []}, gap=CONTACT,
             options={"combat_score": True})  # fmt: skip
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[2, 2, 5, 1])
    # b: 2 + 3 = 5; r: 5 + 3 − 2 (unarmed) = 6 → r wins by 1, r's wound roll 1 fails
    e = score_event(ev)
    assert e.data["scores"] == {"b": 5, "r": 6}
    assert "unarmed" in e.text


def test_routing_adds_no_ws():
    """GM-COMBAT-SCORE 2: a model running for cover or routing adds no WS."""
    g = duel({"weapons": [KNIFE]}, {"state": {"status": ["routing"]}, "weapons": [KNIFE]},
             gap=CONTACT, options={"combat_score": True})  # fmt: skip
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 4, 1, 1])
    assert score_event(ev).data["scores"] == {"b": 6, "r": 4}


def test_a_parry_rerolls_the_foes_highest_die():
    """GM-PARRY: a sword (parry 4) against a knife (0) forces the re-roll of the foe's
    highest die; the foe with two dice keeps its next highest if better."""
    g = duel({"weapons": [SWORD]}, {"weapons": [KNIFE], "stats": {"A": 2}}, gap=CONTACT,
             options={"combat_score": True, "parry": True})  # fmt: skip
    to_phase(g, "close_combat")
    # b rolls 3; r rolls 6, 4; r re-rolls its 6 → 2: r's best is now 4
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 6, 4, 2, 5])
    e = score_event(ev)
    assert e.data["scores"] == {"b": 6, "r": 7}  # 3+3 against 4+3
    assert [x.outcome for x in ev if x.rule == "GM-PARRY"] == ["now 2"]


def test_parry_values():
    """GM-PARRY: only against an equal or lower parry value; shields always; at most
    two re-rolls."""
    g = duel({"weapons": [SWORD]}, {"weapons": [SWORD]})
    b, r = g.state.models["b"], g.state.models["r"]
    assert combat_score.parries(b, r) == 1
    b.weapons = [KNIFE]
    assert combat_score.parries(b, r) == 0
    b.weapons = [{"name": "shield", "class": "melee", "parry": "always"}, KNIFE]
    assert combat_score.parries(b, r) == 1
    b.weapons = [SWORD, SWORD]
    assert combat_score.parries(b, r) == 2


def test_charging_the_flank_is_plus_two_and_over_a_low_wall_minus_one():
    """GM-COMBAT-SCORE modifiers: charging a foe's flank +2 (the foe faces east, the
    charger comes from the south); charging over a low wall −1 that turn."""
    from engine.battlefield import TerrainFeature

    wall = TerrainFeature("lw", "low_wall", ((15, 13), (25, 13), (25, 13.5), (15, 13.5)))
    g = duel({"weapons": [KNIFE]}, {"weapons": [KNIFE], "facing": 0.0}, gap=5.0,
             options={"combat_score": True}, terrain=[wall])  # fmt: skip
    apply(g, Charge(actor="b", target="r"))
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 3, 1])  # b wins by 1: a 1 to wound
    e = score_event(ev)
    assert "charging the flank" in e.text and "behind an obstacle" in e.text
    assert e.data["scores"] == {"b": 3 + 3 + 2 - 1, "r": 6}


def test_encumbered_and_improvised_are_minus_one_each():
    """GM-COMBAT-SCORE modifiers: a heavy weapon carried −1, an improvised weapon −1."""
    club = {"name": "club", "class": "melee", "size": "improvised"}
    stubber = {"name": "stubber", "range": 36, "S": 4, "class": "heavy"}
    g = duel({"weapons": [club, stubber]}, {"weapons": [KNIFE]}, gap=CONTACT,
             options={"combat_score": True})  # fmt: skip
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[4, 4, 1, 1])  # r wins by 2
    assert score_event(ev).data["scores"] == {"b": 4 + 3 - 2, "r": 7}


def test_the_odds_of_a_contest_are_exact():
    """GM-COMBAT-SCORE: one die each, equal WS and I: b wins when its die beats r's
    (15 of 36); a 1 adds one to the foe, so b's 2 against r's 1 is a win by 2."""
    from fractions import Fraction

    from rulesets.gemini import odds

    g = duel({"weapons": [KNIFE]}, {"weapons": [KNIFE]}, gap=CONTACT,
             options={"combat_score": True})  # fmt: skip
    to_phase(g, "close_combat")
    o = g.odds(Fight(actor="b", target="r"))
    assert o.chance == Fraction(15, 36)
    # by two: 2 against a 1 (3 against 1), and 4-2, 5-3, 6-4
    assert o.dist[2] == Fraction(1 + 3, 36)
    assert odds.side_dist(1, 0)[(6, 0, 0)] == Fraction(1, 6)
    assert odds.side_dist(2, 0)[(6, 0, 1)] == Fraction(1, 36)
    # a parry re-roll of a single die: the new face stands
    assert odds.side_dist(1, 1) == odds.side_dist(1, 0)


def test_smoke_halves_ws_rounding_up():
    """GM-I-SMOKE: the worked example with the charger in smoke: WS 4 halves to 2, so
    5 + 2 + 1 = 8 against 8; the tie goes to the higher I (b's I 4): one hit."""
    g = duel(
        {"stats": {"WS": 4, "A": 2, "I": 4}, "weapons": [KNIFE], "state": {"status": ["in_smoke"]}},
        {"stats": {"WS": 3, "A": 1, "T": 3}, "facing": 270.0, "weapons": [KNIFE]},
        gap=5.0,
        options={"combat_score": True},
    )
    assert g.state.models["b"].status == ["in_smoke"]
    apply(g, Charge(actor="b", target="r"))
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[5, 1, 4, 2])
    e = score_event(ev)
    assert e.data["scores"] == {"b": 8, "r": 8} and e.data["hits"] == 1
    assert combat_score.ws_of(g.state, g.state.models["b"]) == 2
