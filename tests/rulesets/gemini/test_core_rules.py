"""More of the Gemini core with forced dice and exact figures: profiles and weapons
checked on load (GM-PROFILE, GM-WEAPONS), models locked in combat (GM-I-LOCKED), no
shooting into a combat (GM-I-INTO-MELEE) and the turn limit (GM-I-END)."""

from __future__ import annotations

from engine.actions import EndPhase, Move, Shoot
from engine.ruleset import load
from rulesets.gemini import victory
from tests.rulesets.gemini.helpers import RIFLE, duel, to_phase

CONTACT = 25.0 / 25.4 + 0.01


def problems(spec):
    base = {"id": "m", "side": "blue", "x": 1.0, "y": 1.0}
    return [w for w, _ in load("gemini").build_model({**base, **spec})[1]]


def test_profiles_default_to_the_classic_figures():
    """GM-PROFILE, GM-I-CORE: M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7, no save, Act 4; W is hp."""
    m, probs = load("gemini").build_model({"id": "m", "side": "blue", "x": 1.0, "y": 1.0})
    assert not probs and m is not None
    assert {k: m.stats[k] for k in ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv", "Act")} == {
        "M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7, "Sv": 0, "Act": 4,
    }  # fmt: skip
    m2, _ = load("gemini").build_model(
        {"id": "m", "side": "blue", "x": 1.0, "y": 1.0, "stats": {"W": 3}}
    )
    assert m2 is not None and m2.hp == m2.max_hp == 3


def test_bad_profiles_and_weapons_are_refused_where_they_are():
    """GM-PROFILE, GM-WEAPONS: Sv 2-6 or none, whole numbers, known weapon keys, classes,
    parry values and sizes."""
    assert problems({"stats": {"Sv": 7}}) == ["stats.Sv"]
    assert problems({"stats": {"WS": 3.5}}) == ["stats.WS"]
    assert problems({"stats": {"Xs": 3}}) == ["stats.Xs"]
    assert problems({"weapons": [{"name": "w", "parry": 3}]}) == ["weapons[0].parry"]
    assert problems({"weapons": [{"name": "w", "class": "laser"}]}) == ["weapons[0].class"]
    assert problems({"weapons": [{"name": "w", "size": "huge"}]}) == ["weapons[0].size"]
    assert problems({"weapons": [{"name": "w", "reach": 2}]}) == ["weapons[0].reach"]
    assert problems({"weapons": [{"name": "w", "range": 12, "save": 1}]}) == ["weapons[0].save"]
    assert problems({"weapons": [{"name": "bolter"}]}) == []  # the catalog's figures


def test_a_catalog_weapon_takes_its_figures():
    """GM-WEAPONS: a weapon named in units.toml [weapons] takes its figures."""
    m, _ = load("gemini").build_model(
        {"id": "m", "side": "blue", "x": 1.0, "y": 1.0, "weapons": [{"name": "bolter"}]}
    )
    assert m is not None and m.weapons[0]["S"] == 4 and m.weapons[0]["save"] == -1


def test_a_model_in_contact_neither_moves_nor_shoots():
    """GM-I-LOCKED: in base contact with an enemy a model fights, it does not move or
    shoot."""
    g = duel({"weapons": [RIFLE]}, gap=CONTACT)
    assert "locked" in g.check(Move(actor="b", to=(20.0, 6.0))).reason
    to_phase(g, "shooting")
    assert "close combat" in g.check(Shoot(actor="b", target="r")).reason


def test_no_shooting_into_a_combat():
    """GM-I-INTO-MELEE: a target in contact with a friend of the shooter is not shot."""
    models = [
        {"id": "b", "side": "blue", "x": 20.0, "y": 10.0, "weapons": [RIFLE]},
        {"id": "f", "side": "blue", "x": 20.0, "y": 20.0},
        {"id": "r", "side": "red", "x": 20.0, "y": 20.0 + CONTACT},
    ]
    from engine.testing import make_game

    g = make_game("gemini", models)
    to_phase(g, "shooting")
    assert "into it" in g.check(Shoot(actor="b", target="r")).reason


def test_the_turn_limit_goes_to_the_larger_share_of_wounds_left():
    """GM-I-END: at the limit, the side with more of its starting wounds left wins."""
    g = duel({"stats": {"W": 2}}, {"stats": {"W": 2}}, turn_limit=1)
    g.state.models["r"].hp = 1
    for _ in range(8):
        g.apply(EndPhase())
    assert g.outcome().winner == "blue" and "50%" in g.outcome().reason
    g2 = duel(turn_limit=1)
    victory.at_turn_limit(g2.state)
    assert g2.state.over["winner"] is None
