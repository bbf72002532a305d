"""``movement_save`` as an agility test (GM-MOVEMENT-SAVE, GM-I-AGILITY) and the ledge
falls of ``frozen_pinned`` and of downed models (GM-FROZEN-PINNED, GM-LEDGE, GM-I-LEDGE),
forced dice through the game."""

from __future__ import annotations

from engine.actions import Charge, Fight, Move, Shoot
from engine.battlefield import TerrainFeature
from engine.testing import apply
from tests.rulesets.gemini.helpers import RIFLE, duel, to_phase

RUBBLE = TerrainFeature(id="rubble", kind="rubble",
                        polygon=((10.0, 14.0), (30.0, 14.0), (30.0, 16.0), (10.0, 16.0)))  # fmt: skip
HILL = TerrainFeature(id="tower", kind="hill", height=3.0,
                      polygon=((15.0, 15.0), (25.0, 15.0), (25.0, 25.0), (15.0, 25.0)))  # fmt: skip
CANNON = {"name": "lascannon", "range": 36, "S": 9, "class": "heavy"}


def test_running_through_rubble_agility_failed_falls_at_its_edge():
    """I 3: a 5 fails; the run stops where it enters the rubble (y 14)."""
    g = duel(gap=30.0, terrain=[RUBBLE], options={"movement_save": True, "running": "double"})
    apply(g, Move(actor="b", to=(20.0, 16.0), mode="run"), dice=[5])
    b = g.state.models["b"]
    assert abs(b.y - 14.0) < 0.06 and b.vars["fell"] == g.state.turn


def test_running_through_rubble_agility_passed_goes_on():
    g = duel(gap=30.0, terrain=[RUBBLE], options={"movement_save": True, "running": "double"})
    apply(g, Move(actor="b", to=(20.0, 16.0), mode="run"), dice=[3])
    assert g.state.models["b"].pos == (20.0, 16.0)


def test_walking_needs_no_agility_and_no_switch_no_test():
    g = duel(gap=30.0, terrain=[RUBBLE], options={"movement_save": True})
    ev = apply(g, Move(actor="b", to=(20.0, 12.5)))
    assert not [e for e in ev if "movement save" in e.text]
    g = duel(gap=30.0, terrain=[RUBBLE], options={"running": "double"})
    ev = apply(g, Move(actor="b", to=(20.0, 16.0), mode="run"))
    assert g.state.models["b"].pos == (20.0, 16.0)


def test_charge_across_rubble_fallen_charger_does_not_strike():
    """A charge is fast: across the rubble a 6 fails the agility; no contact, no blows."""
    g = duel(gap=6.5, terrain=[RUBBLE], options={"movement_save": True})
    apply(g, Charge(actor="b", target="r"), dice=[6])
    b = g.state.models["b"]
    assert abs(b.y - 14.0) < 0.06 and b.vars.get("charged") is None
    to_phase(g, "close_combat")
    assert not g.check(Fight(actor="b", target="r")).ok


def test_heavy_hit_near_a_ledge_failed_initiative_falls_off():
    """Red stands 0.5" inside the tower's edge (y 24.5); an S9 hit (4+, 2+ to wound, a
    1 is no wound: unhurt; the pin test 3, 3 passes), then the I test 5 fails: it lands below the ledge."""
    g = duel({"weapons": [CANNON]}, {"stats": {"W": 3}}, gap=14.5, terrain=[HILL],
             options={"frozen_pinned": True})  # fmt: skip
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 1, 3, 3, 5], exact=False)
    r = g.state.models["r"]
    assert r.y > 25.0 and [e for e in ev if "falls off the ledge" in e.text]


def test_heavy_hit_near_a_ledge_passed_initiative_stays():
    g = duel({"weapons": [CANNON]}, {"stats": {"W": 3}}, gap=14.5, terrain=[HILL],
             options={"frozen_pinned": True})  # fmt: skip
    to_phase(g, "shooting")
    apply(g, Shoot(actor="b", target="r"), dice=[4, 1, 3, 3, 2], exact=False)
    assert g.state.models["r"].y == 24.5


def test_light_weapon_no_ledge_test():
    g = duel({"weapons": [RIFLE]}, {"stats": {"W": 3}}, gap=14.5, terrain=[HILL],
             options={"frozen_pinned": True})  # fmt: skip
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=[4, 1, 3, 3], exact=False)
    assert not [e for e in ev if "ledge" in e.text]


def _downed(gap: float, dice: list[int], **opts):
    """Blue shoots red (W 1) on the tower with a rifle: it hits (5+ beyond half range at
    13", 4+ at 12"), 4 wounds (S3 against T3), no save; the wound chart's 3 is Down
    (GM-WOUND-CHART); then the ledge test."""
    g = duel({"weapons": [RIFLE]}, gap=gap, terrain=[HILL],
             options={"injuries": "wound_chart", **opts})  # fmt: skip
    to_phase(g, "shooting")
    ev = apply(g, Shoot(actor="b", target="r"), dice=dice, exact=False)
    return g, g.state.models["r"], ev


def test_downed_within_two_inches_of_a_ledge_failed_initiative_falls_down():
    """GM-LEDGE (GM-I-LEDGE): red goes Down 1.5" from the tower's edge (y 23, base edge
    24.5); I 3, a 4 fails: it lands below the ledge, still Down, with no hit for the fall."""
    g, r, ev = _downed(13.0, [5, 4, 3, 4])
    assert r.y > 25.0 and "down" in r.status and not r.removed
    assert [e for e in ev if "falls off the ledge, down at its foot" in e.text]
    assert not [e for e in ev if e.rule == "GM-I-LEDGE"]


def test_downed_near_a_ledge_passed_initiative_stays_on_top():
    g, r, ev = _downed(13.0, [5, 4, 3, 3])
    assert r.y == 23.0 and "down" in r.status
    assert [e for e in ev if e.rule == "GM-LEDGE"]


def test_downed_beyond_two_inches_of_the_ledge_takes_no_test():
    """At y 22 the base's edge is 2.5" from the ledge: no test, no roll asked."""
    g, r, ev = _downed(12.0, [4, 4, 3])
    assert r.y == 22.0 and "down" in r.status
    assert not [e for e in ev if e.rule == "GM-LEDGE"]


def test_knocked_down_on_the_gasr_table_tests_too():
    """GM-GASR-WOUNDS: a Knocked Down result near a ledge calls the same test."""
    from rulesets.gemini.chapters.options import ledges

    g = duel(gap=13.0, terrain=[HILL], options={"injuries": "gasr_table"})
    r = g.state.models["r"]
    r.status.append("knocked_down")
    assert ledges.downed_fall(g.state, g.ctx, r, {"knocked_down"}) is False  # not new
    g.dice.force([5])
    assert ledges.downed_fall(g.state, g.ctx, r, set()) is True
    assert r.y > 25.0 and r.status == ["knocked_down"]
