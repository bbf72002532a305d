"""Melee (UMR "Melee attack"), leaving a melee, damage, and the natural-six rules
(UMR "Rolling six's")."""

from __future__ import annotations

from engine.actions import EndActivation, Fight, Move, Shoot
from engine.testing import apply, events_of, refusal
from tests.rulesets.umr.helpers import game, hp, spec

TOUCH = 0.99  # centre distance at which two 25 mm bases touch (0.984" + a hair)


def pair(attacker=None, defender=None, **kw):
    return game(
        spec("a", "blue", 10, 10, stats=attacker or {}),
        spec("x", "red", 10 + TOUCH, 10, stats=defender or {}),
        spec("far", "red", 60, 40),
        **kw,
    )


def test_melee_attack_beats_defence_then_rolls_damage():
    """UMR-MELEE / UMR-DAMAGE: d6 + MELEE against d6 + DEFENSE; damage d6 + DAMAGE."""
    g = pair({"MELEE": 1, "DAMAGE": 2}, {"DEFENSE": 1})
    ev = apply(g, Fight(actor="a", target="x"), [4, 3, 5])
    r = events_of(ev, "resolution")
    assert r[0].outcome == "hit" and r[0].rolls == [4, 3]
    assert r[0].data["attack"] == 5 and r[0].data["defence"] == 4
    assert r[1].data["damage"] == 7 and hp(g, "x") == 8
    assert "melee d6 4 MELEE +1 (UMR-PERSONALITY) = 5 vs defence d6 3 + 1 DEFENSE = 4" in r[0].text


def test_ties_go_to_the_defender():
    """UMR-MELEE: the defender wins ties after modifiers."""
    g = pair({"MELEE": 1}, {"DEFENSE": 2})
    ev = apply(g, Fight(actor="a", target="x"), [4, 3])
    assert events_of(ev, "resolution")[0].outcome == "miss" and hp(g, "x") == 15


def test_a_rolled_one_can_still_hit_with_bonuses():
    """UMR-MELEE: an attack roll of one succeeds if its modifiers beat the defence."""
    g = pair({"MELEE": 2})
    ev = apply(g, Fight(actor="a", target="x"), [1, 2, 3])
    assert events_of(ev, "resolution")[0].outcome == "hit" and hp(g, "x") == 12


def test_fight_needs_base_contact():
    """UMR-MELEE: melee only in base to base contact."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 12, 10))
    assert (
        refusal(apply(g, Fight(actor="a", target="x")))
        == 'x is not in base contact with a (1.0" apart) (UMR-MELEE)'
    )


def test_no_shooting_in_melee_nor_into_it():
    """UMR-MELEE / UMR-BALLISTIC: no ballistic attack while in contact; a target in contact
    with an enemy cannot be shot."""
    g = game(
        spec("a", "blue", 10, 10),
        spec("b", "blue", 10, 20),
        spec("x", "red", 10 + TOUCH, 10),
        spec("y", "red", 20, 20),
    )
    assert (
        refusal(apply(g, Shoot(actor="a", target="y")))
        == "a is in base contact with x: no ballistic attacks while in melee (UMR-MELEE)"
    )
    assert (
        refusal(apply(g, Shoot(actor="b", target="x")))
        == "x is in melee with a: no shooting into melee (UMR-BALLISTIC)"
    )


def test_damage_sixes_keep_rolling_and_add_up():
    """UMR-SIX-DAMAGE: a six on damage rolls again while sixes come; all added."""
    g = pair({"DAMAGE": 1}, defender={"HEALTH": 2})
    ev = apply(g, Fight(actor="a", target="x"), [5, 1, 6, 6, 3])
    dmg = events_of(ev, "resolution")[1]
    assert dmg.rolls == [6, 6, 3] and dmg.data["damage"] == 16 and hp(g, "x") == 9


def test_defence_six_wins_outright_and_ends_the_activation():
    """UMR-SIX-DEFENSE: a natural six on defence: no damage, attacker's activation ends."""
    g = pair({"MELEE": 2})
    ev = apply(g, Fight(actor="a", target="x"), [6, 6])
    assert events_of(ev, "resolution")[0].outcome == "saved" and hp(g, "x") == 15
    assert any(e.kind == "status" and "activation ends at once" in e.text for e in ev)
    assert g.state.active == "red"  # the second action die was lost
    assert "a" in g.state.vars["act"]["done"]


def test_action_six_gives_a_bonus_die_used_at_once():
    """UMR-SIX-ACTION: a six on an action roll earns an extra die for that model, spent
    by its very next action (UMR-I-DICE-FLOW)."""
    g = pair()
    ev = apply(g, Fight(actor="a", target="x"), [6, 2, 1])
    assert "bonus action die" in events_of(ev, "resolution")[0].text
    assert g.state.models["a"].vars["bonus"] == 1 and g.state.models["a"].vars["dice"] == 1
    ev = apply(g, Fight(actor="a", target="x"), [2, 3])
    assert events_of(ev, "resolution")[0].data["die"] == "bonus"
    assert g.state.models["a"].vars["dice"] == 1
    apply(g, Fight(actor="a", target="x"), [2, 3])
    assert g.state.active == "red"  # three attacks in all, then the activation ended


def test_bonus_die_is_lost_at_the_end_of_the_activation():
    """UMR-SIX-ACTION: the extra die is lost if not used at once."""
    g = pair()
    apply(g, Fight(actor="a", target="x"), [6, 2, 1])
    apply(g, EndActivation(actor="a"))
    assert g.state.models["a"].vars["bonus"] == 0


def test_bonus_die_belongs_to_the_model_that_rolled_it():
    """UMR-SIX-ACTION: only the model that rolled the six may use it; another model of the
    unit acting first loses it."""
    g = game(
        spec("a", "blue", 10, 10, unit="squad"),
        spec("b", "blue", 10, 12, unit="squad"),
        spec("x", "red", 10 + TOUCH, 10),
    )
    apply(g, Fight(actor="a", target="x"), [6, 2, 1])
    assert g.state.models["a"].vars["bonus"] == 1
    apply(g, Move(actor="b", to=(12, 12)), [2])
    assert g.state.models["a"].vars["bonus"] == 0
    assert g.state.models["b"].vars["dice"] == 1 and g.state.models["a"].vars["dice"] == 1


def _melee(n_blue, n_red):
    specs = [spec("b0", "blue", 10, 10)]
    around = [(10 + TOUCH, 10), (10 - TOUCH, 10), (10, 10 + TOUCH)]
    for i in range(n_red):
        specs.append(spec(f"r{i}", "red", *around[i]))
    if n_blue > 1:
        specs.append(spec("b1", "blue", 10 + 2 * TOUCH, 10))
    return game(*specs, spec("rfar", "red", 60, 40), spec("bfar", "blue", 60, 2))


def test_two_fighters_either_may_break_away():
    """UMR-BREAK-AWAY: with only two models in the fight, either may move away."""
    g = _melee(1, 1)
    ev = apply(g, Move(actor="b0", to=(5, 10)), [3])
    assert ev[0].kind == "move" and g.state.models["b0"].x == 7.0
    g = _melee(1, 1)
    apply(g, EndActivation(actor="b0"))
    apply(g, Move(actor="r0", to=(15, 10)), [3])
    assert g.state.models["r0"].x == 10 + TOUCH + 3


def test_outnumbered_side_cannot_break_away_superior_side_may_until_even():
    """UMR-BREAK-AWAY: fewer fighters: stuck; more fighters: may leave until numbers even."""
    g = _melee(1, 2)
    assert refusal(apply(g, Move(actor="b0", to=(10, 5)))) == (
        "b0 cannot break away from its melee: its side has 1 fighter against 2; only the "
        "side with more fighters may leave, until the numbers are even (UMR-BREAK-AWAY)"
    )
    apply(g, EndActivation(actor="b0"))
    apply(g, Move(actor="r1", to=(5, 10)), [2])  # 2 against 1: r1 may leave
    assert g.state.models["r1"].x == 10 - TOUCH - 2


def test_even_numbers_in_a_big_melee_hold_everyone():
    """UMR-BREAK-AWAY: two against two: neither side has more fighters."""
    g = _melee(2, 2)
    assert "1 fighter" not in refusal(apply(g, Move(actor="b0", to=(10, 5))))
    assert "2 fighters against 2" in refusal(apply(g, Move(actor="b1", to=(15, 15))))
