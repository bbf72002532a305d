"""The battle screen's windows: rules reference, help, hand-over, game over, confirmations,
messages and the save/load file dialogs.

Why a mixin of ``Hud``: every window is a pygame_gui ``UIWindow`` built the same way (a
text box, optional image, buttons along the bottom) and the hud must know which are open
(a modal one holds the table's input); apart they keep the hud's module to its layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIImage, UITextBox, UIWindow
from pygame_gui.windows import UIFileDialog

from engine.ruleset import Reference
from engine.ui.markup import esc
from engine.ui.style import hexc

SHORTCUTS: list[tuple[str, str]] = [
    ("Left click", "select a model; in a targeting mode, pick the target"),
    ("Left drag", "move the model along the path; releasing commits; drop on an enemy to charge"),
    ("W (while dragging)", "add a waypoint at the cursor"),
    (
        "Q / E",
        "turn the facing 15\u00b0 (Shift: 45\u00b0) while dragging; on its own where the rules have a turn, then Enter commits it",
    ),
    (
        "1 \u2013 9",
        "a verb's own key, the same for every model all game (shoot 1, fight 2, charge 3, "
        "then the rules' own verbs; shown on its button); again: its next weapon or spell",
    ),
    ("Tab", "select the next model of the side to act"),
    ("Space / N", "end activation / end phase (what the rules call next)"),
    ("End", "end the turn"),
    (
        "Ctrl+Z / U",
        "undo, back to the last dice roll; against the computer: your last action and "
        "the computer's answer (played again, the same action meets the same answer)",
    ),
    ("Ctrl+S / Ctrl+O", "save / load a game (saves/ folder)"),
    ("Right or middle drag", "pan the table"),
    ("Wheel, + / \u2212", "zoom in and out"),
    ("Arrow keys", "pan; Home fits the whole table"),
    ("L", "show or hide the lines linking each unit's models"),
    ("P / . (full stop)", "pause or resume the computer / let it make one move"),
    ("Esc", "cancel: drag, turn, targeting mode, selection; skip the dice"),
    ("F1 or ?", "this help"),
]


class Pressed:
    """A button and what pressing it does (and hovering it, for the action buttons)."""

    def __init__(
        self,
        button: UIButton,
        act: Callable[[], None],
        hover: Callable[[], None] | None = None,
    ) -> None:
        self.button = button
        self.act = act
        self.hover = hover


class Windows:
    """Mixin of ``Hud``: its pop-up windows, each under a key (see the module docstring)."""

    m: pygame_gui.UIManager
    size: tuple[int, int]
    buttons: dict[UIButton, Pressed]
    windows: dict[str, UIWindow]
    dialog: tuple[str, UIFileDialog] | None

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

    def modal(self) -> bool:
        """A window that must be answered before the table takes input again."""
        return (
            self.is_open("handover")
            or self.is_open("summary")
            or self.is_open("confirm")
            or (self.dialog is not None and self.dialog[1].alive())
        )
