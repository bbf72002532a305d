"""The worked examples in the docstrings of the dice and geometry services run.

Why doctests there: an example says what ``Roll.explain`` prints or what share of a base a
wall hides more exactly than prose, and a docstring example that no longer holds fails
here instead of misleading its reader (``Roll.explain``'s once did).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine.geometry

MODULES = ["engine.dice"] + [
    f"engine.geometry.{m.name}" for m in pkgutil.iter_modules(engine.geometry.__path__)
]
#: modules that must hold at least one example (the others may)
REQUIRED = {"engine.dice", "engine.geometry.bases", "engine.geometry.sight"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (above)"
    if name in REQUIRED:
        assert result.attempted > 0, f"{name} should show its use by example"
