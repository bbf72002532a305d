"""Terrain placement (GEM-2.0.2): "The side that goes first takes a bunch and places it
anywhere on the table. Then the other side does the same. Both sides alternate doing
this until all terrain is placed." Played with ``options.terrain_placement``
(GEM-I-TERRAIN); the edge roll and the plans (GEM-2.0.3, GEM-2.0.4) come after it."""

from engine.actions import Choose, EndPhase, Move
from engine.persistence import replay, to_dict
from engine.testing import apply, logged
from rulesets.gem.actions import PlaceTerrain
from rulesets.gem.chapters.terrain_setup import centre

from .helpers import make, model, terrain

WOODS = terrain("woods", [(0, 40), (8, 40), (8, 48), (0, 48)], "w1")
HILL = terrain("hill", [(64, 0), (72, 0), (72, 6), (64, 6)], "h1", height=1.0)


def _game(options, force=(), first="blue"):
    specs = [
        model("a", "blue", 10, 10, 90, profile="archer"),
        model("r", "red", 40, 40, 270, profile="archer"),
    ]
    return make(
        specs, first=first, terrain_=(WOODS, HILL), vars_={"options": options}, force=list(force)
    )


def _where(game, fid):
    return centre(game.battlefield.feature(fid))


def test_sides_alternate_placing_bunches_the_first_side_first():
    """GEM-2.0.2: blue goes first and places the woods, then red the hill; then turn 1's
    segments begin."""
    g = _game({"terrain_placement": True})
    assert [(d["side"], d["kind"]) for d in g.state.pending] == [("blue", "terrain")]
    g.apply(PlaceTerrain(feature="w1", to=(20.0, 10.0)))
    assert _where(g, "w1") == (20.0, 10.0)
    assert [(d["side"], d["kind"]) for d in g.state.pending] == [("red", "terrain")]
    assert "no bunch of terrain 'w1'" in g.check(PlaceTerrain(feature="w1", to=(30, 30))).reason
    g.apply(PlaceTerrain(feature="h1", to=(36.0, 24.0)))
    assert _where(g, "h1") == (36.0, 24.0)
    assert g.state.pending == [] and g.state.phase == "movement"
    texts = [e.text for e in logged(g, "move") if e.rule == "GEM-2.0.2"]
    assert texts == [
        "blue places w1 at (20.0, 10.0) (GEM-2.0.2)",
        "red places h1 at (36.0, 24.0) (GEM-2.0.2)",
    ]


def test_the_rules_measure_on_the_placed_terrain():
    """GEM-2.1.1: difficult terrain halves MOV. Woods placed from x = 12 to 20 in front of
    the archer (MOV 5, at x = 10) make a move to x = 15 cost more than 5", to x = 13 not;
    where the map drew the woods, neither would cost extra."""
    g = _game({"terrain_placement": True})
    g.apply(PlaceTerrain(feature="w1", to=(16.0, 10.0)))
    g.apply(EndPhase())  # red leaves the hill where the map has it
    assert _where(g, "h1") == (68.0, 3.0)
    assert g.state.pending == []
    assert not g.check(Move(actor="a", to=(15.0, 10.0))).ok
    assert g.check(Move(actor="a", to=(13.0, 10.0))).ok


def test_a_bunch_goes_on_the_table_and_not_on_a_figure():
    """GEM-2.0.2 "anywhere on the table": wholly on it; with the figures already placed
    by the scenario (no deployment), not on top of one (GEM-I-TERRAIN)."""
    g = _game({"terrain_placement": True})
    assert "off the table" in g.check(PlaceTerrain(feature="w1", to=(2.0, 24.0))).reason
    assert "would lie on r" in g.check(PlaceTerrain(feature="h1", to=(40.0, 40.0))).reason


def test_terrain_comes_before_the_roll_for_sides():
    """GEM-2.0.2 then GEM-2.0.3: the d20s for the table edge are rolled only once every
    bunch is down (blue 5, red 17: red chooses)."""
    g = _game({"terrain_placement": True, "deployment": True})
    assert not [e for e in logged(g) if e.rule == "GEM-2.0.3"]
    g.apply(PlaceTerrain(feature="w1", to=(30.0, 24.0)))
    apply(g, EndPhase(), dice=[5, 17])
    assert [(d["side"], d["kind"]) for d in g.state.pending] == [("red", "side")]
    g.apply(Choose(option="north"))
    assert g.state.vars["gem"]["edges"] == {"red": "north", "blue": "south"}


def test_undo_and_a_replayed_save_see_the_placed_terrain():
    """The bunches' places are state: an undo takes a placement back, and a save
    replayed from its start puts the terrain where the game had it."""
    g = _game({"terrain_placement": True})
    g.apply(PlaceTerrain(feature="w1", to=(20.0, 10.0)))
    assert g.undo() and _where(g, "w1") == (4.0, 44.0)
    assert g.ctx.battlefield is g.battlefield
    g = _game({"terrain_placement": True})
    g.apply(PlaceTerrain(feature="w1", to=(20.0, 10.0)))
    g.apply(PlaceTerrain(feature="h1", to=(36.0, 24.0)))
    again, report = replay(to_dict(g))
    assert report.ok, report.message
    assert _where(again, "w1") == (20.0, 10.0) and _where(again, "h1") == (36.0, 24.0)


def test_without_the_option_the_map_is_the_terrain():
    """GEM-I-TERRAIN: a scenario that does not ask for terrain placement plays its map."""
    g = _game({})
    assert g.state.pending == [] and "bunches" not in g.state.vars["gem"]
