"""What UMR keeps about one state: the answers a frozen state gives once.

Why here: the questions the computer's candidate list asks of one unchanging state
belong to that state, with its lifetime.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from engine.state import GameState

T = TypeVar("T")


#: Where a frozen state keeps its answers: an attribute of the state itself, not a field,
#: so ``to_dict``, the checksum and equality never see it (as ``GameState.ids`` keeps its
#: order). Owned by the state, the answers live exactly as long as the state they are
#: about, and can never be read for another state.
_ANSWERS = "_umr_frozen"


class _Frozen(dict[int, dict[tuple, Any]]):
    """Per thread (its ident), the answers of that thread's innermost frozen block on the
    state that owns this table, keyed by the question and its arguments, e.g.
    ("contact", model id). A copy of the state (pickled, deep-copied) starts with none:
    the copy is a new state that may change."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Frozen, ())


@contextmanager
def frozen(state: GameState) -> Iterator[None]:
    """Promise that ``state`` does not change inside the block, so the questions the AI's
    candidate list asks over and over (live models, units, who touches whom, whose turn
    it is, which dice are left) are answered once. Why: one candidate list runs check()
    some fifty times, and each check sorted the models and scanned every base again. Per
    thread, so the window's thread and the computer's thinking thread never share
    answers; nested blocks on one state restore the outer one's answers.
    """
    table = state.__dict__.get(_ANSWERS)
    if table is None:
        table = state.__dict__.setdefault(_ANSWERS, _Frozen())
    me = threading.get_ident()
    prev = table.get(me)
    table[me] = {}
    try:
        yield
    finally:
        if prev is None:
            table.pop(me, None)
        else:
            table[me] = prev


def remember(state: GameState, key: tuple, compute: Callable[[], T]) -> T:
    """``compute()``, answered once per ``key`` while ``state`` is frozen by this thread
    (every time otherwise). Callers must not mutate what it returns."""
    table = state.__dict__.get(_ANSWERS)
    if not table:
        return compute()
    answers = table.get(threading.get_ident())
    if answers is None:
        return compute()
    try:
        return cast(T, answers[key])
    except KeyError:
        v = answers[key] = compute()
        return v
