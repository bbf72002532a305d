"""A position the search forks many times, kept ready to copy (issue 24).

Why: every rollout step and every sample of the search starts from a position it has
seen before — the decision's own, or one a prefix without dice reached — so the
position is prepared once and copied many times. Pickling it whole makes each copy
rebuild every model from the pickle; ``GameState.copy`` showed that only a model's
mutable attributes (``stats``, ``weapons``, ``status``, ``vars``, ``base``) need a deep
copy, its strings and numbers being immutable. ``Frozen`` pickles those parts once and
keeps the rest as plain dicts, so a copy unpickles the small part and fills a dict per
model: the same state as ``GameState.copy`` gives (a ruleset's ``_`` caches left
behind, the id order carried), at 0.5-0.8 of the cost of unpickling the whole.
"""

from __future__ import annotations

import pickle
from typing import Any

from engine.state import GameState, rebuild, split


class Frozen:
    """``state`` as it stands now, to be copied by ``thaw`` however the original moves
    on afterwards. ``whole``: pickle it whole instead (the old way, for the benches)."""

    __slots__ = ("blob", "keys", "own", "order", "whole")

    def __init__(self, state: GameState, whole: bool = False) -> None:
        self.whole = whole
        if whole:
            self.blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
            return
        # the scalar attributes as they are now: the original may move on
        self.own: list[dict[str, Any]] = [m.__dict__.copy() for m in state.models.values()]
        self.blob = pickle.dumps(split(state, self.own), pickle.HIGHEST_PROTOCOL)
        self.keys = list(state.models)
        order = state.__dict__.get("_order")
        self.order = None if order is None else (order[0], list(order[1]))

    def thaw(self) -> GameState:
        """An independent copy of the state as it was frozen (``GameState.copy``'s)."""
        if self.whole:
            state: GameState = pickle.loads(self.blob)
            return state
        rest, parts = pickle.loads(self.blob)
        return rebuild(rest, self.keys, self.own, parts, self.order)
