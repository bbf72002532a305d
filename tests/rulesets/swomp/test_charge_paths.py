"""Charges that cross terrain: the charge is a move, so difficult ground costs double and
impassable terrain stops it (SWOMP "Charging"; "Terrain ... may also affect movement";
SWOMP-I-CHARGE, SWOMP-I-TERRAIN), with forced dice."""

from engine.actions import Choose
from engine.testing import apply, events_of
from rulesets.swomp.actions import SwompCharge
from rulesets.swomp.chapters import core, reactions

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


WOODS = ("woods", [[12.0, 20.0], [16.0, 20.0], [16.0, 28.0], [12.0, 28.0]])
WALL = ("wall", [[13.0, 18.0], [13.5, 18.0], [13.5, 30.0], [13.0, 30.0]])


def test_open_ground_charge_reaches():
    """SWOMP "Charging": a marine (MR 4) charges up to 8" over open ground."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 17.5, 24)])  # 6.5" edge to edge
    assert g.check(SwompCharge(actor="a", target="b")).ok


def test_difficult_ground_doubles_the_charge_path():
    """SWOMP-I-TERRAIN: the 4" of woods on the way cost 8": 6.5" becomes 10.5", beyond
    the 8" charge; the refusal gives the measured shortfall."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 17.5, 24)], terrain=(WOODS,))
    why = g.check(SwompCharge(actor="a", target="b")).reason
    assert 'costs 10.5"' in why and "difficult ground counts double" in why
    assert 'may charge 8"' in why and "short" in why


def test_charge_through_woods_spends_the_doubled_inches():
    """SWOMP-I-TERRAIN: a charge that crosses 1" of woods records 1" extra moved (its
    movement bonus to DR counts what it spent)."""
    woods = ("woods", [[12.0, 20.0], [13.0, 20.0], [13.0, 28.0], [12.0, 28.0]])
    g = make([m("a", "blue", 10, 24), m("b", "red", 16, 24, stats={"HP": 3})], terrain=(woods,))
    attack(g, SwompCharge(actor="a", target="b"), [5, 5])
    a = g.state.models["a"]
    assert core.engaged(a) and abs(a.vars["moved"] - 6.0) < 0.1  # 5" path + 1" woods


def test_impassable_terrain_blocks_the_charge():
    """SWOMP "Charging": moving into contact is a move; a wall stops it (physics move to
    the first contact). The text gives no failed charge, so the charge is refused with
    what blocks it (SWOMP-I-CHARGE)."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 16, 24)], terrain=(WALL,))
    # the wall is tall: it also hides b, so give a path round it to test blocking alone
    why = g.check(SwompCharge(actor="a", target="b", path=((10.0, 24.0), (12.0, 24.0)))).reason
    assert "blocked by t0" in why and "cannot reach base contact" in why


def test_a_path_round_the_wall_reaches_if_it_is_short_enough():
    """SWOMP-I-CHARGE: the charger may give waypoints; the whole path is measured."""
    wall = ("wall", [[13.0, 23.0], [13.5, 23.0], [13.5, 25.0], [13.0, 25.0]])
    g = make([m("a", "blue", 10, 24, stats={"MR": 6}), m("b", "red", 16, 24)], terrain=(wall,))
    path = ((10.0, 24.0), (12.0, 26.2), (14.5, 26.2))
    assert g.check(SwompCharge(actor="a", target="b", path=path)).ok
    apply(g, SwompCharge(actor="a", target="b", path=path))
    assert reactions.owed(g.state)["data"]["defender"] == "b"
    a = g.state.models["a"]
    assert a.vars["foes"] == ["b"] and a.y > 24.0  # arrived from the north side
    ev = apply(g, Choose(option="stand"), [5, 5])
    assert events_of(ev, "resolution")[0].rule == "SWOMP-CHARGE"


def test_other_models_in_the_way_block_the_charge():
    """SWOMP-I-CHARGE: bases other than the target's and fellow chargers' stop it too."""
    g = make([m("a", "blue", 10, 24), m("b", "red", 16, 24), m("c", "red", 13, 24, unit="c")])
    why = g.check(SwompCharge(actor="a", target="b")).reason
    assert "blocked by c" in why
