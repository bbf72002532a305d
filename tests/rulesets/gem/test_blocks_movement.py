"""Movement (GEM-2.1) and blocks (GEM-2.1.2 to GEM-2.1.5): terrain costs, obstacle
carry-over, block shape, ranks, frontage, overrun."""

from engine.actions import Move
from engine.ruleset import TOO_FAR
from engine.testing import logged, to_phase

from .helpers import block_specs, make, model, terrain


def test_difficult_terrain_halves_and_roads_add_half():
    """GEM-2.1.1: woods cost double; a move wholly on a road is MOV x1.5 rounded up."""
    woods = terrain("woods", [(12, 0), (30, 0), (30, 20), (12, 20)])
    road = terrain("road", [(0, 29), (72, 29), (72, 31), (0, 31)])
    g = make(
        [
            model("a", "blue", 10, 10, 0, profile="orc", type="skirmisher"),
            model("r", "blue", 10, 30, 0, profile="orc", type="skirmisher"),
            model("z", "red", 60, 45, profile="archer"),
        ],
        terrain_=(woods, road),
    )
    to_phase(g, "movement")
    bad = g.check(Move(actor="a", to=(14.0, 10.0)))  # 2" clear + 2" woods = 6" > 4"
    assert not bad.ok and "too far" in bad.reason
    assert bad.find(TOO_FAR).data["limit"] == 4.0  # the window's allowance, as data
    assert g.ruleset.allowance(g.state, "a", g.ctx) == 4.0
    assert g.ruleset.allowance(g.state, "a", g.ctx, "rush") == 8.0
    assert g.check(Move(actor="a", to=(13.0, 10.0))).ok  # 2 + 1 x 2 = 4
    assert g.check(Move(actor="r", to=(16.0, 30.0))).ok  # 6 = ceil(4 x 1.5)
    assert not g.check(Move(actor="r", to=(16.5, 30.0))).ok


def test_obstacle_costs_2_and_carries_over():
    """GEM-2.1.1: a hedge costs 2"; stopping on it costs 2" again next turn."""
    hedge = terrain("hedge", [(12, 0), (12.6, 0), (12.6, 20), (12, 20)])
    g = make(
        [
            model("a", "blue", 10, 10, 0, profile="orc", type="skirmisher"),
            model("z", "red", 60, 45, profile="archer"),
        ],
        terrain_=(hedge,),
    )
    to_phase(g, "movement")
    assert not g.check(Move(actor="a", to=(13.5, 10.0))).ok  # 3.5 + 2 > 4
    assert g.check(Move(actor="a", to=(12.3, 10.0))).ok  # stops on the hedge
    g.apply(Move(actor="a", to=(12.3, 10.0)))
    a = g.state.models["a"]
    assert "crossing" in a.status and a.vars["obstacle_debt"] == 2.0
    from rulesets.gem.chapters.movement import allowance

    assert allowance(g.state, g.ctx, a, [a.pos, (13, 10)], False)[0] == 2.0


def test_block_shape_rules():
    """GEM-2.1.2: two ranks at least, and at least as wide as deep; stragglers no rank."""
    from rulesets.gem.chapters.blocks import shape_problem

    assert shape_problem(8, 4) == ""
    assert shape_problem(9, 4) == ""  # 2 full ranks and a straggler
    assert "2 ranks" in shape_problem(6, 4)
    assert "wide" in shape_problem(9, 2)


def test_ranks_count_casualties_from_the_rear():
    """GEM-2.1.4: a once-full rank counts while it keeps half its figures."""
    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 12, 4)
        + [model("x", "red", 30, 40, profile="archer")]
    )
    from rulesets.gem.chapters import blocks
    from rulesets.gem.chapters.damage import apply_hits

    assert blocks.ranks(g.state, "h") == 3
    apply_hits(g.state, g.ctx, g.state.models["h1"], 2)  # a front figure struck...
    assert not g.state.models["h1"].removed  # ...but the rear ones fall
    assert g.state.models["h12"].removed and g.state.models["h11"].removed
    assert blocks.ranks(g.state, "h") == 3  # 2 of 4 left: still a rank
    apply_hits(g.state, g.ctx, g.state.models["h1"], 1)
    assert blocks.ranks(g.state, "h") == 2


def test_block_moves_as_a_whole_and_wheels():
    """GEM-I-BLOCK: actor = unit, `to` = the new front centre; a wheel costs its arc."""
    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + [model("x", "red", 30, 40, profile="archer")]
    )
    to_phase(g, "movement")
    g.apply(Move(actor="h", to=(20.0, 13.0)))
    assert abs(g.state.models["h1"].y - (13.0 - 0.5 * (25 / 25.4 + 0.02))) < 1e-3
    g2 = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + [model("x", "red", 30, 40, profile="archer")]
    )
    to_phase(g2, "movement")
    r = g2.check(Move(actor="h", to=(20.0, 13.5), facing=0.0))  # 3.5 + 3.1 > 4
    assert not r.ok and "wheel" not in r.reason and "too far" in r.reason


def test_frontage_change_instead_of_moving():
    """GEM-2.1.3: up to two figures more or fewer on each side, instead of moving."""
    from rulesets.gem.actions import ChangeFrontage

    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 16, 4)
        + [model("x", "red", 30, 40, profile="archer")]
    )
    to_phase(g, "movement")
    assert not g.check(ChangeFrontage(actor="h", files=9)).ok  # 9 files x 1 rank
    assert not g.check(ChangeFrontage(actor="h", files=2)).ok  # deeper than wide
    g.apply(ChangeFrontage(actor="h", files=8))
    from rulesets.gem.chapters import blocks

    assert blocks.record(g.state, "h")["files"] == 8 and blocks.ranks(g.state, "h") == 2
    assert not g.check(Move(actor="h", to=(20.0, 11.0))).ok


def test_block_cannot_leave_melee_or_move_disorganized():
    """GEM-2.1.2: no moving out of a melee; a disorganized block cannot move at all."""
    from rulesets.gem.state import engage, set_disorganized

    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + block_specs("o", "blue", (40.0, 10.0), 90.0, 8, 4, profile="orc")
        + [model("x", "red", 20, 10.6, 270, profile="archer")]
    )
    engage(g.state, "h", "x", "front", False)
    set_disorganized(g.state, "o")
    to_phase(g, "movement")
    assert "melee" in g.check(Move(actor="h", to=(20.0, 8.0))).reason
    assert "disorganized" in g.check(Move(actor="o", to=(40.0, 11.0))).reason


def test_overrun_destroys_skirmisher_and_carries_on():
    """GEM-2.1.5: the block strikes the skirmisher in its path with full force; the
    skirmisher strikes back either way; if it dies the block keeps moving."""
    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + [
            model("sk", "red", 20.0, 12.0, 270, profile="archer"),
            model("z", "red", 60, 45, profile="archer"),
        ]
    )
    to_phase(g, "movement")
    g.dice.force([15, 1, 1, 1, 1, 1, 20])  # 6 attacks (4 + 2 spears), one hit; back: 20
    g.apply(Move(actor="h", to=(20.0, 13.5)))
    assert g.state.models["sk"].removed
    assert g.state.models["h8"].removed  # the skirmisher's natural 20 took the rear man
    from rulesets.gem.chapters import blocks

    assert blocks.record(g.state, "h")["front"] == [20.0, 13.5]
    assert sum(1 for e in logged(g, "resolution") if "GEM-2.1.5" in e.rule) == 2


def test_overrun_failure_stops_the_block_in_melee():
    """GEM-2.1.5: a skirmisher that survives stops the block in contact."""
    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + [
            model("sk", "red", 20.0, 12.0, 270, profile="archer"),
            model("z", "red", 60, 45, profile="archer"),
        ]
    )
    to_phase(g, "movement")
    g.dice.force([1, 1, 1, 1, 1, 1, 1])
    g.apply(Move(actor="h", to=(20.0, 13.5)))
    from rulesets.gem.chapters import blocks
    from rulesets.gem.state import in_melee

    assert not g.state.models["sk"].removed
    assert blocks.record(g.state, "h")["front"][1] < 11.6
    assert in_melee(g.state, "h")


def test_friendly_skirmishers_are_removed_without_loss():
    """GEM-2.1.5: a block overrunning its own skirmishers removes them, no casualties."""
    g = make(
        block_specs("h", "blue", (20.0, 10.0), 90.0, 8, 4)
        + [
            model("sk", "blue", 20.0, 12.0, 90, profile="archer", unit="skirm"),
            model("sk2", "blue", 40.0, 12.0, 90, profile="archer", unit="skirm"),
            model("z", "red", 60, 45, profile="archer"),
        ]
    )
    to_phase(g, "movement")
    g.apply(Move(actor="h", to=(20.0, 13.5)))
    from rulesets.gem.state import lost_percent

    assert g.state.models["sk"].removed and "overrun" in g.state.models["sk"].status
    assert lost_percent(g.state, "skirm") == 0.0
