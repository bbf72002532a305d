"""Panel text laid out between frames, not in them: the odds panel's re-layout.

Why: setting a rich-text box re-parses its markup, lays the lines out and renders them,
1 to 6 ms, and the odds panel's text changes with every target the mouse crosses. Done
inside the frame it delays the picture the player is waiting for (the rings and the card
follow the mouse); throttled to ten a second it lags. So the frame only *owes* the new
text: it is drawn and shown first, and the text is laid out after the flip, in the gap
before the next frame is due, when the gap has room for it (``settle``): a frame and the
lay-out after it never share one 60 Hz slot past its end (issue 24: no slot over
16.7 ms). Meanwhile the panel shows its last good picture, with the busy marker once the
text has waited a frame; the first gap with room lays it out. Only a machine too slow to
leave room in any gap for ``STALE`` frames on end gets the text laid out anyway, so the
panel is never more than half a second behind.

How much room a lay-out needs is predicted from the last few: each one's cost scaled by
the length of the new text against its own (a longer text parses more, and one that
overflows the box is laid out twice), the largest of those; with ``SLACK`` to spare.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: a frame at 60 Hz: the gap after a frame's flip ends this long after the frame began
FRAME_S = 1 / 60
#: frames a text may wait for a gap with room before it is laid out anyway: half a
#: second at 60 Hz, a valve for a machine too slow for any gap (not reached on this one)
STALE = 30
#: the first guess of a re-layout's cost (seconds), before one is measured
FIRST_GUESS_S = 0.003
#: lay-outs the prediction remembers
REMEMBERED = 12
#: characters a text costs before its first one: the fixed part of a lay-out
BASE_CHARS = 100
#: seconds kept free at the end of the slot: the prediction is a guess
SLACK_S = 0.001


@dataclass
class _Owed:
    box: Any
    text: str
    since: int  # the frame it was first owed in (kept when a newer text replaces it)


class OwedText:
    """Text boxes whose new text waits for a gap between frames (module docstring)."""

    def __init__(self, budget: float | None = None, clock: Callable[[], float] = time.perf_counter):
        #: the slot a frame and the lay-out after it share (seconds; FRAME_S when not
        #: given, read when the panel is built, so a test may widen it for every window)
        self.budget = FRAME_S if budget is None else budget
        self.clock = clock
        #: the last lay-outs: (seconds, characters of their text)
        self._costs: list[tuple[float, int]] = []
        self.frame = 0
        self._owed: dict[str, _Owed] = {}
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

    def behind(self) -> int:
        """Frames the longest-waiting owed text has waited (0: the panels are current);
        the frame bench reports how far the panel lags."""
        return max((self.frame - o.since for o in self._owed.values()), default=0)

    @property
    def busy(self) -> bool:
        """Text is owed: the window must draw another frame soon."""
        return bool(self._owed)

    def predict(self, text: str) -> float:
        """Seconds the lay-out of ``text`` is expected to take (module docstring)."""
        n = len(text) + BASE_CHARS
        if not self._costs:
            return FIRST_GUESS_S * n / BASE_CHARS
        return max(took * n / (chars + BASE_CHARS) for took, chars in self._costs)

    @property
    def cost(self) -> float:
        """The last lay-out's seconds (0 before the first)."""
        return self._costs[-1][0] if self._costs else 0.0

    def settle(self, frame_start: float, lay_out: Callable[[Any, str, str], None]) -> None:
        """After a frame's flip: lay out (``lay_out(box, key, text)``) what fits in the
        rest of the slot begun at ``frame_start`` (``clock`` seconds), and a text that
        has waited ``STALE`` frames; then the next frame begins."""
        self.spent = 0.0
        for key, o in list(self._owed.items()):
            t0 = self.clock()
            stale = self.frame - o.since >= STALE
            room = t0 - frame_start + self.predict(o.text) + SLACK_S <= self.budget
            if not (room or stale):
                continue
            lay_out(o.box, key, o.text)
            del self._owed[key]
            took = self.clock() - t0
            self.spent += took
            self._costs = [*self._costs[-(REMEMBERED - 1) :], (took, len(o.text))]
        self.frame += 1
