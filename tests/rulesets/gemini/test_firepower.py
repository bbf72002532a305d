"""The firepower balance in the computer's score (issue 20): each model's best shot as
the table stands, the shots still to come this turn counted in full.

Why: greedy play shot from beyond half range at 33% while the random side walked in
and hit at 50%; a position is worth the shots it offers and the shots it gives."""

from __future__ import annotations

import pytest

from engine.actions import EndPhase
from engine.battlefield import TerrainFeature
from engine.testing import make_game
from rulesets.gemini import score
from rulesets.gemini.chapters import measure

#: a guardsman's lasgun shot, each factor from the rulebook's tables: BS 3 hits on 4+
#: within half range (12"), on 5+ beyond it (GM-SHOOT, -1); S 3 against T 3 wounds on
#: 4+ (GM-WOUND); the lasgun's save -1 turns Sv 5 into 6+ (GM-SAVE)
NEAR = 3 / 6 * 3 / 6 * 5 / 6
FAR = 2 / 6 * 3 / 6 * 5 / 6
GUARDSMAN = 1 + 0.5 + 0.5  # score.value: one wound, WS 3 and BS 3


def guard(mid: str, side: str, x: float, y: float, **kw: object) -> dict:
    return {"id": mid, "side": side, "x": x, "y": y, "profile": "guardsman", **kw}


def test_the_best_shot_allows_for_range_half_range_and_the_closest_target():
    """GM-SHOOT: 19" apart (beyond half range) the shot hits on 5+, 9" apart on 4+,
    beyond 24" there is none; GM-TARGET: with a second foe nearer, each shooter aims at
    the nearest it can see."""
    far = make_game("gemini", [guard("b", "blue", 20, 10), guard("r", "red", 20, 30)])
    assert score.shots(far.state, far.ctx) == pytest.approx(
        {"b": FAR * GUARDSMAN, "r": FAR * GUARDSMAN}
    )
    near = make_game("gemini", [guard("b", "blue", 20, 10), guard("r", "red", 20, 20)])
    assert score.firepower(near.state, near.ctx) == pytest.approx(
        {"blue": NEAR * GUARDSMAN, "red": NEAR * GUARDSMAN}
    )
    out = make_game("gemini", [guard("b", "blue", 20, 10), guard("r", "red", 20, 36)])
    assert score.firepower(out.state, out.ctx) == {"blue": 0.0, "red": 0.0}
    two = make_game(
        "gemini",
        [guard("b", "blue", 20, 10), guard("r1", "red", 20, 20), guard("r2", "red", 36, 24)],
    )
    shots = score.shots(two.state, two.ctx)
    assert shots["b"] == pytest.approx(NEAR * GUARDSMAN)  # r1, the nearest, within 12"
    assert shots["r2"] == pytest.approx(FAR * GUARDSMAN)  # 21.3" centres, 20.3" base to base


def test_a_hidden_foe_is_passed_for_the_next_and_cover_costs_one():
    """GM-COVER: a foe behind a wall (under a quarter visible) is no target, so the
    shooter aims at the next nearest; a foe half behind a wall is in cover, -1."""
    wall = TerrainFeature("w", "wall", ((17.0, 14.0), (23.0, 14.0), (23.0, 14.5), (17.0, 14.5)))
    g = make_game(
        "gemini",
        [guard("b", "blue", 20, 10), guard("r1", "red", 20, 16), guard("r2", "red", 28, 19)],
        terrain=[wall],
    )
    st = g.state
    b, r1, r2 = st.models["b"], st.models["r1"], st.models["r2"]
    assert measure.visible(g.ctx, b, r1) < measure.HIDDEN
    assert measure.visible(g.ctx, b, r2) >= 1.0 - measure.COVERED
    assert score.shots(st, g.ctx)["b"] == pytest.approx(NEAR * GUARDSMAN)
    half = make_game(
        "gemini",
        [guard("b", "blue", 20, 10), guard("r", "red", 24.6, 16)],
        terrain=[wall],
    )
    seen = measure.visible(half.ctx, half.state.models["b"], half.state.models["r"])
    assert measure.HIDDEN <= seen < 1.0 - measure.COVERED
    cover = 2 / 6 * 3 / 6 * 5 / 6  # 4+ less one for cover: 5+
    assert score.shots(half.state, half.ctx)["b"] == pytest.approx(cover * GUARDSMAN)


def test_the_score_counts_the_shots_still_to_come_in_full():
    """In blue's movement phase blue's shot is sure to be taken before red moves: it
    counts at FIRE_NEXT, red's at FIRE_WEIGHT; once blue's shooting phase is over
    both count at FIRE_WEIGHT. Without the table the score has no such term."""
    g = make_game("gemini", [guard("b", "blue", 20, 10), guard("r", "red", 20, 20)])
    shot = NEAR * GUARDSMAN
    st = g.state
    assert st.phase == "movement" and st.active == "blue"
    gain = score.score(st, "blue", g.ctx) - score.score(st, "blue")
    assert gain == pytest.approx((score.FIRE_NEXT - score.FIRE_WEIGHT) * shot)
    assert score.fire_balance(st, "red", g.ctx) == pytest.approx(-gain)
    for _ in range(2):  # movement, then shooting: over without a shot
        g.apply(EndPhase())
    assert g.state.phase == "close_combat"
    assert score.fire_balance(g.state, "blue", g.ctx) == pytest.approx(0.0)


def test_the_enemys_shots_to_come_are_not_held_against_a_move():
    """Red's movement phase: stepping out from behind a wall into blue's sight and range
    (8.5" from blue's lasgun, centre to centre) changes red's score only by the closing term.
    Why: counted at half, the enemy's later shots outweighed every inch closed, and orks
    behind a wall waited there all game against a side that never shot."""
    wall = TerrainFeature("w", "wall", ((17.0, 14.0), (23.0, 14.0), (23.0, 14.5), (17.0, 14.5)))
    unarmed = {"weapons": []}
    specs = [guard("b", "blue", 20, 10), guard("r", "red", 20, 16, **unarmed)]
    g = make_game("gemini", specs, terrain=[wall], first="red")
    st = g.state
    assert st.phase == "movement" and st.active == "red"
    r, b = st.models["r"], st.models["b"]
    assert measure.visible(g.ctx, b, r) < measure.HIDDEN
    hidden = score.score(st, "red", g.ctx) - score.CLOSING_WEIGHT * score.closing(st, "red", g.ctx)
    r.x = 26.0
    assert measure.visible(g.ctx, b, r) == pytest.approx(1.0)
    assert score.shots(st, g.ctx)["b"] > 0
    shown = score.score(st, "red", g.ctx) - score.CLOSING_WEIGHT * score.closing(st, "red", g.ctx)
    assert shown == pytest.approx(hidden)


def test_sight_is_measured_in_batches_and_matches_the_rules_measure():
    """The batched visible shares (one matrix, or a moved model's row and column) are
    the rules' own (``measure.visible``), pair for pair, behind a wall and in the open."""
    wall = TerrainFeature("w", "wall", ((17.0, 14.0), (23.0, 14.0), (23.0, 14.5), (17.0, 14.5)))
    g = make_game(
        "gemini",
        [
            guard("b1", "blue", 20, 10),
            guard("b2", "blue", 26, 10),
            guard("r1", "red", 20, 16),
            guard("r2", "red", 28, 19),
        ],
        terrain=[wall],
    )
    st = g.state
    blue, red = st.live("blue"), st.live("red")
    pairs = [(a, b) for a in blue for b in red] + [(b, a) for a in blue for b in red]
    want = [measure.visible(g.ctx, a, b) for a, b in pairs]
    assert score.visible(g.ctx, pairs) == pytest.approx(want, abs=1e-9)
    assert min(want) < measure.HIDDEN < max(want)
    st.models["b1"].x = 22.5  # one model moved: its row and column measured anew
    want = [measure.visible(g.ctx, a, b) for a, b in pairs]
    assert score.visible(g.ctx, pairs) == pytest.approx(want, abs=1e-9)
