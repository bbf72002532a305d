"""The search's vetted rollout policy (``SearchAgent(vet=True)``, issue 20): a clash
strikes both ways (IA-MELEE-1: the one attacked strikes back when it saves), so the
attack with the best chance of putting the enemy down can lose more than it gains.

Each position has the clashing side play the melee phase last, the other side having
ended its own: the score counts the clash the enemy will declare anyway (a contact is
worth its coming clash, rulesets/inter_arma/score.py), so only there does ending the
phase put off a losing clash, to the next turn."""

from __future__ import annotations

from engine.actions import EndPhase, Fight
from engine.agents.search import SearchAgent
from engine.agents.vet import vetted
from tests.rulesets.inter_arma.helpers import BASE, act, fig, game, to_phase

CHIEF = {"class": "commander"}
#: figures far off on both sides, so that no clash ends the battle (IA-I-END)
AWAY = (fig("b_far", "blue", 5.0, 40.0), fig("r_far", "red", 65.0, 40.0))


def _last(specs, side: str):
    """The game in the melee phase with ``side`` to play it last: the other side
    opened it and ended it without a clash."""
    other = "red" if side == "blue" else "blue"
    g = game(*specs, *AWAY, first=other)
    to_phase(g, "melee")
    act(g, EndPhase())
    assert g.state.active == side
    return g


def _clash(attacker_side: str):
    """A regular touching a commander of the other side, in the melee phase of the
    regular's side, who plays it last."""
    if attacker_side == "blue":
        specs = (fig("reg", "blue", 30.0, 10.0), fig("chief", "red", 30.0 + BASE, 10.0, **CHIEF))
    else:
        specs = (fig("chief", "blue", 30.0, 10.0, **CHIEF), fig("reg", "red", 30.0 + BASE, 10.0))
    return _last(specs, attacker_side), Fight(actor="reg", target="chief")


def _vet(g, side: str, to_act: str, a, key: int):
    # 24 samples a step, not the default 6: the standing value already counts the clash
    # to come, so a clash that pays gains on it only by the contact it leaves for the
    # next turn, and six samples of one clash miss that a time in five
    agent = SearchAgent(1, vet=True, reply_samples=24)
    prev = agent._final(g, side)
    value, _ = agent._expected_exact(g, side, a, key)
    return vetted(agent._expected_exact, g, side, to_act, a, value, prev, key), prev


def _swaps(g, side: str, to_act: str, a) -> int:
    """Of ten rollout steps, how many swapped ``a`` for the end of the phase."""
    out = 0
    for key in range(10):
        (b, value, swapped), prev = _vet(g, side, to_act, a, 1000 * key)
        assert swapped == (b == EndPhase())
        out += swapped
    return out


def test_our_losing_clash_gives_way_to_the_end_of_the_phase():
    """IA-MELEE-1, IA-SAVE: the commander has +2 on the initiative and on his save; a
    regular's clash with him loses more than it wins, and the rollout ends the phase."""
    g, fight = _clash("blue")
    assert _swaps(g, "blue", "blue", fight) >= 8


def test_the_enemys_losing_clash_gives_way_too():
    g, fight = _clash("red")
    assert _swaps(g, "blue", "red", fight) >= 8


def test_a_clash_that_pays_is_played():
    g = _last(
        (fig("chief", "blue", 30.0, 10.0, **CHIEF), fig("reg", "red", 30.0 + BASE, 10.0)), "blue"
    )
    fight = Fight(actor="chief", target="reg")
    assert _swaps(g, "blue", "blue", fight) <= 2
    (a, value, swapped), prev = _vet(g, "blue", "blue", fight, 0)
    assert a == fight or swapped  # the action played is the attack or its swap
