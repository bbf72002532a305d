"""Panel text laid out between frames, not in them: the odds panel's re-layout.

Why: setting a rich-text box re-parses its markup, lays the lines out and renders them,
1 to 6 ms (more when the text outgrows the box and a scroll bar is built), and the odds
panel's text changes with every target the mouse crosses. Done inside the frame it
delays the picture the player is waiting for (the rings and the card follow the mouse);
throttled to ten a second it lags. So the frame only *owes* the new text: it is drawn
and shown first, and the text is laid out after the flip, in the gap before the next
frame is due, when the gap has room for it (``settle``). When the box was last laid out
``PATIENCE`` frames ago or more, its text is laid out in this gap whatever it costs: the
first change after a still moment shows at once, and the panel is never more than a
tenth of a second behind (the old throttle's promise, now kept off the frame).
Meanwhile the panel shows its last good picture, with the busy marker once the text has
waited a frame (issue 24).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: a frame at 60 Hz: the gap after a frame's flip ends this long after the frame began
FRAME_S = 1 / 60
#: frames after a box's last lay-out when its owed text goes in the next gap anyway: a
#: tenth of a second at 60 Hz, the most the panel lagged when it was throttled instead
PATIENCE = 6
#: the first guess of a re-layout's cost (seconds), before one is measured
FIRST_GUESS_S = 0.003


@dataclass
class _Owed:
    box: Any
    text: str
    since: int  # the frame it was first owed in (kept when a newer text replaces it)


class OwedText:
    """Text boxes whose new text waits for a gap between frames (module docstring)."""

    def __init__(self, budget: float = FRAME_S, clock: Callable[[], float] = time.perf_counter):
        self.budget = budget
        self.clock = clock
        #: what a re-layout is expected to cost: the last measured, decaying slowly
        self.cost = FIRST_GUESS_S
        self.frame = 0
        self._owed: dict[str, _Owed] = {}
        #: the frame each box (by key) was last laid out in
        self._laid: dict[str, int] = {}
        #: seconds the last ``settle`` spent laying out (the frame bench reads it)
        self.spent = 0.0

    def owe(self, key: str, box: Any, text: str, shown: str | None) -> None:
        """Ask for ``text`` in ``box`` (shown now: ``shown``); the same text as shown
        cancels what was owed."""
        if text == shown:
            self._owed.pop(key, None)
            return
        old = self._owed.get(key)
        self._owed[key] = _Owed(box, text, old.since if old is not None else self.frame)

    def waiting(self) -> list[Any]:
        """The boxes whose text has waited since an earlier frame: they show their last
        good picture and the busy marker."""
        return [o.box for o in self._owed.values() if o.since < self.frame]

    @property
    def busy(self) -> bool:
        """Text is owed: the window must draw another frame soon."""
        return bool(self._owed)

    def settle(self, frame_start: float, lay_out: Callable[[Any, str, str], None]) -> None:
        """After a frame's flip: lay out (``lay_out(box, key, text)``) what fits in the
        rest of the frame begun at ``frame_start`` (``clock`` seconds), and the text of
        a box last laid out ``PATIENCE`` frames ago or more; then the next frame begins."""
        self.spent = 0.0
        for key, o in list(self._owed.items()):
            t0 = self.clock()
            late = self.frame - self._laid.get(key, -PATIENCE) >= PATIENCE
            if not late and t0 - frame_start + self.cost > self.budget:
                continue
            lay_out(o.box, key, o.text)
            del self._owed[key]
            self._laid[key] = self.frame
            took = self.clock() - t0
            self.spent += took
            self.cost = max(took, 0.9 * self.cost)
        self.frame += 1
