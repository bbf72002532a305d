"""Ballistic attacks (UMR "Ballistic attack"): the 1/4 - 3/4 method measured by the
geometry service, the range bands, the sniper, and the odds shown before the shot."""

from __future__ import annotations

import pytest

from engine.actions import Shoot
from engine.ruleset import NO_SIGHT, OUT_OF_RANGE
from engine.testing import apply, events_of, refusal
from tests.rulesets.umr.helpers import game, hp, spec, terrain

D = 25 / 25.4  # a 25 mm base in inches


def shot(x=20.0, y=10.0, features=(), shooter=None, **kw):
    g = game(
        spec("a", "blue", 10, 10, stats=shooter or {"BALLISTIC": 1}),
        spec("x", "red", x, y),
        features=features,
        **kw,
    )
    return g


def wall(top):
    return (terrain("w", "wall", (17, 8, 17.5, top)),)


def mods_of(ev):
    return events_of(ev, "resolution")[0].data["attack"] - events_of(ev, "resolution")[0].rolls[0]


def test_clear_shot_in_the_open():
    """UMR-BALLISTIC: d6 + BALLISTIC against d6 + DEFENSE, hit rolls damage."""
    g = shot()
    ev = apply(g, Shoot(actor="a", target="x"), [4, 2, 5])
    assert mods_of(ev) == 1 and events_of(ev, "resolution")[0].outcome == "hit" and hp(g, "x") == 10


@pytest.mark.parametrize("top, mod", [(9.8, 1), (10.0, 0)])
def test_quarter_hidden_is_clear_half_hidden_is_cover(top, mod):
    """UMR-BALLISTIC: up to 1/4 hidden no penalty (17% here); up to 3/4 cover -1 (50%)."""
    g = shot(features=wall(top))
    ev = apply(g, Shoot(actor="a", target="x"), [4, 2, 1])
    assert mods_of(ev) == mod
    if mod == 0:
        assert "cover (50% hidden) \u22121 (UMR-BALLISTIC)" in events_of(ev, "resolution")[0].text


def test_more_than_three_quarters_hidden_is_no_shot():
    """UMR-BALLISTIC: obstructed by more than 3/4: blocked from view."""
    g = shot(features=wall(10.2))
    assert (
        refusal(apply(g, Shoot(actor="a", target="x")))
        == "x is blocked from view (85% hidden by w; more than 3/4 hidden: no shot) (UMR-BALLISTIC)"
    )
    assert NO_SIGHT in shot(features=wall(10.2)).check(Shoot(actor="a", target="x")).codes


def test_low_wall_and_woods_give_cover():
    """UMR-BALLISTIC, UMR-I-COVER: behind a low wall or at the edge of woods: -1; deeper
    than 2" into woods: hidden."""
    g = shot(features=(terrain("lw", "low_wall", (18.5, 5, 19, 15)),))
    assert mods_of(apply(g, Shoot(actor="a", target="x"), [4, 2, 1])) == 0
    g = shot(features=(terrain("wd", "woods", (19, 5, 25, 15)),))
    assert mods_of(apply(g, Shoot(actor="a", target="x"), [4, 2, 1])) == 0
    g = shot(x=22.5, features=(terrain("wd", "woods", (19, 5, 25, 15)),))
    assert "blocked from view" in refusal(apply(g, Shoot(actor="a", target="x")))


@pytest.mark.parametrize("gap, mod", [(11.9, 1), (12.0, 0), (18.0, 0), (24.0, 0)])
def test_range_bands(gap, mod):
    """UMR-RANGE: under 12" no penalty; 12" to 24" -1 (base to base)."""
    g = shot(x=10 + D + gap)
    assert mods_of(apply(g, Shoot(actor="a", target="x"), [4, 2, 1])) == mod


def test_beyond_24_inches_is_out_of_range():
    """UMR-RANGE: farther than 24" cannot be shot at."""
    g = shot(x=10 + D + 25)
    assert (
        refusal(apply(g, Shoot(actor="a", target="x")))
        == 'target out of range (25.0" > 24") (UMR-RANGE)'
    )
    far = shot(x=10 + D + 25).check(Shoot(actor="a", target="x")).find(OUT_OF_RANGE)
    assert far is not None and far.data["limit"] == 24 and round(far.data["distance"], 1) == 25.0


def test_sniper_ignores_penalties_and_range_but_not_a_blocked_view():
    """UMR-SNIPER (UMR-I-SNIPER): no cover or range penalty, no range limit; more than 3/4
    hidden still cannot be shot."""
    g = shot(x=24, features=wall(10.0), shooter={"BALLISTIC": 2, "ability": "sniper"})
    assert mods_of(apply(g, Shoot(actor="a", target="x"), [4, 2, 1])) == 2
    g = shot(x=60, y=40, shooter={"ability": "sniper"})
    assert mods_of(apply(g, Shoot(actor="a", target="x"), [4, 2, 1])) == 0
    g = shot(features=wall(10.2), shooter={"ability": "sniper"})
    assert "blocked from view" in refusal(apply(g, Shoot(actor="a", target="x")))


def test_odds_match_the_roll_and_the_event_chance():
    """UMR-BALLISTIC: the preview's chance is the one the resolution reports."""
    g = shot(x=24, features=wall(10.0))  # BALLISTIC +1, cover -1, range -1: net -1
    o = g.odds(Shoot(actor="a", target="x"))
    # P(d6 - 1 > d6 and defence die not a six) = 10/36
    assert o.chance == pytest.approx(10 / 36) and o.chance.denominator == 18
    ev = apply(g, Shoot(actor="a", target="x"), [3, 2])
    assert events_of(ev, "resolution")[0].chance == pytest.approx(float(o.chance))
    assert g.odds(Shoot(actor="a", target="nobody")) is None


def test_a_model_on_top_of_a_wall_sees_over_it():
    """UMR-BALLISTIC "if a model can see its target" (UMR-I-CLIMB): a figure standing on
    a 3" wall shoots over it at a target beyond (audit c02: was 100% hidden)."""
    w = (terrain("w", "wall", (20, 0, 20.5, 48), height=3),)
    g = game(
        spec("ontop", "blue", 19.4, 24, state={"elev": 3.0, "on": "w"}),
        spec("target", "red", 26, 24),
        features=w,
    )
    ev = apply(g, Shoot(actor="ontop", target="target"), [5, 1, 1])
    assert events_of(ev, "resolution")[0].outcome == "hit" and hp(g, "target") == 14
    g = game(spec("ground", "blue", 19.4, 24), spec("target", "red", 26, 24), features=w)
    assert "blocked from view" in refusal(apply(g, Shoot(actor="ground", target="target")))


def test_a_freed_table_never_answers_for_a_new_one_at_its_address():
    """UMR-BALLISTIC verdicts live on the battlefield's table: 400 tables, alternately with
    and without a wall between the two models, each get their own answer (the id-keyed
    caches this replaces gave 168 stale verdicts of 400 in this loop)."""
    import gc

    from engine.battlefield import Battlefield, TerrainFeature
    from engine.dice import Dice
    from engine.events import EventLog
    from engine.ruleset import Context
    from engine.state import Model
    from rulesets.umr.chapters import measure

    wall = TerrainFeature("w", "wall", ((9.0, 0.0), (11.0, 0.0), (11.0, 20.0), (9.0, 20.0)))
    a = Model("a", "x", "a", 2.0, 10.0, base=25.0)
    b = Model("b", "y", "b", 18.0, 10.0, base=25.0)
    stale = 0
    for k in range(400):
        ctx = Context(Battlefield(terrain=(wall,) if k % 2 else ()), Dice(1), EventLog())
        blocked = bool(measure.no_shot(ctx, a, b, sniper=False))
        stale += blocked != bool(k % 2)
        stale += bool(measure.line_of_fire(ctx, a, b, sniper=False).reason) != bool(k % 2)
        del ctx
        if k % 7 == 0:
            gc.collect()
    assert stale == 0


def test_a_weapon_the_model_lacks_is_refused():
    """Issue 19, audit D20: UMR has no weapon lists (UMR-BALLISTIC: d6 + BALLISTIC), so a
    shot naming a weapon the model does not carry is refused, not resolved as if it had
    named none; naming a weapon it does carry resolves as its own ballistic attack."""
    g = shot()
    why = refusal(apply(g, Shoot(actor="a", target="x", weapon="death ray")))
    assert "a carries no weapon 'death ray'" in why
    g = game(
        spec("a", "blue", 10, 10, stats={"BALLISTIC": 1}, weapons=[{"name": "pistol"}]),
        spec("x", "red", 20, 10),
    )
    ev = apply(g, Shoot(actor="a", target="x", weapon="pistol"), [4, 2, 5])
    assert mods_of(ev) == 1 and hp(g, "x") == 10


def test_a_refused_weapon_is_kept_in_the_save_log(tmp_path):
    """UMR-BALLISTIC, issue 19: ``run FILE --save`` of a script whose shot names a weapon the model
    lacks writes a save whose log holds the refusal; the refusal changes nothing, so the
    save replays ok with no steps."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from engine import persistence

    root = Path(__file__).resolve().parents[3]
    scen = tmp_path / "s.toml"
    scen.write_text(
        'ruleset = "umr"\nseed = 1\ntable = [72, 48]\nfirst = "blue"\n'
        '[[models]]\nid = "a"\nside = "blue"\nx = 10.0\ny = 10.0\n'
        '[[models]]\nid = "x"\nside = "red"\nx = 20.0\ny = 10.0\n'
        '[[actions]]\nactor = "a"\ndo = "shoot"\ntarget = "x"\nweapon = "death ray"\n'
    )
    save = tmp_path / "g.json"
    cmd = [sys.executable, str(root / "main.py"), "run", str(scen), "--save", str(save)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    log = json.loads(save.read_text())["log"]
    assert any(e["kind"] == "refused" and "no weapon 'death ray'" in e["text"] for e in log)
    _, report = persistence.replay_file(save)
    assert report.ok and report.steps == 0


def test_other_models_never_block_the_line_of_fire():
    """UMR-BALLISTIC (UMR-I-COVER): only terrain hides a target; a model on a 60 mm base
    squarely between shooter and target gives it neither cover nor concealment (audit
    c19, kept as the interpretation says)."""
    g = game(
        spec("a", "blue", 10, 10, stats={"BALLISTIC": 1}),
        spec("big", "red", 17, 10, base=60.0),
        spec("x", "red", 19.5, 10),
    )
    ev = apply(g, Shoot(actor="a", target="x"), [4, 2, 5])
    assert mods_of(ev) == 1 and events_of(ev, "resolution")[0].outcome == "hit"
    assert hp(g, "x") == 10 and "cover" not in events_of(ev, "resolution")[0].text


def test_a_model_that_climbs_a_wall_in_play_shoots_from_the_top():
    """UMR-CLIMBING / UMR-BALLISTIC (UMR-I-CLIMB): climbing to a vantage point is what
    gives the view; a model that reaches the top of a 3" wall with a 6 (halved: 3") shoots
    over it with the bonus die from that six (audit c02b: was refused, 100% hidden)."""
    from rulesets.umr.actions import Climb

    w = (terrain("w", "wall", (20, 0, 20.5, 48), height=3),)
    g = game(
        spec("c", "blue", 19.4, 24), spec("t", "red", 26, 24), spec("y", "red", 60, 40), features=w
    )
    assert "blocked from view" in refusal(apply(g, Shoot(actor="c", target="t")))
    apply(g, Climb(actor="c", feature="w", count=1), [6])
    ev = apply(g, Shoot(actor="c", target="t"), [5, 1, 1])
    assert events_of(ev, "resolution")[0].outcome == "hit" and hp(g, "t") == 14


def test_damage_beyond_the_targets_health_does_not_carry_over():
    """UMR-SIX-DAMAGE "damage does not carry over to the next attack": sixes on damage
    keep rolling (6 + 6 + 5 = 17 on a 15-health target), and the 2 beyond its health are
    lost; the next shot deals only its own damage die (2: 15 -> 13)."""
    g = game(spec("a", "blue", 10, 10), spec("x", "red", 20, 10), spec("y", "red", 20, 14))
    ev = apply(g, Shoot(actor="a", target="x"), [4, 2, 6, 6, 5])
    assert g.state.models["x"].removed and hp(g, "x") == 0
    assert events_of(ev, "resolution")[0].outcome == "hit"
    apply(g, Shoot(actor="a", target="y"), [4, 2, 2])
    assert hp(g, "y") == 13
