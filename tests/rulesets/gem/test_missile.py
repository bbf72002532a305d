"""Missile fire (GEM-2.2): who may fire, arcs, Table 2 measured from the table, and the
Table 1 roll with forced dice."""

from engine.actions import Move, Shoot
from engine.ruleset import OUT_OF_ARC, OUT_OF_RANGE
from engine.testing import logged, to_phase

from .helpers import block_specs, make, model, terrain


def _duel(target_kw=None, shooter_kw=None, terrain_=(), tx=20.0, ty=10.0):
    tkw = {"facing": 180.0, **(target_kw or {})}
    specs = [
        model("arc", "blue", 10, 10, 0, profile="archer", **(shooter_kw or {})),
        model("tgt", "red", tx, ty, stats={"OFF": 3, "DEF": 7, "HIT": 2}, **tkw),
    ]
    return make(specs, terrain_=terrain_)


def _mods(g, a="arc", t="tgt"):
    from rulesets.gem.chapters.missile import modifiers

    s = g.state
    m, tm = s.models[a], s.models[t]
    return {
        x.reason.split(" (")[0].split(":")[0]: x.value
        for x in modifiers(s, g.ctx, m, tm, m.weapon("bow"))
    }


def test_plain_shot_hits_on_table1_with_forced_die():
    """GEM-2.2.3: bow OFF 4 vs DEF 7 needs 15; a forced 15 hits and takes a HIT."""
    g = _duel()
    to_phase(g, "missile")
    g.dice.force([15])
    ev = g.apply(Shoot(actor="arc", target="tgt", weapon="bow"))
    res = [e for e in ev if e.kind == "resolution"][0]
    assert res.outcome == "hit" and res.chance == 0.3
    assert g.state.models["tgt"].hp == 1


def test_plain_shot_misses_below_the_cell():
    """GEM-2.2.3: a 14 against 15+ misses."""
    g = _duel()
    to_phase(g, "missile")
    g.dice.force([14])
    g.apply(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert g.state.models["tgt"].hp == 2


def test_large_and_extremely_large_and_small_targets():
    """GEM-2.2.4 Table 2: 40-50 mm across the line of fire +1, over 50 mm +2, small -1."""
    assert _mods(_duel({"base": 40.0}))["large target"] == 1
    assert _mods(_duel({"base": 60.0}))["extremely large target"] == 2
    assert _mods(_duel({"base": 15.0}))["small target"] == -1
    assert _mods(_duel()) == {}


def test_width_is_taken_across_the_line_of_fire():
    """GEM-2.2.4: a 25x50 mm cavalry base side-on is 50 mm wide (large), end-on 25 mm."""
    side_on = _duel({"base": [25.0, 50.0], "facing": 90.0})
    assert _mods(side_on).get("large target") == 1
    end_on = _duel({"base": [25.0, 50.0], "facing": 180.0})
    assert "large target" not in _mods(end_on)


def test_moving_and_target_moved_and_half_range():
    """GEM-2.2.4: firing after moving -2, target has moved -2, over half range -2."""
    g = _duel(tx=30.0)
    g.state.models["arc"].vars["moved"] = 2.0
    g.state.models["tgt"].vars["moved"] = 3.0
    mods = _mods(g)
    assert mods['firing after moving 2.0"'] == -2
    assert mods["tgt has moved"] == -2
    assert mods["over half range"] == -2


def test_soft_cover_in_woods_edge():
    """GEM-2.2.5: a target inside woods within 2" of the edge is in soft cover -2."""
    woods = terrain("woods", [(19, 5), (25, 5), (25, 15), (19, 15)])
    assert _mods(_duel(terrain_=(woods,)))["soft cover"] == -2


def test_soft_cover_behind_hedge():
    """GEM-2.2.5: a hedge crossed by the line of fire within 2" of the target -2."""
    hedge = terrain("hedge", [(18, 5), (18.3, 5), (18.3, 15), (18, 15)])
    assert _mods(_duel(terrain_=(hedge,)))["soft cover"] == -2


def _sight(g, a="arc", t="tgt"):
    from rulesets.gem.chapters.missile import sight

    return sight(g.state, g.ctx, g.state.models[a], g.state.models[t])


def test_hard_cover_behind_wall():
    """GEM-2.2.5, GEM-I-SIGHT: a target 60% hidden behind a wall is in hard cover -4 (only
    the best cover counts: the hedge it also stands behind adds nothing)."""
    wall = terrain("wall", [(18, 5), (18.5, 5), (18.5, 10.07), (18, 10.07)], "w1")
    hedge = terrain("hedge", [(18.8, 5), (19.0, 5), (19.0, 15), (18.8, 15)], "h1")
    g = _duel(terrain_=(wall, hedge))
    s = _sight(g)
    assert s.visible and 0.35 < s.fraction < 0.45
    mods = _mods(g)
    assert mods["hard cover"] == -4 and "soft cover" not in mods


def test_a_corner_of_a_wall_is_not_cover():
    """GEM-I-SIGHT: a wall hiding under a quarter of the base (here about 21%) gives no
    cover; the old centre-line reading gave none either, but for the wrong reason."""
    wall = terrain("wall", [(18, 5), (18.5, 5), (18.5, 9.8), (18, 9.8)], "w1")
    g = _duel(terrain_=(wall,))
    assert 0.75 < _sight(g).fraction < 0.85
    assert _mods(g) == {}


def test_target_wholly_behind_a_wall_or_building_cannot_be_shot():
    """GEM-2.2, GEM-I-SIGHT: a target whose base is wholly in the shadow of a wall or a
    building is not seen, so it cannot be fired at (the old centre-line reading wrongly
    gave it hard cover when the wall stood within 2" of it)."""
    for kind, poly in (
        ("wall", [(18, 5), (18.5, 5), (18.5, 15), (18, 15)]),
        ("building", [(14, 8), (17, 8), (17, 12), (14, 12)]),
    ):
        g = _duel(terrain_=(terrain(kind, poly, "t1"),))
        to_phase(g, "missile")
        legal = g.check(Shoot(actor="arc", target="tgt", weapon="bow"))
        assert not legal.ok and "cannot be seen" in legal.reason and f"{kind} t1" in legal.reason


def test_inside_a_house_is_hard_cover():
    """GEM-2.2.5: anywhere within a house is hard cover; the house does not hide a figure
    standing in it from the shooter (GEM-I-SIGHT)."""
    house = terrain("building", [(19, 8), (23, 8), (23, 12), (19, 12)], "b1")
    g = _duel(terrain_=(house,))
    s = _sight(g)
    assert s.visible and s.cover == "hard" and "inside building b1" in s.why
    assert _mods(g)["hard cover"] == -4


def test_low_wall_is_hard_cover_without_hiding():
    """GEM-2.2.5: behind a low wall within 2" (a line obstacle: it hides nothing) -4."""
    low = terrain("low_wall", [(18, 5), (18.3, 5), (18.3, 15), (18, 15)], "lw")
    g = _duel(terrain_=(low,))
    assert _sight(g).fraction == 1.0
    assert _mods(g)["hard cover"] == -4


def test_deep_woods_hide_the_target():
    """GEM-2.2.5 and DESIGN.md: sight enters woods 2"; a target 4" inside is not seen."""
    woods = terrain("woods", [(15, 5), (25, 5), (25, 15), (15, 15)], "wd")
    g = _duel(terrain_=(woods,))
    to_phase(g, "missile")
    legal = g.check(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert not legal.ok and "hidden by woods wd" in legal.reason


def test_prone_is_soft_cover():
    """GEM-2.2.5: lying prone is soft cover."""
    assert _mods(_duel({"state": {"status": ["prone"]}}))["soft cover"] == -2


def test_out_of_range_and_out_of_arc_are_refused():
    """GEM-2.2.2: skirmishers fire within 90 degrees of their front; range is measured."""
    g = _duel(tx=40.0)
    to_phase(g, "missile")
    ev = g.apply(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert ev[0].kind == "refused" and "out of range" in ev[0].text
    far = g.check(Shoot(actor="arc", target="tgt", weapon="bow")).find(OUT_OF_RANGE)
    assert far is not None and far.data["limit"] == 24 and far.data["distance"] > 24
    g = _duel(tx=10.0, ty=20.0)  # straight to the left: 90 degrees off the facing
    to_phase(g, "missile")
    ev = g.apply(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert ev[0].kind == "refused" and "fire arc" in ev[0].text
    assert OUT_OF_ARC in g.check(Shoot(actor="arc", target="tgt", weapon="bow")).codes


def test_cavalry_fires_all_round():
    """GEM-2.2.2: cavalry can fire in any direction."""
    specs = [
        model("cav", "blue", 10, 10, 0, profile="horse_archer"),
        model("tgt", "red", 10, 20, 0, profile="archer"),
    ]
    g = make(specs)
    to_phase(g, "missile")
    assert g.check(Shoot(actor="cav", target="tgt", weapon="bow")).ok


def test_no_fire_within_1_inch_of_a_friend():
    """GEM-2.2.2: the fire path may not pass within 1" of a friendly model."""
    specs = [
        model("arc", "blue", 10, 10, 0, profile="archer"),
        model("pal", "blue", 15, 11.2, 0, profile="archer"),
        model("tgt", "red", 20, 10, 180, profile="archer"),
    ]
    g = make(specs)
    to_phase(g, "missile")
    legal = g.check(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert not legal.ok and 'within 1"' in legal.reason


def test_heavy_weapon_not_after_moving_and_no_fire_after_rush():
    """GEM-2.2.1: a heavy weapon may not fire after moving; nothing fires after a rush."""
    specs = [
        model("gun", "blue", 10, 10, 0, profile="gunner"),
        model("arc", "blue", 10, 20, 0, profile="archer"),
        model("tgt", "red", 30, 12, 180, profile="trooper"),
    ]
    g = make(specs)
    to_phase(g, "movement")
    g.apply(Move(actor="gun", to=(11.0, 10.0)))
    g.apply(Move(actor="arc", to=(16.0, 20.0), mode="rush"))
    to_phase(g, "missile")
    r1 = g.check(Shoot(actor="gun", target="tgt", weapon="autocannon"))
    assert not r1.ok and "heavy weapon" in r1.reason
    r2 = g.check(Shoot(actor="arc", target="tgt", weapon="bow"))
    assert not r2.ok and "rush" in r2.reason


def test_block_front_rank_fires_straight_ahead_only():
    """GEM-2.2.2: only a block's front rank fires, and only straight ahead."""
    specs = block_specs("leg", "blue", (20.0, 10.0), 90.0, 8, 4, profile="legionary")
    specs += [
        model("t1", "red", 20.0, 14.0, 270, profile="archer"),
        model("t2", "red", 30.0, 14.0, 270, profile="archer"),
    ]
    g = make(specs)
    to_phase(g, "missile")
    from rulesets.gem.chapters import blocks

    front = [m.id for m in blocks.front_rank(g.state, "leg")]
    rear = [m.id for m in blocks.live_order(g.state, "leg") if m.id not in front]
    assert g.check(Shoot(actor=front[0], target="t1", weapon="pilum")).ok
    assert "front rank" in g.check(Shoot(actor=rear[0], target="t1", weapon="pilum")).reason
    assert "straight ahead" in g.check(Shoot(actor=front[0], target="t2", weapon="pilum")).reason
    g.dice.force([20, 1, 1, 1])
    g.apply(Shoot(actor="leg", target="t1", weapon="pilum"))
    assert g.state.models["t1"].removed
    assert len([e for e in logged(g, "resolution")]) == 1  # the target fell to the first


def test_armour_types_pick_the_def():
    """GEM-1.3: a beam weapon is judged against Reflec, a slug gun against Ablative."""
    from rulesets.gem.build import def_value

    g = make(
        [
            model("t", "blue", 10, 10, profile="trooper"),
            model("m", "red", 30, 10, profile="marauder"),
        ]
    )
    t = g.state.models["t"]
    assert def_value(t, "beam") == 3 and def_value(t, "missile") == 5
    assert def_value(t, "gas") == 2 and def_value(t, "") == 5
