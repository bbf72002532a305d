"""Inter Arma 1.06: the morale goal modifiers (6 b) and the wounded's fate after a
campaign battle (5.III), with forced dice."""

from __future__ import annotations

from engine.actions import Concede, Move
from rulesets.inter_arma import goals, morale
from tests.rulesets.inter_arma.helpers import act, fig, game, texts


def _with(g, *objectives):
    g.state.vars["objectives"] = [dict(o) for o in objectives]
    return g


def test_checkpoint_held_and_lost():
    """IA-MORALE b: +1 for an occupied checkpoint, -1 for a lost one (IA-I-GOALS)."""
    g = _with(game(fig("b", "blue", 10, 10), fig("r", "red", 40, 40)),
              {"id": "gate", "kind": "checkpoint", "x": 10, "y": 10, "radius": 2, "side": "red"})  # fmt: skip
    blue = [(x.value, x.reason) for x in morale.modifiers(g.state, "blue")]
    red = [(x.value, x.reason) for x in morale.modifiers(g.state, "red")]
    assert blue == [(1, "holds checkpoint gate")] and red == [(-1, "lost checkpoint gate")]


def test_loot_found_by_moving_onto_it():
    """IA-MORALE b: +1 for found loot, once a figure ends a move on it."""
    g = _with(game(fig("b", "blue", 10, 10), fig("r", "red", 40, 40)),
              {"id": "gold", "kind": "loot", "x": 13, "y": 10, "radius": 1})  # fmt: skip
    assert goals.modifiers(g.state, "blue") == []
    act(g, Move(actor="b", to=(13, 10)))
    assert [x.value for x in goals.modifiers(g.state, "blue")] == [1]


def test_standard_captured_and_herd():
    """IA-MORALE b: a captured standard is +1 to the captor and -1 to its owner; a herd
    only +1 to the captor."""
    g = _with(game(fig("b", "blue", 10, 10), fig("r", "red", 40, 40)),
              {"id": "aquila", "kind": "standard", "x": 10, "y": 10, "radius": 1, "side": "red"},
              {"id": "cows", "kind": "herd", "x": 10, "y": 11, "radius": 1, "side": "red"})  # fmt: skip
    assert [x.value for x in goals.modifiers(g.state, "blue")] == [1, 1]
    assert [x.value for x in goals.modifiers(g.state, "red")] == [-1]


def test_fate_after_a_campaign_battle():
    """IA-WOUNDED: after the battle 1-2 dies, 3-4 rolls again, 5-6 survives; +2 commander."""
    g = game(fig("b", "blue", 10, 10), fig("c", "blue", 12, 10, **{"class": "commander"}),
             fig("r", "red", 40, 40))  # fmt: skip
    g.state.vars["options"] = {"campaign": True}
    for m in ("b", "c"):
        g.state.models[m].set_status("wounded")
    ev = act(g, Concede(), [2, 3])
    assert g.state.models["b"].vars["fate"] == "dies"
    assert g.state.models["c"].vars["fate"] == "survives"  # 3 + 2 = 5
    assert "after the battle" in texts(ev)
