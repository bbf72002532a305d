"""The computer's reading of a position (``score``): the blows a spent foe can no longer
answer (GM-I-FIGHT: each model strikes once a phase)."""

from __future__ import annotations

import pytest

from engine.actions import Charge, EndPhase, Fight
from engine.testing import apply, make_game
from rulesets.gemini import score
from rulesets.gemini.chapters import tables as T
from rulesets.gemini.chapters import wounds
from tests.rulesets.gemini.helpers import duel, to_phase


def _two_on_one():
    """Blue's b1 and b2 both in base contact with red's r, blue's close combat phase."""
    g = make_game(
        "gemini",
        [
            {"id": "b1", "side": "blue", "x": 20.0, "y": 10.01},
            {"id": "b2", "side": "blue", "x": 20.99, "y": 11.0},
            {"id": "r", "side": "red", "x": 20.0, "y": 11.0},
        ],
    )
    to_phase(g, "close_combat")
    return g


def test_a_foe_that_has_struck_is_a_free_blow_for_the_others_in_contact():
    """GM-I-FIGHT: after b1's fight r has struck this phase, so b2's blow goes
    unanswered: the side to act counts its expected wounds (WS 3 against 3 hits on 4+,
    S 3 against T 3 wounds on 4+, then the save), the foe counts them against itself;
    before any fight, and once the phase is over, there is none."""
    g = _two_on_one()
    assert score.free_strikes(g.state, "blue") == 0.0
    apply(g, Fight(actor="b1", target="r"), dice=[1, 1])  # both miss
    r = g.state.models["r"]
    assert not r.removed and not g.state.models["b1"].removed
    per = float(T.chance(T.melee_need(3, 3)) * wounds.p_wound_and_unsaved(3, 0, r))
    assert score.free_strikes(g.state, "blue") == pytest.approx(per * score.value(r))
    assert score.free_strikes(g.state, "red") == pytest.approx(-per * score.value(r))
    g.apply(EndPhase())
    assert score.free_strikes(g.state, "blue") == 0.0


def test_the_free_blow_makes_the_first_fight_worth_more_than_ending():
    """Why the term (issue 20): read alone, b1's fight trades blows with r; with b2's
    unanswered blow to follow it is worth more than ending the phase without one."""
    g = _two_on_one()
    end = g.clone(dice_seed=1)
    end.apply(EndPhase())
    fought = g.clone(dice_seed=1)
    apply(fought, Fight(actor="b1", target="r"), dice=[1, 1])
    gain = score.score(fought.state, "blue", fought.ctx) - score.score(end.state, "blue", end.ctx)
    assert gain > 0.1


def _sergeant_and_guardsman(gap: float):
    """Blue's sergeant (WS 4, A 2, chainsword S 4 save -1, I 4) ``gap`` inches south of
    red's guardsman (WS 3, A 1, knife S 3, T 3, Sv 5, I 3), blue's movement phase."""
    return make_game(
        "gemini",
        [
            {"id": "s", "side": "blue", "profile": "sergeant", "x": 20.0, "y": 10.0},
            {"id": "g", "side": "red", "profile": "guardsman", "x": 20.0, "y": 10.0 + gap},
        ],
    )


def test_a_fight_still_to_come_this_turn_counts_its_blows_less_the_answer():
    """GM-MELEE: in contact in blue's movement phase, the close combat phase to come
    gives the sergeant's two blows (WS 4 against 3, S 4 against T 3, the guardsman's 5+
    save worsened by one) first, Initiative 4 against 3, then the guardsman's one
    blow back if it lives. Red's view is the same less; nothing in the recovery."""
    g = _sergeant_and_guardsman(1.0)
    st = g.state
    s, r = st.models["s"], st.models["g"]
    assert st.phase == "movement" and score.measure.in_contact(s, r)
    mine = 2 * float(T.chance(T.melee_need(4, 3)) * wounds.p_wound_and_unsaved(4, -1, r))
    back = float(T.chance(T.melee_need(3, 4)) * wounds.p_wound_and_unsaved(3, 0, s))
    want = mine * score.value(r) - (1 - mine) * back * score.value(s)
    assert score.fights_next(st, "blue") == pytest.approx(want)
    assert score.fights_next(st, "red") == pytest.approx(-want)
    assert want > 0.5
    to_phase(g, "recovery")
    assert score.fights_next(g.state, "blue") == 0.0


def test_a_charge_is_worth_more_than_the_shot_it_gives_up():
    """Why the term (issue 20): a charge was valued by the shot it gave up (a charger
    does not shoot, GM-CHARGE) and the inches it closed, never by the fight it starts,
    so greedy play never charged. The sergeant 5" from a guardsman: after the charge the
    score is higher than before it, the laspistol shot still to come counted."""
    g = _sergeant_and_guardsman(6.0)
    before = score.score(g.state, "blue", g.ctx)
    charged = g.clone(dice_seed=1)
    charged.apply(Charge(actor="s", target="g"))
    st = charged.state
    assert score.measure.in_contact(st.models["s"], st.models["g"])
    assert score.score(st, "blue", charged.ctx) > before + 0.3


def _closer_by(inches: float, turn: int, turn_limit: int) -> float:
    """Red's score with its model ``inches`` nearer blue's, less its score where it
    stands (30" off, centre to centre), on ``turn`` of a game of ``turn_limit`` turns;
    read without the table, so only the closing term tells the two apart."""
    scores = []
    for gap in (30.0, 30.0 - inches):
        g = duel(gap=gap, turn_limit=turn_limit)
        g.state.turn = turn
        scores.append(score.score(g.state, "red"))
    return scores[1] - scores[0]


def test_the_closing_pull_grows_as_the_turn_limit_nears():
    """GM-I-END counts the wounds left at the turn limit, so an inch not closed costs
    more the fewer turns are left (issue 20: greedy orks lost a third of their games to
    random guards): 8" nearer is worth 0.3 x 8 / 60 on turn 0, (1 + 5 x 1/10) times
    that on turn 1 of 10, (1 + 5 x 9/10) times on turn 9, and 6 times at the limit and
    beyond; without a turn limit it stays 0.3 x 8 / 60."""
    inch = score.CLOSING_WEIGHT * 8 / score.CLOSING_SPAN
    assert _closer_by(8, 1, 10) == pytest.approx(inch * 1.5)
    assert _closer_by(8, 9, 10) == pytest.approx(inch * 5.5)
    assert _closer_by(8, 12, 10) == pytest.approx(inch * 6)
    assert _closer_by(8, 9, 0) == pytest.approx(inch)
    assert score.closing_weight(duel(turn_limit=10).state) == pytest.approx(0.3 * 1.5)
