"""The SWOMP audit's defects (the project audit's swomp.md), each played with forced dice
against the rulebook's words: jams, called shots at crew, moves into contact, unit
coherency and the ramming contest."""

from engine.actions import Move, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.actions import ClearJam, Ram

from .helpers import make


def test_clearing_a_heavy_weapons_jam_leaves_a_normal_move():
    """SWOMP-JAM "the model may make a normal move": a heavy weapon's normal move is its
    MR, in either order (audit jam_clear_heavy: held to half MR)."""
    term = {
        "id": "term",
        "side": "blue",
        "profile": "terminator",
        "x": 10.0,
        "y": 24.0,
        "state": {"jammed": ["assault cannon"]},
    }
    far = {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0}
    g = make([term, far])
    apply(g, ClearJam(actor="term", weapon="assault cannon"))
    ev = apply(g, Move(actor="term", to=(13.0, 24.0)))
    assert events_of(ev, "move") and g.state.models["term"].x == 13.0


def test_a_called_shot_at_exposed_crew_contests_the_crews_dr():
    """SWOMP-CALLED / exposed crewmen: "use the crew member's DR, armor, fields, and the
    vehicle speed" (audit called_crew: the bike's DR 5 was used)."""
    g = make(
        [
            {"id": "m", "side": "blue", "profile": "space_marine", "x": 10.0, "y": 24.0},
            {
                "id": "bike",
                "side": "red",
                "profile": "eldar_jetbike",
                "x": 20.0,
                "y": 24.0,
                "facing": 90.0,
            },
        ]
    )
    ev = apply(
        g, Shoot(actor="m", target="bike", weapon="boltgun", options={"location": "crew"}), [5, 5]
    )
    assert "crew DR 3 + armour 1 + 5 = 9" in events_of(ev, "resolution")[0].text


def test_a_plain_move_may_not_end_in_base_contact():
    """SWOMP-CHARGE "when a model moves into base-to-base contact ... this is called
    charging": a plain move into contact is refused, and mode "charge" too (audit
    move_into_contact, move_mode_charge)."""
    g = make(
        [
            {"id": "marine", "side": "blue", "profile": "space_marine", "x": 20.0, "y": 20.0},
            {"id": "g1", "side": "green", "profile": "termagant", "x": 20.0, "y": 24.5},
        ],
        first="blue",
    )
    ev = apply(g, Move(actor="marine", to=(20.0, 24.0)))
    assert events_of(ev, "refused") and "is a charge" in ev[0].text
    ev = apply(g, Move(actor="marine", to=(20.0, 22.0), mode="charge"))
    assert events_of(ev, "refused") and "use charge" in ev[0].text
    ev = apply(g, Move(actor="marine", to=(20.0, 22.0), mode="sneak"))
    assert events_of(ev, "refused") and "no mode 'sneak'" in ev[0].text


def test_a_move_may_not_split_the_unit():
    """SWOMP-COHERENCY "models that are part of a unit may not move outside of the
    unit's coherency distance": the whole unit stays one chain (audit coherency_chain)."""
    sq = [
        {"id": k, "side": "blue", "unit": "sq", "profile": "space_marine", "x": x, "y": 24.0}
        for k, x in (("A", 13.5), ("B", 10.0), ("C", 17.0))
    ]
    g = make([*sq, {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0}])
    ev = apply(g, Move(actor="A", to=(10.0, 27.0)))
    assert events_of(ev, "refused") and "would split sq" in ev[0].text


def _ram(dice):
    g = make(
        [
            {
                "id": "rhino",
                "side": "blue",
                "profile": "rhino",
                "x": 10.0,
                "y": 24.0,
                "state": {"speed": 10},
            },
            {
                "id": "t",
                "side": "red",
                "x": 22.0,
                "y": 24.0,
                "facing": 180.0,
                "stats": {"MR": 4, "SR": 5, "DR": 3, "CR": 3, "PR": 3, "HP": 3},
            },
        ]
    )
    return g, apply(g, Ram(actor="rhino", target="t", speed=15), dice)


def test_ram_speed_rounds_to_the_nearest_and_damage_needs_five():
    """SWOMP-RAM: speed 15 / 10 rounds to 2 (audit ram_round: 16 vs 7, 1 damage; now
    17 vs 7, won by 10, 2 damage); won by 3 does no damage (audit ram_margin3)."""
    g, ev = _ram([6, 4])
    res = events_of(ev, "resolution")[0]
    assert "speed 2 + 6 = 17" in res.text and res.data["damage"] == 2
    assert g.state.models["t"].hp == 1
    g, ev = _ram([2, 6])
    res = events_of(ev, "resolution")[0]
    assert res.outcome == "hit" and res.data["damage"] == 0 and g.state.models["t"].hp == 3


def rhino_at_a_wall():
    """A rhino at 10" drives 15" east into a wall (the audit's ram_wall)."""
    g = make(
        [
            {"id": "rh", "side": "blue", "profile": "rhino", "x": 10.0, "y": 24.0},
            {"id": "e", "side": "red", "profile": "space_marine", "x": 60.0, "y": 40.0},
        ],
        terrain=(("wall", [[20.0, 18.0], [21.0, 18.0], [21.0, 30.0], [20.0, 30.0]]),),
    )
    g.state.models["rh"].vars["speed"] = 10.0
    return g


def test_ramming_a_wall_contests_the_walls_dr():
    """SWOMP-RAM "the defending model or object uses its DR" (audit defect 11): DR 9 +
    speed 2 + 9 = 20 against the wall's DR 8 + 2 = 10, won by 10: 2 damage, told (terrain
    keeps no hit points, SWOMP-I-RAM); the rhino stops and tests for control with the
    next die. Before, no contest was rolled and the 9 went to the control test."""
    g = rhino_at_a_wall()
    ev = apply(g, Move(actor="rh", to=(25.0, 24.0)), [9, 2, 5])
    res = [e.text for e in events_of(ev, "resolution")]
    assert res[0] == (
        'rh rams t0 at 15": DR 9 + speed 2 + 9 = 20 beats wall DR 8 + 2 = 10 (chance 66%): '
        "won by 10, 2 damage to the wall"
    )
    assert "control test (collision with t0): d10 rolled 5" in res[1]
    assert g.state.models["rh"].vars["speed"] == 0.0


def test_a_ram_the_wall_wins_does_no_damage():
    ev = apply(rhino_at_a_wall(), Move(actor="rh", to=(25.0, 24.0)), [1, 5, 5])
    assert events_of(ev, "resolution")[0].text.endswith("(chance 66%): no damage")
