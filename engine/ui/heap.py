"""Hand the memory a finished game freed back to the system.

Why: after a game the window's resident memory stood 100 MB or more above what it
uses, although the Python heap and every surface were freed: glibc keeps freed pages
that lie below live ones instead of returning them (measured in
docs/decisions/0006-window-memory-trim.md). ``malloc_trim(0)`` returns them. Leaving a
battle (a new game, a load) is when a whole game's worth of objects has just been
freed, so the window trims then; it takes milliseconds.

Elsewhere than glibc (macOS, Windows, musl) there is no ``malloc_trim`` and this does
nothing beyond a garbage collection.
"""

from __future__ import annotations

import ctypes
import gc
import sys
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
    except OSError:
        return None
    trim = getattr(libc, "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]  # ctypes types foreign functions as Any


def release() -> bool:
    """Collect garbage, then return the freed heap to the system; True if trimmed."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
