"""The GEM audit's defects (gem.md; reliability.md D3), each played with
forced dice against the rulebook's words: fighting one's own figures, the overrun strike
back when disorganized, and sudden deceleration with its skid through the physics
service (exact end positions)."""

from pathlib import Path

from engine.scenario import load_scenario, new_game
from engine.testing import logged
from rulesets.gem.chapters.melee import fight_problems
from rulesets.gem.chapters.vehicles import vehicle_hit

from .helpers import make, model, terrain

HERE = Path(__file__).parent


def _scenario(text: str, tmp_path) -> object:
    f = tmp_path / "s.toml"
    f.write_text(text)
    return new_game(load_scenario(str(f)))


def test_a_unit_never_fights_its_own_figures():
    """GEM-2.3: a unit strikes the foes it is in melee with; its own figure is not one
    (reliability D3: a skirmisher in melee fought itself and was removed)."""
    g = make(
        [
            model("sk1", "red", 30.0, 23.0, 270.0, profile="archer"),
            model("h1", "blue", 30.0, 21.99, 90.0, profile="hoplite"),
        ]
    )
    sk1 = g.state.models["sk1"]
    g.state.vars.setdefault("gem", {}).setdefault("melee", [])
    why = fight_problems(g.state, "sk1", "sk1", sk1)
    assert why and "not an enemy" in why[0]


def _skid_game(extra, speed=12.0, profile="grav_tank", terrain_=()):
    return make(
        [
            model("tank", "blue", 30.0, 10.0, 90.0, profile=profile, state={"speed": speed}),
            *extra,
            model("foe", "red", 60.0, 40.0, 270.0, profile="marauder"),
        ],
        terrain_=terrain_,
    )


def test_sudden_deceleration_compares_with_zero():
    """GEM-3.4 "if the result is zero or less ... greater than zero move the vehicle":
    a skimmer at 14 (ACC 6) whose top speed falls to 8 skids 14 - 6 = 8" (audit D6: no
    skid, compared with the new top speed)."""
    g = _skid_game([], speed=14.0, profile="skimmer")
    t = g.state.models["tank"]
    g.dice.force([3, 1, 12] + [1] * 8)  # left mobilizer jammed; clock 12; 8 safe inches
    vehicle_hit(g.state, g.ctx, t, 9)
    skid = [e for e in logged(g, "status") if e.rule == "GEM-3.4"]
    assert skid and 'skids 8"' in skid[0].text
    assert (round(t.x, 2), round(t.y, 2)) == (30.0, 18.0)


def test_a_skid_stops_touching_a_trooper():
    """GEM-3.4 skid as a physics move (GEM-I-DECEL): the tank (60 x 90 mm) stops touching
    the trooper at (30, 16), not on top of him (audit D7: ended overlapping at y 18)."""
    g = _skid_game([model("man", "blue", 30.0, 16.0, 90.0, profile="trooper")])
    t = g.state.models["tank"]
    g.dice.force([3, 2, 12] + [1] * 8)  # left mobilizer broken: top speed 0, skid 8"
    vehicle_hit(g.state, g.ctx, t, 9)
    half = 90 / 25.4 / 2
    assert abs(t.y - (16.0 - 25 / 25.4 / 2 - half)) < 0.01 and abs(t.x - 30.0) < 0.01
    assert "stopped by man" in [e for e in logged(g, "status") if e.rule == "GEM-3.4"][0].text


def test_a_skid_stops_at_a_wall():
    """GEM-3.4 skid as a physics move: it stops against a wall across its way."""
    wall = terrain("wall", [(20.0, 15.0), (40.0, 15.0), (40.0, 15.5), (20.0, 15.5)], "w1")
    g = _skid_game([], terrain_=(wall,))
    t = g.state.models["tank"]
    g.dice.force([3, 2, 12] + [1] * 8)
    vehicle_hit(g.state, g.ctx, t, 9)
    assert abs(t.y - (15.0 - 90 / 25.4 / 2)) < 0.01 and abs(t.x - 30.0) < 0.01


D4 = """
title = "D4"
ruleset = "gem"
seed = 1
first = "blue"
models = [
  { id = "h1", side = "blue", unit = "h", profile = "hoplite", x = 18.49, y = 9.5, facing = 90 },
  { id = "h2", side = "blue", unit = "h", profile = "hoplite", x = 19.50, y = 9.5, facing = 90 },
  { id = "h3", side = "blue", unit = "h", profile = "hoplite", x = 20.50, y = 9.5, facing = 90 },
  { id = "h4", side = "blue", unit = "h", profile = "hoplite", x = 21.51, y = 9.5, facing = 90 },
  { id = "h5", side = "blue", unit = "h", profile = "hoplite", x = 18.49, y = 8.49, facing = 90 },
  { id = "h6", side = "blue", unit = "h", profile = "hoplite", x = 19.50, y = 8.49, facing = 90 },
  { id = "h7", side = "blue", unit = "h", profile = "hoplite", x = 20.50, y = 8.49, facing = 90 },
  { id = "h8", side = "blue", unit = "h", profile = "hoplite", x = 21.51, y = 8.49, facing = 90 },
  { id = "sk", side = "red", x = 20.0, y = 12.0, facing = 270, stats = { OFF = 8, DEF = 3 }, state = { disorganized = true } },
  { id = "z", side = "red", profile = "archer", x = 60, y = 45, facing = 270 },
]
"""


def test_a_disorganized_skirmisher_strikes_back_at_half_off(tmp_path):
    """GEM-2.4.5: a disorganized unit fights at half its OFF "for all hand-to-hand
    weapons", the overrun strike back included (audit D4: OFF 8 vs DEF 6, 13 hit)."""
    from engine.actions import Move

    g = _scenario(D4, tmp_path)
    g.dice.force([1, 1, 1, 1, 1, 1, 13])
    ev = g.apply(Move(actor="h", to=(20.0, 13.5)))
    back = [e for e in ev if "strikes back" in e.text][0]
    assert "OFF 4 vs DEF 6" in back.text and back.outcome == "miss"
    assert not g.state.models["h8"].removed
