"""No new import cycle inside the engine or any ruleset (issue 17: a ruleset reads like
its rulebook, chapter by chapter; a cycle means two chapters cannot be read apart).

Tarjan's strongly connected components over the imports between the modules of one
package (``engine`` with its subpackages, each ``rulesets/<key>``), function-level imports
included (a lazy import hides a cycle from Python, not from the reader), imports under
``if TYPE_CHECKING:`` left out (they only name types). The cycles that
existed when this test was written are listed by name as known exceptions; any other
cycle, or a known one that grows, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: cycles allowed by name (GEM's nine modules and SWOMP's shooting <-> vehicles were
#: listed here when the test was written; both are broken): never added to
KNOWN: dict[str, list[frozenset[str]]] = {}


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str) -> set[str]:
    """Every module ``path`` imports, absolute, resolved from relative imports."""
    tree = ast.parse(path.read_text(), str(path))
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)  # `from . import shooting`
    return out


def _walk(node: ast.AST):
    """Every node, except inside ``if TYPE_CHECKING:`` (annotations only: no import runs,
    and a class named in a hint is no dependency of the reader)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for other in child.orelse:
                yield other
                yield from _walk(other)
            continue
        yield child
        yield from _walk(child)


def graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports."""
    folder = ROOT.joinpath(*package.split("."))
    mods = {_module_name(p): p for p in folder.rglob("*.py")}
    return {
        m: {i for i in _imports(p, m) if i in mods and i != m and i != package}
        for m, p in mods.items()
    }


def cycles(g: dict[str, set[str]]) -> list[frozenset[str]]:
    """Tarjan's strongly connected components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def _packages() -> list[str]:
    keys = sorted(p.name for p in (ROOT / "rulesets").iterdir() if (p / "__init__.py").exists())
    return ["engine"] + [f"rulesets.{k}" for k in keys]


def test_tarjan_finds_a_cycle_and_ignores_a_chain():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("package", _packages())
def test_no_new_import_cycle(package: str):
    prefix = "" if package == "engine" else f"{package}."
    known = [frozenset(prefix + m for m in c) for c in KNOWN.get(package, [])]
    new = [c for c in cycles(graph(package)) if not any(c <= k for k in known)]
    assert not new, f"new import cycle in {package}: " + "; ".join(
        " <-> ".join(sorted(c)) for c in new
    )
