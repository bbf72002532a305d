"""The widgets around the table: turn bar, model card, action buttons, odds, roll log,
casualties, the computer's strip (pause, step, speed and why it chose its move), and the
windows (``engine.ui.windows``).

Why pygame_gui for all of it: buttons, formatted text with clickable links, windows and
file dialogs are solved problems; the roll log is a UITextBox whose HTML-ish markup gives
each modifier's rule section as a link that opens the rules reference. This module only
lays widgets out and turns their events into calls on the app; it decides nothing about
the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import (
    UIButton,
    UIDropDownMenu,
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UITextBox,
    UIWindow,
)
from pygame_gui.windows import UIFileDialog

from engine.ui.markup import fit
from engine.ui.steadybox import SteadyTextBox
from engine.ui.style import font_path
from engine.ui.windows import SHORTCUTS, Pressed, Windows

__all__ = [
    "ActionItem",
    "Hud",
    "StatChip",
    "Pressed",
    "SHORTCUTS",
    "SPEEDS",
    "THEME",
    "speed_label",
]

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


#: action buttons the panel shows at once (two columns of four); more scroll
ACTION_SLOTS = 8
#: one row of action buttons, in pixels (a button and its gap)
ACTION_ROW = 26
#: the width pygame_gui's vertical scroll bar takes from a scrolling container
SCROLL_BAR_W = 20
#: the stat chips under the model card: three rows
CHIP_ROW = 21
CHIPS_H = 3 * CHIP_ROW + 6


@dataclass
class StatChip:
    """One stat on the card: 'MR 6', its meaning from the rules reference, and what a
    click does (open that rule)."""

    text: str
    tip: str
    act: Callable[[], None] | None = None


@dataclass
class ActionItem:
    """One action button: its label and tooltip, what pressing and hovering it do,
    whether it is on (the targeting mode picked), its kind and its number key."""

    label: str
    tip: str
    act: Callable[[], None]
    hover: Callable[[], None] | None = None
    on: bool = False
    kind: str = ""
    key: int | None = None
    #: a targeting mode (pressing it arms a click) rather than an action at once
    mode: bool = False


def speed_label(delay: float) -> str:
    """The ``SPEEDS`` entry nearest to ``delay`` (the app may start with any delay)."""
    return min(SPEEDS, key=lambda sp: abs(sp[1] - delay))[0]


class Hud(Windows):
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
        self.action_items: list[ActionItem] = []
        self.action_total = 0
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
                "Take back your last action (and the computer's answer to it), back to "
                "the last dice roll (Ctrl+Z)",
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
        self.card = UITextBox("", pygame.Rect(sx, y, sw, 150 - CHIPS_H), m)
        self.stats_panel = UIPanel(
            pygame.Rect(sx, y + 150 - CHIPS_H, sw, CHIPS_H), manager=m, starting_height=1
        )
        self.stat_chips: list[UIButton] = []
        self._chips_key: Any = None
        self._font: pygame.font.Font | None = None
        y += 154
        self.h_actions = UILabel(
            pygame.Rect(sx, y, sw, 18), "ACTIONS", m, object_id="#section_head"
        )
        y += 18
        # scrolls when the rules offer more than ACTION_SLOTS (a GEM APC has 12)
        self.actions_panel = UIScrollingContainer(
            pygame.Rect(sx, y, sw, 112), m, starting_height=1, allow_scroll_x=False
        )
        y += 116
        self.odds = SteadyTextBox("", pygame.Rect(sx, y, sw, 116), m)
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
            self.stats_panel,
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

    def set_actions(self, items: Sequence[ActionItem]) -> None:
        """Rebuild the action buttons, each with its number key when it has one."""
        for b in self.action_buttons:
            self.buttons.pop(b, None)
            b.kill()
        self.action_buttons = []
        if [it.label for it in items] != [it.label for it in self.action_items]:
            # another model's actions start at the top; the same ones (a mode switched
            # on) keep where the player scrolled to
            self.actions_panel.scrollable_container.set_relative_position((0, 0))
            if self.actions_panel.vert_scroll_bar is not None:  # else it scrolls back
                self.actions_panel.vert_scroll_bar.set_scroll_from_start_percentage(0.0)
        self.action_items = list(items)
        #: how many the rules offered; past ACTION_SLOTS the panel scrolls
        self.action_total = len(items)
        cols = 2
        rows = -(-len(items) // cols)
        bar = SCROLL_BAR_W if len(items) > ACTION_SLOTS else 0
        bw = (SIDE_W - 12 - 8 - bar - (cols - 1) * 4) // cols
        inner = SIDE_W - 12 - bar
        self.actions_panel.set_scrollable_area_dimensions((inner, 4 + rows * ACTION_ROW))
        for k, it in enumerate(self.action_items):
            r, c = divmod(k, cols)
            text = f"{it.key}  {it.label}" if it.key else it.label
            b = UIButton(
                pygame.Rect(4 + c * (bw + 4), 4 + r * ACTION_ROW, bw, ACTION_ROW - 2),
                fit(text, 30),
                self.m,
                container=self.actions_panel,
                tool_tip_text=it.tip or None,
                object_id="#mode_on" if it.on else None,
            )
            self.buttons[b] = Pressed(b, it.act, it.hover)
            self.action_buttons.append(b)

    def set_stats(self, chips: Sequence[StatChip]) -> None:
        """The card's stats as chips, each with its tooltip from the rules reference
        and a click that opens the rule (rebuilt only when they changed)."""
        key = tuple((c.text, c.tip) for c in chips)
        if key == self._chips_key:
            return
        self._chips_key = key
        for b in self.stat_chips:
            self.buttons.pop(b, None)
            b.kill()
        self.stat_chips = []
        x, y = 2, 1
        w, h = self.stats_panel.get_container().get_size()
        for chip in chips:
            cw = 12 + self._chip_font().size(chip.text)[0]
            if x + cw > w - 2 and x > 2:
                x, y = 2, y + CHIP_ROW
            if y + CHIP_ROW - 2 > h:
                break  # more stats than rows: the rest are left out
            b = UIButton(
                pygame.Rect(x, y, cw, CHIP_ROW - 2),
                chip.text,
                self.m,
                container=self.stats_panel,
                tool_tip_text=chip.tip,
                object_id="#stat_chip",
            )
            if chip.act is not None:
                self.buttons[b] = Pressed(b, chip.act)
            self.stat_chips.append(b)
            x += cw + 3

    def _chip_font(self) -> pygame.font.Font:
        """The chips' font (the theme's 12 pt), to size each chip to its text."""
        if self._font is None:
            self._font = pygame.font.Font(font_path(), 12)
        return self._font

    def press_number(self, number: int) -> str:
        """Number key ``number``: press the one button it names; with several (a model
        with two weapons), the next after the one that is on, so repeated presses cycle
        through the targeting modes. Returns what to tell the player ('' when done)."""
        mine = [k for k, it in enumerate(self.action_items) if it.key == number]
        if not mine:
            return f"{number}: nothing for this model now"
        items = [self.action_items[k] for k in mine]
        if len(mine) > 1 and not all(it.mode for it in items):
            return f"{number}: {len(mine)} choices, click the one you mean"
        on = next((i for i, it in enumerate(items) if it.on), -1)
        k = mine[(on + 1) % len(mine)]
        self.buttons[self.action_buttons[k]].act()
        return ""

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
