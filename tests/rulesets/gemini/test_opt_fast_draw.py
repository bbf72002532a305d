"""``fast_draw`` in play (GM-FAST-DRAW, GM-I-FAST-DRAW): a shot at a model that could
shoot back is a face-off; forced dice: the shooter's draw die, the target's, then the
first shot's dice and the second's."""

from __future__ import annotations

from engine.actions import Choose, Shoot
from engine.testing import apply
from tests.rulesets.gemini.helpers import RIFLE, duel, to_phase

PISTOL = {"name": "pistol", "range": 12, "S": 3, "class": "pistol"}


def _draw(blue=None, red=None):
    g = duel({"weapons": [blue or RIFLE]}, {"weapons": [red or RIFLE]}, gap=8.0,
             options={"fast_draw": True})  # fmt: skip
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"))
    assert g.state.pending[0]["side"] == "red"
    assert g.state.pending[0]["options"] == ["draw", "hold"]
    return g


def test_the_faster_target_fires_first_and_the_shooter_falls():
    """d6 + I 3: blue 2 + 3 = 5, red 5 + 3 = 8; red hits on 4+ (4) and wounds (4)."""
    g = _draw()
    apply(g, Choose(option="draw"), dice=[2, 5, 4, 4])
    assert g.state.models["b"].removed and not g.state.models["r"].removed
    assert g.state.models["r"].vars["reacted"] == g.state.turn


def test_equal_scores_fire_at_once():
    """3 + 3 against 3 + 3: both shots go off; each hits (4) and wounds (4)."""
    g = _draw()
    apply(g, Choose(option="draw"), dice=[3, 3, 4, 4, 4, 4])
    assert g.state.models["b"].removed and g.state.models["r"].removed


def test_pistol_draws_faster():
    """+1 for a pistol: blue 3 + 3 + 1 = 7 beats red 3 + 3 = 6; blue kills first
    (5+ beyond the pistol's half range, then 4+ to wound)."""
    g = _draw(blue=PISTOL)
    apply(g, Choose(option="draw"), dice=[3, 3, 5, 4])
    assert g.state.models["r"].removed and not g.state.models["b"].removed


def test_hold_takes_the_shot():
    g = _draw()
    apply(g, Choose(option="hold"), dice=[4, 4])
    assert g.state.models["r"].removed
    assert g.state.models["r"].vars.get("reacted") is None


def test_no_face_off_without_the_switch_or_a_weapon():
    g = duel({"weapons": [RIFLE]}, gap=8.0, options={"fast_draw": True})
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[4, 4])
    assert not g.state.pending and g.state.models["r"].removed
