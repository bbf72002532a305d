"""Target marks (valid, cover, hidden, out of arc...), measured a slice per frame.

Why sliced: choosing a shot mode marks every enemy on the table, and each mark is a rules
check and often an exact line of sight: with a hundred enemies that is tens to hundreds
of milliseconds, several frames' worth (issue 24). The window must not stop for it. So
the frame asks ``Sliced.soon``, which measures targets for at most ``SLICE_S`` seconds
and answers with the last complete marks (the last good picture) until the new ones are
done; the table shows a busy marker meanwhile. A click, which commits an action, still
asks for the complete answer at once (``Controls.classify``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from engine.ruleset import NO_SIGHT, OUT_OF_ARC, OUT_OF_RANGE, TOO_FAR, Legality
from engine.ui.measure import SightView
from engine.ui.overlays import TargetMark

#: seconds of a frame the marks may take, all calls together (a 60 Hz frame has 16.7 ms)
SLICE_S = 0.004
#: a table with no more targets than this is marked at once, whatever the clock says
SMALL_TABLE = 8

Marks = dict[str, TargetMark]


def mark_of(leg: Legality, sight: SightView | None) -> TargetMark:
    """The mark of one target from the rules' verdict on the action aimed at it and,
    for a shot, the line of sight the window draws."""
    if leg.ok:
        if sight is not None and (sight.fraction < 0.995 or sight.soft or sight.hard):
            kind = "hard " if sight.hard else ""
            return TargetMark("cover", f"{kind}cover, {sight.fraction:.0%} visible", sight.fraction)
        return TargetMark("valid", "", sight.fraction if sight else None)
    codes = leg.codes
    if OUT_OF_ARC in codes:
        return TargetMark("arc", "out of arc")
    if OUT_OF_RANGE in codes or TOO_FAR in codes:
        return TargetMark("range", "out of range")
    if NO_SIGHT in codes or (sight is not None and sight.fraction <= 0.0):
        return TargetMark("hidden", "hidden", 0.0)
    return TargetMark("illegal", short(leg.reason))


def short(reason: str, n: int = 40) -> str:
    """The first reason, cut to ``n`` characters, for a mark's label."""
    first = reason.split(";")[0].strip()
    return first if len(first) <= n else first[: n - 1] + "\u2026"


class Sliced:
    """Marks being measured across frames, one job per key (see the module docstring)."""

    def __init__(self, budget: float = SLICE_S) -> None:
        self.budget = budget
        self._version: Hashable = None
        self._jobs: dict[Hashable, tuple[list[str], Marks]] = {}
        #: the last complete marks per action key (what the table shows meanwhile)
        self._shown: dict[Hashable, Marks] = {}
        self._owed_at = -1.0
        self._spent = 0.0

    def new_frame(self) -> None:
        """A frame begins: the budget is whole again (the overlays, the odds panel and
        the action tips all ask within one frame, and share it)."""
        self._spent = 0.0

    @property
    def busy(self) -> bool:
        """Marks were left half measured in the last quarter second: the window owes the
        player more frames (and shows the busy marker)."""
        return time.perf_counter() - self._owed_at < 0.25

    def soon(
        self,
        version: Hashable,
        key: Hashable,
        ids: Callable[[], list[str]],
        mark: Callable[[str], TargetMark],
        live: Callable[[str], bool],
    ) -> tuple[Marks, bool]:
        """(marks, complete): measure the targets of ``key`` (``ids()``, each by
        ``mark``) for at most the budget. Complete marks are returned whole; until then,
        the last complete marks of ``key`` (of an earlier version) for targets still
        ``live``, else those measured so far."""
        if version != self._version:
            self._version, self._jobs = version, {}
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = (list(reversed(ids())), {})
        todo, marks = job
        start = time.perf_counter()
        end = start + self.budget - self._spent
        small = len(todo) + len(marks) <= SMALL_TABLE
        while todo:  # at least one target a call: the marks always get done
            tid = todo.pop()
            marks[tid] = mark(tid)
            if todo and not small and time.perf_counter() >= end:
                self._owed_at = time.perf_counter()
                self._spent += self._owed_at - start
                last = self._shown.get(key)
                if last is None:
                    return dict(marks), False
                return {t: m for t, m in last.items() if live(t)}, False
        self._spent += time.perf_counter() - start
        if len(self._shown) > 64:
            self._shown.clear()
        self._shown[key] = marks
        return marks, True
