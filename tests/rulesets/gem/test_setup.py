"""The setup (GEM-2.0.3, GEM-2.0.4, GEM-I-DEPLOY): the d20 roll for the table edge, secret
deployment plans checked against the zone, placing by the plan (initiative first), the
reveal, and turn 1's segments after it. Dice are forced; each test names its section."""

from engine.actions import Choose, EndPhase, Move
from engine.testing import logged
from rulesets.gem.actions import Deploy, Plan

from .helpers import block_specs, make, model

OPTS = {"options": {"deployment": True}}


def _game(force=(5, 17), first="blue"):
    """Blue: a hoplite block and two archers; red: a slinger unit and a horse archer.
    Blue has the initiative (set), so the only dice are the edge roll (blue, then red)."""
    specs = block_specs("hop", "blue", (30.0, 9.0), 90.0, 8, 4)
    specs += [
        model("a1", "blue", 20, 8, 90, unit="archers", profile="archer"),
        model("a2", "blue", 22, 8, 90, unit="archers", profile="archer"),
        model("s1", "red", 40, 40, 270, unit="slingers", profile="slinger"),
        model("s2", "red", 42, 40, 270, unit="slingers", profile="slinger"),
        model("hx", "red", 30, 42, 270, profile="horse_archer"),
    ]
    return make(specs, first=first, vars_=OPTS, force=list(force))


BLUE_PLAN = {"hop": [30, 10, 90], "archers": [20, 8]}
RED_PLAN = {"slingers": [41, 40], "hx": [30, 42, 270]}


def _to_deploy(g):
    g.apply(Choose(option="north"))
    g.apply(Plan(placements=BLUE_PLAN))
    g.apply(Plan(placements=RED_PLAN))


def test_high_roll_chooses_the_edge():
    """GEM-2.0.3: each side rolls a d20; the higher chooses its edge, the other takes the
    opposite one. Red rolls 17 against blue's 5 and takes the north edge."""
    g = _game()
    s = g.state
    assert s.phase == "side" and s.active == "red"
    assert all("undeployed" in m.status for m in s.live())
    rolls = [e for e in logged(g, "initiative") if e.rule == "GEM-2.0.3"]
    assert [e.rolls for e in rolls] == [[5], [17]]
    g.apply(Choose(option="north"))
    assert s.vars["gem"]["edges"] == {"red": "north", "blue": "south"}
    assert s.phase == "plan" and s.active == "blue"  # plans in initiative order


def test_tied_edge_roll_is_rolled_again():
    """GEM-2.0.3 (ties roll again): 9 and 9, then 3 and 12: red chooses."""
    g = _game(force=(9, 9, 3, 12))
    assert g.state.active == "red"


def test_setup_follows_the_initiative_roll():
    """GEM-2 ("1. initiative, 1a. setup"): turn 1's initiative is rolled first (red 14,
    blue 6), then the edge roll, red first as it has the initiative (red 2, blue 20: blue
    chooses); red plans and places first."""
    g = _game(force=(6, 14, 2, 20), first=None)
    assert g.state.vars["gem"]["order"] == ["red", "blue"]
    assert g.state.active == "blue"
    g.apply(Choose(option="south"))
    assert g.state.active == "red" and g.state.phase == "plan"


def test_a_plan_outside_the_zone_is_refused_with_its_reason():
    """GEM-2.0.4: every unit within 12" of its own edge and 12" from the ends; every unit
    must be in the plan; units may not overlap."""
    g = _game()
    g.apply(Choose(option="north"))  # blue deploys on the south edge
    deep = g.check(Plan(placements={"hop": [30, 16, 90], "archers": [20, 8]}))
    assert not deep.ok and "from the south edge" in deep.reason and '12"' in deep.reason
    end = g.check(Plan(placements={"hop": [30, 10, 90], "archers": [8, 8]}))
    assert not end.ok and "from the west end" in end.reason
    part = g.check(Plan(placements={"hop": [30, 10, 90]}))
    assert not part.ok and "leaves out archers" in part.reason
    clash = g.check(Plan(placements={"hop": [30, 10, 90], "archers": [30, 8.5]}))
    assert not clash.ok and "overlap" in clash.reason
    assert g.check(Plan(placements=BLUE_PLAN)).ok
    assert not g.check(Move(actor="a1", to=(20.0, 9.0))).ok  # nothing else in the setup


def test_plans_are_hidden_from_the_other_player_until_revealed():
    """GEM-2.0.4 (secret plans), GEM-I-SECRET: the other side's redacted view and the log
    show that a plan was drawn, not where its units go."""
    g = _game()
    g.apply(Choose(option="north"))
    g.apply(Plan(placements=BLUE_PLAN))
    rs = g.ruleset
    assert rs.redact(g.state, "red").vars["gem"]["plans"]["blue"] == "hidden"
    assert rs.redact(g.state, "blue").vars["gem"]["plans"]["blue"]["hop"] == [30, 10, 90]
    assert "30" not in logged(g, "note")[-1].text
    g.apply(Plan(placements=RED_PLAN))
    assert g.state.phase == "deploy" and g.state.active == "blue"
    assert rs.redact(g.state, "blue").vars["gem"]["plans"]["red"] == "hidden"


def test_deployment_follows_the_plan():
    """GEM-2.0.4: the side with the initiative places first, each unit where its plan put
    it; a placement off the plan is refused (GEM-I-DEPLOY)."""
    g = _game()
    _to_deploy(g)
    off = g.check(Deploy(actor="hop", to=(31.0, 10.0)))
    assert not off.ok and "deployment follows the plan" in off.reason
    assert not g.check(Deploy(actor="slingers")).ok  # red places after blue
    g.apply(Deploy(actor="hop"))
    s = g.state
    rec = s.vars["gem"]["blocks"]["hop"]
    assert rec["front"] == [30.0, 10.0] and rec["facing"] == 90.0
    assert "undeployed" not in s.models["hop1"].status
    assert s.active == "blue" and "undeployed" in s.models["a1"].status
    g.apply(Deploy(actor="archers"))  # the archers' centre goes to (20, 8), facing north
    assert (s.models["a1"].x, s.models["a1"].y) == (19.0, 8.0)
    assert s.active == "red"


def test_reveal_then_turn_1_begins():
    """GEM-2.0.4: when every unit is down the plans are revealed (units left unplaced are
    put where the plan says) and the turn's segments begin in initiative order."""
    g = _game()
    _to_deploy(g)
    g.apply(EndPhase())  # blue's units go down by its plan
    g.apply(EndPhase())  # and red's
    s = g.state
    assert s.vars["gem"]["plans_revealed"] and s.phase not in ("side", "plan", "deploy")
    assert not any("undeployed" in m.status for m in s.live())
    assert (s.models["hx"].x, s.models["hx"].y, s.models["hx"].facing) == (30.0, 42.0, 270.0)
    assert g.ruleset.redact(s, "blue").vars["gem"]["plans"]["red"]["hx"] == [30, 42, 270]
    assert any("revealed" in e.text for e in logged(g, "note"))
    assert any(e.kind == "turn" for e in logged(g))


def test_passing_keeps_the_nearer_edge_and_takes_a_ready_made_plan():
    """GEM-I-DEPLOY: a side that ends a setup step without acting keeps the edge nearer its
    units and gets the first ready-made plan, which keeps to the zone."""
    g = _game(force=(17, 5))  # blue chooses
    g.apply(EndPhase())
    assert g.state.vars["gem"]["edges"]["blue"] == "south"
    offered = [a for a in g.candidates("blue") if isinstance(a, Plan)]
    assert offered and all(g.check(a).ok for a in offered)
    g.apply(EndPhase())
    plan = g.state.vars["gem"]["plans"]["blue"]
    assert plan == offered[0].placements and set(plan) == {"hop", "archers"}


def test_each_setup_step_is_a_decision_the_engine_holds():
    """Issue 17: the setup's steps are ``GameState.pending`` decisions, so the engine
    hands each to the side that owes it (GEM-2.0.3: red won the edge roll, 17 to 5;
    GEM-2.0.4: the plans in initiative order, blue first) and allows only its verbs."""
    g = _game()
    d = g.state.pending
    assert [(x["side"], x["kind"]) for x in d] == [("red", "side")]
    assert g.to_act() == "red"
    why = g.check(Plan(actor="", placements=RED_PLAN)).reason
    assert why == "red must answer first: red chooses a table edge: south or north (GEM-2.0.3)"
    assert "not 'east'" in g.check(Choose(option="east")).reason
    g.apply(Choose(option="north"))
    assert [(x["side"], x["kind"]) for x in g.state.pending] == [("blue", "plan")]
    assert g.to_act() == "blue"
    g.apply(Plan(placements=BLUE_PLAN))
    g.apply(Plan(placements=RED_PLAN))
    assert [(x["side"], x["kind"]) for x in g.state.pending] == [("blue", "deploy")]
    g.apply(Deploy(actor="hop"))
    assert [(x["side"], x["kind"]) for x in g.state.pending] == [("blue", "deploy")]
    g.apply(EndPhase())  # blue's archers where the plan put them; red to place
    g.apply(EndPhase())
    assert g.state.pending == [] and g.state.phase == "movement"  # no wizards: no magic
    assert "pending" not in g.state.to_dict()
