"""What UMR keeps in the state, typed: the keys of ``state.vars`` it writes or reads and
the per-model records in each model's ``vars``, with their accessors (``gs``, ``mv``);
and the answers a frozen state gives once (``frozen``, ``remember``).

Why typed: the records are plain JSON data (saves, clones and checksums depend on it),
but a misspelt key must be a type error, not a silent rules bug, so every module reads
them through these ``TypedDict``s. UMR keeps no dict of its own under ``state.vars``:
it writes the round's initiative order beside the engine's keys, as it always has (the
accessors never add a key the old code did not write, so checksums stay the same).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypedDict, TypeVar, cast

from engine.state import GameState, Model

T = TypeVar("T")


class Activations(TypedDict, total=False):
    """The engine's alternating activation record (``engine.turns.Alternating``), which
    UMR reads to know who has activated this round."""

    order: list[str]
    done: list[str]
    current: str | None
    next: int


class UmrVars(TypedDict, total=False):
    """``state.vars`` as UMR uses it."""

    #: the sides in this round's initiative order (UMR-ROUND)
    initiative: list[str]
    #: the engine's activation record (read only)
    act: Activations
    #: rounds to play, a scenario key (UMR-I-TURN-LIMIT; read only)
    turn_limit: int


class Climb(TypedDict):
    """A climb under way (UMR-CLIMBING): the feature, the ground point to climb down to
    (None to stay on top), the route's stretches as [kind, inches] ("up", "across",
    "down"), the elevation it started from and the route inches done."""

    feature: str
    to: list[float] | None
    legs: list[list[Any]]
    start: float
    done: float


class UmrModelVars(TypedDict, total=False):
    """Each UMR model's ``vars``: its action dice this activation and its records."""

    #: normal action dice left this activation (UMR-ACTION-DICE)
    dice: int
    #: a pending bonus die from a natural six, to be used at once (UMR-SIX-ACTION)
    bonus: int
    #: action dice the leader gave this round (UMR-LEADER)
    granted: int
    #: once-a-round abilities used this round (ability keys; "leader" for the gift)
    used: list[str]
    #: the leader's defence or damage rolls given for this round (UMR-I-LEADER)
    gifts: list[str]
    #: inches moved this activation
    moved: float
    #: height above the ground (inches) and the feature stood on (UMR-I-CLIMB)
    elev: float
    on: str
    #: a climb under way
    climb: Climb
    #: a drone's operator (UMR-DRONE)
    operator: str


def gs(state: GameState) -> UmrVars:
    """``state.vars`` as UMR's typed record (no key is added by asking)."""
    return state.vars  # type: ignore[return-value]  # a cast without typing.cast's call


def mv(model: Model) -> UmrModelVars:
    """A model's ``vars`` as UMR's typed record (no key is added by asking). Why not
    ``typing.cast``: it is a function call, and this is asked about 35,000 times in a
    random game (issue 24)."""
    return model.vars  # type: ignore[return-value]


def activated(state: GameState) -> list[str]:
    """Units that have activated this round (the engine's record; [] before round 1)."""
    return gs(state).get("act", {}).get("done", [])


# --------------------------------------------------------------------------- frozen state

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


def is_frozen(state: GameState) -> bool:
    """Whether this thread is inside a ``frozen`` block on ``state``."""
    table = state.__dict__.get(_ANSWERS)
    return table is not None and threading.get_ident() in table


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
