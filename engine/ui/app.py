"""The application: pygame set-up, the two screens, the frame loop, and ``run_app``.

Why a ``step(events)`` method: the window is the engine's ``play`` loop (DESIGN.md "One
loop for every mode") unrolled into frames. Each frame takes input, lets the agent of
the side to act decide (a human through the controls, the computer on a worker thread
with ``game.clone(dice_seed=n)`` so it can neither see the real dice nor freeze the
window), applies the action, and draws. Tests call ``step`` with real pygame events under
the dummy video driver; ``run`` calls it only as often as something changes (an idle
window sleeps in ``pygame.event.wait`` instead of redrawing 60 times a second).

The app owns the display and switches between one controller per screen: the new-game
screen (``NewGameScreen``) and the battle screen (``BattleScreen``).
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from engine import persistence
from engine.game import Game
from engine.scenario import load_scenario, new_game
from engine.ui import heap
from engine.ui.agents import controller_of
from engine.ui.battle import BattleScreen
from engine.ui.hud import THEME
from engine.ui.newgame import ROOT, NewGameScreen
from engine.ui.style import BACKGROUND, font_path

# pygame_gui warns about every font size it loads lazily; the theme's sizes are few.
warnings.filterwarnings("ignore", category=UserWarning, module=r"pygame_gui\..*")

__all__ = ["App", "controller_of", "run_app"]

#: how long a notice ("saved to ...") stays on screen, in seconds
NOTICE_SECONDS = 4.0
#: the longest an idle window sleeps between frames (tooltips and hovers still follow)
IDLE_WAIT_MS = 250
TITLE = "Warbench \u2014 miniature wargames, measured"


class _Manager(pygame_gui.UIManager):
    """A UIManager that reads the pointer from the events the app saw.

    Why: under the dummy video driver (tests) ``pygame.mouse.get_pos`` never moves, so
    hover (tooltips, odds on hovering a button) would not work from posted events.
    """

    pointer: tuple[int, int] = (0, 0)

    def _update_mouse_position(self) -> None:
        self.mouse_position = self.calculate_scaled_mouse_position(self.pointer)


class App:
    """The Warbench window. ``step`` runs one frame; ``run`` loops until quit."""

    def __init__(
        self,
        size: tuple[int, int] | None = None,
        scenario: str | None = None,
        saves_dir: str | Path | None = None,
        ai_delay: float = 0.35,
        animate: bool = True,
    ) -> None:
        pygame.display.init()
        pygame.font.init()
        size = size or (1280, 800)
        self.size = size
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.display.set_caption(TITLE)
        self.manager = _Manager(size, str(THEME))
        self.manager.preload_fonts(
            [
                {"name": "noto_sans", "point_size": p, "style": st, "antialiased": "1"}
                for p, st in ((13, "bold"), (13, "italic"), (18, "bold"))
            ]
        )
        self.saves = Path(saves_dir) if saves_dir else ROOT / "saves"
        #: seconds between computer moves (the strip's speed menu changes it)
        self.ai_delay = ai_delay
        self.animate = animate
        self.time = 0.0
        self.running = True
        self.battle: BattleScreen | None = None
        self.newgame: NewGameScreen | None = None
        self.pointer: tuple[int, int] = (0, 0)
        #: every notice shown, oldest first (tests and the curious read it)
        self.messages: list[str] = []
        #: the notice on screen: text, good or bad, shown until this time
        self.notice: tuple[str, bool, float] | None = None
        self._start_dialog: Any = None
        #: worker threads of battles left while their computer was still thinking
        self._orphans: list[threading.Thread] = []
        self._font: pygame.font.Font | None = None
        self.frame_s = self.frame_cpu_s = 0.0
        self.open_new_game(scenario)

    # --- the battle screen's parts, as the tests and scripts name them ------------------------
    @property
    def game(self) -> Game | None:
        return self.battle.game if self.battle is not None else None

    @property
    def hud(self) -> Any:
        return self.battle.hud if self.battle is not None else None

    @property
    def controller(self) -> Any:
        return self.battle.controller if self.battle is not None else None

    @property
    def camera(self) -> Any:
        return self.battle.camera if self.battle is not None else None

    # --- screens ------------------------------------------------------------------------------
    def open_new_game(self, scenario: str | None = None) -> None:
        self._close_battle()
        if self.newgame is not None:
            self.newgame.kill()
        self.newgame = NewGameScreen(
            self.manager,
            self.size,
            scenario,
            self.start_scenario,
            self.ask_load,
            self.quit,
            on_resume=self.start,
        )

    def start_scenario(self, path: str, controllers: dict[str, str]) -> None:
        scn = load_scenario(path)
        self.start(new_game(scn), controllers)

    def start(self, game: Game, controllers: dict[str, str] | None = None) -> None:
        """Enter the battle screen with ``game``; sides default to human (hotseat)."""
        if self.newgame is not None:
            self.newgame.kill()
            self.newgame = None
        self._close_battle()
        self.battle = BattleScreen(self, game, controllers)

    def _close_battle(self) -> None:
        """Leave the battle screen at once; a decision still being computed is left to
        finish on its own: "New game" must not freeze the window."""
        if self.battle is not None:
            thread = self.battle.close()
            self._orphans = [t for t in self._orphans if t.is_alive()]
            if thread is not None:
                self._orphans.append(thread)
            self.battle = None
            heap.release()  # the game just freed is handed back (engine.ui.heap)
        self.battle = None

    def quit(self) -> None:
        self.running = False

    def notify(self, text: str, good: bool = True) -> None:
        """Show a short notice over the table ("saved to ...", "cannot save ...")."""
        self.messages.append(text)
        self.notice = (text, good, self.time + NOTICE_SECONDS)

    # --- the loop -------------------------------------------------------------------------------
    def step(self, events: Sequence[pygame.event.Event] | None = None, dt: float = 1 / 60) -> bool:
        """One frame: input, agents, animations, drawing; after the flip, the panel text
        the frame owes, as the gap before the next frame allows (engine/ui/owed.py).
        False once the app should close."""
        start, cpu = time.perf_counter(), time.process_time()
        self.time += dt
        if self.battle is not None:
            self.battle.controller.sliced.new_frame()
        batch = list(pygame.event.get()) if events is None else list(events)
        for _ in range(4):  # widgets post their own events (button pressed, ...): drain them
            for e in batch:
                self._event(e)
            batch = list(pygame.event.get())
            if not batch:
                break
        b = self.battle
        if b is not None:
            b._play()
            b._animate()
            b._refresh_hud()
        self.manager.update(dt)
        self.draw()
        pygame.display.flip()
        #: seconds from the frame's start to its flip (what the player waits for), wall
        #: and CPU (the frame bench reads them)
        self.frame_s = time.perf_counter() - start
        self.frame_cpu_s = time.process_time() - cpu
        if self.battle is not None:
            self.battle.settle(start)
        return self.running

    def busy(self) -> bool:
        """Whether the next frame must come soon: something moves, the computer plays, a
        drag or a notice is on. Otherwise ``run`` sleeps until an event comes."""
        if self.notice is not None and self.time < self.notice[2]:
            return True
        b = self.battle
        if b is None:
            return False
        if b.dice is not None or b.tweens or b.job is not None or b.controller.sliced.busy:
            return True
        if b.owed.busy:
            return True
        c = b.controller
        if c.drag is not None or (c.note is not None and self.time < c.note_until):
            return True
        side = b.game.to_act()
        return side is not None and b.controllers.get(side, "human") != "human" and not b.paused

    def run(self, seconds: float | None = None, redraw: bool = False) -> int:
        """Loop until the window is closed: a frame only when something changed or moves,
        else sleep in ``pygame.event.wait``. ``seconds``: stop after that long (the idle
        benchmark); ``redraw``: draw 60 frames a second regardless, as the window once
        did (the benchmark's baseline)."""
        if seconds is not None:
            pygame.time.set_timer(pygame.event.Event(pygame.QUIT), int(seconds * 1000), 1)
        clock = pygame.time.Clock()
        while self.running:
            if redraw or self.busy():
                dt = clock.tick(60) / 1000.0
                self.step(None, dt)
                continue
            first = pygame.event.wait(IDLE_WAIT_MS)
            events = [first] if first.type != pygame.NOEVENT else []
            events += pygame.event.get()
            self.step(events, clock.tick() / 1000.0)
        self.close()
        pygame.quit()
        return 0

    def close(self) -> None:
        """Wait for computer decisions in flight (a thread killed mid-way by interpreter
        shutdown can crash inside numpy/shapely), then drop every widget."""
        threads = list(self._orphans)
        if self.battle is not None and self.battle.job is not None:
            threads.append(self.battle.job.thread)
        for t in threads:
            t.join(timeout=10.0)
        self._orphans = []
        # through the base class: mypy's untyped_calls_exclude of pygame_gui (which leaves
        # this method unannotated) does not cover the call by way of our subclass
        pygame_gui.UIManager.clear_and_reset(self.manager)

    def draw(self) -> None:
        self.screen.fill(BACKGROUND)
        if self.battle is not None:
            self.battle.draw(self.screen)
        self.manager.draw_ui(self.screen)
        if self.battle is not None:
            self.battle.draw_owed(self.screen)
        self._draw_notice()

    def _draw_notice(self) -> None:
        if self.notice is None or self.time >= self.notice[2]:
            return
        text, good, _ = self.notice
        if self._font is None:
            self._font = pygame.font.Font(font_path(), 15)
        colour = (143, 224, 154) if good else (240, 138, 128)
        surf = self._font.render(text[:140], True, colour)
        box = surf.get_rect()
        box.inflate_ip(20, 10)
        area = self.battle.hud.table_rect() if self.battle is not None else (0, 0, *self.size)
        box.midbottom = (area[0] + area[2] // 2, area[1] + area[3] - 8)
        pygame.draw.rect(self.screen, (24, 27, 34), box, border_radius=6)
        pygame.draw.rect(self.screen, colour, box, 1, border_radius=6)
        self.screen.blit(surf, surf.get_rect(center=box.center))

    # --- events -----------------------------------------------------------------------------------
    def _event(self, e: pygame.event.Event) -> None:
        if e.type == pygame.QUIT:
            self.running = False
            return
        if e.type == pygame.VIDEORESIZE:
            self._resize((max(960, e.w), max(640, e.h)))
            return
        if e.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.pointer = (int(e.pos[0]), int(e.pos[1]))
            self.manager.pointer = self.pointer
        if e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and self.notice is not None:
            self.notice = None  # a notice stays until the next input
        consumed = self.manager.process_events(e)
        if self.newgame is not None:
            if e.type == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and e.ui_element is getattr(
                self, "_start_dialog", None
            ):
                self._start_dialog = None
                self.load_for_setup(str(e.text))
                return
            self.newgame.handle(e)
            return
        if self.battle is not None:
            self.battle.handle(e, consumed)

    def _resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager.set_window_resolution(size)
        if self.newgame is not None:
            pre = str(self.newgame.path) if self.newgame.path else None
            self.newgame.kill()
            self.newgame = None
            self.open_new_game(pre)
        if self.battle is not None:
            self.battle.resize()

    # --- loading from the start screen ------------------------------------------------------------
    def latest_save(self) -> Path:
        """The newest save in the saves folder (or the folder): where a load dialog opens."""
        self.saves.mkdir(parents=True, exist_ok=True)
        files = sorted(self.saves.glob("*.json"), key=lambda p: p.stat().st_mtime)
        return files[-1] if files else self.saves

    def ask_load(self) -> None:
        if self.battle is not None:
            self.battle.ask_load()
            return
        from pygame_gui.windows import UIFileDialog

        w, h = self.size
        self._start_dialog = UIFileDialog(
            pygame.Rect((w - 520) // 2, (h - 440) // 2, 520, 440),
            self.manager,
            window_title="Load game",
            initial_file_path=str(self.latest_save()),
            allow_existing_files_only=True,
            allowed_suffixes={".json"},
        )

    def load_for_setup(self, path: str | Path) -> bool:
        """From the start screen: read the save and let the player choose who plays each
        of its sides before it continues (``NewGameScreen.show_loaded``)."""
        if self.newgame is None:
            return self.battle.load(path) if self.battle is not None else False
        try:
            game = persistence.load(path)
        except Exception as e:  # a bad file is reported on the screen, never fatal
            self.newgame.show_error(str(e))
            self.messages.append(f"cannot load {path}: {e}")
            return False
        self.newgame.show_loaded(path, game)
        self.messages.append(f"loaded {path}")
        return True


def run_app(path: str | None = None, size: tuple[int, int] | None = None) -> int:
    """Open the window on the start screen with ``path`` preselected; returns an exit code."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    app = App(size=size, scenario=path)
    return app.run()
