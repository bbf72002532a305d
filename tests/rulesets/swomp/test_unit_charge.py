"""A unit charge measured as it is made: each charger to the spot the physics service
packs it into; one that falls short pairs off or closes in (SWOMP "Charging";
"Multiple attackers"; "The gang fight and pairing off"; SWOMP-I-CHARGE)."""

from engine.testing import events_of
from rulesets.swomp.actions import SwompCharge
from rulesets.swomp.chapters import charging, core, packing, reach

from .helpers import attack, make


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def column(n=4, x=11.3):
    """A squad of marines (MR 4: an 8" charge) in a column 1" apart, facing a target
    about 7.7" to the east: each alone reaches the target's near side."""
    return [m(f"a{i}", "blue", x, 22.5 + i, unit="sq") for i in range(n)]


def target(**kw):
    return m("b", "red", 20.0, 24.0, stats={"HP": 9}, unit="r", **kw)


def limits(cs):
    return {c.id: charging.charge_limit(c) for c in cs}


def test_each_charger_is_measured_to_its_packed_spot():
    """SWOMP-I-CHARGE: alone every marine reaches b; packed together the two nearest
    take the west side and the others are pushed round to spots beyond 8" + slack."""
    g = make(column() + [target()])
    st = g.state
    cs = [st.models[f"a{i}"] for i in range(4)]
    b = st.models["b"]
    assert all(not charging.charger_problems(st, g.ctx, c, b) for c in cs)
    plan = packing.plan(st, g.ctx, b, cs, limits(cs))
    assert sorted(plan.placed) == ["a1", "a2"]
    assert sorted(plan.short) == ["a0", "a3"]
    for r in plan.short.values():
        assert r.spot is not None and "cannot reach b" in r.why and "short" in r.why
    for cid, r in plan.placed.items():  # the spot each was measured to is the packed one
        assert r.cost <= charging.charge_limit(st.models[cid]) + reach.slack(b) + 1e-6


def test_a_charger_that_cannot_reach_its_spot_closes_in():
    """SWOMP-I-CHARGE (the text has no failed charge): a charger packed out of reach
    moves as far as its charge allows toward its packed spot, stopped by the first base
    it meets, and is not in close combat; the others fight."""
    g = make(column() + [target()])
    st = g.state
    before = {f"a{i}": st.models[f"a{i}"].pos for i in range(4)}
    assert g.check(SwompCharge(actor="sq", target="b")).ok
    ev = attack(g, SwompCharge(actor="sq", target="b"), exact=False)
    assert sorted(st.models["b"].vars["foes"]) == ["a1", "a2"]
    for cid in ("a0", "a3"):
        c = st.models[cid]
        assert not core.engaged(c)
        assert c.pos != before[cid]
        assert 0 < c.vars["moved"] <= 8.0 + 1e-6
        assert c.x > before[cid][0] + 5  # most of the way there
    closing = [e for e in events_of(ev, "move") if "closes in" in e.text]
    assert [e.actor for e in closing] == ["a0", "a3"]
    assert all(e.rule == "SWOMP-CHARGE" for e in closing)


def test_a_charger_short_of_its_spot_pairs_off_first():
    """SWOMP "The gang fight and pairing off": a charger with no way onto its target
    pairs off with the nearest other model of the target's unit it can reach, before
    closing in."""
    c = m("c", "red", 19.0, 20.5, unit="r", stats={"HP": 9})
    g = make(column() + [target(), c])
    ev = attack(g, SwompCharge(actor="sq", target="b"), exact=False)
    st = g.state
    assert st.models["a0"].vars["foes"] == ["c"]
    assert any("pairs off with c" in e.text for e in events_of(ev, "note"))
    assert sorted(st.models["b"].vars["foes"]) == ["a1", "a2"]


def test_a_single_charge_is_unchanged_by_packing():
    """SWOMP-I-CHARGE: one charger is packed alone, so its check is the alone measure."""
    g = make([m("a", "blue", 11.3, 24.0), target()])
    st = g.state
    a, b = st.models["a"], st.models["b"]
    plan = packing.plan(st, g.ctx, b, [a], limits([a]))
    alone = reach.reach(st, g.ctx, a, b, charging.charge_limit(a))
    assert plan.placed["a"].spot == alone.spot and not plan.short


def test_the_way_is_cut_at_the_inches_it_may_spend():
    """SWOMP-I-TERRAIN: closing in pays for difficult ground twice, like any move: 8"
    to spend on a path with 2" of woods after the first 4" gets 6" along it."""
    woods = ("woods", [[14.0, 20.0], [16.0, 20.0], [16.0, 28.0], [14.0, 28.0]])
    g = make([m("a", "blue", 10.0, 24.0), target()], terrain=(woods,))
    pts = reach.within(g.ctx, [(10.0, 24.0), (30.0, 24.0)], 8.0)
    assert abs(pts[-1][0] - 16.0) < 0.2 and pts[-1][1] == 24.0
    assert reach.within(g.ctx, [(10.0, 24.0), (12.0, 24.0)], 8.0)[-1] == (12.0, 24.0)
