"""The search's vetted rollout policy (``SearchAgent(vet=True)``, issue 20): a clash
strikes both ways (IA-MELEE-1: the one attacked strikes back when it saves), so the
attack with the best chance of putting the enemy down can lose more than it gains."""

from __future__ import annotations

from engine.actions import EndPhase, Fight
from engine.agents.search import SearchAgent
from engine.agents.vet import vetted
from tests.rulesets.inter_arma.helpers import BASE, fig, game, to_phase

CHIEF = {"class": "commander"}
#: figures far off on both sides, so that no clash ends the battle (IA-I-END)
AWAY = (fig("b_far", "blue", 5.0, 40.0), fig("r_far", "red", 65.0, 40.0))


def _clash(attacker_side: str):
    """A regular touching a commander of the other side, in the melee phase of the
    regular's side."""
    if attacker_side == "blue":
        specs = (fig("reg", "blue", 30.0, 10.0), fig("chief", "red", 30.0 + BASE, 10.0, **CHIEF))
    else:
        specs = (fig("chief", "blue", 30.0, 10.0, **CHIEF), fig("reg", "red", 30.0 + BASE, 10.0))
    g = game(*specs, *AWAY, first=attacker_side)
    to_phase(g, "melee")
    assert g.state.active == attacker_side
    return g, Fight(actor="reg", target="chief")


def _vet(g, side: str, to_act: str, a, key: int):
    agent = SearchAgent(1, vet=True)
    prev = agent._final(g, side)
    value, _ = agent._expected_exact(g, side, a, key)
    return vetted(agent._expected_exact, g, side, to_act, a, value, prev, key), prev


def _swaps(g, side: str, to_act: str, a) -> int:
    """Of ten rollout steps (the policy's six samples each), how many swapped ``a``
    for the end of the phase."""
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
    g = game(fig("chief", "blue", 30.0, 10.0, **CHIEF), fig("reg", "red", 30.0 + BASE, 10.0), *AWAY)
    to_phase(g, "melee")
    fight = Fight(actor="chief", target="reg")
    assert _swaps(g, "blue", "blue", fight) <= 2
    (a, value, swapped), prev = _vet(g, "blue", "blue", fight, 0)
    assert a == fight or swapped  # the action played is the attack or its swap
