"""Overwatch at any point of a charge, a retreat or a vehicle's drive, and friends in
contact joining a charge's round, with forced dice (SWOMP "Shooting: Overwatch": "The
overwatching unit may then shoot at any time up until its next turn"; SWOMP "Multiple
attackers": "only one contest is required"; SWOMP-I-OVERWATCH-MOMENTS,
SWOMP-I-MULTI-UNITS). Before this, charges, retreats and drives were offered to a
watcher only where they ended, and a charge's immediate round left out the friends
already fighting its defender (issue 26)."""

from engine.actions import Charge, Choose, EndActivation, Move, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.actions import Retreat
from rulesets.swomp.chapters import core, melee, reactions

from .helpers import attack, make

WALL = (("wall", [[22.0, 30.0], [28.0, 30.0], [28.0, 31.0], [22.0, 31.0]]),)


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def charge_past_the_watcher():
    """A hormagaunt charges a termagant behind a wall, by way of (32, 26): its way
    crosses the open ground inside a watching marine's arc, its end is out of his sight."""
    g = make(
        [
            m("g", "blue", 40.0, 33.0, "hormagaunt", facing=180.0),
            m("t", "red", 24.0, 27.0, "termagant"),
            m("ow", "red", 25.0, 40.0, facing=270.0, state={"overwatch": True}),
        ],
        terrain=WALL,
    )
    ev = apply(g, Charge(actor="g", target="t", path=((32.0, 26.0),)))
    return g, ev


def test_a_charge_is_fired_at_where_it_enters_the_arc():
    """The charge stops 5.2" along its way, where the marine may first fire; a kill there
    ends the charge: no contact, no close combat."""
    g, ev = charge_past_the_watcher()
    assert [e.text for e in events_of(ev, "move")] == ['g charges 5.2" toward t, to (36.05, 29.54)']
    assert reactions.owed(g.state)["data"] == {"watchers": ["ow"], "targets": ["g"]}
    ev = apply(g, Shoot(actor="ow", target="g", weapon="boltgun"), [8, 3])
    res = [e.text for e in events_of(ev, "resolution")]
    assert len(res) == 1 and "overwatch 1 + 8 = 15 beats DR 3 + moving 1 + 3 = 7" in res[0]
    assert g.state.models["g"].removed and not core.engaged(g.state.models["t"])


def test_a_charge_that_survives_runs_on_into_contact():
    """A miss: the charge goes on from where it was cut, into base contact, as one move
    of 17.7" (its movement bonus counted the whole charge, +1), and the defender is asked
    whether it retreats before the immediate round."""
    g, _ = charge_past_the_watcher()
    ev = apply(g, Shoot(actor="ow", target="g", weapon="boltgun"), [2, 9])
    assert "DR 3 + moving 1 + 9 = 13" in events_of(ev, "resolution")[0].text
    assert [e.text for e in events_of(ev, "move")] == ["g charges into base contact with t"]
    gaunt = g.state.models["g"]
    assert core.engaged(gaunt) and core.act(gaunt)["moves"] == 1
    assert core.act(gaunt)["moved"] == 17.7
    assert reactions.kind(reactions.owed(g.state)) == "retreat"


def test_a_retreat_is_fired_at_as_it_breaks_away():
    """A marine that gets away from a hormagaunt falls back 2" behind a wall. He was
    locked in combat (no target) until he broke free; from then on the watcher may fire,
    so he is offered where he stands before he moves, though his end is out of sight."""
    g = make(
        [
            m("b", "blue", 25.0, 28.0, facing=270.0),
            m("h", "red", 25.0, 24.0, "hormagaunt", facing=90.0),
            m("ow", "red", 25.0, 40.0, facing=270.0, state={"overwatch": True}),
        ],
        terrain=(("wall", [[26.0, 30.0], [32.0, 30.0], [32.0, 31.0], [26.0, 31.0]]),),
        first="red",
    )
    apply(g, Charge(actor="h", target="b"))
    ev = apply(g, Retreat(actor="b", to=(27.0, 28.0)), [9, 1])
    assert "gets away" in events_of(ev, "resolution")[0].text
    assert not events_of(ev, "move") and g.state.models["b"].pos == (25.0, 28.0)
    assert reactions.owed(g.state)["data"] == {"watchers": ["ow"], "targets": ["b"]}
    ev = apply(g, Choose(option="pass"))
    assert [e.text for e in events_of(ev, "move")] == ['b falls back 2.0" to (27.00, 28.00)']
    assert not g.state.pending and g.to_act() == "red"


def drive_across_the_arc():
    """A rhino at 7" drives 14" east along y = 24: its way crosses a marine's arc and
    range; it starts and ends outside them."""
    g = make(
        [
            m("rh", "blue", 20.0, 24.0, "rhino", state={"speed": 7}),
            m("ow", "red", 45.0, 40.0, facing=180.0, state={"overwatch": True}),
        ]
    )
    ev = apply(g, Move(actor="rh", to=(34.0, 24.0)))
    return g, ev


def test_a_drive_is_fired_at_on_its_way():
    """The drive stops 3.5" along, where the rhino first comes within 24" of the
    boltgun; the shot counts its speed (14": +1) and the drive then goes on to its end."""
    g, ev = drive_across_the_arc()
    assert [e.text for e in events_of(ev, "move")] == [
        'rh moves at 14": 3.5" of its way, to (23.50, 24.00)'
    ]
    assert reactions.owed(g.state)["data"] == {"watchers": ["ow"], "targets": ["rh"]}
    ev = apply(g, Shoot(actor="ow", target="rh", weapon="boltgun"), [9, 1, 5])
    assert 'at 23.9": PR 4 + WR 2 + overwatch 1 + 9 = 16 beats DR 9 + moving 1 + 1 = 11' in (
        events_of(ev, "resolution")[0].text
    )
    assert [e.text for e in events_of(ev, "move")] == ['rh moves at 14" to (34.00, 24.00)']
    assert g.state.models["rh"].pos == (34.0, 24.0) and not g.state.pending


def test_a_pass_lets_the_drive_finish_where_it_would_have():
    g, _ = drive_across_the_arc()
    apply(g, Choose(option="pass"))
    rh = g.state.models["rh"]
    assert (rh.pos, rh.facing, rh.vars["speed"]) == ((34.0, 24.0), 0.0, 14.0)
    assert g.to_act() == "blue" and not g.state.pending


def test_friends_in_contact_join_the_charges_round():
    """b1 is fighting a termagant; b2, of another unit, charges it. The immediate round
    is one contest: b2's CR 4 + charging 1, plus half of b1's CR 4 (no charge bonus for
    b1, already there) = 7, + 6 = 13 against DR 3 + 5 = 8: won by 5, 2 HP. Alone, b2
    would have rolled 11 against 8. b1 has now fought this round."""
    g = make(
        [
            m("b1", "blue", 20.0, 20.0),
            m("b2", "blue", 26.0, 24.0),
            m("t", "red", 20.0, 24.0, "termagant", stats={"HP": 3}),
        ],
        first="red",
    )
    attack(g, Charge(actor="t", target="b1"), [2, 9])
    apply(g, EndActivation())
    ev = attack(g, Charge(actor="b2", target="t"), [6, 5])
    res = events_of(ev, "resolution")
    assert len(res) == 1
    assert res[0].text.startswith(
        "b2, b1 charge t: CR 4 + charging 1 + half of b1 2 + 6 = 13 beats DR 3 + 5 = 8"
    )
    assert res[0].data["damage"] == 2 and g.state.models["t"].hp == 1
    assert melee.fought_this_round(g.state, g.state.models["b1"])
