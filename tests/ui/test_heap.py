"""Leaving a battle hands the freed heap back (engine.ui.heap, decision 0006).

Why a test: the trim is what keeps the window's memory flat from game to game
(bench/memory.py measures it); here, that the window calls it when a battle closes and
that it is a real call where glibc has one.
"""

from __future__ import annotations

import ctypes.util
import sys

import pytest

from engine.ui import heap
from tests.ui.conftest import make_game, step


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or "libc.so" not in str(ctypes.util.find_library("c")),
    reason="malloc_trim is glibc's; elsewhere release() only collects garbage",
)
def test_release_trims_on_glibc():
    assert heap.release() is True


def test_a_new_game_releases_the_last_battles_memory(app, monkeypatch):
    calls = []
    monkeypatch.setattr(heap, "release", lambda: calls.append(1) or True)
    app.start(make_game(), {"blue": "human", "red": "human"})
    step(app)
    assert calls == []  # nothing was closed yet
    app.open_new_game()
    step(app)
    assert calls == [1]
