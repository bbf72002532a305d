"""The search's vetted rollout step (``SearchAgent(vet=True)``, opt-in, issue 20).

The rollout policy plays the attack with the best exact expected damage, which never
weighs the blow back: an Inter Arma clash strikes both ways (the one attacked strikes
back when it saves), so a rollout could charge a root action for a losing clash that
no side would choose. Vetted, a side's attack is played only when it gains that side
something in expectation; else the side ends its phase. Not yet shown to help (Inter
Arma mirror, search against greedy, games 0-9 at a cap of 40: 4/10 with, 2/10 without).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.actions import Action
from engine.agents.greedy import foes_of, is_attack
from engine.game import Game

#: the value after an action in expectation, and whether it rolled no dice
Expected = Callable[[Game, str, Action, int], tuple[float, bool]]


def vetted(
    expected: Expected,
    sim: Game,
    side: str,
    to_act: str,
    a: Action,
    value: float,
    prev: float,
    key: int,
) -> tuple[Action, float, bool]:
    """(action, its expected value for ``side``, whether it was swapped): ``to_act``'s
    attack ``a`` when it gains ``to_act`` something in expectation (``side``'s value up
    from ``prev`` when ``to_act`` is ``side``, down when it is the enemy), else the
    ruleset's "end activation", valued by ``expected`` on the step's ``key``."""
    if not is_attack(a, foes_of(sim.state, to_act)):
        return a, value, False
    ours = to_act == side
    if (value >= prev - 1e-9) if ours else (value <= prev + 1e-9):
        return a, value, False
    step = sim.ruleset.advance(sim.state, sim.ctx)
    if step is None or not sim.allowed(step):
        return a, value, False
    v, _ = expected(sim, side, step, key)
    return step, v, True
