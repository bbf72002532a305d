"""The rules reference (rulesets/umr/reference.toml): every section the code or a test
cites exists, every test names the rulebook section it checks, and the paraphrases are
in our own words (no run of eight words copied from the rulebook).

The rulebook's text is not ours to copy into the repository, so the paraphrase test reads
it from the project's seeds folder beside the checkout (``../shared/seeds``); where that
folder is absent the test is skipped and says so, never passed in silence. It is the one
test that reads outside the repository."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

from tests.rulesets.umr.helpers import RS

ROOT = Path(__file__).resolve().parents[3]
CODE = ROOT / "rulesets" / "umr"
TESTS = ROOT / "tests" / "rulesets" / "umr"
BOOK = ROOT.parent / "shared" / "seeds" / "002_3aa5b3ce80a45d83.txt"
ID = re.compile(r"UMR-[A-Z0-9]+(?:-[A-Z0-9]+)*")


def _ids() -> set[str]:
    return set(RS.reference.sections)


def test_every_cited_section_exists():
    """UMR-CHARACTER ... every id the code, the data or the golden files cite is defined."""
    files = (
        list(CODE.rglob("*.py"))
        + list(CODE.rglob("*.toml"))
        + list((ROOT / "tests" / "scenarios").glob("umr_*.toml"))
        + list(TESTS.glob("*.py"))
    )
    cited = {m for f in files for m in ID.findall(f.read_text())}
    missing = sorted(cited - _ids())
    assert not missing, missing
    assert len(RS.reference.interpretations()) >= 10


def test_every_test_names_its_section():
    """UMR-I-ODDS and the rest: an id in every test's docstring (DESIGN.md: tests name
    the section they check)."""
    bad = []
    for f in TESTS.glob("test_*.py"):
        tree = ast.parse(f.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                if not any(i in _ids() for i in ID.findall(doc)):
                    bad.append(f"{f.name}::{node.name}")
    assert not bad, bad


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("\u2019", "'"))


def test_paraphrases_are_our_own_words():
    """UMR-I-POINTS ... the reference paraphrases; it never copies the rulebook's sentences
    (tables of numbers aside)."""
    if not BOOK.exists():
        pytest.skip(f"the UMR rulebook is not beside the checkout ({BOOK}): nothing to compare")
    book = _words(BOOK.read_text(encoding="utf-8"))
    n = 8
    grams = {tuple(book[i : i + n]) for i in range(len(book) - n + 1)}
    data = tomllib.loads((CODE / "reference.toml").read_text())
    copied = []
    for sec in data["section"] + data["interpretation"]:
        prose = "\n".join(line for line in sec["text"].splitlines() if not line.startswith("|"))
        w = _words(prose)
        for i in range(len(w) - n + 1):
            if tuple(w[i : i + n]) in grams:
                copied.append(f"{sec['id']}: {' '.join(w[i : i + n])}")
    assert not copied, copied


def test_sections_have_titles_sources_and_text():
    """UMR-ROUND ... each entry is complete enough to show in the window."""
    for s in RS.reference.sections.values():
        assert s.title and s.text.strip() and s.source, s.id
        assert RS.reference.cite(s.id).startswith(s.id)
