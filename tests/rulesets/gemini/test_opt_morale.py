"""Snake eyes, GASR morale, all-out rout, broken nerve and frozen/pinned (seeds/003
"Snake-Eyes Rule", "Morale", "All Out Rout", "Broken Nerve", "GASR Frozen and Pinned in
Cover") with forced dice."""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Dice, Modifier
from engine.state import Model
from rulesets.gemini.chapters.options import morale_extras as ME
from rulesets.gemini.chapters.options import nerve as N
from rulesets.gemini.chapters.options.common import ld_test
from rulesets.gemini.chapters.options.morale_extras import ForceModel, Friend


def dice(*faces: int) -> Dice:
    d = Dice(seed=1)
    d.force(list(faces))
    return d


def model(ld: int = 7, **kw: object) -> Model:
    return Model(id="m", side="a", unit="m", x=0, y=0, stats={"Ld": ld, "I": 3}, **kw)  # type: ignore[arg-type]


def test_snake_eyes_passes_whatever_the_modifiers():
    mods = [Modifier(-6, "terrible", "GM-SNAKE-EYES")]
    assert ld_test(dice(1, 1), 7, "rout", mods=mods, snake_eyes=True).passed
    assert ld_test(dice(1, 1), 7, "rout", mods=mods).failed
    assert ld_test(dice(3, 4), 7, "rout").passed and ld_test(dice(4, 4), 7, "rout").failed


def test_leader_ld_within_six_unless_down():
    friends = [Friend("boss", 9, 5.0, leader=True), Friend("b", 6, 2.0)]
    assert ME.morale_ld(7, friends)[:1] == (9,)
    assert ME.morale_ld(7, [Friend("boss", 9, 6.5, leader=True)])[0] == 7
    downed = Friend("boss", 9, 5.0, frozenset({"stunned"}), leader=True)
    assert ME.morale_ld(7, [downed])[0] == 7


def test_alone_more_than_three_inches_is_minus_one():
    _, mods, _ = ME.morale_ld(7, [Friend("b", 7, 3.5)])
    assert [m.value for m in mods] == [-1]
    assert ME.morale_ld(7, [Friend("b", 7, 3.0)])[1] == []
    t = ME.morale_test(dice(4, 3), 7, [], "rout")  # 7 against 6: fails
    assert t.failed


def test_all_out_rout_counts_profile_wounds():
    # four spacers (1 W) and an Ogryn (3 W): the Ogryn down is 3 of 7
    force = [ForceModel(f"s{i}", 1, 7) for i in range(4)]
    ogryn = ForceModel("ogryn", 3, 6, frozenset({"down"}))
    assert ME.lost_share([*force, ogryn]) == Fraction(3, 7)
    assert not ME.bottle_due([*force, ogryn])
    lost = [ForceModel("s0", 1, 8, removed=True), *force[1:]]
    assert ME.bottle_due([*lost, ogryn])
    assert ME.best_ld([*lost, ogryn]) == 7  # the removed Ld 8 is no use


def test_bottle_test_on_best_usable_ld():
    force = [ForceModel("a", 1, 8, frozenset({"pinned"})), ForceModel("b", 1, 6)]
    assert ME.bottle_test(dice(3, 4), force, "red").failed  # 7 against Ld 6
    assert ME.bottle_test(dice(), [ForceModel("a", 1, 8, removed=True)], "red").failed


def test_nerve_witnesses_and_borrowed_ld():
    fs = [Friend("a", 7, 2.0), Friend("b", 7, 3.5)]
    assert N.witnesses(fs) == ["a"]
    lenders = [Friend("boss", 9, 5.0, leader=True), Friend("c", 8, 4.0)]
    assert N.nerve_ld(7, lenders) == (9, "boss")
    assert N.nerve_ld(7, lenders, casualties=["boss"]) == (8, "c")
    running = [Friend("c", 8, 4.0, frozenset({"routing"}))]
    assert N.nerve_ld(7, running) == (7, "own")


def test_nerve_failure_runs_for_cover_then_rallies():
    m = model(7)
    assert N.nerve_test(dice(5, 3), m, [Friend("x", 7, 2.0)]).failed
    assert m.status == ["running_for_cover"]
    ts = N.start_of_turn(dice(4, 5, 2, 2), m, [], in_cover=False)  # 2D6" = 9, rally 4 vs 6
    assert ts.move == 9 and ts.rallied and m.status == []


def test_nerve_in_cover_tests_unmodified():
    m = model(7)
    m.set_status("running_for_cover")
    N.reached_cover(m)
    ts = N.start_of_turn(dice(3, 4), m, [], in_cover=True)  # 7 vs 7 unmodified
    assert ts.rallied and ts.move == 0


def test_pinned_in_cover_frozen_in_open_once_a_turn():
    m = model(7)
    t = N.pin_test(dice(6, 5), m, turn=2, in_cover=False)
    assert t is not None and t.failed and m.status == ["frozen"]
    assert N.pin_test(dice(), m, turn=2, in_cover=False) is None  # once a turn
    assert not N.expire(m, 2) and N.expire(m, 3) and m.status == []
    c = model(7)
    N.pin_test(dice(6, 6), c, turn=1, in_cover=True)
    assert c.status == ["pinned"]


def test_frozen_hit_again_and_failing_runs_for_cover():
    m = model(7)
    N.pin_test(dice(6, 5), m, turn=1, in_cover=False)
    N.pin_test(dice(6, 5), m, turn=2, in_cover=False)
    assert m.status == ["running_for_cover"]


def test_no_pin_test_in_combat_and_fearless_passes():
    assert N.pin_test(dice(), model(), turn=1, in_cover=False, in_combat=True) is None
    t = N.pin_test(dice(), model(), turn=1, in_cover=False, fearless=True)
    assert t is not None and t.passed


def test_ledge_initiative_test():
    assert N.ledge_test(dice(3), model()).passed and N.ledge_test(dice(4), model()).failed
