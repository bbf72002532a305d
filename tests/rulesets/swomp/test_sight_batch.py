"""Sight read in batches (issue 24) and the share of a base that must show to be
sighted (SWOMP-I-SIGHT-SHARE): a wholly hidden target whose exact measure leaves a
rounding crumb of its base in view is not sighted; the quick "may fire at any of them"
of overwatch answers as asking each target in turn; the lazy menu measures no sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.agents import RandomAgent
from engine.geometry import Geometry
from engine.ruleset import NO_SIGHT
from engine.scenario import load_scenario, new_game
from rulesets.swomp import candidates
from rulesets.swomp.chapters import core, pending, shooting, table, watch
from rulesets.swomp.state import mv

SCENARIO = Path(__file__).resolve().parents[3] / "rulesets/swomp/scenarios/skirmish10.toml"


def _two_apart(a_pos, b_pos):
    game = new_game(load_scenario(SCENARIO))
    a = next(m for m in game.state.live() if m.side == game.state.sides[0])
    b = next(m for m in game.state.live() if m.side == game.state.sides[1])
    a.x, a.y = a_pos
    b.x, b.y = b_pos
    return game, a, b


def test_a_base_wholly_behind_a_wall_is_not_sighted_for_a_rounding_crumb():
    """SWOMP-SIGHT, SWOMP-I-SIGHT-SHARE: the exact measure leaves 1e-16 of the base in
    view (wholly in a wall's shadow); the target is hidden, and a shot at it refused."""
    game, a, b = _two_apart((0.16, 6.66), (14.48, 26.86))
    a.base = b.base = 25.0
    crumb = game.ctx.table.sight(a, b).visible
    assert 0 < crumb < 1e-12  # what the old test of "more than nothing" saw
    assert table.sight(game.ctx, a, b) == (False, table.NONE)
    assert table.visible(game.ctx, a, b) <= table.HIDDEN
    wpn = {"name": "gun", "range": 60, "arc": 360}
    why = shooting.target_problem(game.state, game.ctx, a, b, wpn)
    assert getattr(why, "code", None) == NO_SIGHT


def test_a_target_in_view_keeps_its_exact_cover():
    """The batch decides only whether the target is in view; a sighted target's cover is
    the exact measure's (here the open: none; a share of the base in view)."""
    game, a, b = _two_apart((10.0, 10.0), (14.0, 10.0))
    share = table.visible(game.ctx, a, b, game.state.live())
    assert share > table.HIDDEN
    s = game.ctx.table.sight(a, b)
    assert abs(share - s.visible) < 1e-9
    assert table.sight(game.ctx, a, b)[0] is True


@pytest.mark.parametrize("seed", [3, 4])
def test_may_aim_at_any_answers_as_each_target_in_turn(seed):
    """Overwatch's "may fire at one of them" skips the sight of a target a nearer one
    already rules out; it must agree with asking ``target_problem`` of every target."""
    game = new_game(load_scenario(SCENARIO))
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(game.state.sides)}
    compared = 0
    for n in range(60):
        side = game.to_act()
        if side is None:
            break
        if n % 3 == 0:
            st, ctx = game.state, game.ctx
            for w in st.live():
                foes = [t for t in st.live() if t.side != w.side]
                for wpn in core.ranged(w):
                    quick = watch.may_aim_at_any(st, ctx, w, foes, wpn)
                    full = any(shooting.target_problem(st, ctx, w, t, wpn) == "" for t in foes)
                    assert quick == full
                    compared += 1
                slow = any(
                    shooting.target_problem(st, ctx, w, t, wpn) == ""
                    for wpn in watch.usable(w)
                    for t in foes
                    if table.distance(w, t) <= float(wpn.get("range", 0))
                )
                assert watch.in_area(st, ctx, w, foes) == slow
                assert pending.can_fire_at(st, ctx, w, foes) == any(
                    shooting.target_problem(st, ctx, w, t, wpn) == ""
                    for wpn in core.ranged(w)
                    if wpn["name"] not in mv(w).get("jammed", [])
                    for t in foes
                )
        game.apply(agents[side].choose(game.clone(dice_seed=n), side))
    assert compared > 20


def test_the_lazy_menu_measures_no_exact_sight(monkeypatch):
    """``proposals`` (the random agent's and the rollouts' menu) offers shots by range and
    arc alone: the exact sight, the dearest measure, is left to ``check``."""
    game = new_game(load_scenario(SCENARIO))
    agent = RandomAgent(5)
    for n in range(12):
        side = game.to_act()
        game.apply(agent.choose(game.clone(dice_seed=n), side))
    side = game.to_act()
    assert side is not None

    def refuse(*_a, **_k):
        raise AssertionError("the lazy menu measured a sight")

    monkeypatch.setattr(Geometry, "sight", refuse)
    monkeypatch.setattr(Geometry, "visible_matrix", refuse)
    menu = candidates.proposals(game.state, side, game.ctx)
    assert menu is not None and len(menu[1]) > 1
