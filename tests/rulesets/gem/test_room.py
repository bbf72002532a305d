"""Room at the end of a move (audit reliability.md D4, gem.md defects 2 and 3): a move,
charge, frontage change (GEM-2.1.3) or change of order (GEM-2.3.4) that would leave a
base off the table or on top of another base is refused with the code ``no_room``."""

from engine.actions import Charge, Move
from engine.testing import to_phase
from rulesets.gem.actions import ChangeFrontage, ChangeOrder
from rulesets.gem.chapters.room import NO_ROOM

from .helpers import make, model


def _hoplites(x0: float = 0.4957) -> list[dict]:
    """gem.md defect 2: a 3-file block of nine hoplites, its left file on the edge."""
    xs, ys = (x0, x0 + 1.0043, x0 + 2.0086), (9.998, 8.994, 7.990)
    return [
        model(f"h{3 * r + c + 1}", "blue", x, y, 90, unit="hop", profile="hoplite")
        for r, y in enumerate(ys)
        for c, x in enumerate(xs)
    ]


def test_frontage_change_onto_a_friend_or_off_the_edge_is_refused():
    """gem.md defect 2: 3 to 4 files puts h1 at x = -0.01 and h4 0.59" from `friend`."""
    g = make(
        _hoplites()
        + [
            model("friend", "blue", 3.6, 10.0, 90, profile="archer"),
            model("foe", "red", 60, 40, 270, profile="archer"),
        ]
    )
    to_phase(g, "movement", "blue")
    r = g.check(ChangeFrontage(actor="hop", files=4))
    assert not r.ok and NO_ROOM in r.codes, r.reason
    before = {m.id: m.pos for m in g.state.models.values()}
    assert g.check(ChangeFrontage(actor="hop", files=3)).ok is False
    assert {m.id: m.pos for m in g.state.models.values()} == before


def test_frontage_change_with_room_is_allowed():
    """The same block 10" from any edge or friend may go from 3 to 4 files."""
    g = make(_hoplites(20.0) + [model("foe", "red", 60, 40, 270, profile="archer")])
    to_phase(g, "movement", "blue")
    assert g.check(ChangeFrontage(actor="hop", files=4)).ok


def test_peltasts_cannot_form_a_block_on_a_friend():
    """gem.md defect 3: the block would put p2 and p5 0.5" from `friend` (15.5, 10)."""
    xs = (10.0, 12.0, 14.0, 17.0, 19.0, 21.0)
    specs = [
        model(f"p{i + 1}", "blue", x, 10.0, 90, unit="pel", profile="peltast")
        for i, x in enumerate(xs)
    ]
    g = make(
        specs
        + [
            model("friend", "blue", 15.5, 10.0, 90, profile="archer"),
            model("foe", "red", 60, 40, 270, profile="archer"),
        ]
    )
    to_phase(g, "movement", "blue")
    r = g.check(ChangeOrder(actor="pel", order="block"))
    assert not r.ok and NO_ROOM in r.codes, r.reason


def test_a_move_that_turns_a_horse_off_the_table_edge_is_refused():
    """reliability.md D4 (deployment.toml): a 25x50 mm base (0.98" by 1.97") that ends
    0.7" from the west edge fits end-on to it, and hangs 0.28" over it turned side-on."""
    g = make(
        [
            model("a", "blue", 5.0, 10.0, 90, profile="horse_archer"),
            model("z", "red", 60, 40, 270, profile="archer"),
        ]
    )
    to_phase(g, "movement", "blue")
    fits = [g.check(Move(actor="a", to=(0.7, 10.0), facing=f)) for f in (0.0, 90.0)]
    assert sorted(r.ok for r in fits) == [False, True], [r.reason for r in fits]
    assert NO_ROOM in [r for r in fits if not r.ok][0].codes


def test_cavalry_charge_that_would_swing_onto_its_target_is_refused():
    """reliability.md D4 (default scenario, game 1, action 34): eq2's 25x50 mm base stops
    at contact, then turns to face arc3 and overlapped it by 0.33"."""
    g = make(
        [
            model("eq2", "blue", 32.13, 32.0, 297.30504493605315, profile="horse_archer"),
            model("arc3", "red", 26.43, 22.95, 94.3303915640672, profile="archer"),
        ]
    )
    to_phase(g, "movement", "blue")
    r = g.check(Charge(actor="eq2", target="arc3"))
    assert not r.ok and NO_ROOM in r.codes, r.reason
