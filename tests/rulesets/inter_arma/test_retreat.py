"""Inter Arma 1.06: breaking contact (5.I) and retreat from contact (6), forced dice."""

from __future__ import annotations

from engine.actions import Move
from engine.ruleset import code_of
from tests.rulesets.inter_arma.helpers import BASE, RS, act, fig, game, texts, to_phase

BOW = [{"name": "bow", "kind": "bow"}]
CHIEF = {"class": "commander"}


def _archer(**extra: object):
    return game(fig("a", "blue", 10, 10, type="skirmisher", weapons=BOW, **extra),
                fig("r", "red", 10 + BASE, 10))  # fmt: skip


def test_an_archer_breaks_contact_with_a_save_at_plus_one():
    """IA-BREAK (5.I): an archer touched before it moved saves with +1 to keep its
    distance: 3+1 = 4 beats the skirmisher row (wounded on 3), and it walks away."""
    g = _archer()
    ev = act(g, Move(actor="a", to=(6, 10)), [3])
    assert "breaking contact +1" in texts(ev) and g.state.models["a"].x == 6


def test_an_archer_who_fails_the_save_stays():
    """IA-BREAK: 2+1 = 3 is wounded on the skirmisher row: it stays, wounded."""
    g = _archer()
    act(g, Move(actor="a", to=(6, 10)), [2])
    a = g.state.models["a"]
    assert "wounded" in a.status and a.x == 10


def test_a_move_in_contact_must_leave_contact():
    """IA-I-BREAK: a figure in contact may only move out of contact."""
    g = _archer()
    legal = RS.check(g.state, Move(actor="a", to=(10.3, 10)), g.ctx)
    assert "in_contact" in [code_of(r) for r in legal.reasons]


def test_light_cavalry_leaves_without_a_roll():
    """IA-BREAK, IA-MORALE: light cavalry breaks contact with no save and no test."""
    g = game(
        fig("c", "blue", 10, 10, type="cavalry"),
        fig("r", "red", 10 + BASE, 10),
        fig("k", "blue", 5, 14, **CHIEF),
    )
    ev = act(g, Move(actor="c", to=(4, 10)), [])
    assert "light cavalry" in texts(ev) and g.state.models["c"].x == 4


def test_melee_troops_retreat_only_in_their_commanders_sight():
    """IA-MORALE: outside the commander's sighting range a unit cannot retreat."""
    g = game(
        fig("w", "blue", 10, 10), fig("r", "red", 10 + BASE, 10), fig("c", "blue", 40, 40, **CHIEF)
    )
    legal = RS.check(g.state, Move(actor="w", to=(7, 10)), g.ctx)
    assert "out of its commander's sight" in legal.reason


def test_retreat_from_contact_tests_the_army():
    """IA-MORALE: retreating from contact needs a morale test; 5+5 = 10 acts regularly
    and the figure walks away; 3+3 = 6 keeps it moving but hands the initiative over."""
    g = game(
        fig("w", "blue", 10, 10), fig("r", "red", 10 + BASE, 10), fig("c", "blue", 5, 10, **CHIEF)
    )
    ev = act(g, Move(actor="w", to=(8, 12)), [5, 5])
    assert "army morale" in texts(ev) and g.state.models["w"].pos == (8, 12)
    g = game(
        fig("w", "blue", 10, 10), fig("r", "red", 10 + BASE, 10), fig("c", "blue", 5, 10, **CHIEF)
    )
    act(g, Move(actor="w", to=(8, 12)), [3, 3])
    to_phase(g, "melee")
    from engine.actions import EndPhase

    act(g, EndPhase())
    act(g, EndPhase())
    assert g.state.vars["ia"]["order"] == ["red", "blue"]
