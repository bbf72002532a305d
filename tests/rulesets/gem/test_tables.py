"""Table 1 and the morale table read from tables.toml (GEM-2.2.3, GEM-2.4.3)."""

from fractions import Fraction

from rulesets.gem.chapters.tables import fear_need, rout_need, table1


def test_table1_cells_match_the_rulebook():
    """GEM-2.2.3 Table 1: a few cells in every region of the table."""
    assert table1(1, 1).need == 11
    assert table1(4, 7).need == 15
    assert table1(10, 10).need == 11
    assert table1(2, 5).need == 17
    assert table1(7, 6).need == 10
    c = table1(1, 9)
    assert c.only_natural_20 and c.need == 20
    c = table1(9, 1)
    assert c.only_natural_1_misses and c.need == 2


def test_naturals_decide_first():
    """GEM-2.2.3: natural 20 hits, natural 1 misses, whatever the modifiers."""
    c = table1(3, 3)  # 11+
    assert c.hits(20, -15) and not c.hits(1, +15)
    assert c.hits(9, 2) and not c.hits(9, 1)


def test_star_cells_only_a_natural_20():
    """GEM-2.2.3 '*': no modifier lets anything but a 20 hit."""
    c = table1(1, 10)
    assert not c.hits(19, 10) and c.hits(20, -10)
    assert c.chance(+10) == Fraction(1, 20)


def test_bang_cells_only_a_natural_1_misses():
    """GEM-2.2.3 '!': no modifier makes anything but a 1 miss."""
    c = table1(10, 1)
    assert c.hits(2, -10) and not c.hits(1, 0)
    assert c.chance(-10) == Fraction(19, 20)


def test_exact_chance_with_modifier():
    """GEM-2.2.3: OFF 4 vs DEF 7 needs 15; -4 means 19+ but a natural 20 always hits."""
    assert table1(4, 7).chance(0) == Fraction(6, 20)
    assert table1(4, 7).chance(-4) == Fraction(2, 20)
    assert table1(4, 7).chance(-10) == Fraction(1, 20)


def test_morale_table_bands():
    """GEM-2.4.3: fear 2/5/10/15/20, rout from 60% 18 and 20."""
    assert [fear_need(p) for p in (0, 19.9, 20, 39, 40, 60, 79, 80, 100)] == [
        2,
        2,
        5,
        5,
        10,
        15,
        15,
        20,
        20,
    ]
    assert rout_need(59) == 0 and rout_need(60) == 18 and rout_need(85) == 20
