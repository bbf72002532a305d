"""SWOMP contests (SWOMP-CONTEST) and the exact odds the preview and the AI read."""

from fractions import Fraction

from rulesets.swomp.chapters import contest


def test_a_one_always_loses_and_a_ten_always_wins():
    """SWOMP "Terms": a 1 always loses, a 10 always wins, ties to the defender."""
    assert not contest.attacker_wins(1, 5, 100, 6)  # attacker's 1 loses with any total
    assert contest.attacker_wins(10, 5, 10, 50)  # attacker's 10 wins with any total
    assert contest.attacker_wins(6, 1, 6, 50)  # defender's 1 loses with any total
    assert not contest.attacker_wins(6, 10, 60, 10)  # defender's 10 wins with any total
    assert not contest.attacker_wins(5, 5, 12, 12)  # a tie goes to the defender


def test_double_tens_and_double_ones_go_to_the_defender():
    """The rulebook's marine-and-Eldar note: both roll 10, the defender wins; both 1s
    are a tie too (SWOMP-I-CONTEST-TIES)."""
    assert not contest.attacker_wins(10, 10, 30, 11)
    assert not contest.attacker_wins(1, 1, 30, 11)


def test_p_win_counts_every_face_pair_exactly():
    # equal values: attacker wins when strictly higher, plus the corner rules
    p = contest.p_win(5, 5)
    brute = Fraction(
        sum(contest.attacker_wins(a, d, 5 + a, 5 + d) for a in range(1, 11) for d in range(1, 11)),
        100,
    )
    assert p == brute == Fraction(45, 100)
    # hopeless on totals: only the attacker's 10 against a defender's non-10 wins, or
    # the defender's 1 against an attacker who did not roll 1
    assert contest.p_win(0, 50) == Fraction(9 + 8, 100)
    # certain on totals: lost only on the attacker's 1 or the defender's 10
    assert contest.p_win(50, 0) == 1 - Fraction(10 + 9, 100)


def test_margin_distribution_sums_to_one_and_matches_p_win():
    d = contest.margin_dist(7, 5)
    assert sum(d.values()) == 1
    assert 1 - d[-1] == contest.p_win(7, 5)


def test_melee_damage_by_margin():
    """SWOMP "Winning a contest by 5 or more": 1, 2 from 5, 3 from 10."""
    assert [contest.melee_damage(m) for m in (0, 4, 5, 9, 10, 15)] == [1, 1, 2, 2, 3, 3]


def test_speed_bonus_truncates_as_the_examples_do():
    """SWOMP-I-ROUND: 12" and 18" both give +1 (the worked examples), 10" gives +1."""
    assert [contest.speed_bonus(x) for x in (0, 9.9, 10, 12, 18, 20, 29)] == [0, 0, 1, 1, 1, 2, 2]


def test_ram_damage_one_per_five_none_below_five():
    """SWOMP-RAM "one point of damage ... for every 5 points the contest was won by": a
    ram won by less than 5 does none (audit ram_margin3: won by 3 did 1)."""
    assert [contest.ram_damage(m) for m in (0, 4, 5, 9, 10, 14, 15)] == [0, 0, 1, 1, 2, 2, 3]


def test_ram_speed_bonus_rounds_to_the_nearest():
    """SWOMP-RAM: speed / 10 "rounded to the nearest whole number" (audit ram_round:
    15" gave +1)."""
    assert [contest.ram_speed_bonus(s) for s in (4, 5, 14, 15, 17, 24.9, 25)] == [
        0,
        1,
        1,
        2,
        2,
        2,
        3,
    ]


def test_multiple_attackers_add_half_of_each_other_rounded_down():
    """SWOMP "Multiple attackers"."""
    terms = contest.best_terms([("a", 4), ("b", 5), ("c", 3)])
    assert terms[0] == ("b", 5)
    assert sum(v for _, v in terms) == 5 + 2 + 1
