"""The start screen: ruleset, scenario, and who controls each side.

Why a screen of its own: the same table serves a hotseat evening, a solo game against the
computer and a computer-vs-computer demo; the only difference is which agent answers for
each side (DESIGN.md "One loop for every mode"), so that choice is made here, before the
game exists, from the scenarios each ruleset ships (rulesets/<key>/scenarios/*.toml).
A saved game loaded from here gets the same choice before it continues: a save records
the battle, not who sat at the table.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UIPanel, UITextBox

from engine.agents import LEVELS
from engine.data import DataError
from engine.ruleset import UnknownRuleset, available, load
from engine.scenario import Scenario, load_scenario
from engine.ui.markup import esc

ROOT = Path(__file__).resolve().parent.parent.parent
#: the stems bench/ plays (bench/_common.py bench_scenario): benchmark maps, not games
BENCHMARK_MAPS = ("mirror", "skirmish10")
#: what plain "computer" means: the level a newcomer meets first
DEFAULT_LEVEL = "normal"
#: who can play a side: the drop-down's (label, controller) pairs; a computer is one of
#: the engine's difficulty LEVELS, so the menu follows the engine when a level is added
CONTROLLERS: tuple[tuple[str, str], ...] = (("human", "human"),) + tuple(
    (f"computer ({level})", level) for level in LEVELS
)
LEVEL_HELP = (
    "<font color='#9aa3b2'><b>easy</b>: random legal moves<br>"
    "<b>normal</b>: one move ahead, on the odds<br>"
    "<b>hard</b>: searches ahead, ~0.4 s a move</font>"
)


def controller_label(who: str) -> str:
    """'computer (hard)' for 'hard': the words the menu and the status bar use."""
    if who == "human" or not who:
        return "human"
    return f"computer ({who})"


def victory_text(scn: Scenario) -> str:
    """'To win: …' from the scenario's ruleset (``Ruleset.victory_text``), as a line of
    the description, or nothing when the ruleset says nothing (issue 20)."""
    try:
        text = load(scn.ruleset).victory_text(scn)
    except UnknownRuleset:
        return ""
    return f"<b>To win:</b> {esc(text)}<br>" if text else ""


def scenario_files(key: str) -> list[Path]:
    """A ruleset's bundled scenarios, its default first."""
    folder = ROOT / "rulesets" / key / "scenarios"
    files = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    return sorted(files, key=lambda p: (p.stem != "default", p.name))


def _head(path: Path) -> dict[str, Any]:
    """A scenario file's top-level keys, read cheaply without validating ({} if unreadable)."""
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def ruleset_of(path: Path) -> str:
    """The ``ruleset`` key a scenario file names (read cheaply, without validating)."""
    return str(_head(path).get("ruleset", ""))


def is_benchmark(path: Path) -> bool:
    """A map made for the benchmarks and AI strength tests (bench/ plays the mirror
    battles and the ten-a-side skirmishes), not for an evening's game: the start
    screen lists them apart, after the scenarios meant to be played."""
    text = str(_head(path).get("description", "")).lower()
    return path.stem in BENCHMARK_MAPS or "benchmark" in text or "bench/" in text


def scenario_title(path: Path) -> str:
    """The scenario's title without its ruleset prefix ("UMR: Crossroads..." reads
    "Crossroads..." under a ruleset menu that already says UMR); the file name when
    it has no title."""
    title = str(_head(path).get("title", "")).strip()
    if not title:
        return path.name
    head, sep, rest = title.partition(": ")
    return rest if sep and len(head) <= 12 and rest else title


def ruleset_label(key: str) -> str:
    """A ruleset as the menu names it: its rulebook's title, then its key."""
    try:
        title = str(load(key).title)
    except Exception as e:  # a broken ruleset is named in the menu, and the menu stays
        return f"{key} (cannot load: {type(e).__name__}: {e})"
    return f"{title} ({key})" if title and title.lower() != key.lower() else key


class NewGameScreen:
    """Widgets of the start screen; calls ``on_start(path, controllers)`` when asked."""

    def __init__(
        self,
        manager: pygame_gui.UIManager,
        size: tuple[int, int],
        preselect: str | None,
        on_start: Callable[[str, dict[str, str]], None],
        on_load: Callable[[], None],
        on_quit: Callable[[], None],
        on_resume: Callable[[Any, dict[str, str]], None] | None = None,
    ) -> None:
        """``on_resume(game, controllers)`` continues a loaded save (see ``show_loaded``)."""
        self.m = manager
        self.size = size
        self.on_start, self.on_load, self.on_quit = on_start, on_load, on_quit
        self.on_resume = on_resume
        #: a loaded save waiting for its sides' controllers, and the file it came from
        self.loaded: Any = None
        self.loaded_path: Path | None = None
        self._scenarios: dict[str, Scenario | str] = {}
        self.extra: Path | None = Path(preselect).resolve() if preselect else None
        keys = list(available())
        pre_key = ruleset_of(self.extra) if self.extra else ""
        if pre_key and pre_key not in keys:
            keys.append(pre_key)
        self.keys = keys or [""]
        self.key = pre_key if pre_key else ("umr" if "umr" in self.keys else self.keys[0])
        self.path: Path | None = None
        self.controllers: dict[str, str] = {}
        #: one row per side: its name and the dropdown of who plays it
        self.side_rows: list[tuple[UILabel, UIDropDownMenu]] = []
        self._level_help: UITextBox | None = None
        self._scn_dd: UIDropDownMenu | None = None
        self._build()

    # --- layout ---------------------------------------------------------------------------------
    def _build(self) -> None:
        w, h = self.size
        pw, ph = 660, 600
        self.panel = UIPanel(
            pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph), manager=self.m, starting_height=1
        )
        m, p = self.m, self.panel
        UILabel(pygame.Rect(20, 14, pw - 40, 44), "Warbench", m, container=p, object_id="#title")
        UILabel(
            pygame.Rect(20, 56, pw - 40, 22),
            "Miniatures wargames on a measured table",
            m,
            container=p,
        )
        UILabel(pygame.Rect(20, 96, 120, 30), "Ruleset", m, container=p, object_id="#section_head")
        pairs = [(ruleset_label(k), k) for k in self.keys]
        options: list[str | tuple[str, str]] = list(pairs)
        self.rs_dd = UIDropDownMenu(
            options,
            next(o for o in pairs if o[1] == self.key),
            pygame.Rect(140, 96, pw - 160, 30),
            m,
            container=p,
        )
        UILabel(
            pygame.Rect(20, 134, 120, 30), "Scenario", m, container=p, object_id="#section_head"
        )
        self.desc = UITextBox("", pygame.Rect(20, 174, pw - 40, 190), m, container=p)
        UILabel(
            pygame.Rect(20, 372, 300, 22),
            "WHO PLAYS EACH SIDE",
            m,
            container=p,
            object_id="#section_head",
        )
        self.b_start = UIButton(
            pygame.Rect(pw - 200, ph - 56, 180, 40),
            "Start (Enter)",
            m,
            container=p,
            object_id="#primary",
        )
        self.b_load = UIButton(pygame.Rect(20, ph - 56, 180, 40), "Load saved game", m, container=p)
        self.b_quit = UIButton(pygame.Rect(210, ph - 56, 100, 40), "Quit", m, container=p)
        self._fill_scenarios()

    def kill(self) -> None:
        self.panel.kill()

    def _fill_scenarios(self) -> None:
        files = scenario_files(self.key) if self.key else []
        if self.extra and ruleset_of(self.extra) == self.key and self.extra not in files:
            files.insert(0, self.extra)
        self.files = self._labels(files)
        if self._scn_dd is not None:
            self._scn_dd.kill()
        options: list[str | tuple[str, str]] = list(self.files) or ["(no scenarios)"]
        start = next(iter(self.files), "(no scenarios)")
        if self.extra is not None:
            for label, f in self.files.items():
                if f == self.extra:
                    start = label
        self._scn_dd = UIDropDownMenu(
            options, start, pygame.Rect(140, 134, 660 - 160, 30), self.m, container=self.panel
        )
        self._choose(self.files.get(start))

    def _labels(self, files: list[Path]) -> dict[str, Path]:
        """Menu label -> file: the scenarios to play by title first, then the benchmark
        maps, marked as such; a title two files share gets its file name."""
        play = [f for f in files if not is_benchmark(f) or f == self.extra]
        bench = [f for f in files if f not in play]
        out: dict[str, Path] = {}
        for f in play + bench:
            label = scenario_title(f)
            if f in bench:
                label = f"benchmark map: {label}"
            if label in out:
                label = f"{label} ({f.name})"
            out[label] = f
        return out

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

    def _clear_sides(self) -> None:
        for lab, dd in self.side_rows:
            lab.kill()
            dd.kill()
        self.side_rows = []
        if self._level_help is not None:
            self._level_help.kill()
            self._level_help = None
        self.controllers = {}

    def _side_rows(self, sides: list[str]) -> None:
        """One row per side: its name and who plays it (human by default)."""
        for k, side in enumerate(sides):
            self.controllers[side] = "human"
            lab = UILabel(
                pygame.Rect(20, 400 + k * 36, 120, 30), side, self.m, container=self.panel
            )
            self.side_rows.append((lab, self._side_dropdown(k, "human")))
        self._level_help = UITextBox(
            LEVEL_HELP, pygame.Rect(362, 398, 278, 84), self.m, container=self.panel
        )

    def _choose(self, path: Path | None) -> None:
        self._clear_sides()
        self.loaded = self.loaded_path = None
        if self.b_start.text != "Start (Enter)":
            self.b_start.set_text("Start (Enter)")
        self.path = path
        if path is None:
            self.desc.set_text("No scenario for this ruleset yet.")
            self.b_start.disable()
            return
        scn = self._scenario(path)
        if isinstance(scn, str):
            self.desc.set_text(
                f"<font color='#f08a80'><b>This scenario cannot be used:</b></font><br>{scn}"
            )
            self.b_start.disable()
            return
        self.b_start.enable()
        counts = {s: sum(1 for m in scn.models if m.side == s) for s in scn.sides}
        kinds: dict[str, int] = {}
        for f in scn.battlefield.terrain:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        terrain = (
            ", ".join(
                f"{k.replace('_', ' ')} \u00d7{n}" if n > 1 else k.replace("_", " ")
                for k, n in sorted(kinds.items())
            )
            or "open ground"
        )
        side_txt = ", ".join(f"<b>{esc(s)}</b> {n} models" for s, n in counts.items())
        limit = f"; {scn.turn_limit} turns" if scn.turn_limit else ""
        win = victory_text(scn)
        bench = (
            "<font color='#f0cf7a'>A benchmark map: made for bench/ and the AI strength "
            "tests.</font><br>"
            if is_benchmark(path)
            else ""
        )
        self.desc.set_text(
            f"{bench}<b>{esc(scn.title)}</b> <font color='#9aa3b2'>({esc(scn.ruleset)}, "
            f"{scn.battlefield.width:g}\u00d7{scn.battlefield.depth:g} in{limit})</font><br>"
            f"{esc(scn.description)}<br>{win}<br>{side_txt}<br>"
            f"<font color='#9aa3b2'>Terrain: {esc(terrain)}</font>"
        )
        self._side_rows(list(scn.sides))

    def show_loaded(self, path: str | Path, game: Any) -> None:
        """A save was picked: describe it and ask who plays each of its sides; Start then
        continues it through ``on_resume``. Choosing a scenario again leaves this."""
        self._clear_sides()
        self.loaded, self.loaded_path = game, Path(path)
        self.path = None
        st = game.state
        raw = game.scenario.get("raw")
        title = str(
            (raw.get("title") if isinstance(raw, dict) else None)
            or game.scenario.get("path")
            or self.loaded_path.stem
        )
        alive = ", ".join(f"<b>{esc(s)}</b> {len(st.live(s))} models" for s in st.sides)
        side = game.to_act()
        where = (
            f"game over: {esc(str(st.over.get('winner') or 'draw'))}"
            if st.over
            else f"turn {st.turn}, {esc(side or '?')} to act"
        )
        self.desc.set_text(
            f"<b>Saved game: {esc(self.loaded_path.name)}</b><br>"
            f"{esc(title)} <font color='#9aa3b2'>({esc(st.ruleset)}, {where})</font><br><br>"
            f"{alive}<br><br><font color='#9aa3b2'>Choose who plays each side, then "
            f"Continue.</font>"
        )
        self._side_rows(list(st.sides))
        self.b_start.set_text("Continue (Enter)")
        self.b_start.enable()

    def show_error(self, text: str) -> None:
        """A save could not be loaded: say why where the player is looking."""
        self.desc.set_text(
            f"<font color='#f08a80'><b>Cannot load that save:</b></font><br>{esc(text)}"
        )

    def _side_dropdown(self, k: int, who: str) -> UIDropDownMenu:
        label = controller_label(who)
        return UIDropDownMenu(
            list(CONTROLLERS),
            (label, who),
            pygame.Rect(144, 400 + k * 36, 204, 30),
            self.m,
            container=self.panel,
        )

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
                self.key = str(getattr(event, "selected_option_id", "") or event.text)
                self._fill_scenarios()
                return True
            if event.ui_element is self._scn_dd:
                self._choose(self.files.get(event.text))
                return True
            for lab, dd in self.side_rows:
                if event.ui_element is dd:
                    side = lab.text
                    self.controllers[side] = str(
                        getattr(event, "selected_option_id", "")
                        or dict(CONTROLLERS).get(event.text, "human")
                    )
                    return True
        elif t == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.start()
            return True
        return False

    def set_controller(self, side: str, who: str) -> None:
        """Choose who plays ``side``: "human" or a level (the dropdown shows it too)."""
        self.controllers[side] = who
        for k, (lab, dd) in enumerate(self.side_rows):
            if lab.text == side:
                dd.kill()
                self.side_rows[k] = (lab, self._side_dropdown(k, who))

    def start(self) -> None:
        if not self.b_start.is_enabled:
            return
        if self.loaded is not None and self.on_resume is not None:
            self.on_resume(self.loaded, dict(self.controllers))
        elif self.path is not None:
            self.on_start(str(self.path), dict(self.controllers))
