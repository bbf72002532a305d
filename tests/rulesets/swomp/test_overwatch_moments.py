"""Overwatch at any moment of an enemy's action (SWOMP "Shooting: Overwatch": "The
overwatching unit may then shoot at any time up until its next turn";
SWOMP-I-OVERWATCH-MOMENTS), with forced dice. Before this, fire was offered only where
an enemy move ended: a run through the arc that ends behind a wall, or a model that
shoots without moving, was never offered to the watcher (audit swomp.md, defect 1)."""

from engine.actions import Choose, Move, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.chapters import core, reactions

from .helpers import make

WALL = (("wall", [[22.0, 30.0], [28.0, 30.0], [28.0, 31.0], [22.0, 31.0]]),)
RUN = [(40.0, 33.0), (32.0, 26.0), (25.5, 28.5)]


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def passby():
    """The audit's overwatch_passby: a hormagaunt runs 17.6" through the open, inside a
    marine's 90-degree boltgun arc, and ends behind a wall."""
    g = make(
        [
            m("g", "blue", 40.0, 33.0, "hormagaunt", facing=180.0),
            m("ow", "red", 25.0, 40.0, facing=270.0, state={"overwatch": True}),
        ],
        terrain=WALL,
    )
    ev = apply(g, Move(actor="g", path=RUN))
    return g, ev


def test_overwatch_fires_where_a_move_enters_the_arc():
    """The move stops at the first point of its way where the watcher may fire (its
    base enters the arc, in range and in sight); red decides there, and the shot counts
    the runner's whole 17.6" move for its movement bonus (+1)."""
    g, ev = passby()
    moves = events_of(ev, "move")
    assert [e.text for e in moves] == ['g moves 5.2" to (36.05, 29.54)']
    assert g.to_act() == "red" and reactions.owed(g.state)["data"] == {
        "watchers": ["ow"],
        "targets": ["g"],
    }
    ev = apply(g, Shoot(actor="ow", target="g", weapon="boltgun"), [8, 3])
    res = events_of(ev, "resolution")[0].text
    assert "PR 4 + WR 2 + overwatch 1 + 8 = 15 beats DR 3 + moving 1 + 3 = 7" in res
    assert g.state.models["g"].removed


def test_a_pass_lets_the_move_run_on_to_its_end():
    """Passing, the hormagaunt finishes its one move behind the wall (5.2" + 12.3" =
    17.59" in all, one move), where the marine cannot see it: no second offer; the marine watches on."""
    g, _ = passby()
    ev = apply(g, Choose(option="pass"))
    gaunt = g.state.models["g"]
    assert gaunt.pos == (25.5, 28.5)
    assert [e.text for e in events_of(ev, "move")] == ['g moves 12.3" to (25.50, 28.50)']
    assert core.act(gaunt)["moves"] == 1 and core.act(gaunt)["moved"] == 17.59
    assert not g.state.pending and g.to_act() == "blue"
    assert g.state.models["ow"].vars.get("overwatch")


def stationary():
    """The audit's overwatch_stationary: a marine in the watcher's arc shoots at it
    without moving."""
    return make(
        [
            m("s", "blue", 25.0, 20.0, facing=90.0),
            m("ow", "red", 25.0, 40.0, facing=270.0, state={"overwatch": True}),
        ]
    )


def test_overwatch_fires_at_a_model_that_never_moves():
    """The shooter stands in the arc as its action begins: the watcher may fire first,
    and a kill leaves the shot unfired."""
    g = stationary()
    ev = apply(g, Shoot(actor="s", target="ow", weapon="boltgun"))
    assert not events_of(ev, "resolution") and g.to_act() == "red"
    ev = apply(g, Shoot(actor="ow", target="s", weapon="boltgun"), [9, 2])
    res = events_of(ev, "resolution")
    assert len(res) == 1 and "overwatch 1 + 9 = 16 beats DR 4 + armour 4 + 2 = 10" in res[0].text
    assert g.state.models["s"].removed and g.state.models["ow"].hp == 1


def test_the_action_waits_on_the_answer_and_then_goes_on():
    """Red passes: the shot blue declared is fired as it was declared."""
    g = stationary()
    apply(g, Shoot(actor="s", target="ow", weapon="boltgun"))
    ev = apply(g, Choose(option="pass"), [9, 2])
    res = events_of(ev, "resolution")
    assert len(res) == 1 and res[0].text.startswith("s shoots ow with boltgun")
    assert g.state.models["ow"].removed
