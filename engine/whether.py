"""Checks that only need a yes or no: a rule may stop at its first reason.

Why: ``Ruleset.check`` lists *every* reason an action is refused, because the window and
the log show them all. An agent drawing a random action, or a candidate filter keeping
the legal ones, reads only ``.ok``; for a shot already out of range it need not measure
sight, the dearest question on the table (issue 24). Inside ``whether()`` a rule may
return as soon as it has one reason (``if out and only_whether(): return out``): the
verdict is the same, only the list is shorter. Per thread, because the window's hover
and the computer's worker thread check at the same time.

>>> only_whether()
False
>>> with whether():
...     only_whether()
True
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCAL = threading.local()


def only_whether() -> bool:
    """True inside ``whether()``: the caller reads the verdict, not the reasons."""
    return bool(getattr(_LOCAL, "on", False))


@contextmanager
def whether() -> Iterator[None]:
    """Checks in this block may stop at their first reason (nests; per thread)."""
    was = only_whether()
    _LOCAL.on = True
    try:
        yield
    finally:
        _LOCAL.on = was
