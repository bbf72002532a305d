"""Morale (GEM-2.4): the table, MOR, leader and hero modifiers, fear from missile losses,
rout checks and routing."""

from engine.testing import logged, to_phase

from .helpers import make, model


def _unit(n=5, **kw):
    specs = [
        model(f"s{i}", "blue", 10 + 2 * i, 10, 90, profile="archer", unit="sk", **kw)
        for i in range(n)
    ]
    specs.append(model("z", "red", 60, 45, 270, profile="archer"))
    return specs


def _mods(g, unit="sk"):
    from rulesets.gem.chapters.morale import modifiers

    return {m.reason.split(" within")[0]: m.value for m in modifiers(g.state, unit)}


def test_no_leader_minus_4_and_hero_plus_3():
    """GEM-2.4.4: no leader in range -4; a hero within 4" +3, not cumulative."""
    g = make(_unit())
    assert _mods(g) == {"no leader": -4}
    g = make(
        _unit()
        + [
            model("ldr", "blue", 14, 20, profile="general"),
            model("h1", "blue", 12, 12, profile="champion"),
            model("h2", "blue", 16, 12, profile="champion"),
        ]
    )
    assert _mods(g) == {"a hero": 3}


def test_fear_check_from_missile_losses_disorganizes_on_failure():
    """GEM-2.4.1: over 20% lost to missiles in a turn calls a fear check; 2 of 5 lost is
    40%: needs 10; a 9 - 4 (no leader) fails and disorganizes (GEM-2.4.5)."""
    from rulesets.gem.chapters.damage import apply_hits

    g = make(_unit())
    to_phase(g, "missile")
    apply_hits(g.state, g.ctx, g.state.models["s0"], 1, missile=True)
    apply_hits(g.state, g.ctx, g.state.models["s1"], 1, missile=True)
    g.dice.force([13])
    from rulesets.gem.chapters.morale import segment

    segment(g.state, g.ctx)
    m = logged(g, "morale")[-1]
    assert m.outcome == "failed" and m.data["need"] == 10
    assert all("disorganized" in x.status for x in g.state.live("blue") if x.unit == "sk")


def test_rout_check_from_60_percent_and_routing_removes():
    """GEM-2.4.2: 3 of 5 lost (60%) calls a rout check needing 18 (a leader in range); a
    20 passes, a 5 fails and routs the unit
    half its move away and off the table."""
    from rulesets.gem.chapters.damage import apply_hits
    from rulesets.gem.chapters.morale import segment

    g = make(_unit() + [model("ldr", "blue", 14, 20, profile="general")])
    for i in range(3):
        apply_hits(g.state, g.ctx, g.state.models[f"s{i}"], 1)
    g.dice.force([20])
    segment(g.state, g.ctx)
    assert logged(g, "morale")[-1].outcome == "passed"
    g.dice.force([5])
    segment(g.state, g.ctx)
    assert logged(g, "morale")[-1].data["need"] == 18
    assert all(
        g.state.models[i].removed and "routed" in g.state.models[i].status for i in ("s3", "s4")
    )


def test_disorganized_cannot_fire():
    """GEM-2.4.5: a disorganized unit fires no missiles."""
    from engine.actions import Shoot
    from rulesets.gem.state import set_disorganized

    g = make(
        [
            model("a", "blue", 10, 10, 0, profile="archer"),
            model("b", "red", 20, 10, 180, profile="archer"),
        ]
    )
    set_disorganized(g.state, "a")
    to_phase(g, "missile")
    assert "disorganized" in g.check(Shoot(actor="a", target="b", weapon="bow")).reason
