"""Inter Arma 1.06 rules with forced dice, each test naming the section it checks."""

from __future__ import annotations

from fractions import Fraction

from engine.actions import EndPhase, Fight, Move, Shoot
from rulesets.inter_arma import flow
from rulesets.inter_arma.chapters import combat, melee
from rulesets.inter_arma.chapters import tables as T
from tests.rulesets.inter_arma.helpers import (
    BASE,
    RS,
    act,
    box,
    fig,
    game,
    refused,
    texts,
    to_phase,
)

BOW = [{"name": "bow", "kind": "bow"}]


def test_initiative_ties_reroll():
    """IA-INITIATIVE a: a d6 per side, highest first, equal throws reroll."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 30, 10))
    g.dice.force([3, 3, 2, 5])
    flow.start(g.state, g.ctx, None)
    assert g.state.vars["ia"]["order"] == ["red", "blue"] and g.state.active == "red"


def test_scenario_fixes_initiative_and_phases_follow_in_order():
    """IA-INITIATIVE c, IA-SEQUENCE: movement of every side, then ranged, then melee."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 30, 10), first="red")
    seen = []
    for _ in range(6):
        seen.append((g.state.phase, g.state.active))
        act(g, EndPhase())
    assert seen == [("movement", "red"), ("movement", "blue"), ("ranged", "red"), ("ranged", "blue"),
                    ("melee", "red"), ("melee", "blue")]  # fmt: skip
    assert g.state.turn == 2 and g.state.phase == "movement"


def test_walk_allowance_in_cm():
    """IA-MOVE: infantry walks 8 cm (4 in); 9 cm is refused, in cm."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 60, 40))
    why = refused(g, Move(actor="b", to=(14.5, 10)))
    assert "too far (9.0 cm > 8 cm" in why
    act(g, Move(actor="b", to=(14, 10)))
    assert g.state.models["b"].x == 14


def test_allowances_by_type_and_armour():
    """IA-MOVE table: armoured 7/11/4, skirmisher 12/16/6, cavalry runs 20 (18 armoured)."""
    g = game(fig("a", "blue", 10, 10, armored=True), fig("s", "blue", 10, 20, type="skirmisher"),
             fig("c", "blue", 10, 30, type="cavalry"), fig("k", "blue", 10, 40, type="cavalry", armored=True),
             fig("r", "red", 70, 46))  # fmt: skip
    got = {
        (m, mode): RS.allowance(g.state, m, g.ctx, mode)
        for m in "ask"
        for mode in ("walk", "run", "crawl")
    }
    assert got[("a", "walk")] == 3.5 and got[("a", "run")] == 5.5 and got[("a", "crawl")] == 2
    assert got[("s", "walk")] == 6 and got[("s", "run")] == 8 and got[("s", "crawl")] == 3
    assert got[("k", "run")] == 9 and got[("k", "walk")] is None
    assert RS.allowance(g.state, "c", g.ctx, "run") == 10
    assert "cavalry only runs" in refused(g, Move(actor="c", to=(12, 30), mode="walk"))


def test_heavy_woods_and_low_obstacle_reductions():
    """IA-MOVE d, e: a hedge costs 5 cm, heavy woods 3 cm; the refusal lists them."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 60, 40),
             features=(box("h", "hedge", 11, 5, 11.3, 15), box("w", "heavy_woods", 20, 5, 30, 15)))  # fmt: skip
    why = refused(g, Move(actor="b", to=(13, 10)))
    assert (
        "too far (6.0 cm > 3 cm: walk 8 cm, \u22125 cm crossing a low obstacle (IA-MOVE d))" in why
    )


def test_fatigue_halves_or_tires_infantry():
    """IA-FATIGUE: from turn 2 a running infantryman on 1 moves half, on 2 not at all."""
    g = game(fig("b", "blue", 10, 10), fig("c", "blue", 10, 20), fig("r", "red", 60, 40))
    for _ in range(6):
        act(g, EndPhase())
    assert g.state.turn == 2
    ev = act(g, Move(actor="b", to=(16, 10), mode="run"), [1])
    assert g.state.models["b"].x == 13 and "halved" in texts(ev)
    act(g, Move(actor="c", to=(16, 20), mode="run"), [2])
    assert g.state.models["c"].x == 10 and "tired" in g.state.models["c"].status


def test_skirmisher_only_tires_and_walkers_roll_nothing():
    """IA-FATIGUE: skirmishers fail only on 2 (no half); no dice when walking."""
    g = game(
        fig("s", "blue", 10, 10, type="skirmisher"),
        fig("w", "blue", 10, 20),
        fig("r", "red", 60, 40),
    )
    for _ in range(6):
        act(g, EndPhase())
    act(g, Move(actor="s", to=(18, 10), mode="run"), [1])
    assert g.state.models["s"].x == 18
    act(g, Move(actor="w", to=(14, 20)), [])
    assert g.state.models["w"].x == 14


def test_save_table_rows():
    """IA-SAVE: infantry 3/2, shield 3/1, armoured 2/1, skirmisher 3/1; rider 3/2, 2/1."""
    assert combat.verdict(2, T.SAVE_FOOT["infantry"]) == "dead"
    assert combat.verdict(3, T.SAVE_FOOT["infantry"]) == "wounded"
    assert combat.verdict(4, T.SAVE_FOOT["infantry"]) == "saved"
    assert combat.verdict(2, T.SAVE_FOOT["shield"]) == "wounded"
    assert combat.verdict(3, T.SAVE_FOOT["armored"]) == "saved"
    assert combat.verdict(1, T.SAVE_FOOT["skirmisher"]) == "dead"
    assert T.SAVE_RIDER == {False: (3, 2), True: (2, 1)}
    d = combat.save_dist(T.SAVE_FOOT["infantry"], 1)  # an elite: 1+1 = 2 still dead
    assert d == {"dead": Fraction(1, 6), "wounded": Fraction(1, 6), "saved": Fraction(4, 6)}


def test_bow_at_medium_range_hits_on_4_then_the_save():
    """IA-RANGED: bow 10/18/25 cm; 14 cm is medium, 4+; the infantryman saves on 4+."""
    g = game(fig("a", "blue", 10, 10, weapons=BOW), fig("r", "red", 10 + BASE + 7, 10))
    to_phase(g, "ranged")
    o = RS.odds(g.state, Shoot(actor="a", target="r"), g.ctx)
    assert o.chance == Fraction(1, 2) * Fraction(1, 2)
    ev = act(g, Shoot(actor="a", target="r"), [4, 3])
    t = texts(ev)
    assert "medium range (14.0 cm)" in t and "needs 4+: hit" in t
    assert "wounded" in g.state.models["r"].status


def test_long_range_needs_6_and_elite_bonus_only_short_medium():
    """IA-RANGED: long 6; +1 elite / +2 commander only at short and medium."""
    g = game(
        fig("a", "blue", 10, 10, weapons=BOW, **{"class": "commander"}),
        fig("r", "red", 10 + BASE + 11, 10),
    )
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="a", target="r"), [5])
    assert "long range (22.0 cm)" in texts(ev) and "miss" in texts(ev)
    g2 = game(
        fig("a", "blue", 10, 10, weapons=BOW, **{"class": "commander"}),
        fig("r", "red", 10 + BASE + 4, 10),
    )
    to_phase(g2, "ranged")
    ev = act(g2, Shoot(actor="a", target="r"), [1, 6])
    assert "commander at short range +2" in texts(ev) and "hit" in texts(ev)


def test_out_of_range_and_out_of_sight_in_cm():
    """IA-RANGED, IA-SIGHT: javelins have no long band; sight is 30 cm on foot."""
    jav = [{"name": "javelin", "kind": "javelin"}]
    g = game(fig("a", "blue", 10, 10, weapons=jav), fig("r", "red", 10 + BASE + 6, 10))
    to_phase(g, "ranged")
    assert "out of range (12.0 cm > 11 cm for javelin" in refused(g, Shoot(actor="a", target="r"))
    g = game(fig("a", "blue", 10, 10, weapons=BOW), fig("r", "red", 10 + BASE + 16, 10))
    to_phase(g, "ranged")
    assert "beyond sight (32.0 cm > 30 cm" in refused(g, Shoot(actor="a", target="r"))


def test_one_javelin_then_a_marker_to_pick_up():
    """IA-JAVELIN: one javelin; a missed one lies as a marker and can be picked up."""
    jav = [{"name": "javelin", "kind": "javelin"}]
    g = game(fig("a", "blue", 10, 10, weapons=jav), fig("r", "red", 10 + BASE + 3, 10))
    to_phase(g, "ranged")
    act(g, Shoot(actor="a", target="r"), [1])
    assert g.state.models["a"].vars["javelins"] == 0 and g.state.vars["javelin_markers"]


def test_wheat_field_takes_one_off():
    """IA-RANGED: wheat fields and heavy woods reduce the hitting roll by 1."""
    g = game(fig("a", "blue", 10, 10, weapons=BOW), fig("r", "red", 10 + BASE + 4, 10),
             features=(box("w", "wheat_field", 13, 8, 16, 12),))  # fmt: skip
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="a", target="r"), [3])
    assert "wheat field \u22121" in texts(ev) and "miss" in texts(ev)


def test_cavalry_horse_or_rider_when_shot():
    """IA-CAVALRY: shot at short range 1-3 falls on the horse; a fallen horse dismounts."""
    g = game(
        fig("a", "blue", 10, 10, weapons=BOW), fig("c", "red", 10 + BASE + 4, 10, type="cavalry")
    )
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="a", target="c"), [3, 3, 2])
    assert "dismounted" in g.state.models["c"].status and "horse" in texts(ev)
    assert RS.allowance(g.state, "c", g.ctx, "walk") == 4  # on foot now


def test_melee_one_on_one_save_and_counter():
    """IA-MELEE-1: initiative d6 (+1 elite v regular); the struck saves, then strikes back."""
    g = game(fig("e", "blue", 10, 10, **{"class": "elite"}), fig("r", "red", 10 + BASE, 10))
    to_phase(g, "melee")
    # e: 3+1 = 4 beats r 4? no: tie on 4 rerolls; then e 5+1 v r 2; r saves on 5; r strikes back, e saves on 1+1 = 2: dead
    ev = act(g, Fight(actor="e", target="r"), [3, 4, 5, 2, 5, 1])
    t = texts(ev)
    assert "tie: reroll" in t and "group strikes first" in t
    assert g.state.models["e"].removed and not g.state.models["r"].removed


def test_two_on_one_is_one_and_a_half_d6():
    """IA-MELEE-2: two dice, the higher at half: 6 and 2 give 2 + 3 = 5 against a d6."""
    d = melee.one_and_half()
    assert d[2 * 2 + 6] >= Fraction(1, 36) and sum(d.values()) == 1
    g = game(
        fig("a", "blue", 10, 10),
        fig("b", "blue", 10 + 2 * BASE, 10),
        fig("r", "red", 10 + BASE, 10),
    )
    to_phase(g, "melee")
    ev = act(g, Fight(actor="a", target="r"), [6, 2, 4, 6, 6])
    assert "(1.5d6 = 5)" in texts(ev) and "group strikes first" in texts(ev)
    assert g.state.models["a"].vars["clashed"] == 1 and g.state.models["b"].vars["clashed"] == 1


def test_massed_combat_example():
    """IA-MASSED: A 6,5,3,1 against B 5,5,2,2 gives A, reroll, A, B (the text's example)."""
    assert melee.massed_order([6, 5, 3, 1], [5, 5, 2, 2]) == ["A", "reroll", "A", "B"]
    assert melee.massed_order([1, 3, 5, 6], [2, 2, 5, 5]) == ["A", "reroll", "A", "B"]


def test_ambush_no_initiative_and_worse_save():
    """IA-AMBUSH: a crawling attacker throws no initiative; the save is 2 worse."""
    g = game(fig("a", "blue", 10, 10), fig("r", "red", 10 + BASE, 10))
    g.state.models["a"].set_status("crawling")
    to_phase(g, "melee")
    ev = act(g, Fight(actor="a", target="r"), [4])
    assert "crawling enemy \u22122" in texts(ev) and g.state.models["r"].removed


def test_wounded_fate_roll():
    """IA-WOUNDED: attacked with no commander in range, 1-2 kill, 3 leave, 4+ capture."""
    g = game(fig("a", "blue", 10, 10), fig("r", "red", 10 + BASE, 10), fig("x", "red", 40, 40))
    g.state.models["r"].set_status("wounded")
    to_phase(g, "melee")
    act(g, Fight(actor="a", target="r"), [3])
    assert not g.state.models["r"].removed
    g = game(fig("a", "blue", 10, 10), fig("r", "red", 10 + BASE, 10), fig("x", "red", 40, 40))
    g.state.models["r"].set_status("wounded")
    to_phase(g, "melee")
    act(g, Fight(actor="a", target="r"), [5])
    assert "captured" in g.state.models["r"].status


def test_sight_shortened_by_rain_and_night():
    """IA-WEATHER, IA-NIGHT: rain \u22124 cm, night \u22128 cm of the 30 cm."""
    for cond, limit in (("rain", 26), ("night", 22)):
        g = game(
            fig("a", "blue", 10, 10, weapons=BOW),
            fig("r", "red", 10 + BASE + limit / 2 + 0.5, 10),
            conditions=cond,
        )
        to_phase(g, "ranged")
        assert f"> {limit} cm" in refused(g, Shoot(actor="a", target="r"))


def test_night_takes_4_cm_off_a_walk():
    """IA-MOVE a: 4 cm off moving in the dark (not crawling)."""
    g = game(fig("b", "blue", 10, 10), fig("r", "red", 60, 40), conditions="night")
    assert RS.allowance(g.state, "b", g.ctx, "walk") == 2.0
    assert RS.allowance(g.state, "b", g.ctx, "crawl") == 2.0


def test_morale_results():
    """IA-MORALE: 0-4 retreat, 5-8 initiative lost, 9-11 regular, 12 inspired."""
    from rulesets.inter_arma.chapters.morale import verdict

    assert [verdict(t) for t in (4, 5, 8, 9, 11, 12)] == [
        "retreat",
        "initiative lost",
        "initiative lost",
        "regular",
        "regular",
        "inspired",
    ]


def test_shooting_from_a_building_measured_from_its_base():
    """IA-RANGED: from atop a tower the distance counts from the building's base, and
    shooting down adds 4 cm for bows and crossbows (not slings): 22 cm from the base is
    a bow's medium range (18 + 4), 4+ to hit; a sling at 17 cm is at long range."""
    tower = (box("tower", "building", 8, 8, 12, 12),)
    x = 12 + 11 + BASE / 2  # 22 cm from the tower's base, 25 cm from the archer
    g = game(fig("b", "blue", 10, 10, weapons=BOW), fig("r", "red", x, 10), features=tower)
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="b", target="r"), [4, 6])
    assert "medium range (22.0 cm)" in texts(ev)
    sling = [{"name": "sling", "kind": "sling"}]
    g = game(fig("b", "blue", 10, 10, weapons=sling), fig("r", "red", 12 + 8.5 + BASE / 2, 10),
             features=tower)  # fmt: skip
    to_phase(g, "ranged")
    ev = act(g, Shoot(actor="b", target="r"), [5])
    assert "long range (17.0 cm)" in texts(ev)


def test_sight_radius_for_the_window():
    """IA-SIGHT, IA-WEATHER, IA-NIGHT: 30 cm on foot, 35 mounted (day only), -4 rain,
    -8 night; the window's circle is in inches (2 cm to the inch)."""
    got = {}
    for cond in ("day", "rain", "night"):
        g = game(fig("b", "blue", 10, 10), fig("c", "blue", 10, 14, type="cavalry"),
                 fig("r", "red", 60, 40), conditions=cond)  # fmt: skip
        got[cond] = [RS.sight_radius(g.state, x, g.ctx) for x in ("b", "c")]
    assert got == {"day": [15.0, 17.5], "rain": [13.0, 13.0], "night": [11.0, 11.0]}


CHIEF = {"class": "commander", "armored": True, "shield": True}


def test_an_armoured_commander_saves_every_plain_blow():
    """IA-SAVE, IA-I-CHIEF: armoured, wounded on 2 or less, and a commander adds 2: his
    worst throw, 1 + 2 = 3, saves. Struck first by a regular (6 against 1 + 2 for the
    initiative), he saves on a 1 and strikes back; the exact odds of a plain blow
    putting him down are nil."""
    g = game(fig("c", "blue", 10, 10, **CHIEF), fig("r", "red", 10 + BASE, 10), first="red")
    to_phase(g, "melee")
    ev = act(g, Fight(actor="r", target="c"), [6, 1, 1, 6])
    c = g.state.models["c"]
    assert "group strikes first" in texts(ev) and "= 3; needs 3+: saved" in texts(ev)
    assert not c.removed and "wounded" not in c.status
    assert combat.p_down(combat.hit_dist(c, "foot", [])) == 0


def test_an_armoured_commander_falls_only_to_a_modifier():
    """IA-AMBUSH, IA-I-CHIEF: a crawling enemy takes 1 off an armoured figure's save, so
    the commander's 1 becomes 1 + 2 − 1 = 2, wounded; IA-MELEE-2: a lone commander who
    strikes him in a two on one takes his own 2 off that save, 1 + 2 − 2 = 1, dead."""
    g = game(fig("c", "blue", 10, 10, **CHIEF), fig("r", "red", 10 + BASE, 10), first="red")
    g.state.models["r"].set_status("crawling")
    to_phase(g, "melee")
    act(g, Fight(actor="r", target="c"), [1])
    assert "wounded" in g.state.models["c"].status
    g = game(
        fig("c", "blue", 10, 10, **CHIEF),
        fig("b", "blue", 10 + 2 * BASE, 10),
        fig("e", "red", 10 + BASE, 10, **{"class": "commander"}),
    )
    to_phase(g, "melee")
    ev = act(g, Fight(actor="c", target="e"), [1, 1, 6, 1])
    assert "e fights alone as commander" in texts(ev) and g.state.models["c"].removed
