"""Game text as pygame_gui markup: escaping, rule-section links, a roll-log entry and the
odds panel.

Why apart from the widgets: these are pure functions from the engine's events and odds
to the HTML-ish markup pygame_gui's text boxes read, shared by the side panels, the
computer's strip, the new-game screen and the screenshots script, and testable without
a window.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from engine.events import Event
from engine.ruleset import Reference


def esc(text: str) -> str:
    return html.escape(str(text), quote=False)


class Linker:
    """Turns rule-section ids in event text into links to the rules reference, and
    (with ``rename``, ``Names.text``) model ids into the names a player reads."""

    def __init__(self, reference: Reference, rename: Callable[[str], str] | None = None) -> None:
        self.ref = reference
        self.rename = rename or (lambda s: s)
        ids = sorted(reference.sections, key=len, reverse=True)
        self._re = re.compile("|".join(re.escape(i) for i in ids)) if ids else None

    def link(self, sid: str, label: str | None = None) -> str:
        if sid in self.ref.sections:
            sec = self.ref.sections[sid]
            return f"<a href='rule:{esc(sid)}'>{esc(label or f'{sid} {sec.title}')}</a>"
        return esc(label or sid)

    def plain(self, text: str) -> str:
        """Escape ``text`` with the models named (no links)."""
        return esc(self.rename(text))

    def text(self, text: str) -> str:
        """Escape ``text``, name its models and link every section id it cites."""
        if self._re is None:
            return self.plain(text)
        out, last = [], 0
        for m in self._re.finditer(text):
            out.append(self.plain(text[last : m.start()]))
            out.append(f"<a href='rule:{esc(m.group(0))}'>{esc(m.group(0))}</a>")
            last = m.end()
        out.append(self.plain(text[last:]))
        return "".join(out)


_KIND_COLOUR = {
    "resolution": "#e6e9ef",
    "refused": "#f08a80",
    "removed": "#f0a070",
    "status": "#f0cf7a",
    "morale": "#f0cf7a",
    "initiative": "#a8c8f0",
    "move": "#9aa3b2",
    "undo": "#9aa3b2",
    "scatter": "#f0b070",
    "note": "#9aa3b2",
    "decision": "#b8b0f0",
}
GOOD = ("hit", "success", "wound", "win", "kill", "killed", "passed", "pass", "damage")


def event_html(e: Event, linker: Linker) -> str:
    """One log entry: the event's sentence, its outcome and chance, its rule as a link,
    and each recorded roll with its modifiers, their reasons and sections."""
    colour = _KIND_COLOUR.get(e.kind, "#c8ccd4")
    head = ""
    if e.kind == "refused":
        head = "<b>Refused:</b> "
    elif e.kind == "decision":
        head = "<b>Computer:</b> "
    body = f"<font color='{colour}'>{head}{linker.text(e.text)}</font>"
    bits = []
    if e.outcome:
        good = e.outcome.lower() in GOOD
        oc = "#8fe09a" if good else "#c8ccd4"
        bits.append(f"<font color='{oc}'><b>{esc(e.outcome)}</b></font>")
    if e.chance is not None and f"{round(e.chance * 100)}%" not in e.text:
        bits.append(f"chance {e.chance * 100:.0f}%")
    if e.rule and e.rule not in e.text:
        bits.append(linker.link(e.rule))
    line = body + (
        " <font color='#8f98a8'>\u2014 " + " \u00b7 ".join(bits) + "</font>" if bits else ""
    )
    for d in e.detail:
        if not isinstance(d, dict):
            continue
        mods = d.get("modifiers") or []
        if not mods and not d.get("purpose"):
            continue
        faces = ", ".join(str(f) for f in d.get("faces", []))
        parts = [f"{esc(d.get('purpose', 'roll'))}: rolled {esc(faces)}"]
        for mod in mods:
            v = int(mod.get("value", 0))
            sign = "+" if v >= 0 else "\u2212"
            rule = mod.get("rule", "")
            ref = f" ({linker.link(rule, rule)})" if rule else ""
            parts.append(f"{sign}{abs(v)} {esc(mod.get('reason', ''))}{ref}")
        if d.get("need"):
            parts.append(f"needs {esc(d['need'])}")
        line += "<br><font color='#9aa3b2'>\u2003" + "; ".join(parts) + "</font>"
    return line


def fit(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def odds_html(title: str, o: Any, reason: str = "", linker: Linker | None = None) -> str:
    """The odds panel: exact chance, expected value, the distribution and the explanation."""
    plain = linker.plain if linker else esc
    if o is None:
        if reason:
            return f"<b>{plain(title)}</b><br><font color='#f08a80'>{plain(reason)}</font>"
        return f"<b>{plain(title)}</b><br><font color='#9aa3b2'>no dice: certain</font>"
    pct = float(o.chance) * 100
    col = "#8fe09a" if pct >= 50 else "#f0cf7a" if pct >= 25 else "#f08a80"
    out = [
        f"<b>{plain(title)}</b>",
        f"<font color='{col}' size=5><b>{pct:.1f}%</b></font> chance of success",
    ]
    if o.expected is not None:
        out.append(f"expected {float(o.expected):.2f}")
    if o.dist:
        parts = [f"{k}: {float(v) * 100:.0f}%" for k, v in sorted(o.dist.items())]
        out.append("<font color='#9aa3b2'>" + esc(", ".join(parts[:12])) + "</font>")
    for line in o.lines[:6]:
        body = linker.text(line) if linker else esc(line)
        out.append(f"<font color='#c8ccd4'>\u2022 {body}</font>")
    return "<br>".join(out)
