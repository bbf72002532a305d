"""GEM's reading of the geometry service (rulesets/gem/chapters/measure.py): the zones of a whole
unit (GEM-2.3.3), templates on rectangular bases (GEM-2.2.6), the friendly-fire line
(GEM-2.2.2) and terrain along a path (GEM-2.1.1)."""

import pytest

from engine.battlefield import Battlefield
from engine.state import Model
from rulesets.gem.chapters import measure

from .helpers import terrain


def _m(mid: str, x: float, y: float, facing: float = 0.0, base=25.0) -> Model:
    return Model(id=mid, side="s", unit=mid, x=x, y=y, facing=facing, base=base)


def test_flank_is_wholly_behind_the_front_line_even_across_the_rear_line():
    """GEM-2.3.3: a flank attack needs the attacker wholly behind the front line; one that
    straddles the rear line is still behind the front, so it attacks the flank (the
    service's own "flank" strip stops at the rear line; GEM's band reaches back)."""
    target = [_m("t", 10, 10, 0)]  # faces east: front line x = 10.49, rear line x = 9.51
    assert measure.zone_of(target, [_m("a", 9.6, 14)], 0.0) == "flank"
    assert measure.zone_of(target, [_m("a", 8.0, 14)], 0.0) == "rear"
    assert measure.zone_of(target, [_m("a", 12.0, 14)], 0.0) == "front"
    assert measure.zone_of(target, [_m("a", 10.6, 14)], 0.0) == "none"


def test_a_block_is_zoned_by_its_front_and_rear_ranks():
    """GEM-2.3.3: the lines run along the front of the front rank and the rear of the rear
    rank of a block, not around one figure."""
    block = [
        _m(f"b{i}", x, y, 90.0) for i, (x, y) in enumerate([(10, 11), (11, 11), (10, 10), (11, 10)])
    ]  # front y 11.49, rear 9.51
    side = _m("a", 14, 10.5)
    assert measure.zone_of(block, [side], 90.0) == "flank"
    assert measure.zone_of(block, [_m("a", 10.5, 8)], 90.0) == "rear"
    assert measure.zone_of(block, [_m("a", 10.5, 13)], 90.0) == "front"


def test_template_share_of_a_rectangular_base_is_exact():
    """GEM-2.2.6: a template whose edge runs across the middle of a 25x50 mm base covers
    half of it (the old grid sampling only came near)."""
    cav = _m("c", 10, 10, 0.0, base=(25.0, 50.0))  # depth 50 mm along x
    share = measure.template_shares([cav], (10 + 100.0, 10), 100.0)["c"]
    assert share == pytest.approx(0.5, abs=2e-3)
    assert measure.covered_share(cav, (30, 30), 1.0) == 0.0


def test_friendly_fire_line_distance_to_round_and_square_bases():
    """GEM-2.2.2: how near the line of fire passes to a friend's base."""
    assert measure.segment_distance(_m("r", 5, 2), (0, 0), (10, 0)) == pytest.approx(
        2 - 12.5 / 25.4
    )
    sq = _m("q", 5, 2, 0.0, base=(25.4, 25.4))
    assert measure.segment_distance(sq, (0, 0), (10, 0)) == pytest.approx(1.5, abs=1e-5)
    assert measure.point_segment_distance((5, 3), (0, 0), (10, 0)) == pytest.approx(3, abs=1e-5)


def test_difficult_ground_along_a_path():
    """GEM-2.1.1: the inches of a path inside woods and rough ground, leg by leg."""
    woods = terrain("woods", [(2, 9), (4, 9), (4, 11), (2, 11)], "wd")
    rough = terrain("rough", [(6, 9), (9, 9), (9, 11), (6, 11)], "rg")
    bf = Battlefield(72, 48, (woods, rough))
    path = [(0, 10), (5, 10), (10, 10)]
    assert measure.path_in(bf, path, ["woods", "rough"]) == pytest.approx(5.0)
    assert measure.path_in(bf, path, ["road"]) == 0.0
    assert measure.crossed(bf, path, ["woods"]) == ["wd"]


def test_overlapping_difficult_ground_is_paid_once():
    """GEM-2.1.1: where woods lie on rough ground a path is in difficult terrain once: the
    union of the pieces along each leg, not the sum of their lengths."""
    rough = terrain("rough", [(0, 0), (10, 0), (10, 10), (0, 10)], "rg")
    woods = terrain("woods", [(5, 2), (15, 2), (15, 8), (5, 8)], "wd")
    marsh = terrain("water", [(7, 4), (9, 4), (9, 6), (7, 6)], "pond")  # inside both
    bf = Battlefield(72, 48, (rough, woods, marsh))
    kinds = ["woods", "rough", "water"]
    assert measure.path_in(bf, [(-5, 5), (20, 5)], kinds) == pytest.approx(15.0)
    # a bent path: two legs, each cut at the outlines it crosses
    bent = [(-5, 5), (12, 5), (12, 20)]
    assert measure.path_in(bf, bent, kinds) == pytest.approx(12.0 + 3.0)
    # a leg running along a shared edge (y = 8 is the woods' top, inside the rough)
    assert measure.path_in(bf, [(-5, 8), (20, 8)], kinds) == pytest.approx(15.0)
    # a diagonal through the overlap
    diag = [(-1, -1), (16, 16)]
    want = 10 * 2**0.5  # the rough's diagonal; the woods' part lies inside it
    assert measure.path_in(bf, diag, kinds) == pytest.approx(want)


def test_overlap_priced_once_in_a_move():
    """GEM-2.1.1: the cost of a move through woods lying on rough ground counts the
    overlap double once, not four times."""
    from engine.actions import Move
    from engine.testing import to_phase

    from .helpers import make, model

    rough = terrain("rough", [(11, 0), (20, 0), (20, 20), (11, 20)], "rg")
    woods = terrain("woods", [(11, 0), (20, 0), (20, 20), (11, 20)], "wd")
    g = make(
        [
            model("a", "blue", 10, 10, 0, profile="orc", type="skirmisher"),
            model("z", "red", 60, 45, profile="archer"),
        ],
        terrain_=(rough, woods),
    )
    to_phase(g, "movement")
    # 1" clear + 1.5" in both pieces = 1 + 3 = 4 (MOV 4); with the overlap paid twice it
    # would have cost 1 + 1.5 x 3 = 5.5
    assert g.check(Move(actor="a", to=(12.5, 10.0))).ok
    assert not g.check(Move(actor="a", to=(12.6, 10.0))).ok
