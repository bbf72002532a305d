"""The Gemini core with forced dice, each test naming the reference section it checks
(rulesets/gemini/reference.toml): to hit from BS with the needs beyond 6, cover, the
Strength against Toughness chart, saves, close combat on the WS chart, Ld tests."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.actions import Charge, EndPhase, Fight, Move, Shoot
from engine.battlefield import TerrainFeature
from engine.ruleset import NO_SIGHT, NOT_YOUR_TURN, OUT_OF_RANGE, TOO_FAR
from engine.testing import apply
from rulesets.gemini.chapters import tables as T
from tests.rulesets.gemini.helpers import RIFLE, duel, to_phase


def outcomes(events):
    return [e.outcome for e in events if e.kind == "resolution"]


@pytest.mark.parametrize(("bs", "need"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 2), (7, 2)])
def test_to_hit_is_seven_minus_bs_never_below_two(bs, need):
    """GM-SHOOT: a d6 of 7 − BS or more; BS 6 and more hit on 2+ (a 1 always misses)."""
    assert T.hit_need(bs) == need


def test_needs_of_seven_to_nine_take_a_six_then_a_second_die():
    """GM-SHOOT: 7 is a 6 then 4+, 8 a 6 then 5+, 9 a 6 then 6; 10 cannot hit."""
    assert [T.second_need(n) for n in (7, 8, 9)] == [4, 5, 6]
    assert T.hit_chance(7) == Fraction(1, 6) * Fraction(1, 2)
    assert T.hit_chance(9) == Fraction(1, 36)
    assert T.hit_chance(10) == 0
    # BS 1 beyond half range: 7 − 1 + 1 = 7, a 6 then 4+
    g = duel({"stats": {"BS": 1}, "weapons": [RIFLE]}, {"stats": {"T": 1}}, gap=15.0)
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[6, 4, 2])
    assert outcomes(ev)[:2] == ["6, roll again", "hit"]
    assert g.state.models["r"].removed


def test_a_natural_one_misses_and_a_need_of_seven_fails_on_the_second_die():
    """GM-SHOOT: the second die of a need of 8 (BS 1, −1 beyond half range, −1 soft
    cover) must be 5+; a 4 misses."""
    woods = TerrainFeature("woods", "woods", ((15, 24), (25, 24), (25, 30), (15, 30)))
    g = duel({"stats": {"BS": 1}, "weapons": [RIFLE]}, gap=15.0, terrain=[woods])
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[6, 4])
    assert outcomes(ev) == ["6, roll again", "miss"]
    assert "soft cover" in ev[0].text


def test_bs_six_misses_on_a_natural_one():
    """GM-SHOOT: a natural 1 always misses."""
    g = duel({"stats": {"BS": 6}, "weapons": [RIFLE]})
    to_phase(g, "shooting")
    assert outcomes(apply(g, Shoot(actor="b", target="r"), dice=[1])) == ["miss"]


@pytest.mark.parametrize(
    ("s", "t", "need"),
    [(5, 3, 2), (9, 3, 2), (4, 3, 3), (3, 3, 4), (3, 4, 5), (3, 5, 6), (3, 6, 6), (3, 7, None)],
)
def test_strength_against_toughness(s, t, need):
    """GM-WOUND: T+2 2+, T+1 3+, T 4+, T−1 5+, T−2 or T−3 6+, T−4 cannot wound."""
    assert T.wound_need(s, t) == need


def test_a_save_is_worsened_by_the_weapons_modifier_and_a_one_fails():
    """GM-SAVE: Sv 4 against save −1 needs 5+; a 1 always fails; no Sv, no save."""
    assert T.save_need(4, -1) == 5
    assert T.save_need(2, 0) == 2
    assert T.save_need(6, -1) is None
    assert T.save_need(0, 0) is None
    gun = {**RIFLE, "S": 4, "save": -1}
    g = duel({"weapons": [gun]}, {"stats": {"Sv": 4}})
    to_phase(g, "shooting")
    # hit on 4+ (BS 3), S4 v T3 wounds on 3+, Sv 4 − 1 needs 5+: a 5 saves
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 3, 5])
    assert outcomes(ev) == ["hit", "wound", "saved"]
    assert not g.state.models["r"].removed


def test_an_unsaved_wound_takes_one_w_and_at_none_the_model_is_out():
    """GM-CASUALTY: each unsaved wound takes one W; at 0 the model is removed."""
    g = duel({"weapons": [{**RIFLE, "shots": 2}]}, {"stats": {"W": 2, "Sv": 5}})
    to_phase(g, "shooting")
    # two hits (4, 6), wound rolls 4 and 5 (S3 v T3 4+), saves 4 and 1 (5+): both fail
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 6, 4, 5, 4, 1])
    assert outcomes(ev) == ["hit", "hit", "wound", "wound", "not saved", "not saved"]
    assert g.state.models["r"].removed


def test_out_of_range_and_beyond_half_range():
    """GM-SHOOT: no shot beyond the range (edge to edge); −1 beyond half of it."""
    g = duel({"weapons": [RIFLE]}, gap=30.0)
    to_phase(g, "shooting")
    assert g.check(Shoot(actor="b", target="r")).codes == (OUT_OF_RANGE,)


def test_a_target_less_than_a_quarter_visible_cannot_be_shot():
    """GM-COVER: hidden below a quarter visible."""
    wall = TerrainFeature("w", "wall", ((10, 19), (30, 19), (30, 20), (10, 20)))
    g = duel({"weapons": [RIFLE]}, gap=12.0, terrain=[wall])
    to_phase(g, "shooting")
    assert NO_SIGHT in g.check(Shoot(actor="b", target="r")).codes


def test_hard_cover_behind_a_low_wall_is_minus_two():
    """GM-COVER: a low wall is hard cover, −2 (BS 3 needs 6+)."""
    wall = TerrainFeature("lw", "low_wall", ((10, 20), (30, 20), (30, 20.5), (10, 20.5)))
    g = duel({"weapons": [RIFLE]}, gap=12.0, terrain=[wall])
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[5])
    assert outcomes(ev) == ["miss"] and "hard cover" in ev[0].text


def test_a_large_target_is_plus_one():
    """GM-SHOOT: +1 against a large target (BS 3 hits on 3+)."""
    g = duel({"weapons": [RIFLE]}, {"stats": {"large": True, "T": 6}})
    to_phase(g, "shooting")
    assert outcomes(apply(g, Shoot(actor="b", target="r"), dice=[3, 1])) == ["hit", "no wound"]


def test_the_closest_target_is_shot():
    """GM-TARGET: a nearer enemy the shooter can shoot bars the further one."""
    g = duel({"weapons": [RIFLE]}, gap=14.0)
    g.state.models["n"] = g.state.models["r"].__class__.from_dict(
        {**g.state.models["r"].to_dict(), "id": "n", "unit": "n", "y": 17.0}
    )
    to_phase(g, "shooting")
    assert "closer" in g.check(Shoot(actor="b", target="r")).reason
    assert g.check(Shoot(actor="b", target="n")).ok


def test_movement_is_m_inches_and_difficult_ground_costs_double():
    """GM-MOVE: M inches; half rate through difficult ground (GM-I-TERRAIN)."""
    rubble = TerrainFeature("rb", "rubble", ((0, 12), (40, 12), (40, 20), (0, 20)))
    g = duel(gap=20.0, terrain=[rubble])
    assert g.check(Move(actor="b", to=(20.0, 13.0))).ok  # 2" open + 1" rubble x 2 = 4
    far = g.check(Move(actor="b", to=(20.0, 13.5)))
    assert far.find(TOO_FAR) is not None
    assert g.check(Move(actor="b", to=(24.0, 10.0))).ok
    assert not g.check(Move(actor="b", to=(24.5, 10.0))).ok


def test_no_moving_through_a_base_and_no_move_ends_against_an_enemy():
    """GM-MOVE: a move stops where bases touch; ending against an enemy is a charge."""
    g = duel(gap=3.0)
    why = g.check(Move(actor="b", to=(20.0, 14.0))).reason
    assert "charge" in why


def test_a_charge_reaches_twice_m_into_base_contact():
    """GM-CHARGE: up to 2 × M, ending in base contact (the physics service)."""
    g = duel(gap=8.5)  # 8.5" centre to centre less a 25 mm base: a 7.5" gap
    assert g.check(Charge(actor="b", target="r")).ok
    g.apply(Charge(actor="b", target="r"))
    from rulesets.gemini.chapters.measure import in_contact

    assert in_contact(g.state.models["b"], g.state.models["r"])
    far = duel(gap=12.0)
    assert far.check(Charge(actor="b", target="r")).find(TOO_FAR).data["limit"] == 8.0


@pytest.mark.parametrize(
    ("ws", "foe", "need"), [(4, 3, 3), (3, 3, 4), (3, 4, 4), (2, 5, 5), (2, 4, 4)]
)
def test_ws_chart(ws, foe, need):
    """GM-MELEE: 3+ against a lower WS, 5+ against more than double, else 4+."""
    assert T.melee_need(ws, foe) == need


def test_close_combat_chargers_strike_first_then_initiative():
    """GM-MELEE: the charger strikes first this turn, even with the lower I; the foe's
    blows come after (the charger's A dice, wound, then the foe's)."""
    g = duel({"stats": {"I": 1, "A": 2, "WS": 4}}, {"stats": {"I": 5}}, gap=5.0)
    apply(g, Charge(actor="b", target="r"))
    to_phase(g, "close_combat")
    # b: 2 dice (3+ as WS 4 > 3): 3 and 1 -> one hit; wound 3 (4+) fails.
    # r: 1 die (4+ as WS 3 < 4): 4 hits; wound 4 takes b's only wound
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 1, 3, 4, 4])
    assert outcomes(ev) == ["1 hits", "no wound", "1 hits", "wound"]
    assert g.state.models["b"].removed


def test_higher_initiative_strikes_first_and_a_dead_model_does_not_strike():
    """GM-MELEE: without a charge the higher I strikes first."""
    g = duel({"stats": {"I": 2}}, {"stats": {"I": 4, "WS": 4}}, gap=25.0 / 25.4 + 0.01)
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[3, 4])
    assert outcomes(ev) == ["1 hits", "wound"] and g.state.models["b"].removed


def test_equal_initiative_strikes_at_once():
    """GM-I-TIES: equal I strike together; a model taken out still strikes."""
    g = duel(gap=25.0 / 25.4 + 0.01)
    to_phase(g, "close_combat")
    ev = apply(g, Fight(actor="b", target="r"), dice=[5, 6, 4, 4])
    assert outcomes(ev) == ["1 hits", "wound", "1 hits", "wound"]
    assert g.state.models["b"].removed and g.state.models["r"].removed


def test_turn_of_phases_one_side_after_the_other():
    """GM-TURN: a side plays movement, shooting, close combat and recovery, then the
    other side plays its turn."""
    g = duel()
    seen = []
    for _ in range(8):
        seen.append((g.state.active, g.state.phase))
        g.apply(EndPhase())
    assert seen == [("blue", p) for p in ("movement", "shooting", "close_combat", "recovery")] + [
        ("red", p) for p in ("movement", "shooting", "close_combat", "recovery")
    ]
    assert g.state.turn == 2 and g.state.active == "blue"
    assert g.check(Move(actor="r", to=(20.0, 22.0))).codes == (NOT_YOUR_TURN,)


def test_ld_test_is_2d6_at_or_under_and_snake_eyes_passes_a_two():
    """GM-LD, GM-SNAKE-EYES: 2d6 ≤ Ld passes; with the switch a double 1 always does."""
    from engine.dice import Modifier
    from rulesets.gemini.chapters import morale

    g = duel(options={"snake_eyes": True})
    m = g.state.models["b"]
    g.dice.force([1, 1])
    assert morale.ld_test(g.state, g.ctx, m, 1, "test", mods=(Modifier(5, "x"),))
    g.dice.force([4, 4])
    assert not morale.ld_test(g.state, g.ctx, m, 7, "test")
    g2 = duel()
    g2.dice.force([1, 1])
    assert not morale.ld_test(
        g2.state, g2.ctx, g2.state.models["b"], 1, "t", mods=(Modifier(5, "x"),)
    )
