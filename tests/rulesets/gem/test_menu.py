"""The computer's menu (candidates.py) and the verdict-only checks behind it (issue 24).

The menu leaves out the moves, charges and rides of a figure or block that may not move
(GEM-2.1: one move a turn; GEM-2.4.5 disorganized; GEM-2.1.3 a frontage change instead
of a move): each test builds the options the menu would have offered without that cut
and checks that the rules refuse every one, so the cut hides nothing legal. And a check
asked for the verdict alone (``engine.whether``) gives the same verdict as a full one.
"""

from __future__ import annotations

import pytest

from engine.actions import Action, Charge, Move
from engine.testing import to_phase
from engine.whether import whether
from rulesets.gem import candidates as menu
from rulesets.gem.chapters import movement
from rulesets.gem.rules import check

from .helpers import block_specs, make, model


def _game():
    specs = [
        model("b1", "blue", 10.0, 10.0, 0, stats={"OFF": 5, "DEF": 5, "MOV": 6}),
        model("b2", "blue", 10.0, 20.0, 0, stats={"OFF": 5, "DEF": 5, "MOV": 6}),
        *block_specs("hop", "blue", (12.0, 32.0), 0.0, 6, 3),
        model("r1", "red", 16.0, 10.0, 180, stats={"OFF": 5, "DEF": 5}),
        model("r2", "red", 40.0, 30.0, 180, stats={"OFF": 5, "DEF": 5}),
    ]
    g = make(specs)
    to_phase(g, "movement", "blue")
    return g


def _unpruned(g, unit: str, monkeypatch) -> list[Action]:
    """The unit's move options as the menu builds them with every unit free to move."""
    with monkeypatch.context() as mp:
        mp.setattr(movement, "can_move_problems", lambda *a: [])
        return menu._moves(g.state, g.ctx, unit)


def _actors(g) -> set[str]:
    sure, unsure = menu.proposals(g.state, "blue", g.ctx) or ([], [])
    return {a.actor for a in sure + unsure}


def test_a_figure_that_moved_gets_no_move_options_and_none_was_legal(monkeypatch):
    """GEM-2.1: a figure moves once a turn. After b1's move the menu has nothing for it,
    and each option it would have offered is refused by the rules."""
    g = _game()
    assert "b1" in _actors(g)
    assert not [e for e in g.apply(Move(actor="b1", to=(10.0, 12.0))) if e.kind == "refused"]
    assert "b1" not in _actors(g)
    assert "b2" in _actors(g)  # the others keep theirs
    dropped = _unpruned(g, g.state.models["b1"].unit, monkeypatch)
    assert any(isinstance(a, Charge) for a in dropped) and any(isinstance(a, Move) for a in dropped)
    assert all(not check(g.state, a, g.ctx).ok for a in dropped)


def test_a_block_that_moved_gets_no_move_options_and_none_was_legal(monkeypatch):
    """GEM-2.1 for a block (its lead figure's record): moves, charges and frontage
    changes all go once it has moved, and each was refused."""
    g = _game()
    assert "hop" in _actors(g)
    assert not [e for e in g.apply(Move(actor="hop", to=(13.0, 32.0))) if e.kind == "refused"]
    assert "hop" not in _actors(g)
    dropped = _unpruned(g, "hop", monkeypatch)
    assert len(dropped) >= 5
    assert all(not check(g.state, a, g.ctx).ok for a in dropped)


@pytest.mark.parametrize("moved", [False, True])
def test_a_verdict_alone_is_the_full_checks_verdict(moved):
    """``whether()`` lets move, charge and shot checks stop at the first reason: the
    verdict on every option of the unpruned menu is the full check's."""
    g = _game()
    if moved:
        g.apply(Move(actor="b1", to=(10.0, 12.0)))
        g.apply(Move(actor="hop", to=(13.0, 32.0)))
    opts = [a for u in ("hop", g.state.models["b1"].unit) for a in menu._moves(g.state, g.ctx, u)]
    opts += [Charge(actor="b1", target="r1"), Charge(actor="hop", target="r2")]
    for a in opts:
        full = check(g.state, a, g.ctx).ok
        with whether():
            assert check(g.state, a, g.ctx).ok == full, a


def test_shots_look_past_a_unit_whose_figures_are_all_refused():
    """GEM-2.2.2: no fire path within 1" of a friend. A red unit of six stands behind a
    blue friend, nearer the archer than a lone red figure in the open: the menu looks
    at no more than two figures of one unit, so the lone figure's shot is offered."""
    from engine.actions import Shoot

    reds = [
        model(f"r{i}", "red", x, y, 180, unit="reds", profile="slinger")
        for i, (x, y) in enumerate(
            [(15, 9.5), (15, 10.5), (16, 9.5), (16, 10.5), (17, 9.5), (17, 10.5)]
        )
    ]
    g = make(
        [
            model("b", "blue", 10.0, 10.0, 0, profile="archer"),
            model("f", "blue", 12.5, 10.0, 0, profile="archer"),
            *reds,
            model("lone", "red", 19.0, 18.0, 180, profile="slinger"),
        ]
    )
    to_phase(g, "missile", "blue")
    assert all(not g.check(Shoot(actor="b", target=r["id"], weapon="bow")).ok for r in reds)
    shots = [a for a in g.candidates("blue") if isinstance(a, Shoot) and a.actor == "b"]
    assert Shoot(actor="b", target="lone", weapon="bow") in shots
