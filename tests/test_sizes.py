"""No giants: modules stay under 600 lines and functions under 80, except those named here.

Why a test: a module past what anyone reads in one sitting, or a function past a screen,
is where the next bug hides; the house rule says so, and this makes it a check. The
lists below are today's exceptions by name (with the size each had when it was listed).
An exception leaves the list once it is under the limit, and nothing new may join it,
so the lists can only get shorter.

A function's size runs from its ``def`` (or first decorator) to its last line, docstring
included; a module's is its line count.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE_LIMIT = 600
FUNCTION_LIMIT = 80

#: module -> its line count when listed
MODULES_OVER: dict[str, int] = {}

#: "module:function" -> its length when listed
FUNCTIONS_OVER = {
    "rulesets/gem/chapters/missile.py:area_fire": 92,
    "rulesets/swomp/chapters/fire_verbs.py:shoot_problems": 88,
    "rulesets/swomp/odds.py:odds": 86,
    "rulesets/swomp/chapters/vehicles.py:damage": 107,
    "rulesets/umr/chapters/attacks.py:resolve": 86,
    "rulesets/umr/odds.py:odds": 92,
}


def _files() -> list[Path]:
    skip = {".venv", ".git", "__pycache__"}
    return sorted(p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts))


def _sizes() -> tuple[dict[str, int], dict[str, int]]:
    """(module -> lines, "module:function" -> lines) for everything over the limits."""
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for path in _files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MODULE_LIMIT:
            modules[rel] = lines
        for node in ast.walk(ast.parse(text, filename=rel)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
                length = (node.end_lineno or node.lineno) - first + 1
                if length > FUNCTION_LIMIT:
                    key = f"{rel}:{node.name}"
                    functions[key] = max(length, functions.get(key, 0))
    return modules, functions


def _problems(found: dict[str, int], allowed: dict[str, int], limit: int, what: str) -> list[str]:
    out = []
    for name, size in sorted(found.items()):
        if name not in allowed:
            out.append(f"{name}: {size} lines, over the {limit}-line limit for a {what}; split it")
    for name in sorted(allowed):
        if name not in found:
            out.append(f"{name} is now under {limit} lines: take it off the list in test_sizes")
    return out


def test_no_module_over_600_lines_outside_the_list():
    modules, _ = _sizes()
    problems = _problems(modules, MODULES_OVER, MODULE_LIMIT, "module")
    assert not problems, "\n".join(problems)


def test_no_function_over_80_lines_outside_the_list():
    _, functions = _sizes()
    problems = _problems(functions, FUNCTIONS_OVER, FUNCTION_LIMIT, "function")
    assert not problems, "\n".join(problems)
