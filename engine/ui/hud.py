"""The widgets around the table: turn bar, model card, action buttons, odds, roll log,
casualties, the computer's strip (pause, step, speed and why it chose its move), and the
windows (rules reference, help, hand-over, game over, file dialogs).

Why pygame_gui for all of it: buttons, formatted text with clickable links, windows and
file dialogs are solved problems; the roll log is a UITextBox whose HTML-ish markup gives
each modifier's rule section as a link that opens the rules reference. This module only
lays widgets out and turns their events into calls on the app; it decides nothing about
the rules.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UIImage,
    UILabel,
    UIPanel,
    UITextBox,
    UIWindow,
)
from pygame_gui.windows import UIFileDialog

from engine.events import Event
from engine.ruleset import Reference
from engine.ui.style import hexc

TOP = 46
SIDE_W = 372
#: height of the strip under the table that appears when a computer plays a side
STRIP_H = 148
#: the computer's pace: pause between its moves, so a spectator can follow the game
SPEEDS: tuple[tuple[str, float], ...] = (
    ("fast (no pause)", 0.0),
    ("brisk (0.35 s)", 0.35),
    ("steady (1 s)", 1.0),
    ("slow (2.5 s)", 2.5),
)
ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
THEME = ASSETS / "theme.json"

SHORTCUTS: list[tuple[str, str]] = [
    ("Left click", "select a model; in a targeting mode, pick the target"),
    ("Left drag", "move the model along the path; releasing commits; drop on an enemy to charge"),
    ("W (while dragging)", "add a waypoint at the cursor"),
    (
        "Q / E",
        "turn the facing 15\u00b0 (Shift: 45\u00b0) while dragging; on its own where the rules have a turn, then Enter commits it",
    ),
    ("1 \u2013 9", "the action buttons, in order"),
    ("Tab", "select the next model of the side to act"),
    ("Space / N", "end activation / end phase (what the rules call next)"),
    ("End", "end the turn"),
    ("Ctrl+Z / U", "undo (back to the last dice roll)"),
    ("Ctrl+S / Ctrl+O", "save / load a game (saves/ folder)"),
    ("Right or middle drag", "pan the table"),
    ("Wheel, + / \u2212", "zoom in and out"),
    ("Arrow keys", "pan; Home fits the whole table"),
    ("L", "show or hide the lines linking each unit's models"),
    ("P / . (full stop)", "pause or resume the computer / let it make one move"),
    ("Esc", "cancel: drag, turn, targeting mode, selection; skip the dice"),
    ("F1 or ?", "this help"),
]


def esc(text: str) -> str:
    return html.escape(str(text), quote=False)


class Linker:
    """Turns rule-section ids in event text into links to the rules reference."""

    def __init__(self, reference: Reference) -> None:
        self.ref = reference
        ids = sorted(reference.sections, key=len, reverse=True)
        self._re = re.compile("|".join(re.escape(i) for i in ids)) if ids else None

    def link(self, sid: str, label: str | None = None) -> str:
        if sid in self.ref.sections:
            sec = self.ref.sections[sid]
            return f"<a href='rule:{esc(sid)}'>{esc(label or f'{sid} {sec.title}')}</a>"
        return esc(label or sid)

    def text(self, text: str) -> str:
        """Escape ``text`` and link every section id it cites."""
        if self._re is None:
            return esc(text)
        out, last = [], 0
        for m in self._re.finditer(text):
            out.append(esc(text[last : m.start()]))
            out.append(f"<a href='rule:{esc(m.group(0))}'>{esc(m.group(0))}</a>")
            last = m.end()
        out.append(esc(text[last:]))
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
_GOOD = ("hit", "success", "wound", "win", "kill", "killed", "passed", "pass", "damage")


def speed_label(delay: float) -> str:
    """The ``SPEEDS`` entry nearest to ``delay`` (the app may start with any delay)."""
    return min(SPEEDS, key=lambda sp: abs(sp[1] - delay))[0]


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
        good = e.outcome.lower() in _GOOD
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


@dataclass
class Pressed:
    """A button and what pressing it does."""

    button: UIButton
    act: Callable[[], None]
    hover: Callable[[], None] | None = None


class Hud:
    """Owns the battle screen's widgets; the app feeds it text and callbacks."""

    b_next: UIButton
    b_turn: UIButton
    b_undo: UIButton
    b_save: UIButton
    b_load: UIButton
    b_help: UIButton
    b_menu: UIButton
    #: the computer's strip (only when ``computer``): pause, step, speed, and why
    b_pause: UIButton | None = None
    b_step: UIButton | None = None
    speed_dd: UIDropDownMenu | None = None
    strip_head: UILabel
    why: UITextBox | None = None

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        size: tuple[int, int],
        computer: bool = False,
        delay: float = 0.35,
    ) -> None:
        """``computer``: a computer plays a side, so the strip under the table is built;
        ``delay`` is the pause between its moves the speed menu starts on."""
        self.m = manager
        self.size = size
        self.computer = computer
        self.delay = delay
        #: called with the new delay (seconds) when the speed menu changes
        self.on_speed: Callable[[float], None] | None = None
        self.buttons: dict[UIButton, Pressed] = {}
        self.action_buttons: list[UIButton] = []
        self.windows: dict[str, UIWindow] = {}
        self.dialog: tuple[str, UIFileDialog] | None = None
        self._texts: dict[str, str] = {}
        self._build()

    # --- layout -----------------------------------------------------------------------------
    def table_rect(self) -> tuple[int, int, int, int]:
        w, h = self.size
        return (0, TOP, w - SIDE_W, h - TOP - (STRIP_H if self.computer else 0))

    def _build(self) -> None:
        w, h = self.size
        m = self.m
        self.bar = UIPanel(pygame.Rect(0, 0, w, TOP), manager=m, starting_height=1)
        x = w - 676
        self.status = UILabel(
            pygame.Rect(10, 6, x - 16, 34), "", m, container=self.bar, object_id="#status"
        )
        specs = [
            ("b_next", 180, "End activation", "What the rules do next (Space)", "#primary"),
            ("b_turn", 92, "End turn", "End the whole turn (End)", None),
            (
                "b_undo",
                64,
                "Undo",
                "Take back the last action, back to the last dice roll (Ctrl+Z)",
                None,
            ),
            ("b_save", 64, "Save", "Save the game (Ctrl+S)", None),
            ("b_load", 64, "Load", "Load a saved game (Ctrl+O)", None),
            ("b_help", 64, "Help", "Keys and terrain legend (F1)", None),
            ("b_menu", 96, "New game", "Back to the start screen", None),
        ]
        for name, bw, label, tip, oid in specs:
            b = UIButton(
                pygame.Rect(x, 7, bw, 32),
                label,
                m,
                container=self.bar,
                tool_tip_text=tip,
                object_id=oid,
            )
            setattr(self, name, b)
            x += bw + 6
        sx = w - SIDE_W + 6
        sw = SIDE_W - 12
        y = TOP + 6
        self.card = UITextBox("", pygame.Rect(sx, y, sw, 150), m)
        y += 154
        self.h_actions = UILabel(
            pygame.Rect(sx, y, sw, 18), "ACTIONS", m, object_id="#section_head"
        )
        y += 18
        self.actions_panel = UIPanel(pygame.Rect(sx, y, sw, 112), manager=m, starting_height=1)
        y += 116
        self.odds = UITextBox("", pygame.Rect(sx, y, sw, 116), m)
        y += 120
        self.h_log = UILabel(
            pygame.Rect(sx, y, sw, 18), "ROLL LOG (newest first)", m, object_id="#section_head"
        )
        y += 18
        cas_h = 92
        self.log = UITextBox("", pygame.Rect(sx, y, sw, h - y - cas_h - 10), m)
        self.casualties = UITextBox("", pygame.Rect(sx, h - cas_h - 6, sw, cas_h), m)
        self.strip: list[Any] = []
        if self.computer:
            self._build_strip()

    def _build_strip(self) -> None:
        """The computer's strip under the table. Why under the table and not in the side
        column: a 3:2 table fitted to the view's width leaves spare height, so the strip
        costs the table nothing, and its wide text box fits one option per line.

        The widgets sit in the root container (no panel) so the speed menu can open
        upwards over the table instead of being clipped by a container."""
        w, h = self.size
        m = self.m
        y = h - STRIP_H + 4
        tw = w - SIDE_W
        self.strip_head = UILabel(
            pygame.Rect(8, y, 190, 18), "COMPUTER", m, object_id="#section_head"
        )
        self.b_pause = UIButton(
            pygame.Rect(8, y + 22, 92, 30),
            "Pause (P)",
            m,
            tool_tip_text="Pause or resume the computer's moves (P)",
        )
        self.b_step = UIButton(
            pygame.Rect(106, y + 22, 92, 30),
            "Step (.)",
            m,
            tool_tip_text="Let the computer make one move, then pause (full stop)",
        )
        lab = UILabel(
            pygame.Rect(8, y + 64, 190, 18), "PAUSE BETWEEN MOVES", m, object_id="#section_head"
        )
        self.speed_dd = UIDropDownMenu(
            [label for label, _ in SPEEDS],
            speed_label(self.delay),
            pygame.Rect(8, y + 84, 190, 30),
            m,
            object_id="#speed_menu",
        )  # opens upwards (theme)
        self.why = UITextBox("", pygame.Rect(206, y, tw - 212, STRIP_H - 10), m)
        self.strip = [self.strip_head, self.b_pause, self.b_step, lab, self.speed_dd, self.why]

    def set_spectator(self, paused: bool, can_step: bool, state: str = "") -> None:
        """The pause button says what pressing it will do; step only when it can; the
        strip's heading says what the computer is doing (thinking, paused)."""
        if self.b_pause is None or self.b_step is None:
            return
        head = "COMPUTER" + (f" \u00b7 {state.upper()}" if state else "")
        if self.strip_head.text != head:
            self.strip_head.set_text(head)
        label = "Resume (P)" if paused else "Pause (P)"
        if self.b_pause.text != label:
            self.b_pause.set_text(label)
        if can_step and not self.b_step.is_enabled:
            self.b_step.enable()
        elif not can_step and self.b_step.is_enabled:
            self.b_step.disable()

    def bind(self, button: UIButton, act: Callable[[], None]) -> None:
        self.buttons[button] = Pressed(button, act)

    def kill(self) -> None:
        for wdg in (
            self.bar,
            self.card,
            self.h_actions,
            self.actions_panel,
            self.odds,
            self.h_log,
            self.log,
            self.casualties,
            *self.strip,
        ):
            wdg.kill()
        self.strip = []
        for win in list(self.windows.values()):
            win.kill()
        self.windows.clear()
        if self.dialog:
            self.dialog[1].kill()
            self.dialog = None
        self.buttons.clear()

    # --- content ---------------------------------------------------------------------------
    def set_text(self, box: UITextBox, key: str, text: str) -> None:
        """Set a text box only when its text changed (re-layout is the expensive part)."""
        if self._texts.get(key) != text:
            self._texts[key] = text
            box.set_text(text)

    def set_status(
        self, text: str, next_label: str, can_next: bool, can_turn: bool, can_undo: bool
    ) -> None:
        if self.status.text != text:
            self.status.set_text(text)
        if self.b_next.text != next_label:
            self.b_next.set_text(next_label)
        for b, ok in ((self.b_next, can_next), (self.b_turn, can_turn), (self.b_undo, can_undo)):
            if ok and not b.is_enabled:
                b.enable()
            elif not ok and b.is_enabled:
                b.disable()

    def set_actions(
        self, items: Sequence[tuple[str, str, Callable[[], None], Callable[[], None] | None, bool]]
    ) -> None:
        """Rebuild the action buttons: (label, tooltip, on press, on hover, highlighted)."""
        for b in self.action_buttons:
            self.buttons.pop(b, None)
            b.kill()
        self.action_buttons = []
        cols = 2
        bw = (SIDE_W - 12 - 8 - (cols - 1) * 4) // cols
        for k, (label, tip, act, hover, on) in enumerate(items[:8]):
            r, c = divmod(k, cols)
            text = f"{k + 1}  {label}" if k < 9 else label
            b = UIButton(
                pygame.Rect(4 + c * (bw + 4), 4 + r * 26, bw, 24),
                _fit(text, 30),
                self.m,
                container=self.actions_panel,
                tool_tip_text=tip or None,
                object_id="#mode_on" if on else None,
            )
            self.buttons[b] = Pressed(b, act, hover)
            self.action_buttons.append(b)

    def press_action(self, index: int) -> bool:
        if 0 <= index < len(self.action_buttons):
            self.buttons[self.action_buttons[index]].act()
            return True
        return False

    # --- windows ------------------------------------------------------------------------------
    def _window(
        self,
        key: str,
        title: str,
        size: tuple[int, int],
        html_text: str,
        buttons: Sequence[tuple[str, Callable[[], None]]] = (),
        image: pygame.Surface | None = None,
    ) -> UIWindow:
        self.close(key)
        w, h = self.size
        rect = pygame.Rect((w - size[0]) // 2, (h - size[1]) // 2, *size)
        win = UIWindow(rect, self.m, window_display_title=title, resizable=True)
        cw, ch = win.get_container().get_size()
        bottom = 44 if buttons else 0
        top = 0
        if image is not None:
            UIImage(
                pygame.Rect(8, 6, image.get_width(), image.get_height()),
                image,
                self.m,
                container=win,
            )
            top = image.get_height() + 10
        UITextBox(
            html_text,
            pygame.Rect(6, top + 4, cw - 12, ch - top - bottom - 8),
            self.m,
            container=win,
        )
        bx = cw - 8
        for label, act in reversed(list(buttons)):
            bwid = max(96, 10 * len(label))
            bx -= bwid
            b = UIButton(
                pygame.Rect(bx, ch - 38, bwid, 32),
                label,
                self.m,
                container=win,
                object_id="#primary",
            )
            self.buttons[b] = Pressed(b, act)
            bx -= 8
        self.windows[key] = win
        return win

    def close(self, key: str) -> None:
        win = self.windows.pop(key, None)
        if win is not None:
            for b in [b for b in self.buttons if b.ui_container is win.get_container()]:
                self.buttons.pop(b, None)
            win.kill()

    def is_open(self, key: str) -> bool:
        win = self.windows.get(key)
        return win is not None and win.alive()

    def open_reference(self, reference: Reference, sid: str) -> None:
        sec = reference.sections.get(sid)
        if sec is None:
            return
        kind = "Designer's interpretation" if sec.interpretation else "Rules reference"
        src = f"<br><i>Source: {esc(sec.source)}</i>" if sec.source else ""
        body = esc(sec.text).replace("\n\n", "<br><br>")
        self._window(
            "reference",
            f"{kind}: {sec.id}",
            (540, 420),
            f"<b>{esc(sec.id)} \u2014 {esc(sec.title)}</b><br><br>{body}{src}",
        )

    def open_help(self, legend: pygame.Surface | None, extra: str = "") -> None:
        rows = "".join(f"<b>{esc(k)}</b> \u2014 {esc(v)}<br>" for k, v in SHORTCUTS)
        self._window(
            "help",
            "Help: keys and terrain",
            (620, 620),
            f"{rows}<br>{extra}",
            [("Close", lambda: self.close("help"))],
            image=legend,
        )

    def open_handover(
        self, side: str, colour: tuple[int, int, int], on_ready: Callable[[], None]
    ) -> None:
        hx = hexc(colour)
        self._window(
            "handover",
            "Hand over",
            (420, 200),
            f"<font size=5 color='{hx}'><b>{esc(side.upper())}</b></font> to play."
            f"<br><br>Pass the mouse to the {esc(side)} player, then press "
            f"<b>Ready</b> (or Enter).",
            [("Ready", on_ready)],
        )

    def open_summary(self, text: str, on_new: Callable[[], None]) -> None:
        self._window(
            "summary",
            "Game over",
            (520, 420),
            text,
            [("Keep looking", lambda: self.close("summary")), ("New game", on_new)],
        )

    def open_confirm(self, title: str, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        """Ask before something that throws play away; "Keep playing" closes."""
        self._window(
            "confirm",
            title,
            (440, 200),
            esc(text),
            [("Keep playing", lambda: self.close("confirm")), (yes, on_yes)],
        )

    def open_message(self, title: str, text: str) -> None:
        self._window(
            "message", title, (460, 220), esc(text), [("OK", lambda: self.close("message"))]
        )

    def open_file_dialog(self, purpose: str, initial: Path) -> None:
        if self.dialog is not None:
            self.dialog[1].kill()
        w, h = self.size
        rect = pygame.Rect((w - 520) // 2, (h - 440) // 2, 520, 440)
        title = "Save game" if purpose == "save" else "Load game"
        dlg = UIFileDialog(
            rect,
            self.m,
            window_title=title,
            initial_file_path=str(initial),
            allow_existing_files_only=(purpose == "load"),
            allowed_suffixes={".json"},
        )
        self.dialog = (purpose, dlg)

    # --- events ---------------------------------------------------------------------------------
    def handle(
        self,
        event: pygame.event.Event,
        on_link: Callable[[str], None],
        on_path: Callable[[str, str], None],
        on_unhover: Callable[[], None],
    ) -> bool:
        """React to a pygame_gui event; True when it was ours."""
        t = event.type
        if t == pygame_gui.UI_BUTTON_PRESSED:
            p = self.buttons.get(event.ui_element)
            if p is not None:
                p.act()
                return True
        elif t == pygame_gui.UI_BUTTON_ON_HOVERED:
            p = self.buttons.get(event.ui_element)
            if p is not None and p.hover is not None:
                p.hover()
                return True
        elif t == pygame_gui.UI_BUTTON_ON_UNHOVERED:
            if event.ui_element in self.buttons:
                on_unhover()
                return True
        elif t == pygame_gui.UI_TEXT_BOX_LINK_CLICKED:
            on_link(str(event.link_target))
            return True
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if self.speed_dd is not None and event.ui_element is self.speed_dd:
                delay = dict(SPEEDS).get(str(event.text))
                if delay is not None and self.on_speed is not None:
                    self.on_speed(delay)
                return True
        elif t == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            if self.dialog is not None and event.ui_element is self.dialog[1]:
                purpose = self.dialog[0]
                self.dialog = None
                on_path(purpose, str(event.text))
                return True
        elif t == pygame_gui.UI_WINDOW_CLOSE:
            for key, win in list(self.windows.items()):
                if win is event.ui_element:
                    self.windows.pop(key)
            if self.dialog is not None and event.ui_element is self.dialog[1]:
                self.dialog = None
        return False

    def modal(self) -> bool:
        """A window that must be answered before the table takes input again."""
        return (
            self.is_open("handover")
            or self.is_open("summary")
            or self.is_open("confirm")
            or (self.dialog is not None and self.dialog[1].alive())
        )


def _fit(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "\u2026"


def odds_html(title: str, o: Any, reason: str = "", linker: Linker | None = None) -> str:
    """The odds panel: exact chance, expected value, the distribution and the explanation."""
    if o is None:
        if reason:
            return f"<b>{esc(title)}</b><br><font color='#f08a80'>{esc(reason)}</font>"
        return f"<b>{esc(title)}</b><br><font color='#9aa3b2'>no dice: certain</font>"
    pct = float(o.chance) * 100
    col = "#8fe09a" if pct >= 50 else "#f0cf7a" if pct >= 25 else "#f08a80"
    out = [
        f"<b>{esc(title)}</b>",
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
