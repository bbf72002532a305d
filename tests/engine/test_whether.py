"""``engine.whether`` (issue 24): inside ``whether()`` a rule may stop at its first reason.
The verdict must not change: every action of a menu is allowed exactly when its full
check says so, and the short cut is taken (a refused shot lists fewer reasons)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from engine.actions import Shoot
from engine.agents import RandomAgent
from engine.scenario import load_scenario, new_game
from engine.whether import only_whether, whether

ROOT = Path(__file__).resolve().parents[2]


def test_the_flag_is_scoped_nested_and_per_thread():
    seen: list[bool] = []
    assert not only_whether()
    with whether():
        with whether():
            assert only_whether()
        assert only_whether()
        t = threading.Thread(target=lambda: seen.append(only_whether()))
        t.start()
        t.join()
    assert seen == [False]  # another thread checks in full
    with pytest.raises(ValueError), whether():
        raise ValueError
    assert not only_whether()


def _played(key: str, actions: int):
    game = new_game(load_scenario(ROOT / "rulesets" / key / "scenarios" / "default.toml"))
    agents = {s: RandomAgent(i) for i, s in enumerate(game.state.sides)}
    for n in range(actions):
        side = game.to_act()
        if side is None:
            break
        game.apply(agents[side].choose(game.clone(dice_seed=n), side))
    return game


@pytest.mark.parametrize("key", ["gem", "umr"])
def test_allowed_is_the_full_checks_verdict(key):
    game = _played(key, 40)
    side = game.to_act()
    assert side is not None
    menu = game.ruleset.proposals(game.state, side, game.ctx)
    assert menu is not None
    actions = menu[0] + menu[1]
    shots = [
        Shoot(actor=m.id, target=t.id)
        for m in game.state.live(side)
        for t in game.state.live()
        if t.side != side
    ]
    verdicts = [(game.allowed(a), game.check(a).ok) for a in actions + shots]
    assert verdicts and all(quick == full for quick, full in verdicts)


def test_a_refused_gem_shot_stops_before_sight():
    """Over a few positions of one random game (which one shows a shot refused before
    its sight is measured depends on the menu the random agent draws from)."""
    shorter = 0
    for n in (40, 60, 80):
        game = _played("gem", n)
        side = game.to_act()
        if side is None:
            continue
        for m in game.state.live(side):
            for t in game.state.live():
                if t.side == side or not m.weapons:
                    continue
                a = Shoot(actor=m.id, target=t.id, weapon=str(m.weapons[0].get("name", "")))
                full = game.check(a)
                with whether():
                    quick = game.check(a)
                assert quick.ok == full.ok and set(quick.reasons) <= set(full.reasons)
                shorter += len(quick.reasons) < len(full.reasons)
    assert shorter > 0
