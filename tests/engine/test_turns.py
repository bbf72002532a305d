"""Turn presets: initiative roll-offs with rerolled ties, alternating activation."""

from engine.dice import Dice
from engine.events import EventLog
from engine.state import GameState, Model
from engine.turns import Alternating, Phased, roll_off


def test_roll_off_highest_first_and_ties_reroll():
    dice = Dice(seed=1)
    dice.force([4, 4, 2, 5])  # blue 4, red 4 tie -> reroll: blue 2, red 5
    log = EventLog()
    assert roll_off(dice, ["blue", "red"], 6, log=log) == ["red", "blue"]
    assert any("tie" in e.text for e in log.events)


def test_roll_off_three_sides_orders_all():
    dice = Dice(seed=1)
    dice.force([3, 6, 3, 5, 1])  # a 3, b 6, c 3 -> b first; a and c reroll 5, 1
    assert roll_off(dice, ["a", "b", "c"], 6) == ["b", "a", "c"]


def _state(units_blue=2, units_red=1) -> GameState:
    models = {}
    for i in range(units_blue):
        models[f"b{i}"] = Model(id=f"b{i}", side="blue", unit=f"b{i}", x=1, y=1)
    for i in range(units_red):
        models[f"r{i}"] = Model(id=f"r{i}", side="red", unit=f"r{i}", x=1, y=9)
    return GameState(ruleset="example_d6", sides=["blue", "red"], models=models)


def test_alternating_passes_when_a_side_has_no_units_left():
    s = _state(units_blue=2, units_red=1)
    t = Alternating()
    t.start_round(s, ["blue", "red"])
    assert s.active == "blue"
    t.begin(s, "b0")
    t.finish(s)
    assert s.active == "red"
    t.begin(s, "r0")
    t.finish(s)
    assert s.active == "blue"  # red has none left: blue goes again
    t.begin(s, "b1")
    t.finish(s)
    assert t.round_over(s)


def test_phased_segments_in_order():
    s = _state()
    p = Phased(["magic", "movement", "missile"])
    p.start_turn(s, ["red", "blue"])
    seen = [(s.phase, s.active)]
    while not p.next(s):
        seen.append((s.phase, s.active))
    assert seen == [
        ("magic", "red"),
        ("magic", "blue"),
        ("movement", "red"),
        ("movement", "blue"),
        ("missile", "red"),
        ("missile", "blue"),
    ]


def test_a_wiped_out_activating_unit_passes_play_to_the_other_side():
    s = _state(units_blue=2, units_red=2)
    t = Alternating()
    t.start_round(s, ["blue", "red"])
    t.begin(s, "b0")
    s.models["b0"].removed = True
    t.refresh(s)
    assert s.active == "red" and t.current(s) is None
    assert "b0" in t.data(s)["done"]


def test_refresh_when_an_idle_side_loses_its_last_unit():
    s = _state(units_blue=1, units_red=1)
    t = Alternating()
    t.start_round(s, ["blue", "red"])
    t.begin(s, "b0")
    s.models["r0"].removed = True  # shot by b0 during its activation
    t.refresh(s)
    assert s.active == "blue" and t.current(s) == "b0"
