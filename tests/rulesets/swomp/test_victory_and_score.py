"""The turn-limit outcome and the AI's score (SWOMP "Winning the Game" is unwritten:
SWOMP-I-VICTORY; "Every battle has a victor")."""

from engine.actions import EndActivation
from engine.ruleset import load
from rulesets.swomp import score, victory
from rulesets.swomp.chapters import core

from .helpers import make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def captains(**kw):
    """Two 3-HP captains facing across the table, each near its own edge (blue south)."""
    return [
        m("b", "blue", 30.0, 6.0, "marine_captain"),
        m("r", "red", 30.0, 42.0, "marine_captain", **kw),
    ]


def end_game(g):
    while g.to_act() is not None:
        g.apply(EndActivation())
    return g.state.over


def test_level_casualties_go_to_damage():
    """SWOMP-I-VICTORY (2): nobody removed, so the side that took more HP wins."""
    g = make(captains(), turn_limit=1)
    g.state.models["r"].hp = 2
    over = end_game(g)
    assert over["winner"] == "blue"
    assert "level, so damage inflicted (points) blue" in over["reason"]


def test_then_units_broken_then_ground():
    """SWOMP-I-VICTORY (3), (4): level damage goes to broken units, then to ground."""
    g = make(captains(), turn_limit=1)
    core.unit_info(g.state, "b")["broken"] = True
    over = end_game(g)
    assert over["winner"] == "red" and "units broken blue 0, red 1" in over["reason"]
    g2 = make(captains(), turn_limit=1)
    g2.state.models["r"].y = 30.0  # red has advanced 12" from the north edge, blue 6"
    over = end_game(g2)
    assert over["winner"] == "red"
    assert "ground taken (inches from own edge) blue 6, red 18" in over["reason"]


def test_all_level_is_a_draw():
    """SWOMP-I-VICTORY: only when all four measures are level."""
    over = end_game(make(captains(), turn_limit=1))
    assert over["winner"] is None and over["reason"].count("level") == 3


def test_casualties_still_come_first():
    """SWOMP-I-VICTORY (1): a removed model outweighs any damage or ground."""
    g = make(captains() + [m("r2", "red", 40.0, 44.0)], turn_limit=1)
    g.state.models["r2"].removed = True
    g.state.models["r2"].hp = 0
    g.state.models["b"].hp = 1
    g.state.models["r"].y = 10.0
    assert victory.tally(g.state, "blue")[0] > 0
    over = end_game(g)
    assert over["winner"] == "blue" and "level" not in over["reason"]


def test_score_weighs_hp_by_points_and_broken_units():
    """The score counts what the outcome counts: HP taken times points, broken units."""
    g = make(captains())
    st = g.state
    rs = load("swomp")
    base = rs.score(st, "blue")
    pts = int(st.models["r"].vars["points"])
    st.models["r"].hp = 2
    assert rs.score(st, "blue") - base == (pts / 3)
    assert rs.score(st, "red") == -rs.score(st, "blue") + score.position(
        st, "red"
    ) + score.position(st, "blue")
    core.unit_info(st, "r")["broken"] = True
    assert rs.score(st, "blue") - base > pts / 3


def test_score_pulls_toward_range():
    """Closing on weapon range is worth a little, well under a wound."""
    g = make(captains())
    st = g.state
    far = score.position(st, "blue")
    st.models["b"].y = 20.0
    near = score.position(st, "blue")
    assert 0 < near - far <= score.IN_RANGE + score.CHARGE_REACH
    assert near - far < int(st.models["r"].vars["points"]) / 3
