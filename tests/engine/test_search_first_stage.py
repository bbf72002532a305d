"""The search's first stage within its clock (docs/decisions/0008) and its frozen
positions (``engine.agents.frozen``): what the hard level's 0.5 s a decision rests on."""

from __future__ import annotations

import pytest

import engine.agents.greedy as greedy_module
import engine.agents.search as search_module
from engine.actions import Move
from engine.agents import GreedyAgent, SearchAgent
from engine.agents.frozen import Frozen
from engine.agents.search import NO_CLOCK
from tests.engine.conftest import make_toy_game


def _shot_on_offer():
    g = make_toy_game(seed=5, n=1)
    g.apply(Move(actor="b0", to=(10.0, 11.0)))
    return g


def test_a_frozen_state_thaws_as_it_was_however_the_original_moves_on():
    g = _shot_on_offer()
    before = g.state.checksum()
    frozen = Frozen(g.state)
    g.state.models["b0"].x += 3.0
    g.state.models["b0"].status.append("shaken")
    one, two = frozen.thaw(), frozen.thaw()
    assert one.checksum() == two.checksum() == before != g.state.checksum()
    one.models["b0"].status.append("pinned")
    one.models["r0"].hp -= 1
    assert two.checksum() == before  # each thaw is its own copy
    assert Frozen(g.state, whole=True).thaw().checksum() == g.state.checksum()


def test_greedys_first_stage_with_time_enough_is_greedys_own():
    """Sample k of an option is drawn on the same dice whichever look draws it, so the
    clocked first stage, given the time, values every option as greedy does."""
    g = _shot_on_offer()
    roots = g.candidates("blue")
    plain = GreedyAgent(3).weigh(g, "blue", roots, 0.0, 12345)
    timed = GreedyAgent(3).weigh(g, "blue", roots, 0.0, 12345, deadline=float("inf"))
    assert [(o.action, o.value, o.samples) for o in timed] == [
        (o.action, o.value, o.samples) for o in plain
    ]
    assert max(o.samples for o in plain) == GreedyAgent(3).attack_samples


def test_greedys_first_stage_out_of_time_takes_one_look_at_each_option():
    """With the clock run out, every option is still valued once (exactly, when it
    rolls no dice) and nothing more: the search's rollouts get the rest of the clock."""
    g = _shot_on_offer()
    roots = g.candidates("blue")
    options = GreedyAgent(3).weigh(g, "blue", roots, 0.0, 12345, deadline=0.0)
    assert len(options) == len(roots) and {o.samples for o in options} == {1}
    exact = {type(o.action).__name__: o.exact for o in options}
    assert exact["Shoot"] is False and exact["EndActivation"] is True


def test_the_search_with_no_clock_plays_on_one_look_at_each_option():
    """The hard level's first stage is greedy's, bounded by the clock: with none left the
    search plays on the one look, without rollouts, instead of overrunning its budget."""
    g = _shot_on_offer()
    agent = SearchAgent(2, budget=0.0)
    action = agent.choose(g, "blue")
    assert g.check(action).ok and agent.iterations == 0
    assert {o.samples for o in agent.last} == {1}


class _SlowClock:
    """A clock on a machine so loaded that every reading is 10 s after the last."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 10.0
        return self.now


def _seeded_game(budget: float, slow: bool, monkeypatch) -> tuple[list[str], list[int]]:
    """The actions of a short seeded game of the search against greedy, and the search's
    rollouts per decision, on the real clock or on ``_SlowClock``."""
    if slow:
        clock = _SlowClock()
        monkeypatch.setattr(search_module, "time", clock)
        monkeypatch.setattr(greedy_module, "time", clock)
    g = make_toy_game(seed=7, turn_limit=2)
    search = SearchAgent(4, budget=budget, max_iterations=8)
    agents: dict[str, SearchAgent | GreedyAgent] = {"blue": search, "red": GreedyAgent(5)}
    played, rollouts = [], []
    for n in range(12):
        side = g.to_act()
        if side is None:
            break
        action = agents[side].choose(g.clone(dice_seed=n, viewer=side), side)
        if side == "blue":
            rollouts.append(search.iterations)
        played.append(repr(action.to_dict()))
        g.apply(action)
    monkeypatch.undo()
    return played, rollouts


def test_the_bench_search_without_a_clock_plays_the_same_game_however_slow(monkeypatch):
    """The strength bench's hard rows (``budget=NO_CLOCK`` with a rollout cap) read no
    clock: a seed's game and its rollouts are the same on a machine so loaded that
    every clock reading is 10 s on, where a 4 s budget would cut both stages short."""
    idle = _seeded_game(NO_CLOCK, False, monkeypatch)
    loaded = _seeded_game(NO_CLOCK, True, monkeypatch)
    assert idle == loaded and max(idle[1]) == 8
    clocked = _seeded_game(4.0, True, monkeypatch)
    assert max(clocked[1]) == 0  # the clock the bench no longer reads would stop it


def test_a_search_without_a_clock_must_have_a_rollout_cap():
    with pytest.raises(ValueError):
        SearchAgent(1, budget=NO_CLOCK)
