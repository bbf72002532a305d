"""A move's check and its apply agree (SWOMP-I-PATH): the check asks the physics service
for the same swept move that apply makes, so what is allowed goes the whole way and what
would stop short is refused with what is in the way."""

from engine.actions import Move
from engine.testing import apply, events_of

from .helpers import make


def _pair():
    return make(
        [
            {"id": "cap", "side": "blue", "profile": "marine_captain", "x": 36.0, "y": 5.0},
            {"id": "ml", "side": "blue", "profile": "space_marine", "x": 36.0, "y": 9.0},
            {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0},
        ]
    )


def test_a_move_through_a_friend_is_refused_naming_it():
    """MR 4, Move only 8": 5" north meets ml's 1" base after 3.0" (centres 4" apart, less
    the two 0.5" radii): refused, and nothing moves."""
    g = _pair()
    ev = apply(g, Move(actor="cap", to=(36.0, 10.0)))
    assert events_of(ev, "refused")
    assert 'cap\'s path meets ml after 3.0" of 5.0"' in ev[0].text
    assert g.state.models["cap"].pos == (36.0, 5.0)


def test_a_move_round_the_friend_goes_the_whole_way():
    """North by way of (37.2, 6), passing ml 1.2" centre to centre (0.2" clear): 1.56"
    + 4.0" = 5.56", within 8", and the captain ends exactly at (37.2, 10)."""
    g = _pair()
    ev = apply(g, Move(actor="cap", path=[(36.0, 5.0), (37.2, 6.0), (37.2, 10.0)]))
    assert not events_of(ev, "refused")
    assert g.state.models["cap"].pos == (37.2, 10.0)


def test_a_move_ending_touching_a_friend_is_allowed():
    """To (36, 8): the bases touch (centres 1" apart); the physics stop is 8.0 or 8.01,
    within the 0.05" slack, so the move is allowed and ends in contact."""
    g = _pair()
    ev = apply(g, Move(actor="cap", to=(36.0, 8.0)))
    assert not events_of(ev, "refused")
    assert abs(g.state.models["cap"].y - 8.0) <= 0.011


def test_a_move_into_a_wall_is_refused():
    """A wall across x 40..41: a move east from x 36 to 44 meets it after 3.5"."""
    g = make(
        [
            {"id": "cap", "side": "blue", "profile": "marine_captain", "x": 36.0, "y": 20.0},
            {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0},
        ],
        terrain=(("wall", [(40.0, 10.0), (41.0, 10.0), (41.0, 30.0), (40.0, 30.0)]),),
    )
    ev = apply(g, Move(actor="cap", to=(44.0, 20.0)))
    assert events_of(ev, "refused") and 'meets t0 after 3.5"' in ev[0].text


def test_only_a_location_the_shooter_sights_may_be_called():
    """SWOMP "Called shots": "only areas that can be sighted by the shooter can be hit
    this way" (SWOMP-I-CALLED, audit defect 15): a rhino's crew rides inside and cannot be
    called; a mortar firing on a spotter's sight may shoot the rhino but call nothing."""
    from engine.actions import Shoot

    mortar = {"id": "m", "side": "blue", "x": 10.0, "y": 24.0, "weapons": ["mortar"]}
    mortar["stats"] = {"MR": 4, "SR": 7, "DR": 4, "CR": 4, "PR": 4, "HP": 1}
    spot = {"id": "s", "side": "blue", "profile": "space_marine", "x": 20.0, "y": 30.0}
    rhino = {"id": "t", "side": "red", "profile": "rhino", "x": 30.0, "y": 24.0, "facing": 90.0}
    house = ("building", [(18.0, 20.0), (22.0, 20.0), (22.0, 28.0), (18.0, 28.0)])
    g = make([mortar, spot, rhino], terrain=(house,))
    assert g.check(Shoot(actor="m", target="t", weapon="mortar")).ok
    why = g.check(Shoot(actor="m", target="t", weapon="mortar", options={"location": "body"}))
    assert "m cannot see t itself" in why.reason
    g = make([{**spot, "x": 10.0, "y": 24.0, "profile": "marine_lascannon"}, rhino])
    why = g.check(Shoot(actor="s", target="t", weapon="lascannon", options={"location": "crew"}))
    assert "crew rides inside" in why.reason
    assert g.check(
        Shoot(actor="s", target="t", weapon="lascannon", options={"location": "body"})
    ).ok
