"""Reactions, overwatch, fast draw, running, movement save, reserve moves, follow up,
pursuit, breaking off, GASR targeting, skills and observation (seeds/003, the sections
of those names) with forced dice."""

from __future__ import annotations

import pytest

from engine.dice import Dice, Modifier
from engine.state import Model
from rulesets.gemini.chapters.options import movement_extras as MX
from rulesets.gemini.chapters.options import observation as O
from rulesets.gemini.chapters.options import reactions as R
from rulesets.gemini.chapters.options import skills as S
from rulesets.gemini.chapters.options import targeting as TG


def dice(*faces: int) -> Dice:
    d = Dice(seed=1)
    d.force(list(faces))
    return d


def model(mid: str = "m", **stats: object) -> Model:
    base: dict[str, object] = {"M": 4, "Ld": 7, "I": 3, "Act": 4}
    return Model(id=mid, side="a", unit=mid, x=0, y=0, stats={**base, **stats})


def test_reaction_successes_against_act_once_a_turn():
    m = model()
    assert R.reaction_roll(dice(4, 3), m, 1).successes == 1
    assert "made its reaction" in R.may_react(m, 1)
    assert R.may_react(m, 2) == ""
    assert R.reaction_roll(dice(6, 5), m, 2).successes == 2


def test_no_reaction_in_combat_pinned_routing():
    assert R.may_react(model(), 1, in_combat=True)
    m = model()
    m.set_status("pinned")
    assert "pinned" in R.may_react(m, 1)


@pytest.mark.parametrize(
    ("cls", "shots", "one", "two"),
    [
        ("pistol", 1, 1, 2),
        ("rapid_fire", 1, 2, 2),
        ("assault", 3, 3, 3),
        ("heavy", 2, 0, 2),
        ("slow", 1, 0, 1),
    ],
)
def test_reaction_shots_by_class(cls, shots, one, two):
    assert R.reaction_shots(cls, shots, 1) == one
    assert R.reaction_shots(cls, shots, 2) == two


def test_arap_overwatch_rapid_fire_twice_to_half_range():
    w = {"class": "rapid_fire", "range": 24, "shots": 1}
    assert R.overwatch_shots(w, 12.0) == 2 and R.overwatch_shots(w, 13.0) == 1
    assert R.overwatch_shots({"class": "heavy", "shots": 3}, 20.0) == 3
    m = model()
    assert R.reaction_range(m) == 9.0
    m.set_status("overwatch")
    assert R.reaction_range(m) == 24.0


def test_old_overwatch_needs_no_move_no_fire():
    m = model()
    assert R.old_overwatch_at_turn_end(m, moved=False, fired=False)
    assert not R.old_overwatch_at_turn_end(m, moved=True, fired=False)
    assert R.cover_mod(True) == -1
    m.set_status("overwatch")
    assert R.lose_overwatch(m, "fired") and "overwatch" not in m.status


def test_fast_draw_pistol_plus_one_heavy_minus_one_ties_both():
    a, b = model("a", I=3), model("b", I=4)
    assert R.fast_draw(dice(4, 4), a, "pistol", b, "basic")[0] == "both"  # 8 v 8
    assert R.fast_draw(dice(4, 4), a, "pistol", b, "heavy")[0] == "a"  # 8 v 7
    assert R.fast_draw(dice(2, 2), a, "basic", b, "basic", a_ready=True)[0] == "both"  # 6 v 6
    assert R.fast_draw(dice(2, 2), a, "basic", b, "basic")[0] == "b"  # 5 v 6


def test_running():
    m = model()
    assert MX.run_allowance(dice(), m, "double", 4.0)[0] == 8.0
    assert MX.run_allowance(dice(3), m, "d6", 4.0)[0] == 7.0
    assert MX.run_problem(8.0, "phases") and not MX.run_problem(8.5, "phases")
    assert MX.run_problem(20.0, "arap")
    assert MX.run_halt([(1.0, 12.0), (2.0, 9.0), (3.0, 7.5)]) == 3.0
    assert MX.run_halt([(1.0, 12.0)]) is None


def test_movement_save_against_initiative():
    assert MX.movement_save(dice(3), model(I=3)).passed
    assert MX.movement_save(dice(3), model(I=3), [Modifier(-1, "bog", "GM-MOVEMENT-SAVE")]).failed


def test_reserve_moves_and_follow_up():
    m = model()
    assert MX.reserve_problem(m, acted=False, nearest_enemy=6.0, in_combat=False) == ""
    assert MX.reserve_problem(m, acted=False, nearest_enemy=3.0, in_combat=False)
    assert MX.reserve_problem(m, acted=True, nearest_enemy=9.0, in_combat=False)
    assert MX.reserve_end_problem(3.9)
    assert MX.follow_up_due([["stunned"], None])
    assert not MX.follow_up_due([["stunned"], []])


def test_breaking_off_ld_then_three_plus_for_a_hit():
    m = model()
    ld, hit = MX.break_off(dice(4, 4, 3), m)
    assert ld.failed and "routing" in m.status and hit.passed
    ld, hit = MX.break_off(dice(3, 3, 2), model())
    assert ld.passed and hit.failed
    assert MX.halt_pursuit(dice(4, 3), model(), [Modifier(-1, "hated", "GM-HATRED")]).failed


def test_gasr_targeting():
    near, far = model("near"), model("far")
    assert not TG.may_pass_over(near, False, far, False)
    near.set_status("down")
    assert TG.may_pass_over(near, False, far, False)
    assert TG.may_pass_over(model("c"), True, far, False)
    assert not TG.may_pass_over(model("c"), True, far, True)
    assert TG.may_pass_over(model("c"), False, model("bike", type="bike"), False)


def test_skill_costs_and_levels():
    # "an average human (Ld=7) can buy an Average skill at level 8 for 4 points"
    assert S.cost("average", 1) == 4 and S.level_for(7, "average", 4) == 8
    assert S.cost("easy", -1) is None and S.cost("hard", 3) == 16
    assert S.cost("hard", 5) == 24
    assert S.unskilled_level(7, "hard") == 3
    assert S.skill_test(dice(3, 3, 2), 8, "pick the lock").passed
    assert S.skill_test(dice(3, 3, 3), 8, "pick the lock").failed


def test_observation_d10_against_initiative():
    t, margin = O.observe(dice(2), model(I=4), "tracks")
    assert t.passed and margin == 2
    assert O.observe(dice(5), model(I=4), "tracks")[0].failed
    assert O.search_radius(model(M=4)) == 2.0
