"""What a stat abbreviation means, found in the ruleset's own rules reference.

Why from the reference and not a table of our own: the reference (reference.toml) is the
paraphrase of the rulebook the whole program cites, so the tooltip on "MR" says what the
roll log's links say. Rulesets write their stats two ways, and both are read:

- a section about the stat itself (UMR: "UMR-MELEE Melee attack" for MELEE,
  "UMR-ACTION-DICE" for AD, by the words' initials);
- a profile section that defines several in a sentence each (SWOMP: "MR is inches moved
  per action ...", GEM: "OFF (how well it hurts), DEF (...)"): the clause naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.ruleset import Reference

#: longest explanation shown in a tooltip (a clause, not a page)
MAX_CHARS = 240


@dataclass(frozen=True)
class StatHelp:
    """A stat's explanation and the section it comes from (its link)."""

    key: str
    text: str
    section: str
    title: str


def _own_section(reference: Reference, key: str) -> str:
    """The id of a section about ``key`` itself: its id's tail is the key ('GM-FEAR'
    for fear, 'GM-CAUSES-FEAR' for causes_fear), else starts with it ('UMR-MOVEMENT'
    for MOVE), else its words' initials are the key ('ACTION-DICE' for AD). An exact
    tail wins over a prefix anywhere in the file: 'GM-FEARLESS' must not answer for
    fear because it comes first."""
    k = key.upper().replace("_", "-")
    tails = []
    for sid in reference.sections:
        parts = sid.upper().split("-")[1:]
        if parts and parts[0] != "I":  # designer's interpretations come second
            tails.append((sid, parts))
    for sid, parts in tails:
        if "-".join(parts) == k:
            return sid
    for sid, parts in tails:
        if len(k) >= 4 and parts[0].startswith(k):
            return sid
        if len(parts) > 1 and "".join(p[0] for p in parts) == k:
            return sid
    return ""


def _clause(text: str, key: str) -> str:
    """The clause of ``text`` that names ``key``: 'WS: Weapon Skill', 'AR: Armour
    Rating', 'OFF: how well it hurts', 'MR is inches moved per action ...'."""
    flat = " ".join(text.split())
    found = list(re.finditer(rf"(?<![\w-]){re.escape(key)}(?![\w-])", flat))
    for m in found:  # its name written before it: "Weapon Skill WS", "Armour Rating (AR)"
        named = re.search(r"((?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+) \(?$", flat[: m.start()])
        if named and not named.group(1).startswith(("A ", "An ", "The ", "Every ")):
            paren = re.match(r"\s*\(([^)]+)\)", flat[m.end() :])
            return f"{key}: {named.group(1)}" + (f" ({paren.group(1)})" if paren else "")
    if not found:
        return ""
    m = found[0]
    paren = re.match(r"\s*\(([^)]+)\)", flat[m.end() :])
    if paren:
        return f"{key}: {paren.group(1)}"
    start = max(flat.rfind(sep, 0, m.start()) for sep in (". ", "; ", ": "))
    start = 0 if start < 0 else start + 2
    ends = [i for i in (flat.find(sep, m.end()) for sep in (". ", "; ")) if i >= 0]
    end = min(ends) if ends else len(flat)
    return flat[start:end].strip().rstrip(".")


def stat_help(reference: Reference, key: str) -> StatHelp | None:
    """What ``key`` means by the reference, or None when it says nothing of it."""
    sid = _own_section(reference, key)
    if sid:
        sec = reference.sections[sid]
        sentences = [x.split(" |")[0].rstrip(".:") for x in " ".join(sec.text.split()).split(". ")]
        naming = [x for x in sentences[1:] if re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", x)]
        text = sentences[0]
        if len(text) < 24 and len(sentences) > 1:  # 'No test.' says little alone
            text += ". " + sentences[1]
        text += f"; {naming[0]}" if naming else ""
        return StatHelp(key, _short(text), sid, sec.title)
    for sid, sec in reference.sections.items():
        if sec.interpretation:
            continue
        clause = _clause(sec.text, key)
        if clause:
            return StatHelp(key, _short(clause), sid, sec.title)
    return None


def _short(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[: MAX_CHARS - 1].rstrip() + "\u2026"


def tooltip(h: StatHelp) -> str:
    """The tooltip's text: the stat, what it does, and where the reference says so."""
    return f"<b>{h.key}</b>: {h.text}<br><i>{h.section} {h.title} (click for the rule)</i>"
