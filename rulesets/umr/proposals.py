"""The UMR menu before ``check``, for agents that need one legal action, not the list.

Why: ``ai.candidates`` checks options until each unit's budget of legal ones is full,
and a shot's check measures sight (most of a random game's time, issue 24). The random
agent needs one legal action and the search's rollout policy only the attacks, so
``proposals`` hands them every option of the ready units unchecked; each checks what
it draws. The options are ``ai``'s own, in its order.
"""

from __future__ import annotations

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState
from rulesets.umr import measure, rounds
from rulesets.umr.ai import _model_options


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[act.Action], list[act.Action]] | None:
    """(actions known legal, actions to check): every option of each unit that may act
    now, then its "end activation"; None when ``side`` has no decision (``candidates``
    answers that)."""
    if state.over or side != state.active:
        return None
    with measure.frozen(state):
        cur = rounds.current(state)
        units = [cur] if cur is not None else rounds.ready(state, side)
        foes = [e for e in measure.live(state) if e.side != side]
        out: list[act.Action] = []
        for unit in units:
            for m in rounds.unit_models(state, unit):
                out += _model_options(state, ctx, m, foes)
            out.append(act.EndActivation(actor=unit))
    return [], out
