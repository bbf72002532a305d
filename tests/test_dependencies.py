"""DESIGN.md "Rules of dependency", enforced by parsing every import in the tree."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB_ONLY = {"engine/state.py", "engine/actions.py", "engine/events.py", "engine/dice.py"}


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every module imported by the file (top level or inside functions), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, node.lineno))
    return out


def _files() -> list[Path]:
    skip = {".venv", ".git", "__pycache__"}
    return sorted(p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts))


def _top(mod: str) -> str:
    return mod.split(".")[0]


def test_the_tree_has_the_design_card_layout():
    for name in ("main.py", "engine", "assets", "rulesets", "maps", "tests", "requirements.txt"):
        assert (ROOT / name).exists(), name


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_dependency_rules(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    problems = []
    for mod, line in _imports(path):
        top = _top(mod)
        where = f"{rel}:{line} imports {mod}"
        if (
            top in ("pygame", "pygame_gui")
            and not rel.startswith("engine/ui/")
            and not rel.startswith(("tests/ui/", "bench/frame", "scripts/"))
        ):
            problems.append(f"{where}: pygame only under engine/ui/ (rule 1)")
        if (
            top == "shapely"
            and not rel.startswith("engine/geometry/")
            and not rel.startswith("bench/")
        ):
            problems.append(f"{where}: shapely only under engine/geometry/ (rule 2)")
        if top == "pymunk" and not rel.startswith("engine/physics/"):
            problems.append(f"{where}: pymunk only under engine/physics/ (rule 2)")
        if top in ("dask", "distributed") and rel != "engine/batch.py":
            problems.append(f"{where}: Dask only in engine/batch.py (the cluster's one door)")
        if top == "matplotlib" and rel != "engine/charts.py":
            problems.append(f"{where}: matplotlib only in engine/charts.py (Agg, no pyplot)")
        if rel.startswith("engine/") and top == "rulesets":
            problems.append(f"{where}: the engine never imports rulesets (rule 3)")
        if rel.startswith("rulesets/"):
            own = rel.split("/")[1]
            if top == "rulesets" and mod.split(".")[1:2] not in ([own], []):
                problems.append(f"{where}: a ruleset imports only its own modules (rule 4)")
            if mod.startswith("engine.ui") or top in ("tests", "main"):
                problems.append(f"{where}: a ruleset imports the engine's public API (rule 4)")
        if rel in STDLIB_ONLY and (top in ("engine", "numpy", "shapely", "pymunk", "pygame")):
            problems.append(f"{where}: {rel} uses the standard library only (rule 5)")
    assert not problems, "\n".join(problems)


def test_main_imports_the_window_lazily():
    """Rule 1: `run` must not load pygame, so main.py has no top-level pygame/ui import."""
    tree = ast.parse((ROOT / "main.py").read_text())
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            assert not any(
                n and (n.startswith("engine.ui") or n.startswith("pygame")) for n in names
            )


def test_run_does_not_load_pygame(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys, main; main.main(['validate', 'tests/scenarios/toy_missing.toml']); "
        "print('pygame' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip().endswith("False"), out.stdout + out.stderr


def test_nothing_reads_outside_the_repository():
    """The repository explains and tests itself: no Python file names the project's
    shared folder beside the checkout, except the one test that compares our UMR
    paraphrases with the rulebook's own text (not ours to copy), which skips, saying
    why, when the rulebook is absent."""
    allowed = {"tests/rulesets/umr/test_reference.py"}
    needle = "shared" + "/"
    found = [
        path.relative_to(ROOT).as_posix()
        for path in _files()
        if needle in path.read_text(encoding="utf-8")
        and path.relative_to(ROOT).as_posix() not in allowed
    ]
    assert not found, found
