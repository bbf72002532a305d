"""The start screen: ruleset, scenario, and who controls each side.

Why a screen of its own: the same table serves a hotseat evening, a solo game against the
computer and a computer-vs-computer demo; the only difference is which agent answers for
each side (DESIGN.md "One loop for every mode"), so that choice is made here, before the
game exists, from the scenarios each ruleset ships (rulesets/<key>/scenarios/*.toml).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UIPanel, UITextBox

from engine.data import DataError
from engine.ruleset import available
from engine.scenario import Scenario, load_scenario
from engine.ui.hud import esc

ROOT = Path(__file__).resolve().parent.parent.parent
CONTROLLERS = ("human", "computer")


def scenario_files(key: str) -> list[Path]:
    """A ruleset's bundled scenarios, its default first."""
    folder = ROOT / "rulesets" / key / "scenarios"
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    return sorted(files, key=lambda p: (p.stem != "default", p.name))


def ruleset_of(path: Path) -> str:
    """The ``ruleset`` key a scenario file names (read cheaply, without validating)."""
    import tomllib

    try:
        with path.open("rb") as fh:
            return str(tomllib.load(fh).get("ruleset", ""))
    except (OSError, tomllib.TOMLDecodeError):
        return ""


class NewGameScreen:
    """Widgets of the start screen; calls ``on_start(path, controllers)`` when asked."""

    def __init__(self, manager: pygame_gui.UIManager, size: tuple[int, int],
                 preselect: str | None, on_start: Callable[[str, dict[str, str]], None],
                 on_load: Callable[[], None], on_quit: Callable[[], None]) -> None:
        self.m = manager
        self.size = size
        self.on_start, self.on_load, self.on_quit = on_start, on_load, on_quit
        self._scenarios: dict[str, Scenario | str] = {}
        self.extra: Path | None = Path(preselect).resolve() if preselect else None
        keys = list(available())
        pre_key = ruleset_of(self.extra) if self.extra else ""
        if pre_key and pre_key not in keys:
            keys.append(pre_key)
        self.keys = keys or [""]
        self.key = pre_key if pre_key else (
            "umr" if "umr" in self.keys else self.keys[0])
        self.path: Path | None = None
        self.controllers: dict[str, str] = {}
        self._side_widgets: list = []
        self._scn_dd: UIDropDownMenu | None = None
        self._build()

    # --- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        w, h = self.size
        pw, ph = 660, 600
        self.panel = UIPanel(pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph),
                             manager=self.m, starting_height=1)
        m, p = self.m, self.panel
        UILabel(pygame.Rect(20, 14, pw - 40, 44), "Warbench", m, container=p, object_id="#title")
        UILabel(pygame.Rect(20, 56, pw - 40, 22),
                "Miniatures wargames on a measured table", m, container=p)
        UILabel(pygame.Rect(20, 96, 120, 30), "Ruleset", m, container=p,
                object_id="#section_head")
        self.rs_dd = UIDropDownMenu(self.keys, self.key, pygame.Rect(140, 96, pw - 160, 30), m,
                                    container=p)
        UILabel(pygame.Rect(20, 134, 120, 30), "Scenario", m, container=p,
                object_id="#section_head")
        self.desc = UITextBox("", pygame.Rect(20, 174, pw - 40, 190), m, container=p)
        UILabel(pygame.Rect(20, 372, 300, 22), "WHO PLAYS EACH SIDE", m, container=p,
                object_id="#section_head")
        self.b_start = UIButton(pygame.Rect(pw - 200, ph - 56, 180, 40), "Start (Enter)", m,
                                container=p, object_id="#primary")
        self.b_load = UIButton(pygame.Rect(20, ph - 56, 180, 40), "Load saved game", m,
                               container=p)
        self.b_quit = UIButton(pygame.Rect(210, ph - 56, 100, 40), "Quit", m, container=p)
        self._fill_scenarios()

    def kill(self) -> None:
        self.panel.kill()

    def _fill_scenarios(self) -> None:
        files = scenario_files(self.key) if self.key else []
        if self.extra and ruleset_of(self.extra) == self.key and self.extra not in files:
            files.insert(0, self.extra)
        self.files = {self._label(f): f for f in files}
        if self._scn_dd is not None:
            self._scn_dd.kill()
        options = list(self.files) or ["(no scenarios)"]
        start = options[0]
        if self.extra is not None:
            for label, f in self.files.items():
                if f == self.extra:
                    start = label
        self._scn_dd = UIDropDownMenu(options, start,
                                      pygame.Rect(140, 134, 660 - 160, 30), self.m,
                                      container=self.panel)
        self._choose(self.files.get(start))

    def _label(self, f: Path) -> str:
        return f"{f.parent.parent.name}/{f.name}" if f.parent.name == "scenarios" else f.name

    def _scenario(self, path: Path) -> Scenario | str:
        key = str(path)
        if key not in self._scenarios:
            try:
                self._scenarios[key] = load_scenario(path)
            except DataError as e:
                self._scenarios[key] = "<br>".join(esc(p.line()) for p in e.problems[:8])
            except Exception as e:  # a ruleset still being written must not stop the menu
                self._scenarios[key] = esc(f"{type(e).__name__}: {e}")
        return self._scenarios[key]

    def _choose(self, path: Path | None) -> None:
        for wdg in self._side_widgets:
            wdg.kill()
        self._side_widgets = []
        self.path = path
        self.controllers = {}
        if path is None:
            self.desc.set_text("No scenario for this ruleset yet.")
            self.b_start.disable()
            return
        scn = self._scenario(path)
        if isinstance(scn, str):
            self.desc.set_text(f"<font color='#f08a80'><b>This scenario cannot be used:</b>"
                               f"</font><br>{scn}")
            self.b_start.disable()
            return
        self.b_start.enable()
        counts = {s: sum(1 for m in scn.models if m.side == s) for s in scn.sides}
        kinds: dict[str, int] = {}
        for f in scn.battlefield.terrain:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        terrain = ", ".join(f"{k.replace('_', ' ')} \u00d7{n}" if n > 1 else k.replace("_", " ")
                            for k, n in sorted(kinds.items())) or "open ground"
        side_txt = ", ".join(f"<b>{esc(s)}</b> {n} models" for s, n in counts.items())
        limit = f"; {scn.turn_limit} turns" if scn.turn_limit else ""
        self.desc.set_text(
            f"<b>{esc(scn.title)}</b> <font color='#9aa3b2'>({esc(scn.ruleset)}, "
            f"{scn.battlefield.width:g}\u00d7{scn.battlefield.depth:g} in{limit})</font><br>"
            f"{esc(scn.description)}<br><br>{side_txt}<br>"
            f"<font color='#9aa3b2'>Terrain: {esc(terrain)}</font>")
        for k, side in enumerate(scn.sides):
            self.controllers[side] = "human"
            lab = UILabel(pygame.Rect(20, 400 + k * 36, 200, 30), side, self.m,
                          container=self.panel)
            self._side_widgets += [lab, self._side_dropdown(k, "human")]

    def _side_dropdown(self, k: int, who: str) -> UIDropDownMenu:
        return UIDropDownMenu(list(CONTROLLERS), who, pygame.Rect(230, 400 + k * 36, 200, 30),
                              self.m, container=self.panel)

    # --- events -----------------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> bool:
        t = event.type
        if t == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.b_start:
                self.start()
                return True
            if event.ui_element is self.b_load:
                self.on_load()
                return True
            if event.ui_element is self.b_quit:
                self.on_quit()
                return True
        elif t == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.rs_dd:
                self.key = event.text
                self._fill_scenarios()
                return True
            if event.ui_element is self._scn_dd:
                self._choose(self.files.get(event.text))
                return True
            for k in range(1, len(self._side_widgets), 2):
                if event.ui_element is self._side_widgets[k]:
                    side = self._side_widgets[k - 1].text
                    self.controllers[side] = event.text
                    return True
        elif t == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return True
        return False

    def set_controller(self, side: str, who: str) -> None:
        """Choose who plays ``side`` (the dropdown shows it too)."""
        self.controllers[side] = who
        for k in range(0, len(self._side_widgets), 2):
            if self._side_widgets[k].text == side:
                self._side_widgets[k + 1].kill()
                self._side_widgets[k + 1] = self._side_dropdown(k // 2, who)

    def start(self) -> None:
        if self.path is not None and self.b_start.is_enabled:
            self.on_start(str(self.path), dict(self.controllers))
