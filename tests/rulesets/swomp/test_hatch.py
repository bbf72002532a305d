"""Another gunner takes his place: a model on foot beside the vehicle climbs into the
empty turret hatch as its action (SWOMP "Exposed crewmen/riders": "the turret cannot
fire unless another turret gunner takes his place"; SWOMP-I-MAN), with forced dice."""

from engine.actions import Choose, EndActivation
from engine.testing import apply, events_of
from rulesets.swomp import victory
from rulesets.swomp.actions import Man, SwompCharge
from rulesets.swomp.chapters import core, hatch, shooting, vehicle_cc, vehicles

from .helpers import make


def marine(mid="a", x=10.0, y=24.0, side="blue", **kw):
    return {"id": mid, "side": side, "profile": "space_marine", "x": x, "y": y, **kw}


def razorback(**kw):
    return {
        "id": "v",
        "side": "red",
        "profile": "razorback",
        "x": 13.5,
        "y": 24.0,
        "facing": 90.0,
        **kw,
    }


def gunner_out(extra=()):
    """The Razorback's gunner jumps out to meet a charge on the tracks and survives
    (CR 4 + 1 + 2 = 7 against DR 4 + AR 4 + 9 = 17); red's marine p stands beside it."""
    g = make([marine(), razorback(), *extra], first="blue")
    apply(g, SwompCharge(actor="a", target="v", options={"location": "tracks"}))
    apply(g, Choose(option="jump_out"), [2, 9])
    apply(g, EndActivation())
    return g


def beside():
    """Red's marine p, in base contact with the Razorback's far flank (0.03" gap)."""
    return marine("p", side="red", unit="p", x=15.4, y=24.0)


def test_another_model_takes_the_gunners_place():
    """SWOMP "Exposed crewmen/riders": the turret fires again once another gunner takes
    the place: red's marine in base contact climbs into the empty hatch as its action."""
    g = gunner_out([beside()])
    st = g.state
    v, p = st.models["v"], st.models["p"]
    assert hatch.open_hatches(v) == ["gunner"]
    assert g.check(Man(actor="p", target="v")).ok
    ev = apply(g, Man(actor="p", target="v"))
    assert p.removed and p.vars["aboard"] == "v"
    assert v.vars["loc"]["gunner"] == 1 and "gunner_out" not in v.status
    assert vehicle_cc.turret_silent(v, v.weapon("heavy bolter")) == ""
    assert events_of(ev, "move")[-1].rule == "SWOMP-VEH-CREW"
    assert victory.casualty_points(st, "blue") == 0  # aboard is not a casualty
    # the original gunner is still on the ground, an ordinary trooper now
    gun = st.models["v_gunner"]
    assert not gun.removed and gun.vars["foes"] == ["a"]


def test_taking_the_place_is_refused_with_reasons():
    """SWOMP-I-MAN: base contact, out of close combat, the vehicle's side, an empty
    hatch; a gunner in his place leaves nothing to take."""
    far = marine("p", side="red", unit="p", x=8.0, y=30.0)
    g = gunner_out([far])
    assert "climbs in from base contact" in g.check(Man(actor="p", target="v")).reason
    assert "in close combat" in g.check(Man(actor="v_gunner", target="v")).reason
    g2 = make([razorback(), beside(), marine("a", x=40.0)], first="red")
    assert "has no empty gunner's hatch" in g2.check(Man(actor="p", target="v")).reason
    g3 = make([marine("b", x=15.4), razorback(), marine("a", x=40.0)], first="blue")
    v = g3.state.models["v"]
    v.vars["crew_out"] = ["gunner"]
    assert "v is not on b's side" in g3.check(Man(actor="b", target="v")).reason


def test_a_killed_gunner_is_replaced_too():
    """SWOMP damage table, gunner row: "Gunner killed: the turret cannot fire until
    another gunner takes his place" - the hatch is open to another model."""
    g = make([razorback(), beside(), marine("a", x=40.0)], first="red")
    v = g.state.models["v"]
    v.vars["loc"]["gunner"] = 0
    v.vars["effects"] = ["turret_lost"]
    assert vehicle_cc.turret_silent(v, v.weapon("heavy bolter"))
    apply(g, Man(actor="p", target="v"))
    assert vehicle_cc.turret_silent(v, v.weapon("heavy bolter")) == ""
    assert "turret_lost" not in v.vars["effects"]


def test_a_man_killed_in_the_hatch_is_a_casualty():
    """SWOMP-I-MAN: the hatch's HP are his; shot empty, he dies in his position and
    counts against his unit (and for the enemy's victory points)."""
    g = make([razorback(), beside(), marine("a", x=40.0)], first="red")
    st = g.state
    v = st.models["v"]
    v.vars["loc"]["gunner"] = 0
    v.vars["effects"] = ["turret_lost"]
    apply(g, Man(actor="p", target="v"))
    pts = int(st.models["p"].vars["points"])
    vehicles.damage(st, g.ctx, v, 1, "gunner", "shot", "a", shooting.blast)  # called shot
    p = st.models["p"]
    assert p.removed and "aboard" not in p.vars
    assert victory.casualty_points(st, "blue") == pts
    assert core.unit_info(st, "p")["lost"] == pts


def test_the_new_gunner_jumps_out_as_himself():
    """SWOMP-I-MAN: a model who climbed in comes out as himself, less the damage the
    hatch took while he was in it; the first gunner may no longer climb back in."""
    g = gunner_out([beside()])
    st = g.state
    apply(g, Man(actor="p", target="v"))
    v = st.models["v"]
    out = hatch.crewman_out(st, v, "gunner", (15.4, 26.0))
    assert out.id == "p" and out.hp == 1 and out.stats == st.models["p"].stats
    assert not out.removed and out.vars["hatch"] == "gunner"
    assert hatch.open_hatches(v) == []
