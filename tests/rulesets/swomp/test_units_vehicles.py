"""Units and morale, army selection, vehicles and ramming, with forced dice."""

from engine.actions import EndActivation, Move, Shoot
from engine.ruleset import load
from engine.scenario import load_scenario
from engine.testing import apply, events_of
from rulesets.swomp import build
from rulesets.swomp.actions import Rally, Ram
from rulesets.swomp.chapters import core, morale, vehicles

from .helpers import attack, make


def squad(n, side="red", unit="sq", x=30.0, y=24.0, profile="eldar_guardian"):
    return [
        {
            "id": f"{unit}{i}",
            "side": side,
            "unit": unit,
            "profile": profile,
            "x": x + 1.5 * i,
            "y": y,
            "facing": 180.0,
        }
        for i in range(n)
    ]


def shooter(**kw):
    return {"id": "m", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0, **kw}


def test_break_test_at_a_quarter_of_the_points():
    """SWOMP "Break Tests": 25% lost, d10 above SR + 2 breaks (guardian SR 5: 8+ fails)."""
    g = make([shooter()] + squad(4))
    apply(g, Shoot(actor="m", target="sq0", weapon="boltgun"), [9, 2, 8])
    ev = [e for e in g.log.events if e.kind == "morale"]
    assert ev and ev[-1].outcome == "broken" and "SR 5 + 2 = 7" in ev[-1].text
    assert morale.broken(g.state, "sq")
    assert "broken" in g.state.models["sq1"].status


def test_break_test_passed():
    g = make([shooter()] + squad(4))
    apply(g, Shoot(actor="m", target="sq0", weapon="boltgun"), [9, 2, 7])
    assert not morale.broken(g.state, "sq")


def test_coherency_four_inches():
    """SWOMP-COHERENCY: a model may not end more than 4" from the rest of its unit."""
    g = make(squad(2, side="blue", unit="u", x=10.0) + [shooter(id="e", side="red", x=60.0)])
    assert not g.check(Move(actor="u0", to=(4.0, 24.0))).ok
    assert g.check(Move(actor="u0", to=(7.5, 24.0))).ok
    assert g.check(Move(actor="u", to=(10.0, 32.0))).ok  # the unit moves as one


def test_broken_units_do_not_shoot_or_close_in_and_rally_later():
    """SWOMP-I-BROKEN and SWOMP "Rallying"."""
    g = make(
        [shooter()] + squad(2, side="red", unit="sq", x=40.0, y=24.0),
        terrain=(("woods", [[38, 22], [44, 22], [44, 26], [38, 26]]),),
        first="red",
    )
    info = core.unit_info(g.state, "sq")
    info.update({"broken": True, "broken_turn": 1})
    assert not g.check(Shoot(actor="sq0", target="m", weapon="shuriken catapult")).ok
    assert not g.check(Move(actor="sq0", to=(38.0, 24.0))).ok
    why = g.check(Rally(actor="sq"))
    assert not why.ok and "full turn" in why.reason
    g.state.turn = 3
    assert g.check(Rally(actor="sq")).ok
    apply(g, Rally(actor="sq"), [3])
    assert not morale.broken(g.state, "sq")


def test_army_selection_limits():
    """SWOMP "Army Selection": commander with more than 1 HP; character and support caps."""
    b = build.Builder(load("swomp"))

    def mk(mid, profile, unit):
        m, _ = b.build(
            {
                "id": mid,
                "side": "blue",
                "unit": unit,
                "profile": profile,
                "x": 1,
                "y": 1,
                "army": "a",
            }
        )
        return m

    ok = [mk("c", "marine_captain", "c")] + [mk(f"t{i}", "space_marine", "t") for i in range(6)]
    assert build.army_problems(ok) == []
    lone = [mk("t0", "space_marine", "t0"), mk("t1", "space_marine", "t1")]
    probs = " ".join(p for _, p in build.army_problems(lone))
    assert "no commander" in probs and "must be part of a unit" in probs
    heavy = ok + [mk("p", "predator", "p"), mk("r", "rhino", "r")]
    assert any("support" in p for _, p in build.army_problems(heavy))
    chars = [
        mk("c", "marine_captain", "c"),
        mk("t0", "space_marine", "t"),
        mk("t1", "space_marine", "t"),
    ]
    assert any("third" in p for _, p in build.army_problems(chars))


def test_ready_scenarios_are_legal_armies():
    for name in ("default", "armour"):
        scn = load_scenario(f"rulesets/swomp/scenarios/{name}.toml")
        assert all("army" in m.vars for m in scn.models)
        depth = scn.battlefield.depth
        for m in scn.models:  # SWOMP "Deployment": within 12" of the own table edge
            assert (m.y <= 12.0) if m.side == "blue" else (m.y >= depth - 12.0)


def test_vehicle_speed_changes_by_one_mr():
    """SWOMP "Movement, turning, and acceleration": a skimmer (MR 10) at 28" may slow to
    18" at most; the light bike accelerates 2 x MR."""
    g = make(
        [
            {
                "id": "v",
                "side": "blue",
                "profile": "eldar_light_gravtank",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 28},
            },
            {"id": "b", "side": "blue", "profile": "eldar_jetbike", "x": 10.0, "y": 10.0},
            shooter(id="e", side="red", x=70.0, y=46.0),
        ]
    )
    assert vehicles.speed_range(g.state.models["v"]) == (18.0, 38.0)
    assert vehicles.speed_range(g.state.models["b"]) == (0.0, 24.0)
    assert not g.check(Move(actor="v", to=(27.0, 24.0))).ok
    assert g.check(Move(actor="v", to=(28.0, 24.0))).ok


def test_turning_beyond_the_allowance_needs_a_control_test():
    """SWOMP "Control tests" / SWOMP-I-CONTROL."""
    g = make(
        [
            {
                "id": "v",
                "side": "blue",
                "profile": "rhino",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 14},
            },
            shooter(id="e", side="red", x=70.0, y=46.0),
        ]
    )
    # 14" > 1 x MR 7: 90 degrees allowed; a 135 degree turn is 45 beyond: SR 5 - 1 = 4
    ev = apply(g, Move(actor="v", path=((10.0, 24.0), (0.5, 33.5))), [3])
    res = [e for e in events_of(ev, "resolution") if e.rule == "SWOMP-VEH-CONTROL"][0]
    assert "needs 4 or less" in res.text and res.outcome == "kept"


def test_close_combat_against_a_vehicle_and_the_run_over():
    """SWOMP "Close combat with vehicles": DR + speed; a loss brings the run-over contest."""
    g = make(
        [
            {"id": "a", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0},
            {
                "id": "v",
                "side": "red",
                "profile": "rhino",
                "x": 13.0,
                "y": 24.0,
                "facing": 90.0,
                "state": {"speed": 3},
            },
        ]
    )
    from engine.actions import Charge

    ev = attack(g, Charge(actor="a", target="v"), [2, 5, 8, 4])
    res = events_of(ev, "resolution")
    assert "DR 9 + speed 3 + 5 = 17" in res[0].text and res[0].outcome == "miss"
    assert res[1].rule == "SWOMP-VEH-CC" and res[1].outcome == "hit"
    assert g.state.models["a"].removed


def test_stopped_vehicle_gives_plus_five():
    g = make(
        [
            {"id": "a", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0},
            {"id": "v", "side": "red", "profile": "rhino", "x": 13.0, "y": 24.0, "facing": 90.0},
        ]
    )
    from engine.actions import Charge

    ev = attack(g, Charge(actor="a", target="v"), [5, 5])
    assert "vehicle stopped 5" in events_of(ev, "resolution")[0].text
    assert g.state.models["v"].vars["loc"]["body"] == 5  # no exposed crew: the body


def test_ram_a_trooper_who_dives_aside():
    """SWOMP "Ramming": DR + speed / 10 (15" rounds to +2) against DR; the trooper who
    wins jumps aside."""
    g = make(
        [
            {
                "id": "v",
                "side": "blue",
                "profile": "rhino",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 10},
            },
            {"id": "t", "side": "red", "profile": "eldar_guardian", "x": 22.0, "y": 24.0},
        ]
    )
    ev = apply(g, Ram(actor="v", target="t", speed=15), [2, 9])
    res = events_of(ev, "resolution")[0]
    assert "DR 9 + speed 2 + 2 = 13" in res.text and res.outcome == "miss"
    t = g.state.models["t"]
    assert abs(t.y - 24.0) > 1.5 and not t.removed


def test_ram_damage_one_per_five_points():
    g = make(
        [
            {
                "id": "v",
                "side": "blue",
                "profile": "rhino",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 10},
            },
            {
                "id": "t",
                "side": "red",
                "profile": "eldar_guardian",
                "x": 22.0,
                "y": 24.0,
                "stats": {"HP": 3},
            },
        ]
    )
    apply(g, Ram(actor="v", target="t", speed=15), [9, 2])
    # 9 + 1 + 9 = 19 against DR 3 + armour 1 + 2 = 6: won by 13, 2 damage
    assert g.state.models["t"].hp == 1


def test_vehicles_collide_end_touching_and_test_control():
    """SWOMP "Ramming": two vehicles stay touching; both take control tests."""
    g = make(
        [
            {
                "id": "v",
                "side": "blue",
                "profile": "rhino",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 10},
            },
            {"id": "w", "side": "red", "profile": "rhino", "x": 24.0, "y": 24.0, "facing": 90.0},
        ]
    )
    ev = apply(g, Ram(actor="v", target="w", speed=14), [9, 2, 4, 3, 3])
    v, w = g.state.models["v"], g.state.models["w"]
    from rulesets.swomp.chapters import table

    assert table.distance(v, w) < 0.05
    ctl = [e for e in events_of(ev, "resolution") if e.rule == "SWOMP-VEH-CONTROL"]
    assert [e.actor for e in ctl] == ["v", "w"]
    assert vehicles.speed(v) == 0.0
    assert sum(w.vars["loc"].values()) < 12


def test_turn_limit_ends_the_game_on_points():
    """SWOMP-I-VICTORY: at the turn limit the most points of casualties wins."""
    g = make([shooter()] + squad(2), turn_limit=1)
    apply(g, Shoot(actor="m", target="sq0", weapon="boltgun"), [9, 2, 1])
    while g.to_act() is not None:
        apply(g, EndActivation(), exact=False)
    assert g.state.over["winner"] == "blue"
