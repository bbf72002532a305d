"""Inter Arma 1.06: the morale goal modifiers (6 b) and the wounded's fate after a
campaign battle (5.III), with forced dice."""

from __future__ import annotations

from engine.actions import Concede, EndPhase, Move
from rulesets.inter_arma import victory
from rulesets.inter_arma.chapters import goals, morale
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


def test_allied_losses_civilians_and_heroes():
    """IA-MORALE a: -1 for every 4 allies down, +/-1 for 3 civilians killed, -1 for an
    allied hero killed (IA-I-ALLIES): allies and civilians do not count as soldiers."""
    specs = [fig(f"a{k}", "blue", 10, 2 + k) for k in range(4)]
    specs += [fig(f"c{k}", "blue", 14, 2 + k) for k in range(3)]
    specs += [fig("h", "blue", 16, 2, **{"class": "commander"}), fig("r", "red", 40, 40)]
    for s in specs[:4] + specs[7:8]:
        s["state"] = {"ally": True}
    for s in specs[4:7]:
        s["state"] = {"civilian": True}
    g = game(*specs)
    for m in g.state.models.values():
        if m.side == "blue":
            m.removed = True
            m.set_status("dead")
    blue = [(x.value, x.reason) for x in morale.modifiers(g.state, "blue")]
    red = [(x.value, x.reason) for x in morale.modifiers(g.state, "red")]
    assert blue == [(-1, "5 allies killed or wounded"), (-1, "own commander killed"),
                    (-1, "own civilians killed")]  # fmt: skip
    assert red == [(2, "5 enemy killed or wounded"), (1, "enemy commander killed"),
                   (1, "enemy civilians killed")]  # fmt: skip


def test_civilians_do_not_fight_for_their_side():
    """IA-I-ALLIES: a side left with only civilians has no figure able to fight."""
    c = fig("c", "blue", 10, 10)
    c["state"] = {"civilian": True}
    g = game(fig("b", "blue", 12, 10), c, fig("r", "red", 40, 40))
    g.state.models["b"].removed = True
    victory.settle(g.state, g.ctx)
    assert g.state.over and g.state.over["winner"] == "red"


def test_building_destroyed_by_the_enemy_holding_it():
    """IA-MORALE b: +1 for a destroyed enemy building, -1 for a destroyed own building;
    an owned building held by the enemy at the end of a turn is destroyed
    (IA-I-BUILDINGS)."""
    g = _with(game(fig("b", "blue", 10, 10), fig("r", "red", 40, 40)),
              {"id": "tent", "kind": "building", "x": 10, "y": 10, "radius": 2, "side": "red"})  # fmt: skip
    assert goals.modifiers(g.state, "blue") == []
    for _ in range(6):
        ev = act(g, EndPhase())
    assert "blue destroys tent" in texts(ev)
    g.state.models["b"].x = 30
    assert [(x.value, x.reason) for x in goals.modifiers(g.state, "blue")] == [
        (1, "destroyed tent")
    ]
    assert [x.value for x in goals.modifiers(g.state, "red")] == [-1]
