"""Shooting rules with forced dice; each test names the SWOMP section it checks."""

from engine.actions import EndActivation, Move, Shoot
from engine.ruleset import OUT_OF_ARC
from engine.testing import apply, events_of
from rulesets.swomp import rules

from .helpers import make

MARINE = {"id": "m", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0}


def target(mid="e", x=30.0, y=24.0, **kw):
    return {
        "id": mid,
        "side": "red",
        "profile": "eldar_guardian",
        "x": x,
        "y": y,
        "facing": 180.0,
        "stats": {"HP": 3},
        **kw,
    }


def test_range_is_measured_only_after_the_shot_is_declared():
    """SWOMP "Weapon range" / SWOMP-I-RANGE: the shot is legal, then misses automatically."""
    g = make([MARINE, target(x=40.0)])
    shot = Shoot(actor="m", target="e", weapon="boltgun")
    assert g.check(shot).ok
    ev = apply(g, shot, [])
    res = events_of(ev, "resolution")[0]
    assert res.outcome == "out of range" and res.rule == "SWOMP-RANGE"
    assert not g.check(Shoot(actor="m", target="e", weapon="boltgun")).ok  # shot spent


def test_fire_arc_in_degrees():
    """SWOMP "Fire Arcs": the lascannon's 20 degree wedge."""
    g = make([{**MARINE, "profile": "marine_lascannon"}, target(x=30.0, y=30.0)])
    why = g.check(Shoot(actor="m", target="e", weapon="lascannon"))
    assert not why.ok and "20\u00b0 fire arc" in why.reason
    assert why.find(OUT_OF_ARC).data == {"arc": 20.0}
    g2 = make([{**MARINE, "profile": "marine_lascannon"}, target(x=30.0, y=26.0)])
    assert g2.check(Shoot(actor="m", target="e", weapon="lascannon")).ok


def test_closest_target_of_each_size():
    """SWOMP "Targeting": the closest medium target, unless the closer one is harder."""
    g = make(
        [
            MARINE,
            target("near", x=20.0),
            target("far", x=26.0, y=25.0),
            {"id": "tank", "side": "red", "profile": "rhino", "x": 40.0, "y": 24.0},
        ]
    )
    assert g.check(Shoot(actor="m", target="near", weapon="boltgun")).ok
    why = g.check(Shoot(actor="m", target="far", weapon="boltgun"))
    assert not why.ok and "not the closest medium target" in why.reason
    assert g.check(Shoot(actor="m", target="tank", weapon="boltgun")).ok  # other size class
    g2 = make(
        [MARINE, target("near", x=20.0, state={"cover": "soft"}), target("far", x=26.0, y=25.0)]
    )
    assert g2.check(Shoot(actor="m", target="far", weapon="boltgun")).ok  # may pass over cover
    g3 = make([MARINE, target("near", x=20.0, state={"moved": 10}), target("far", x=26.0, y=25.0)])
    assert g3.check(Shoot(actor="m", target="far", weapon="boltgun")).ok  # or a faster one


def test_standing_still_gives_plus_one_and_pins_the_shooter():
    """SWOMP "Shoot only" / SWOMP-I-STAND: +1 PR, then no move this action."""
    g = make([MARINE, target()])
    ev = apply(g, Shoot(actor="m", target="e", weapon="boltgun"), [5, 5])
    assert "PR 4 + WR 2 + standing still 1 + 5 = 12" in events_of(ev, "resolution")[0].text
    why = g.check(Move(actor="m", to=(12.0, 24.0)))
    assert not why.ok and "stood still" in why.reason


def test_shoot_then_move_has_no_bonus_and_moves_mr():
    """SWOMP "Shoot and Move": fire, then up to MR."""
    g = make([MARINE, target()])
    ev = apply(
        g, Shoot(actor="m", target="e", weapon="boltgun", options={"then_move": True}), [5, 5]
    )
    assert "standing still" not in events_of(ev, "resolution")[0].text
    assert not g.check(Move(actor="m", to=(14.5, 24.0))).ok
    assert g.check(Move(actor="m", to=(14.0, 24.0))).ok


def test_move_only_doubles_mr_and_forbids_shooting():
    """SWOMP "Move only": twice MR without shooting; more than MR and no shot after."""
    g = make([MARINE, target(x=40.0)])
    assert not g.check(Move(actor="m", to=(18.5, 24.0))).ok
    apply(g, Move(actor="m", to=(16.0, 24.0)))
    assert g.state.models["m"].vars["moved"] == 6.0
    why = g.check(Shoot(actor="m", target="e", weapon="boltgun"))
    assert not why.ok and 'more than the 4"' in why.reason


def test_heavy_weapons_move_half_when_shooting():
    """SWOMP "Move and Shoot": heavy weapons half MR; Move only: MR (SWOMP-HEAVY)."""
    g = make([{**MARINE, "profile": "marine_missile"}, target()])
    assert not g.check(Move(actor="m", to=(14.5, 24.0))).ok  # 1 x MR without shooting
    apply(g, Move(actor="m", to=(12.5, 24.0)))
    why = g.check(Shoot(actor="m", target="e", weapon="krak missile"))
    assert not why.ok and '2"' in why.reason


def test_movement_bonus_lasts_until_the_next_action():
    """SWOMP "Movement bonus": 12" moved gives +1 DR until the model acts again."""
    g = make(
        [
            {
                **MARINE,
                "side": "red",
                "id": "runner",
                "profile": "hormagaunt",
                "x": 40.0,
                "y": 24.0,
                "facing": 180.0,
            },
            {**MARINE, "x": 10.0, "y": 24.0},
        ],
        first="red",
    )
    apply(g, Move(actor="runner", to=(28.0, 24.0)))
    apply(g, EndActivation())
    ev = apply(g, Shoot(actor="m", target="runner", weapon="boltgun"), [5, 5])
    assert "moving 1" in events_of(ev, "resolution")[0].text


def test_two_pistols_at_minus_one_each_but_not_two_handed_weapons():
    """SWOMP "A single model firing multiple weapons"."""
    two = {**MARINE, "weapons": ["bolt pistol", "plasma pistol"]}
    g = make([two, target(x=18.0)])
    ev = apply(
        g,
        Shoot(actor="m", target="e", weapon="bolt pistol", options={"second": "plasma pistol"}),
        [5, 5, 5, 5],
    )
    texts = [e.text for e in events_of(ev, "resolution")]
    assert len(texts) == 2 and all("two weapons 1" in t for t in texts)
    g2 = make([{**MARINE, "weapons": ["boltgun", "bolt pistol"]}, target(x=18.0)])
    why = g2.check(
        Shoot(actor="m", target="e", weapon="boltgun", options={"second": "bolt pistol"})
    )
    assert not why.ok and "both hands" in why.reason


def test_sustained_fire_one_contest_per_shot_and_jams_on_a_one():
    """SWOMP "Sustained-fire Weapons" and "Jams": the assault cannon jams on 4; a rolled 1
    calls for a jam roll, and every shot still takes effect."""
    g = make([{**MARINE, "profile": "terminator"}, target(x=20.0)])
    ev = apply(
        g,
        Shoot(actor="m", target="e", weapon="assault cannon"),
        [1, 5, 4, 2, 9, 2, 9, 2, 9, 2],
        exact=False,
    )
    res = [e for e in events_of(ev, "resolution") if e.rule == "SWOMP-SHOOT"]
    assert len(res) >= 2
    jam = [e for e in events_of(ev, "resolution") if e.rule == "SWOMP-JAM"][0]
    assert jam.outcome == "jammed" and jam.rolls == [4]
    assert "assault cannon" in g.state.models["m"].vars["jammed"]


def test_spread_fire_shares_shots_between_targets():
    """SWOMP-I-SUSTAINED: spread sends the shots to each named target in turn."""
    g = make(
        [
            {**MARINE, "profile": "terminator"},
            target("a", x=20.0, y=24.0),
            target("b", x=20.0, y=26.0),
        ]
    )
    ev = apply(
        g,
        Shoot(
            actor="m",
            target="a",
            weapon="assault cannon",
            options={"fire": "spread", "targets": ["b"]},
        ),
        [2, 9] * 4,
    )
    assert [e.target for e in events_of(ev, "resolution")] == ["a", "b", "a", "b"]


def test_linked_battery_jams_as_one():
    """SWOMP "Linked Weapons": one weapon jams, the battery jams."""
    g = make(
        [
            {
                **MARINE,
                "weapons": [
                    {"name": "left", "WR": 2, "range": 24, "shots": 2, "jam": 5, "link": "twin"},
                    {"name": "right", "WR": 2, "range": 24, "shots": 2, "jam": 5, "link": "twin"},
                ],
            },
            target(x=20.0),
        ]
    )
    apply(g, Shoot(actor="m", target="e", weapon="left"), [1, 5, 3, 2, 9, 2, 9, 2, 9])
    assert g.state.models["m"].vars["jammed"] == ["left", "right"]


def test_called_shot_minus_four_on_a_chosen_location():
    """SWOMP "Called shots": -4 PR, and the location is not rolled."""
    g = make(
        [
            {**MARINE, "profile": "marine_lascannon"},
            {"id": "t", "side": "red", "profile": "rhino", "x": 30.0, "y": 24.0, "facing": 90.0},
        ]
    )
    ev = apply(
        g, Shoot(actor="m", target="t", weapon="lascannon", options={"location": "tracks"}), [9, 2]
    )
    assert "called shot 4" in events_of(ev, "resolution")[0].text
    assert g.state.models["t"].vars["loc"]["tracks"] == 0


def test_lost_blast_shot_scatters():
    """SWOMP "Scatter" / SWOMP-I-SCATTER: direction d10 then distance d10; models under the
    marker where it lands contest the Blast Rating."""
    g = make(
        [
            {**MARINE, "profile": "marine_missile"},
            target("e", x=30.0, y=24.0),
            target("f", x=34.0, y=24.0),
        ]
    )
    ev = apply(g, Shoot(actor="m", target="e", weapon="frag missile"), [2, 9, 10, 4, 5, 8])
    sc = events_of(ev, "scatter")[0]
    assert sc.rolls == [10, 4] and sc.data["centre"] == [34.0, 24.0]
    blast = [e for e in events_of(ev, "resolution") if e.rule == "SWOMP-SCATTER"]
    assert [e.target for e in blast] == ["f"] and blast[0].outcome == "miss"


def test_overwatch_interrupts_an_enemy_move():
    """SWOMP "Overwatch" / SWOMP-I-OVERWATCH: the enemy ends a move in view; the watching
    side decides to fire (+1 PR) or pass before play goes on."""
    g = make([MARINE, target(x=40.0)])
    from rulesets.swomp.actions import Overwatch

    apply(g, Overwatch(actor="m"))
    apply(g, EndActivation())
    apply(g, Move(actor="e", to=(32.0, 24.0)))
    assert g.to_act() == "blue"
    assert not g.check(Move(actor="e", to=(31.0, 24.0))).ok
    ev = apply(g, Shoot(actor="m", target="e", weapon="boltgun"), [5, 5])
    assert "overwatch 1" in events_of(ev, "resolution")[0].text
    assert g.to_act() == "red" and not g.state.models["m"].vars.get("overwatch")


def test_overwatch_pass_keeps_watching():
    g = make([MARINE, target(x=40.0)])
    from rulesets.swomp.actions import Overwatch

    apply(g, Overwatch(actor="m"))
    apply(g, EndActivation())
    apply(g, Move(actor="e", to=(35.0, 24.0)))
    adv = rules.advance(g.state, g.ctx)
    assert adv.KIND == "choose"
    apply(g, adv)
    assert g.to_act() == "red" and g.state.models["m"].vars.get("overwatch")
