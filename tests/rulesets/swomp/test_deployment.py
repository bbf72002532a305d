"""The deployment phase (SWOMP "Deployment"), played when the scenario sets
``options = { deployment = true }``; forced dice for the initiative that follows."""

from engine.actions import Move
from engine.testing import apply
from rulesets.swomp.actions import Deploy
from rulesets.swomp.chapters import deploy

from .helpers import make

OPTS = {"deployment": True}


def m(mid, side, x, y, profile="space_marine", **kw):
    return {"id": mid, "side": side, "profile": profile, "x": x, "y": y, **kw}


def armies():
    """blue: a marine pair (SR 6) and a captain (SR 9) in the south; red: two gaunts
    (SR 3) and a tyranid warrior (SR 7) in the north."""
    return [
        m("a1", "blue", 10, 4, unit="tac"),
        m("a2", "blue", 12, 4, unit="tac"),
        m("cap", "blue", 20, 4, profile="marine_captain"),
        m("g1", "red", 10, 44, profile="hormagaunt", unit="gaunts"),
        m("g2", "red", 12, 44, profile="hormagaunt", unit="gaunts"),
        m("w", "red", 20, 42, profile="tyranid_warrior"),
    ]


def test_lowest_sr_deploys_first_and_nothing_else_happens():
    """SWOMP "Deployment": units deploy in order of SR, lowest first; until everyone is
    down no other action is taken."""
    g = make(armies(), first=None, options=OPTS)
    assert g.state.phase == "deployment" and g.to_act() == "red"
    assert "undeployed" in g.state.models["a1"].status
    why = g.check(Deploy(actor="a1", to=(10.0, 4.0))).reason
    assert "red's turn to deploy" in why
    why = g.check(Move(actor="g1", to=(10.0, 40.0))).reason
    assert "deployment comes first" in why and "gaunts" in why
    apply(g, Deploy(actor="g1", to=(10.0, 45.0)))
    assert g.to_act() == "red"  # the rest of its unit goes down before anything else
    assert "not next" in g.check(Deploy(actor="w", to=(20.0, 44.0))).reason
    apply(g, Deploy(actor="g2", to=(11.5, 45.0)))
    assert g.to_act() == "blue"  # tac (SR 6) before w (SR 7) and cap (SR 9)


def test_zone_is_twelve_inches_from_the_own_edge():
    """SWOMP "Deployment": each force deploys along its own table edge, up to 12" onto
    the table (the whole base, SWOMP-I-DEPLOY); refused with the measured reach."""
    g = make(armies(), first=None, options=OPTS)
    why = g.check(Deploy(actor="g1", to=(10.0, 36.2))).reason
    assert 'would reach 12.3" from the north edge' in why
    assert g.check(Deploy(actor="g1", to=(10.0, 36.5))).ok
    assert "off the table" in g.check(Deploy(actor="g1", to=(10.0, 47.8))).reason


def test_overlap_building_and_coherency_are_refused():
    """SWOMP-I-DEPLOY: no base on another or in impassable terrain; a unit starts in
    coherency (4")."""
    house = ("building", [[14.0, 40.0], [18.0, 40.0], [18.0, 46.0], [14.0, 46.0]])
    g = make(armies(), first=None, options=OPTS, terrain=(house,))
    assert "impassable" in g.check(Deploy(actor="g1", to=(15.0, 43.0))).reason
    apply(g, Deploy(actor="g1", to=(10.0, 45.0)))
    assert "overlap g1" in g.check(Deploy(actor="g2", to=(10.5, 45.0))).reason
    assert "coherency" in g.check(Deploy(actor="g2", to=(2.0, 45.0))).reason


def test_ties_alternate_from_the_side_that_placed_least_recently():
    """SWOMP "Deployment": in the event of a tie, the players alternate, starting with
    the player who deployed a unit least recently."""
    ms = [
        m("b1", "blue", 10, 4, profile="marine_sergeant", unit="b1"),
        m("b2", "blue", 14, 4, profile="marine_sergeant", unit="b2"),
        m("r1", "red", 10, 44, profile="tyranid_warrior", unit="r1"),
        m("r2", "red", 20, 44, profile="tyranid_warrior", unit="r2"),
        m("g", "red", 30, 44, profile="hormagaunt", unit="gaunt"),
        m("g2", "red", 31.5, 44, profile="hormagaunt", unit="gaunt"),
    ]
    g = make(ms, first=None, options=OPTS)
    apply(g, Deploy(actor="g", to=(30.0, 44.0)))
    apply(g, Deploy(actor="g2", to=(31.5, 44.0)))
    # SR 7 all round: red placed last, so blue (never placed) starts, then they alternate
    sides = []
    for mid, to in (
        ("b1", (10.0, 4.0)),
        ("r1", (10.0, 44.0)),
        ("b2", (14.0, 4.0)),
        ("r2", (20.0, 44.0)),
    ):
        sides.append(g.to_act())
        apply(g, Deploy(actor=mid, to=to))
    assert sides == ["blue", "red", "blue", "red"]


def test_first_round_begins_with_initiative_after_deployment():
    """SWOMP "Deployment" then "Game Sequence": when the last model is down, the first
    round starts with the d10 initiative roll."""
    g = make(armies(), first=None, options=OPTS)
    for mid, to in (
        ("g1", (10.0, 44.0)),
        ("g2", (12.0, 44.0)),
        ("a1", (10.0, 4.0)),
        ("a2", (12.0, 4.0)),
        ("w", (20.0, 42.0)),
    ):
        apply(g, Deploy(actor=mid, to=to))
    ev = apply(g, Deploy(actor="cap", to=(20.0, 4.0), facing=45.0), [3, 8])
    assert g.state.models["cap"].facing == 45.0 and g.state.models["g1"].facing == 270.0
    assert [e.kind for e in ev].count("initiative") == 2
    assert g.state.phase == "activation" and g.to_act() == "red" and g.state.turn == 1
    assert not deploy.active(g.state)
    assert "deployment is over" in g.check(Deploy(actor="cap", to=(20.0, 5.0))).reason


def test_side_edge_inset_option():
    """SWOMP "Deployment": both sides may agree to bring the zone in from the side
    edges by an equal amount (options.inset)."""
    g = make(armies(), first=None, options={**OPTS, "inset": 6})
    assert "keep clear of the side edges" in g.check(Deploy(actor="g1", to=(3.0, 44.0))).reason
    assert g.check(Deploy(actor="g1", to=(10.0, 44.0))).ok


def test_candidates_offer_legal_placements():
    """Random agents must be able to finish deployment: every candidate is legal."""
    g = make(armies(), first=None, options=OPTS)
    for _ in range(6):
        cands = g.candidates()
        assert cands and all(g.check(a).ok for a in cands)
        apply(
            g,
            cands[-1],
            [3, 8]
            if len(deploy.waiting(g.state)) == 1
            and sum(len(v) for v in deploy.waiting(g.state).values()) == 1
            else [],
        )
    assert g.state.phase == "activation"
