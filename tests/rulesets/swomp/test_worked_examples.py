"""The rulebook's three worked examples, reproduced number for number with forced dice."""

from engine.actions import Charge, Shoot
from engine.testing import apply, events_of
from rulesets.swomp.chapters import vehicles

from .helpers import attack, make

GAUNT = {
    "side": "green",
    "unit": "gaunts",
    "profile": "hormagaunt",
    "facing": 180.0,
    "state": {"moved": 18, "cover": "soft"},
}


def test_frag_missile_into_six_running_hormagaunts_in_soft_cover():
    """SWOMP "Blast markers" example: PR 4 + WR 3 + 4 = 11 beats DR 3 + cover 1 + moving 1
    + 3 = 8; the 4" blast covers three more, Blast Rating 3 + 7 = 10 against 6, 10 and 14:
    only one more hormagaunt dies (the tie goes to the defender)."""
    spots = {
        "g1": (30.0, 24.0),
        "g2": (31.2, 25.0),
        "g3": (31.2, 23.0),
        "g4": (30.5, 26.0),
        "g5": (34.0, 27.0),
        "g6": (34.0, 21.0),
    }
    g = make(
        [
            {
                "id": "marine",
                "side": "blue",
                "x": 10.0,
                "y": 24.0,
                "stats": {"PR": 4, "DR": 4, "CR": 4, "MR": 4, "SR": 7, "HP": 1},
                "weapons": [{"name": "frag missile", "WR": 3, "range": 72, "blast": 4}],
            }
        ]
        + [{**GAUNT, "id": k, "x": x, "y": y} for k, (x, y) in spots.items()]
    )
    ev = apply(g, Shoot(actor="marine", target="g1", weapon="frag missile"), [4, 3, 7, 2, 6, 10, 1])
    res = events_of(ev, "resolution")
    assert "PR 4 + WR 3 + 4 = 11 beats DR 3 + cover 1 + moving 1 + 3 = 8" in res[0].text
    assert res[0].rule == "SWOMP-SHOOT" and res[0].rolls == [4, 3]
    blast = [e for e in res if e.rule == "SWOMP-BLAST"]
    assert [e.target for e in blast] == ["g2", "g3", "g4"]
    assert [e.outcome for e in blast] == ["hit", "miss", "miss"]
    assert "Blast Rating 3 + 7 = 10 beats DR 3 + cover 1 + 2 = 6" in blast[0].text
    assert "DR 3 + cover 1 + 6 = 10" in blast[1].text
    assert "DR 3 + cover 1 + 10 = 14" in blast[2].text
    removed = sorted(m.id for m in g.state.models.values() if m.removed)
    assert removed == ["g1", "g2"]


def test_lascannon_against_the_moving_eldar_gravtank():
    """SWOMP "Shooting at vehicles" example: PR 4 + WR 7 + 6 = 17 beats DR 10 + moving 1
    + 5 = 16; a body hit takes the 6 HP body to 3 (50%): the printed engine damage result,
    with its explosion roll (on a 1) and systems roll (targeters fail on a 3)."""
    g = make(
        [
            {"id": "marine", "side": "blue", "profile": "marine_lascannon", "x": 10.0, "y": 24.0},
            {
                "id": "falcon",
                "side": "red",
                "profile": "eldar_light_gravtank",
                "x": 30.0,
                "y": 24.0,
                "facing": 90.0,
                "state": {"speed": 10},
            },
        ]
    )
    ev = apply(g, Shoot(actor="marine", target="falcon", weapon="lascannon"), [6, 5, 3, 4, 8])
    res = events_of(ev, "resolution")
    assert "PR 4 + WR 7 + 6 = 17 beats DR 10 + moving 1 + 5 = 16" in res[0].text
    tank = g.state.models["falcon"]
    assert tank.vars["loc"]["body"] == 3
    dmg = [e for e in ev if e.kind == "status" and e.target == "falcon"][0]
    assert dmg.data["location"] == "body" and dmg.data["left"] == 3
    assert dmg.data["result"].startswith(
        "Engine damage: 1/2 MR, 1/2 Acc, roll for explosion "
        "immediately. Vehicle explodes on a 1, Blast Rating 15, "
        'damage 2, 6" diameter; Systems damage: Weapon '
        "targeters no longer function on a 3"
    )
    assert [e.outcome for e in res[1:]] == ["holds", "holds"]
    assert {"half_mr", "half_acc"} <= set(tank.vars["effects"])
    assert vehicles.accel(tank) == 2.5  # half of MR 10 halved again: 1/2 MR, 1/2 Acc
    assert not tank.removed


def test_the_gravtank_explodes_on_a_one():
    """The same hit with a 1 on the explosion roll: the tank explodes (Blast Rating 15)."""
    g = make(
        [
            {"id": "marine", "side": "blue", "profile": "marine_lascannon", "x": 10.0, "y": 24.0},
            {
                "id": "falcon",
                "side": "red",
                "profile": "eldar_light_gravtank",
                "x": 30.0,
                "y": 24.0,
                "facing": 90.0,
                "state": {"speed": 10},
            },
        ]
    )
    ev = apply(g, Shoot(actor="marine", target="falcon", weapon="lascannon"), [6, 5, 3, 1])
    assert g.state.models["falcon"].removed
    assert any(e.outcome == "explodes" for e in ev)


RING = [(33.0, 24.0), (28.5, 26.6), (28.5, 21.4), (31.5, 26.6), (31.5, 21.4), (27.0, 24.0)]


def _charge_game(defender: dict) -> object:
    gaunts = [
        {
            "id": f"g{i + 1}",
            "side": "green",
            "unit": "gaunts",
            "profile": "hormagaunt",
            "x": x,
            "y": y,
        }
        for i, (x, y) in enumerate(RING)
    ]
    return make([{**defender, "side": "blue", "x": 30.0, "y": 24.0}] + gaunts, first="green")


def test_six_hormagaunts_charge_a_marine_in_power_armour():
    """SWOMP "Multiple attackers" example: CR 3 + 1 charging = 4, plus 2 for each of the
    other five = 14, + 8 = 22 against DR 4 + power armour 4 + 3 = 11: won by 11, 3 HP."""
    g = _charge_game({"id": "marine", "profile": "space_marine"})
    ev = attack(g, Charge(actor="gaunts", target="marine"), [8, 3])
    fight = events_of(ev, "resolution")[0]
    assert sorted(fight.data["attackers"]) == [f"g{i}" for i in range(1, 7)]
    assert fight.data["value"] == 14 and fight.data["attacker"] == 22
    assert fight.text.count("2 +") >= 5 and "+ 8 = 22" in fight.text
    assert "DR 4 + armour 4 + 3 = 11" in fight.text
    assert fight.data["damage"] == 3
    assert g.state.models["marine"].removed
    for i in range(1, 7):
        gm = g.state.models[f"g{i}"]
        assert abs(((gm.x - 30) ** 2 + (gm.y - 24) ** 2) ** 0.5 - 25 / 25.4) < 0.05


def test_the_captain_with_a_conversion_field_takes_two():
    """The same charge against a captain: DR 4 + armour 4 + field 2 + 3 = 13; won by 9,
    more than 5 but less than 10: 2 HP."""
    g = _charge_game({"id": "captain", "profile": "marine_captain", "weapons": ["bolt pistol"]})
    ev = attack(g, Charge(actor="gaunts", target="captain"), [8, 3])
    fight = events_of(ev, "resolution")[0]
    assert "DR 4 + armour 4 + field 2 + 3 = 13" in fight.text
    assert fight.data["damage"] == 2
    assert g.state.models["captain"].hp == 1
