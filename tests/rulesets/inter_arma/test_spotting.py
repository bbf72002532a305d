"""Inter Arma 1.06, 4.I-II: sentries, the crawling spot test and water hiding, with
forced dice; each look is thrown when every side has moved (IA-I-SPOT)."""

from __future__ import annotations

from typing import Any

from engine.actions import EndPhase, Fight, Shoot
from tests.rulesets.inter_arma.helpers import BASE, act, box, fig, game, refused, texts, to_phase

BOW = [{"name": "bow", "kind": "bow"}]


def crawler(mid: str, side: str, x: float, y: float, **stats: Any) -> dict[str, Any]:
    s = fig(mid, side, x, y, **stats)
    s["state"] = {"crawling": True}
    return s


def archer(x: float = 10.0, facing: float = 0.0) -> dict[str, Any]:
    s = fig("b", "blue", x, 10, weapons=BOW)
    s["facing"] = facing
    return s


def to_ranged(g, dice: list[int]) -> list:
    """End both movement phases; the look's dice fall on the second."""
    act(g, EndPhase())
    return act(g, EndPhase(), dice)


GAP = 10 + BASE + 4 / 2  # 4 cm edge to edge from the archer at x = 10


def test_crawler_in_the_open_spotted_on_1_to_2():
    """IA-SIGHT, crawling a): in the open, an enemy facing the crawler rolls: 1-2 visible.
    A 3 leaves it unseen and the bow cannot shoot it; a 2 spots it."""
    g = game(archer(), crawler("r", "red", GAP, 10))
    ev = to_ranged(g, [3])
    assert "looks for crawling r" in texts(ev)
    assert "crawls unseen" in refused(g, Shoot(actor="b", target="r"))
    g = game(archer(), crawler("r", "red", GAP, 10))
    to_ranged(g, [2])
    act(g, Shoot(actor="b", target="r"), [1])


def test_armoured_crawler_spotted_on_1_to_3():
    """IA-SIGHT, crawling a): 1-3 if armoured."""
    g = game(archer(), crawler("r", "red", GAP, 10, armored=True))
    to_ranged(g, [3])
    assert g.state.models["r"].vars.get("spotted")


def test_crawler_in_woods_spotted_on_1_or_1_to_2_armoured():
    """IA-SIGHT, crawling b): in woods 1 visible, 1-2 if armoured."""
    woods = (box("w", "woods", 11.5, 8, 16, 12),)
    g = game(archer(), crawler("r", "red", GAP, 10), crawler("a", "red", GAP, 11.2, armored=True),
             features=woods)  # fmt: skip
    to_ranged(g, [2, 2])
    assert not g.state.models["r"].vars.get("spotted")
    assert g.state.models["a"].vars.get("spotted")


def test_only_an_enemy_facing_the_crawler_rolls():
    """IA-SIGHT: 'roll 1d6 if enemy is facing the direction of your fig': the archer
    facing west does not test a crawler east of it (no dice at all)."""
    g = game(archer(facing=180.0), crawler("r", "red", GAP, 10))
    to_ranged(g, [])
    assert "crawls unseen" in refused(g, Shoot(actor="b", target="r"))


def test_no_crawling_test_in_rain_fog_or_night():
    """IA-WEATHER b, IA-NIGHT b: the crawler is not tested for and stays unseen."""
    for cond in ("rain", "fog", "night"):
        g = game(archer(), crawler("r", "red", GAP, 10), conditions=cond)
        act(g, EndPhase())
        ev = act(g, EndPhase(), [])
        assert "looks for" not in texts(ev)
        assert g.state.phase == "ranged" and "crawls unseen" in refused(
            g, Shoot(actor="b", target="r")
        )


def test_water_hides_a_crawler_on_4_plus():
    """IA-SIGHT: stream/lake/river, a d6 each look: 4+ hidden (no spot test); 3 and
    the crawler is tested as in the open."""
    stream = (box("s", "stream", 11.5, 8, 16, 12),)
    g = game(archer(), crawler("r", "red", GAP, 10), features=stream)
    ev = to_ranged(g, [4])
    assert "water hides r" in texts(ev) and "looks for" not in texts(ev)
    g = game(archer(), crawler("r", "red", GAP, 10), features=stream)
    to_ranged(g, [3, 1])
    assert g.state.models["r"].vars.get("spotted")


def sentry(mid: str, x: float, y: float = 10.0) -> dict[str, Any]:
    s = fig(mid, "red", x, y, weapons=BOW)
    s["state"] = {"sentry": True}
    s["facing"] = 180.0
    return s


def test_sentry_sights_on_4_plus_in_the_open():
    """IA-SIGHT, sentries a): a d6 for the enemy within 30 cm, 4+ sights it. Before the
    alarm the sentries' side sees no enemy to shoot; a 4 raises it."""
    far = 10 + BASE + 20 / 2  # 20 cm edge to edge
    g = game(fig("b", "blue", 10, 10), sentry("s", far))
    ev = to_ranged(g, [3])
    assert "sentry s looks for b" in texts(ev)
    act(g, EndPhase())
    assert "not raised the alarm" in refused(g, Shoot(actor="s", target="b"))
    g = game(fig("b", "blue", 10, 10), sentry("s", far))
    ev = to_ranged(g, [4])
    assert "red is alarmed" in texts(ev)
    act(g, EndPhase())
    act(g, Shoot(actor="s", target="b"), [1])


def test_sentry_in_woods_needs_6():
    """IA-SIGHT, sentries b): in woods only a 6 sights the enemy."""
    far = 10 + BASE + 20 / 2
    woods = (box("w", "woods", far - 1, 8, far + 1, 12),)
    g = game(fig("b", "blue", 10, 10), sentry("s", far), features=woods)
    to_ranged(g, [5])
    assert "alarm" not in g.state.vars
    g = game(fig("b", "blue", 10, 10), sentry("s", far), features=woods)
    to_ranged(g, [6])
    assert g.state.vars["alarm"] == ["red"]


def test_sentries_see_10_cm_less_at_night():
    """IA-NIGHT c: at night sentries roll only within 20 cm; at 25 cm no die."""
    g = game(fig("b", "blue", 10, 10), sentry("s", 10 + BASE + 25 / 2), conditions="night")
    act(g, EndPhase())
    ev = act(g, EndPhase(), [])
    assert "sentry" not in texts(ev)
    g = game(fig("b", "blue", 10, 10), sentry("s", 10 + BASE + 19 / 2), conditions="night")
    act(g, EndPhase())
    ev = act(g, EndPhase(), [4])
    assert "red is alarmed" in texts(ev)


def test_an_attack_raises_the_alarm():
    """IA-I-SENTRY: a side on watch is alarmed when an enemy strikes or shoots at it."""
    g = game(fig("b", "blue", 10, 10), sentry("s", 10 + BASE + 0.01), first="blue")
    to_ranged(g, [1])
    to_phase(g, "melee")
    ev = act(g, Fight(actor="b", target="s"), [6, 1, 1])
    assert "red is alarmed" in texts(ev)


def test_the_computer_shoots_past_a_hidden_crawler():
    """IA-I-SPOT: the computer's shots skip an unseen crawler for an enemy it sees."""
    from rulesets.inter_arma import candidates

    g = game(archer(), crawler("r", "red", GAP, 10), fig("s", "red", GAP + 2, 12))
    to_ranged(g, [3])
    shots = [a.target for a in candidates.candidates(g.state, "blue", g.ctx) if a.KIND == "shoot"]
    assert shots == ["s"]
