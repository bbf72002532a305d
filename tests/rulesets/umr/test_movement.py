"""Movement (UMR "Movement"): a d6 in inches per action die, rough ground, swimming,
jumps and climbs with added dice, falling, charging into contact."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.actions import Charge, EndActivation, Fight, Move, Shoot
from engine.testing import apply, events_of, refusal
from rulesets.umr.actions import Climb, Jump
from tests.rulesets.umr.helpers import game, hp, spec, terrain

FAR = spec("far", "red", 60, 40)


def pos(g, mid):
    m = g.state.models[mid]
    return (round(m.x, 2), round(m.y, 2))


def test_move_goes_the_rolled_inches_and_surplus_is_lost():
    """UMR-MOVEMENT / UMR-ACTION-DICE: one die, its pips in inches; unused pips lost."""
    g = game(spec("a", "blue", 10, 10), FAR)
    ev = apply(g, Move(actor="a", to=(20, 10)), [4])
    assert pos(g, "a") == (14.0, 10.0) and ev[0].outcome == "short"
    ev = apply(g, Move(actor="a", to=(16, 10)), [5])
    assert pos(g, "a") == (16.0, 10.0) and "inches left over are lost" in ev[0].text
    assert g.state.active == "red"  # both dice spent


def test_move_bonus_adds_to_each_roll():
    """UMR-PERSONALITY: a point on MOVE adds one inch to every movement roll."""
    g = game(spec("a", "blue", 10, 10, stats={"MOVE": 2}), FAR)
    apply(g, Move(actor="a", path=((10, 20),)), [3])
    assert pos(g, "a") == (10.0, 15.0)


@pytest.mark.parametrize(
    "kind, penalty",
    [("rough", 1), ("rubble", 1), ("heavy_woods", 1), ("woods", 0), ("brush", 0), ("road", 0)],
)
def test_rough_ground_takes_an_inch_off(kind, penalty):
    """UMR-ROUGH: broken ground, rubble and heavy woods -1; UMR-I-TERRAIN: woods, brush
    and roads are clear for movement."""
    g = game(spec("a", "blue", 10, 10), FAR, features=(terrain("t", kind, (12, 5, 14, 15)),))
    apply(g, Move(actor="a", to=(20, 10)), [5])
    assert pos(g, "a") == (15.0 - penalty, 10.0)


def test_swimming_is_half_speed():
    """UMR-SWIMMING: inches in the water cost double."""
    g = game(spec("a", "blue", 10, 10), FAR, features=(terrain("r", "river", (12, 0, 20, 48)),))
    ev = apply(g, Move(actor="a", to=(30, 10)), [6])
    assert pos(g, "a") == (14.0, 10.0)  # 2" on land, then 4 pips = 2" swimming
    assert '2.0" of it swimming at half speed' in ev[0].text
    assert "swimming" in g.state.models["a"].status


def test_swimmers_cannot_attack():
    """UMR-SWIMMING: no attack actions until out of the water."""
    g = game(
        spec("a", "blue", 13, 10),
        spec("x", "red", 13 + 0.99, 10),
        spec("y", "red", 13, 20),
        features=(terrain("r", "water", (12, 0, 20, 48)),),
    )
    why = "a is swimming: no attacks until it is out of the water (UMR-SWIMMING)"
    assert why in refusal(apply(g, Fight(actor="a", target="x")))
    assert why in refusal(apply(g, Shoot(actor="a", target="y")))


def test_walls_are_not_walked_through():
    """UMR-CLIMBING (UMR-I-TERRAIN): a path into a wall is refused before any roll."""
    g = game(spec("a", "blue", 10, 10), FAR, features=(terrain("w", "wall", (12, 0, 12.5, 20)),))
    assert refusal(apply(g, Move(actor="a", to=(15, 10)))) == (
        "the path runs into w (wall): walls, buildings and rocks cannot be walked through, "
        "only climbed (UMR-CLIMBING)"
    )
    assert not g.dice.consumed


def test_a_move_stops_at_the_first_base_it_touches():
    """UMR-MELEE / UMR-I-MOVE: moving into an enemy ends in base contact; fight follows."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 13, 10), FAR)
    ev = apply(g, Move(actor="a", to=(16, 10)), [6])
    assert ev[0].data["to"][0] == pytest.approx(13 - 0.984, abs=0.011)
    assert "stopped by x" in ev[0].text
    ev = apply(g, Fight(actor="a", target="x"), [3, 1, 2])
    assert events_of(ev, "resolution")[0].outcome == "hit"


def test_charge_ends_in_base_contact():
    """UMR-MELEE / UMR-I-MOVE: a charge is a move straight at an enemy, into contact."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 14, 13), FAR)
    ev = apply(g, Charge(actor="a", target="x"), [5])
    assert any(e.outcome == "contact" for e in ev)
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10), FAR)
    ev = apply(g, Charge(actor="a", target="x"), [2])
    assert pos(g, "a") == (12.0, 10.0) and not any(e.outcome == "contact" for e in ev)


def test_check_says_whether_a_move_is_possible_without_rolling():
    """UMR-ACTION-DICE: with no dice left, check() refuses the move, no dice rolled."""
    g = game(spec("a", "blue", 10, 10, unit="u"), spec("b", "blue", 10, 14, unit="u"), FAR)
    apply(g, Move(actor="a", to=(5, 10)), [1])
    apply(g, Move(actor="a", to=(5, 10)), [1])
    n = len(g.dice.consumed)
    assert g.check(Move(actor="a", to=(5, 5))).reasons == (
        "a has no action dice left for movement (UMR-ACTION-DICE)",
    )
    assert len(g.dice.consumed) == n


def test_odds_of_reaching_the_end_of_a_path():
    """UMR-MOVEMENT: exact chance the die covers the path (rough -1, water double)."""
    feats = (terrain("rub", "rubble", (30, 0, 40, 20)), terrain("w", "water", (10, 30, 20, 40)))
    g = game(
        spec("a", "blue", 10, 10, stats={"MOVE": 1}), spec("b", "blue", 15, 25), FAR, features=feats
    )
    assert g.odds(Move(actor="a", to=(14, 10))).chance == Fraction(4, 6)  # needs 3+
    assert g.odds(Move(actor="a", to=(10, 17))).chance == Fraction(1, 6)  # 7": a six
    assert g.odds(Move(actor="a", to=(10, 18))).chance == Fraction(0)  # 8" is too far
    assert g.odds(Move(actor="a", to=(32, 10))).chance == Fraction(0)
    g2 = game(spec("a", "blue", 29, 10), FAR, features=feats)
    assert g2.odds(Move(actor="a", to=(33, 10))).chance == Fraction(2, 6)  # 4" -1: needs 5+
    g3 = game(spec("a", "blue", 15, 28), FAR, features=feats)
    assert g3.odds(Move(actor="a", to=(15, 31))).chance == Fraction(3, 6)  # 2 + 1x2 = 4"


def test_jump_adds_dice_and_clears_water():
    """UMR-MOVEMENT / UMR-I-JUMP: dice added into one roll; the leap flies over water."""
    river = (terrain("r", "river", (12, 0, 15, 48)),)
    g = game(spec("a", "blue", 11, 10), FAR, features=river)
    ev = apply(g, Jump(actor="a", to=(17, 10), count=2), [3, 4])
    assert pos(g, "a") == (17.0, 10.0) and "lands on the spot" in ev[0].text
    assert "swimming" not in g.state.models["a"].status
    g = game(spec("a", "blue", 11, 10), FAR, features=river)
    ev = apply(g, Jump(actor="a", to=(17, 10), count=2), [1, 1])
    assert pos(g, "a") == (13.0, 10.0) and "falls short into the water" in ev[0].text
    assert g.odds(Jump(actor="a", to=(19, 10), count=2)) is not None


def test_jump_needs_enough_dice():
    """UMR-ACTION-DICE: a jump cannot add more dice than the model has."""
    g = game(spec("a", "blue", 11, 10), FAR)
    assert (
        refusal(apply(g, Jump(actor="a", to=(17, 10), count=3)))
        == "a has only 2 action dice for movement, not 3 (UMR-ACTION-DICE)"
    )
    odds = g.odds(Jump(actor="a", to=(17, 10), count=2))
    assert odds.chance == Fraction(26, 36)  # 2d6 >= 6


def test_climb_is_half_the_added_dice_and_blocks_other_actions():
    """UMR-CLIMBING: add the dice, halve the sum; nothing else until the climb is done."""
    wall = (terrain("w", "wall", (12, 0, 13, 20), height=6),)
    g = game(spec("a", "blue", 11.3, 10), spec("x", "red", 11.3, 14), FAR, features=wall)
    ev = apply(g, Climb(actor="a", feature="w", count=2), [5, 4])
    m = g.state.models["a"]
    assert ev[0].data["gain"] == 4.5 and m.vars["elev"] == 4.5
    assert "climbing" in m.status and g.state.active == "red"
    apply(g, EndActivation(actor="x"))
    apply(g, EndActivation(actor="far"), [4, 2])
    assert g.state.turn == 2
    assert "must finish the climb" in refusal(apply(g, Shoot(actor="a", target="x")))
    ev = apply(g, Climb(actor="a", count=1), [3])  # 1.5" more: on top at 6"
    assert m.vars["elev"] == 6 and "elevated" in m.status and "climbing" not in m.status
    assert "not at the foot of w" in refusal(apply(g, Climb(actor="a", feature="w", to=(14, 10))))
    # across 1" walked at full rate (1 pip), then 5 pips climb 2.5" down (UMR-CLIMBING
    # halves the dice only for inches climbed vertically)
    ev = apply(g, Climb(actor="a", feature="w", to=(13.7, 10), count=1), [6])
    assert m.vars["elev"] == 3.5 and "climbing" in m.status
    assert m.vars["bonus"] == 1  # the six earns a bonus die; ending now loses it
    apply(g, EndActivation(actor="a"))
    apply(g, EndActivation(actor="x"))
    apply(g, EndActivation(actor="far"), [5, 1])
    assert g.odds(Climb(actor="a", count=2)).chance == Fraction(21, 36)  # 3.5" down: 2d6 >= 7
    apply(g, Climb(actor="a", count=2), [6, 2])
    assert pos(g, "a") == (13.7, 10.0) and m.vars["elev"] == 0 and m.status == []


def test_climb_must_start_at_the_foot():
    """UMR-CLIMBING (UMR-I-CLIMB): the base must be within 0.5" of the feature."""
    g = game(spec("a", "blue", 8, 10), FAR, features=(terrain("w", "wall", (12, 0, 13, 20)),))
    assert "not at the foot of w" in refusal(apply(g, Climb(actor="a", feature="w", count=2)))
    assert "not a wall, building or rocks" in refusal(apply(g, Climb(actor="a", feature="zz")))


@pytest.mark.parametrize("height, tests", [(3, 0), (6, 2), (9, 3), (12, 4)])
def test_falling_one_test_per_floor_beyond_one_floor(height, tests):
    """UMR Movement, Falling (UMR-I-FALL): one floor or lower is safe; a longer fall
    takes one attack die per floor fallen, so two floors give two tests (audit c04)."""
    b = (terrain("b", "building", (12, 0, 20, 20), height=height),)
    g = game(spec("a", "blue", 11.3, 10, state={"elev": float(height), "on": "b"}), FAR, features=b)
    dice = [4, 2, 3] * tests + [2]  # each test: attack 4 beats defence 2, damage 3
    ev = apply(g, Move(actor="a", to=(5, 10)), dice)
    assert hp(g, "a") == 15 - 3 * tests
    assert sum(1 for e in ev if e.rule == "UMR-FALLING" and e.outcome == "hit") == tests
    assert g.state.models["a"].vars["elev"] == 0 and pos(g, "a") == (9.3, 10.0)


def test_a_falling_test_is_saved_by_a_defence_six():
    """UMR-FALLING / UMR-SIX-DEFENSE: the test is attack die against defence die."""
    b = (terrain("b", "building", (12, 0, 20, 20), height=9),)
    g = game(spec("a", "blue", 11.3, 10, state={"elev": 9.0, "on": "b"}), FAR, features=b)
    apply(g, Move(actor="a", to=(5, 10)), [5, 6, 2])
    assert hp(g, "a") == 15


def test_cavalry_gets_one_more_movement_roll_a_round():
    """UMR-CAVALRY: one additional movement roll per round (UMR-I-DICE-FLOW)."""
    g = game(spec("a", "blue", 10, 10, profile="rider"), FAR)
    for _ in range(3):
        apply(g, Move(actor="a", to=(10, 40)), [1])
    assert g.state.active == "red" and g.state.models["a"].y == 19.0  # 3 x (1 + MOVE 2)
    g = game(spec("a", "blue", 10, 10, profile="rider"), spec("x", "red", 20, 20))
    apply(g, Shoot(actor="a", target="x"), [1, 2])
    apply(g, Shoot(actor="a", target="x"), [1, 2])
    assert g.state.models["a"].vars["used"] == []
    assert g.state.active == "blue"  # the extra die still serves a move
    assert (
        refusal(apply(g, Shoot(actor="a", target="x")))
        == "a has no action dice left for a ballistic attack (UMR-ACTION-DICE)"
    )
    apply(g, Move(actor="a", to=(10, 5)), [2])
    assert g.state.active == "red"


def test_a_climb_in_progress_saves_and_replays(tmp_path):
    """UMR-CLIMBING: the climb's progress is plain data; a save reloads with the same
    checksum and a replay reproduces it roll by roll."""
    from engine import persistence

    wall = (terrain("w", "wall", (12, 0, 13, 20), height=6),)
    g = game(spec("a", "blue", 11.3, 10), spec("x", "red", 11.3, 14), FAR, features=wall)
    apply(g, Climb(actor="a", feature="w", to=(13.7, 10), count=2), [2, 3])
    assert g.state.models["a"].vars["climb"]["done"] == 2.5
    f = tmp_path / "climb.json"
    persistence.save(g, f)
    assert persistence.load(f).state.checksum() == g.state.checksum()
    _, report = persistence.replay_file(f)
    assert report.ok, report.message


def test_rough_ground_costs_only_when_the_roll_reaches_it():
    """UMR-ROUGH (UMR-I-TERRAIN): the -1 is for moving through rough ground; a roll that
    stops short of it pays nothing, one that enters it is not cut short of its edge
    (audit c03: rubble 6" ahead, a 3 used to move only 2")."""
    rubble = (terrain("r", "rubble", (16, 0, 18, 48)),)
    g = game(spec("a", "blue", 10, 24), FAR, features=rubble)
    ev = apply(g, Move(actor="a", to=(20, 24)), [3])
    assert pos(g, "a") == (13.0, 24.0) and "UMR-ROUGH" not in ev[0].text
    ev = apply(g, Move(actor="a", to=(20, 24)), [5])  # 3" to the rubble, 5 - 1 = 4"
    assert pos(g, "a") == (17.0, 24.0) and "rough ground (r)" in ev[0].text
    g = game(spec("a", "blue", 10, 24), FAR, features=rubble)
    apply(g, Move(actor="a", to=(20, 24)), [6])  # 6 reaches the edge at 6": never less
    assert pos(g, "a") == (16.0, 24.0)


def test_charge_from_on_top_drops_to_the_ground_first():
    """UMR-FALLING (UMR-I-FALL): a model up on a wall that charges drops first, then
    charges; the charge is not refused for the charger's height (audit c12)."""
    w = (terrain("w", "wall", (20, 0, 20.5, 48), height=3),)
    g = game(
        spec("ontop", "blue", 19.4, 24, state={"elev": 3.0, "on": "w"}),
        spec("x", "red", 15, 24),
        FAR,
        features=w,
    )
    ev = apply(g, Charge(actor="ontop", target="x"), [5])
    assert any(e.rule == "UMR-FALLING" for e in ev)
    assert g.state.models["ontop"].vars["elev"] == 0 and pos(g, "ontop") == (15.99, 24.0)
    g = game(
        spec("a", "blue", 10, 24),
        spec("up", "red", 19.4, 24, state={"elev": 3.0, "on": "w"}),
        FAR,
        features=w,
    )
    assert "up is up on w" in refusal(apply(g, Charge(actor="a", target="up")))


def test_walking_across_a_roof_is_a_walk():
    """UMR-CLIMBING: the dice are halved only for inches climbed vertically; the 8" roof
    walk is ordinary movement (audit c15: 3" up, 8" across, 3" down on 5 + 5)."""
    barn = (terrain("barn", "building", (20, 20, 28, 28), height=3),)
    g = game(spec("c", "blue", 19.4, 24), FAR, features=barn)
    ev = apply(g, Climb(actor="c", feature="barn", to=(28.6, 24), count=2), [5, 5])
    cur = g.state.models["c"].vars["climb"]
    assert cur["done"] == 7.0  # 6 pips: 3" up; 4 pips: 4" across
    assert g.odds(Climb(actor="c", count=2)).chance == Fraction(6, 36)  # 4 + 6 = 10 pips
    assert "the top is walked at full rate" in ev[0].text


def test_a_model_placed_in_water_or_on_a_wall_shows_it_from_the_start():
    """UMR-SWIMMING / UMR-CLIMBING (UMR-I-CLIMB): the status words are set at setup, not
    only after a model's first act (audit c17: a swimmer placed in a river showed no
    "swimming", a model placed on a wall no "elevated")."""
    g = game(
        spec("swimmer", "blue", 13, 10),
        spec("ontop", "blue", 29.6, 10, state={"elev": 3.0, "on": "w"}),
        spec("dry", "blue", 5, 30),
        FAR,
        features=(
            terrain("r", "river", (12, 0, 14, 48)),
            terrain("w", "wall", (30, 0, 30.5, 48), height=3),
        ),
    )
    status = {k: sorted(m.status) for k, m in g.state.models.items()}
    assert status == {"swimmer": ["swimming"], "ontop": ["elevated"], "dry": [], "far": []}
    ev = apply(g, Move(actor="swimmer", to=(20, 10)), [6])  # 1" to the bank costs 2 pips
    assert pos(g, "swimmer") == (18.0, 10.0) and g.state.models["swimmer"].status == []
    assert "swimming" in ev[0].text
