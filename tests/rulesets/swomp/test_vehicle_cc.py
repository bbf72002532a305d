"""Close combat against vehicles: the location the attacker picks, the exposed crewman
fought first, the turret gunner jumping out (SWOMP "Close combat with vehicles",
"Exposed crewmen/riders"), with forced dice."""

from engine.actions import Choose, EndActivation, Fight, Move, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.actions import SwompCharge
from rulesets.swomp.chapters import core, reactions, vehicle_cc

from .helpers import make


def marine(mid="a", x=10.0, y=24.0, **kw):
    return {"id": mid, "side": "blue", "profile": "space_marine", "x": x, "y": y, **kw}


def vehicle(profile, mid="v", x=13.5, y=24.0, **kw):
    return {"id": mid, "side": "red", "profile": profile, "x": x, "y": y, "facing": 90.0, **kw}


def test_attacker_picks_the_location():
    """SWOMP "Close combat with vehicles": the attacker must pick a location to attack;
    a win damages that location by the weapon's damage."""
    g = make([marine(), vehicle("rhino")])
    ev = apply(g, SwompCharge(actor="a", target="v", options={"location": "tracks"}), [5, 5])
    res = events_of(ev, "resolution")[0]
    assert "tracks" in res.text and res.outcome == "hit"
    assert g.state.models["v"].vars["loc"]["tracks"] == 2


def test_fight_names_a_location_and_unknown_options_are_refused():
    """SWOMP "Close combat with vehicles": an option of the fight; only a vehicle has one."""
    g = make([marine(), vehicle("rhino", x=11.9)])
    assert (
        "no location 'wheels'"
        in g.check(Fight(actor="a", target="v", options={"location": "wheels"})).reason
    )
    assert (
        "unknown close combat option"
        in g.check(Fight(actor="a", target="v", options={"where": "body"})).reason
    )
    ev = apply(g, Fight(actor="a", target="v", options={"location": "crew"}), [9, 2])
    assert "v's crew" in events_of(ev, "resolution")[0].text
    assert g.state.models["v"].vars["loc"]["crew"] == 2


def test_location_must_be_within_reach():
    """SWOMP "Close combat with vehicles": the location must be one the model can reach;
    a man on foot cannot reach a hovering gravtank's turret (SWOMP-I-VEH-CC)."""
    g = make([marine(), vehicle("eldar_light_gravtank", x=14.0)])
    why = g.check(SwompCharge(actor="a", target="v", options={"location": "turret"})).reason
    assert "cannot reach v's turret" in why
    g.state.models["a"].vars["size"] = "large"
    assert g.check(SwompCharge(actor="a", target="v", options={"location": "turret"})).ok


def test_exposed_rider_must_be_fought_first():
    """SWOMP "Exposed crewmen/riders": the attacker must engage the crewman before he
    can attack another location; the rider defends with his own DR, armour and field
    plus the vehicle's speed."""
    g = make([marine(), vehicle("eldar_jetbike", x=12.5, state={"speed": 2})])
    why = g.check(SwompCharge(actor="a", target="v", options={"location": "engine"})).reason
    assert "exposed crew must be fought first" in why
    ev = apply(g, SwompCharge(actor="a", target="v", options={"location": "crew"}), [9, 2])
    res = events_of(ev, "resolution")[0]
    assert "crew DR 3 + armour 1 + speed 2 + 2 = 8" in res.text
    assert g.state.models["v"].vars["loc"]["crew"] == 0
    # the rider is down: the rest of the bike is open
    assert vehicle_cc.location_problem(g.state.models["a"], g.state.models["v"], "engine") == ""


def razorback_fight(first="blue"):
    return make([marine(), vehicle("razorback", x=13.5)], first=first)


def test_gunner_cannot_defend_the_tracks_so_they_may_be_attacked():
    """SWOMP "Exposed crewmen/riders": the exception: a Razorback turret gunner cannot
    defend the tracks; the turret and hull he can, so those wait until he is fought."""
    g = razorback_fight()
    a, v = g.state.models["a"], g.state.models["v"]
    assert "gunner must be fought first" in vehicle_cc.location_problem(a, v, "turret")
    assert vehicle_cc.location_problem(a, v, "tracks") == ""


def test_gunner_stays_and_the_tracks_take_the_blow():
    """SWOMP "Exposed crewmen/riders": the vehicle's side is asked whether the gunner
    jumps out; staying in, the attack on the tracks goes on."""
    g = razorback_fight()
    apply(g, SwompCharge(actor="a", target="v", options={"location": "tracks"}))
    p = reactions.owed(g.state)
    assert p["kind"] == "jump" and p["data"]["gunner"] == "gunner" and g.to_act() == "red"
    ev = apply(g, Choose(option="stay"), [5, 5])
    assert "v's tracks" in events_of(ev, "resolution")[0].text
    assert g.state.models["v"].vars["loc"]["tracks"] == 2


def test_gunner_jumps_out_and_the_turret_falls_silent():
    """SWOMP "Exposed crewmen/riders": if he jumps out, a model for the gunner is placed
    on the ground and the turret cannot fire until a gunner takes his place; the attack
    now falls on him."""
    g = razorback_fight()
    apply(g, SwompCharge(actor="a", target="v", options={"location": "tracks"}))
    ev = apply(g, Choose(option="jump_out"), [5, 5])
    gun = g.state.models["v_gunner"]
    v = g.state.models["v"]
    assert not gun.removed and gun.side == "red" and core.engaged(gun)
    assert gun.vars["foes"] == ["a"] and gun.hp == 1
    res = events_of(ev, "resolution")[0]
    assert res.target == "v_gunner" and res.rule == "SWOMP-VEH-CREW"
    assert "DR 4 + armour 4" in res.text
    assert v.vars["loc"]["tracks"] == 3 and v.vars["loc"]["gunner"] == 0
    assert "gunner_out" in v.status
    apply(g, EndActivation())
    why = g.check(Shoot(actor="v", target="a", weapon="heavy bolter")).reason
    assert "turret gunner is out" in why


def test_gunner_climbs_back_and_the_turret_fires_again():
    """SWOMP "Exposed crewmen/riders": until a gunner takes his place (SWOMP-I-VEH-CC:
    the gunner himself, back in base contact with his vehicle and out of combat)."""
    g = razorback_fight()
    apply(g, SwompCharge(actor="a", target="v", options={"location": "tracks"}))
    apply(g, Choose(option="jump_out"), [9, 2])
    # CR 4 + charging 1 + 9 = 14 beats DR 4 + AR 4 + 2 = 10: his 1 HP is gone
    assert g.state.models["v_gunner"].removed
    g2 = razorback_fight()
    apply(g2, SwompCharge(actor="a", target="v", options={"location": "tracks"}))
    apply(g2, Choose(option="jump_out"), [2, 9])
    gun = g2.state.models["v_gunner"]
    a = g2.state.models["a"]
    core.disengage(a, gun)  # as if the marine had retreated...
    a.y += 6.0  # ...and gone (his base no longer stands in the gunner's path)
    apply(g2, EndActivation())
    v = g2.state.models["v"]
    apply(g2, Move(actor="v_gunner", to=(v.x - 1.9, v.y)))
    assert gun.removed and gun.vars.get("aboard")
    assert v.vars["loc"]["gunner"] == 1 and "gunner_out" not in v.status
    assert vehicle_cc.turret_silent(v, v.weapons[0]) == ""
