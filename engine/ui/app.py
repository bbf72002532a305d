"""The application: pygame set-up, screens, the one play loop, and ``run_app``.

Why a ``step(events)`` method: the window is the engine's ``play`` loop (DESIGN.md "One
loop for every mode") unrolled into frames. Each frame takes input, lets the agent of
the side to act decide (a human through the controls, the computer on a worker thread
with ``game.clone(dice_seed=n)`` so it can neither see the real dice nor freeze the
window), applies the action, and draws. Tests call ``step`` with real pygame events under
the dummy video driver; ``run`` calls it at 60 frames a second.

A side is played by "human" or by a computer level from ``engine.agents.LEVELS`` (easy,
normal, hard). Like ``engine.game.play``, each computer decision is explained before it is
applied: a "decision" entry in the roll log and, in the strip under the table, its best
options with their values and odds. The spectator can pause the computer, step it one
move at a time, and set the pause between its moves.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import traceback
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from engine import persistence
from engine.actions import Action, EndTurn
from engine.agents import explain
from engine.agents import make as make_agent
from engine.game import Game
from engine.scenario import load_scenario, new_game
from engine.ui import choices
from engine.ui import hud as hudmod
from engine.ui.camera import Camera
from engine.ui.choices import Mode, akey
from engine.ui.controls import Controller
from engine.ui.draw import Renderer, terrain_glyphs
from engine.ui.hud import THEME, Hud, Linker, esc, event_html, odds_html
from engine.ui.newgame import DEFAULT_LEVEL, ROOT, NewGameScreen
from engine.ui.overlays import DiceAnim, ModelView, Overlays, TableView
from engine.ui.style import BACKGROUND, TARGET_COLOURS, hexc, side_colours

# pygame_gui warns about every font size it loads lazily; the theme's sizes are few.
warnings.filterwarnings("ignore", category=UserWarning, module=r"pygame_gui\..*")

DICE_SECONDS = 0.9
TWEEN_SECONDS = 0.25
LOG_ENTRIES = 80
ODDS_PANEL_EVERY = 0.1
ZOOM_STEP = 2  # levels per wheel notch (each level is 2^(1/12), about 6%)


class HumanAgent:
    """A human: the window feeds it the action the player committed."""

    name = "human"

    def __init__(self) -> None:
        self.queue: list[Action] = []

    def take(self) -> Action | None:
        return self.queue.pop(0) if self.queue else None


def controller_of(who: str) -> str:
    """'human', or the computer level/agent name ``engine.agents.make`` takes.

    Why: the start screen offers the LEVELS, but callers (tests, scripts, older saves of
    the menu) may still say plain "computer", which means the default level."""
    who = (who or "human").strip()
    if who == "computer":
        return DEFAULT_LEVEL
    if who.startswith("computer (") and who.endswith(")"):
        return who[len("computer (") : -1]
    return who


class AiJob:
    """One decision of a computer agent, computed on a worker thread.

    The agent's explanation (``explain`` and its ``last`` options) is read on the worker
    right after ``choose`` returns, so the window never reads an agent mid-decision."""

    def __init__(self, agent: Any, clone: Game, side: str, token: int) -> None:
        self.token = token
        self.side = side
        self.result: Action | None = None
        self.error: str = ""
        self.why: str | None = None
        self.options: list[Any] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(agent, clone, side), daemon=True)
        self.thread.start()

    def _run(self, agent: Any, clone: Game, side: str) -> None:
        try:
            self.result = agent.choose(clone, side)
            self.options = list(getattr(agent, "last", None) or [])
            self.why = _explain_choice(agent, side, self.result, self.options)
        except Exception as e:  # shown to the player; the game moves on with 'advance'
            self.error = f"{type(e).__name__}: {e}"
        self.done.set()


@dataclass
class _Decision:
    """An agent's name and options reordered so ``explain`` leads with the played one."""

    name: str
    last: list[Any]


def _explain_choice(agent: Any, side: str, action: Action, options: list[Any]) -> str | None:
    """``engine.agents.explain``'s line, naming the action actually played.

    Why not ``explain(agent, side)`` as is: it names the agent's best-valued option, but
    the greedy agent breaks ties at random, so the action played may be a runner-up of the
    same value, and the roll log would then name a move that was never made."""
    if not options:
        return explain(agent, side)
    name = str(getattr(agent, "name", "computer"))
    key = akey(action)
    played = next((o for o in options if akey(o.action) == key), None)
    if played is None:  # a tie beyond the options the agent kept: name the action itself
        text = f"{side} ({name}) chose {action.describe()}"
        return text + "; also weighed: " + "; ".join(o.line() for o in options[:3])
    return explain(_Decision(name, [played] + [o for o in options if o is not played]), side)


class _Manager(pygame_gui.UIManager):
    """A UIManager that reads the pointer from the events the app saw.

    Why: under the dummy video driver (tests) ``pygame.mouse.get_pos`` never moves, so
    hover (tooltips, odds on hovering a button) would not work from posted events.
    """

    pointer: tuple[int, int] = (0, 0)

    def _update_mouse_position(self) -> None:
        self.mouse_position = self.calculate_scaled_mouse_position(self.pointer)


@dataclass
class Tween:
    start: tuple[float, float, float]
    end: tuple[float, float, float]
    t0: float


@dataclass
class Battle:
    """Everything the battle screen holds besides the game itself."""

    controllers: dict[str, str]
    agents: dict[str, Any]
    renderer: Renderer
    camera: Camera
    linker: Linker
    job: AiJob | None = None
    ai_ready_at: float = 0.0
    n_actions: int = 0
    dice: DiceAnim | None = None
    dice_t0: float = 0.0
    tweens: dict[str, Tween] = field(default_factory=dict)
    awaiting: str = ""
    last_side: str | None = None
    last_turn: int = 0
    summary_shown: bool = False
    turn_marks: dict[int, int] = field(default_factory=dict)
    hud_key: Any = None
    log_key: Any = None
    odds_hover: str = ""
    view_key: int = -1
    view: TableView | None = None
    odds_set_at: float = -1.0
    #: the computer holds its moves (a decision in flight is kept, not applied)
    paused: bool = False
    #: one computer move is allowed through the pause (the Step button)
    step_once: bool = False
    #: the strip's text: the last computer decision and the options it weighed
    decision: str = ""

    def computer_plays(self) -> bool:
        return any(who != "human" for who in self.controllers.values())


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
        pygame.display.set_caption("Warbench")
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
        self.version = 0
        self.game: Game | None = None
        self.battle: Battle | None = None
        self.hud: Hud | None = None
        self.controller: Controller | None = None
        self.camera: Camera = Camera(72, 48, (0, 0, size[0], size[1]))
        self.newgame: NewGameScreen | None = None
        self.pointer: tuple[int, int] = (0, 0)
        self._left_down = False
        self._pan_from: tuple[int, int] | None = None
        self.messages: list[str] = []
        self._start_dialog: Any = None
        self._hover_odds: Action | None = None
        #: worker threads of battles left while their computer was still thinking
        self._orphans: list[threading.Thread] = []
        self.open_new_game(scenario)

    # --- screens ------------------------------------------------------------------------------
    def open_new_game(self, scenario: str | None = None) -> None:
        self._close_battle()
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
        """Enter the battle screen with ``game``; sides default to human (hotseat).

        ``controllers`` maps a side to "human" or a computer level ("easy", "normal",
        "hard"; plain "computer" is the default level); the hard level is the search
        agent with its default time budget."""
        if self.newgame is not None:
            self.newgame.kill()
            self.newgame = None
        self._close_battle()
        self.game = game
        self.version += 1
        ctrl = {s: controller_of((controllers or {}).get(s, "human")) for s in game.state.sides}
        agents: dict[str, Any] = {}
        for k, s in enumerate(game.state.sides):
            agents[s] = HumanAgent() if ctrl[s] == "human" else make_agent(ctrl[s], seed=k + 1)
        self.hud = self._make_hud(any(who != "human" for who in ctrl.values()))
        cam = Camera(game.battlefield.width, game.battlefield.depth, self.hud.table_rect())
        cam.fit()
        self.camera = cam
        self.battle = Battle(
            ctrl,
            agents,
            Renderer(game.battlefield),
            cam,
            Linker(game.ruleset.reference),
            last_turn=game.state.turn,
            decision=WAITING_HTML,
        )
        self.controller = Controller(self)
        self.controller.on_change = self._hud_dirty
        self._check_handover()

    def _make_hud(self, computer: bool) -> Hud:
        hud = Hud(self.manager, self.size, computer=computer, delay=self.ai_delay)
        if hud.b_pause is not None and hud.b_step is not None:
            hud.bind(hud.b_pause, self.toggle_pause)
            hud.bind(hud.b_step, self.step_computer)
        hud.on_speed = self.set_speed
        hud.bind(hud.b_next, self.advance)
        hud.bind(hud.b_turn, self.end_turn)
        hud.bind(hud.b_undo, self.undo)
        hud.bind(hud.b_save, self.ask_save)
        hud.bind(hud.b_load, self.ask_load)
        hud.bind(hud.b_help, self.open_help)
        hud.bind(
            hud.b_menu,
            lambda: self.open_new_game(
                str(self.game.scenario.get("path", "")) if self.game else None
            ),
        )
        return hud

    def _close_battle(self) -> None:
        """Leave the battle screen at once. A decision still being computed is left to
        finish on its own (it works on a clone and its result is dropped): the hard level
        can think for seconds on a big table, and "New game" must not freeze the window."""
        if self.battle is not None and self.battle.job is not None:
            self._orphans = [t for t in self._orphans if t.is_alive()]
            self._orphans.append(self.battle.job.thread)
        if self.hud is not None:
            self.hud.kill()
        self.hud = None
        self.battle = None
        self.controller = None
        self.game = None

    def quit(self) -> None:
        self.running = False

    # --- the session protocol the controls use ---------------------------------------------------
    def human_to_act(self) -> bool:
        b, g = self.battle, self.game
        if b is None or g is None:
            return False
        side = g.to_act()
        return side is not None and b.controllers.get(side) == "human" and not b.awaiting

    def submit(self, action: Action) -> None:
        """The player committed ``action``: hand it to the human agent of the side to act."""
        b, g = self.battle, self.game
        if b is None or g is None:
            return
        side = g.to_act()
        agent = b.agents.get(side) if side else None
        if isinstance(agent, HumanAgent) and not b.awaiting:
            agent.queue.append(action)
            self._play()

    # --- the loop -------------------------------------------------------------------------------
    def step(self, events: Sequence[pygame.event.Event] | None = None, dt: float = 1 / 60) -> bool:
        """One frame: input, agents, animations, drawing. False once the app should close."""
        self.time += dt
        batch = list(pygame.event.get()) if events is None else list(events)
        for _ in range(4):  # widgets post their own events (button pressed, ...): drain them
            for e in batch:
                self._event(e)
            batch = list(pygame.event.get())
            if not batch:
                break
        self._play()
        self._animate()
        self._refresh_hud()
        self.manager.update(dt)
        self.draw()
        pygame.display.flip()
        return self.running

    def run(self) -> int:
        clock = pygame.time.Clock()
        while self.running:
            dt = clock.tick(60) / 1000.0
            self.step(None, dt)
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
        self.manager.clear_and_reset()

    def draw(self) -> None:
        self.screen.fill(BACKGROUND)
        if self.battle is not None and self.game is not None and self.controller is not None:
            self.battle.renderer.render(
                self.screen, self.table_view(), self.overlays(), self.camera
            )
        self.manager.draw_ui(self.screen)

    def table_view(self) -> TableView:
        """The game as the renderer sees it, rebuilt only when the state changed."""
        b, g = self.battle, self.game
        assert b is not None and g is not None
        if b.view is None or b.view_key != self.version:
            done = set()
            act = g.state.vars.get("act")
            if isinstance(act, dict):
                done = set(act.get("done", []) or [])
            models = []
            for m in g.state.live():
                v = g.ruleset.model_view(m)
                hp = v.get("hp", m.hp) if isinstance(v, dict) else m.hp
                status = tuple(
                    str(s) for s in (v.get("status", m.status) if isinstance(v, dict) else m.status)
                )
                label = m.id + (f" ({m.profile})" if m.profile else "")
                models.append(
                    ModelView(
                        m.id,
                        m.side,
                        m.unit,
                        m.x,
                        m.y,
                        m.facing,
                        m.base,
                        int(hp) if isinstance(hp, (int, float)) else m.hp,
                        max(m.max_hp, 1),
                        status,
                        m.unit in done,
                        label,
                    )
                )
            b.view = TableView(
                g.battlefield.width,
                g.battlefield.depth,
                tuple(models),
                side_colours(g.state.sides),
                g.ruleset.unit_name,
                self.version,
            )
            b.view_key = self.version
        return b.view

    def overlays(self) -> Overlays:
        b, c = self.battle, self.controller
        assert b is not None and c is not None
        ov = c.overlays(self.time)
        if b.dice is not None:
            ov.dice = b.dice
        for mid, tw in b.tweens.items():
            t = min(1.0, (self.time - tw.t0) / TWEEN_SECONDS)
            t = t * t * (3 - 2 * t)
            s, e = tw.start, tw.end
            df = ((e[2] - s[2] + 180) % 360) - 180
            ov.moving[mid] = (s[0] + (e[0] - s[0]) * t, s[1] + (e[1] - s[1]) * t, s[2] + df * t)
        return ov

    # --- events -----------------------------------------------------------------------------------
    def _event(self, e: pygame.event.Event) -> None:
        if e.type == pygame.QUIT:
            self.running = False
            return
        if e.type == pygame.VIDEORESIZE:
            self._resize((max(960, e.w), max(640, e.h)))
            return
        if e.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self.pointer = tuple(int(v) for v in e.pos)  # type: ignore[assignment]
            self.manager.pointer = self.pointer
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
        if self.hud is None or self.battle is None:
            return
        if self.hud.handle(e, self._link, self._path_picked, self._unhover):
            return
        if consumed and e.type != pygame.MOUSEBUTTONUP:
            return
        if e.type == pygame.KEYDOWN:
            self._key(e)
        elif e.type in (
            pygame.MOUSEBUTTONDOWN,
            pygame.MOUSEBUTTONUP,
            pygame.MOUSEMOTION,
            pygame.MOUSEWHEEL,
        ):
            self._mouse(e, consumed)

    def _mouse(self, e: pygame.event.Event, consumed: bool) -> None:
        c, cam, hud = self.controller, self.camera, self.hud
        assert c is not None and hud is not None
        if e.type == pygame.MOUSEWHEEL:
            if cam.in_view(*self.pointer) and not self.manager.get_hovering_any_element():
                cam.zoom(ZOOM_STEP if e.y > 0 else -ZOOM_STEP, self.pointer)
            return
        world = cam.to_world(*self.pointer)
        if e.type == pygame.MOUSEMOTION:
            if self._pan_from is not None:
                cam.pan(self.pointer[0] - self._pan_from[0], self.pointer[1] - self._pan_from[1])
                self._pan_from = self.pointer
            elif cam.in_view(*self.pointer) or c.drag is not None:
                c.motion(world, self.pointer)
            return
        if e.type == pygame.MOUSEBUTTONDOWN:
            if consumed or not cam.in_view(*e.pos) or hud.modal():
                return
            if e.button in (2, 3):
                self._pan_from = self.pointer
                return
            if e.button == 1:
                if self._skip_dice():
                    return
                self._left_down = True
                c.motion(world, self.pointer)
                c.press(world, self.pointer, self.time)
            return
        if e.type == pygame.MOUSEBUTTONUP:
            if e.button in (2, 3):
                self._pan_from = None
                return
            if e.button == 1 and self._left_down:
                self._left_down = False
                c.motion(world, self.pointer)
                c.release(world, self.time)

    def _key(self, e: pygame.event.Event) -> None:
        c, hud, b = self.controller, self.hud, self.battle
        assert c is not None and hud is not None and b is not None
        k = e.key
        ctrl = bool(e.mod & pygame.KMOD_CTRL)
        shift = bool(e.mod & pygame.KMOD_SHIFT)
        if hud.dialog is not None:
            return
        if b.awaiting:
            if k in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self._ready()
            return
        if k == pygame.K_F1 or getattr(e, "unicode", "") == "?":
            self.open_help()
        elif k == pygame.K_ESCAPE:
            if self._skip_dice():
                return
            for key in ("reference", "help", "message"):
                if hud.is_open(key):
                    hud.close(key)
                    return
            c.cancel()
        elif ctrl and k == pygame.K_z or k in (pygame.K_u, pygame.K_BACKSPACE):
            self.undo()
        elif ctrl and k == pygame.K_s:
            self.ask_save()
        elif ctrl and k in (pygame.K_o, pygame.K_l):
            self.ask_load()
        elif k in (pygame.K_SPACE, pygame.K_n):
            if not self._skip_dice():
                self.advance()
        elif k == pygame.K_END:
            self.end_turn()
        elif k in (pygame.K_q, pygame.K_e):
            step = 45.0 if shift else 15.0
            c.rotate(step if k == pygame.K_q else -step)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            c.commit_turn(self.time)
        elif k == pygame.K_TAB:
            c.cycle()
        elif k == pygame.K_w:
            c.add_waypoint()
        elif k == pygame.K_l:
            c.unit_links = not c.unit_links
        elif k == pygame.K_p:
            self.toggle_pause()
        elif k in (pygame.K_PERIOD, pygame.K_KP_PERIOD):
            self.step_computer()
        elif pygame.K_1 <= k <= pygame.K_9:
            hud.press_action(k - pygame.K_1)
        elif k in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.camera.zoom(ZOOM_STEP)
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.camera.zoom(-ZOOM_STEP)
        elif k in (pygame.K_HOME, pygame.K_0):
            self.camera.fit()
        elif k in (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            d = 80
            dx = d if k == pygame.K_LEFT else -d if k == pygame.K_RIGHT else 0
            dy = d if k == pygame.K_UP else -d if k == pygame.K_DOWN else 0
            self.camera.pan(dx, dy)

    def _resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.screen = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.manager.set_window_resolution(size)
        if self.newgame is not None:
            pre = str(self.newgame.path) if self.newgame.path else None
            self.newgame.kill()
            self.newgame = NewGameScreen(
                self.manager,
                size,
                pre,
                self.start_scenario,
                self.ask_load,
                self.quit,
                on_resume=self.start,
            )
        if self.hud is not None and self.battle is not None:
            self.hud.kill()
            self.hud = self._make_hud(self.battle.computer_plays())
            self.camera.set_view(self.hud.table_rect())
            self.battle.hud_key = self.battle.log_key = None
            if self.battle.awaiting:
                self._open_handover(self.battle.awaiting)

    # --- commands ------------------------------------------------------------------------------
    def advance(self) -> None:
        g = self.game
        if g is None or not self.human_to_act():
            return
        a = g.ruleset.advance(g.state, g.ctx)
        if a is not None:
            self.submit(a)

    def end_turn(self) -> None:
        if self.game is not None and self.human_to_act():
            self.submit(EndTurn())

    def toggle_pause(self) -> None:
        """Hold or release the computer. Why hold rather than cancel a decision already
        being computed: the worker cannot be interrupted, and its move is still valid when
        the spectator resumes (or steps)."""
        b = self.battle
        if b is None or not b.computer_plays():
            return
        b.paused = not b.paused
        b.step_once = False

    def step_computer(self) -> None:
        """Let exactly one computer move through, then stay paused (pausing first if the
        game was running): the spectator follows the game one decision at a time."""
        b, g = self.battle, self.game
        if b is None or g is None or not b.computer_plays():
            return
        side = g.to_act()
        b.paused = True
        if side is not None and b.controllers.get(side, "human") != "human":
            b.step_once = True

    def set_speed(self, delay: float) -> None:
        """The pause between computer moves; the next move waits the new delay."""
        self.ai_delay = max(0.0, float(delay))
        b = self.battle
        if b is not None:
            b.ai_ready_at = min(b.ai_ready_at, self.time + self.ai_delay)

    def undo(self) -> None:
        g, b = self.game, self.battle
        if g is None or b is None or b.job is not None:
            return
        if g.undo():
            self.version += 1
            b.tweens.clear()
            b.dice = None
            assert self.controller is not None
            self.controller.reset()
            self._check_handover()

    def ask_save(self) -> None:
        if self.hud is None or self.game is None:
            return
        self.saves.mkdir(parents=True, exist_ok=True)
        stem = Path(str(self.game.scenario.get("path", "game"))).stem or "game"
        self.hud.open_file_dialog("save", self.saves / f"{stem}-turn{self.game.state.turn}.json")

    def ask_load(self) -> None:
        self.saves.mkdir(parents=True, exist_ok=True)
        files = sorted(self.saves.glob("*.json"), key=lambda p: p.stat().st_mtime)
        initial = files[-1] if files else self.saves
        if self.hud is None:
            # from the start screen: a dialog owned by a throwaway HUD-less holder
            from pygame_gui.windows import UIFileDialog

            w, h = self.size
            self._start_dialog = UIFileDialog(
                pygame.Rect((w - 520) // 2, (h - 440) // 2, 520, 440),
                self.manager,
                window_title="Load game",
                initial_file_path=str(initial),
                allow_existing_files_only=True,
                allowed_suffixes={".json"},
            )
            return
        self.hud.open_file_dialog("load", initial)

    def save(self, path: str | Path) -> None:
        assert self.game is not None
        persistence.save(self.game, path)
        self.messages.append(f"saved to {path}")

    def load(self, path: str | Path) -> bool:
        try:
            game = persistence.load(path)
        except (persistence.SaveError, Exception) as e:
            if self.hud is not None:
                self.hud.open_message("Cannot load", str(e))
            self.messages.append(f"cannot load {path}: {e}")
            return False
        ctrl = dict(self.battle.controllers) if self.battle else {}
        self.start(game, ctrl)
        self.messages.append(f"loaded {path}")
        return True

    def load_for_setup(self, path: str | Path) -> bool:
        """From the start screen: read the save and let the player choose who plays each
        of its sides before it continues (``NewGameScreen.show_loaded``)."""
        if self.newgame is None:
            return self.load(path)
        try:
            game = persistence.load(path)
        except Exception as e:  # a bad file is reported on the screen, never fatal
            self.newgame.show_error(str(e))
            self.messages.append(f"cannot load {path}: {e}")
            return False
        self.newgame.show_loaded(path, game)
        self.messages.append(f"loaded {path}")
        return True

    def _path_picked(self, purpose: str, path: str) -> None:
        if purpose == "save":
            if not path.endswith(".json"):
                path += ".json"
            self.save(path)
        else:
            self.load(path)

    def _link(self, target: str) -> None:
        if target.startswith("rule:") and self.game is not None and self.hud is not None:
            self.hud.open_reference(self.game.ruleset.reference, target[5:])

    def open_help(self) -> None:
        if self.hud is None or self.battle is None or self.game is None:
            return
        kinds = sorted({f.kind for f in self.game.battlefield.terrain})
        self.hud.open_help(legend_surface(self.battle.renderer, kinds or None))

    # --- playing ----------------------------------------------------------------------------------
    def _play(self) -> None:
        """Ask the agent of the side to act for its action (one per frame at most)."""
        b, g = self.battle, self.game
        if b is None or g is None:
            return
        side = g.to_act()
        if side is None:
            self._game_over()
            return
        if b.awaiting:
            return
        agent = b.agents[side]
        if isinstance(agent, HumanAgent):
            action = agent.take()
            if action is not None:
                self._apply(action)
            return
        held = b.paused and not b.step_once
        if b.job is None:
            if held or (b.dice is not None and self.animate):
                return
            if self.time < b.ai_ready_at and not b.step_once:
                return
            b.job = AiJob(agent, g.clone(dice_seed=b.n_actions, viewer=side), side, self.version)
            return
        if not b.job.done.is_set() or held:
            return
        job, b.job = b.job, None
        if job.token != self.version or job.side != side:
            return
        action = job.result
        if action is None:
            self.messages.append(f"the computer ({side}) failed: {job.error}")
            action = g.ruleset.advance(g.state, g.ctx) or EndTurn()
            b.decision = (
                f"<font color='#f08a80'><b>{esc(side)}</b>: the computer failed "
                f"({esc(job.error)}); the game moved on with "
                f"{esc(action.describe())}.</font>"
            )
        else:
            b.decision = decision_html(
                g, side, b.controllers.get(side, ""), agent, action, job.options
            )
        b.step_once = False
        self._apply(action, why=job.why if job.result is not None else None)
        b.ai_ready_at = self.time + self.ai_delay

    def _apply(self, action: Action, why: str | None = None) -> None:
        """Apply ``action``; ``why`` (a computer's explanation) goes into the roll log
        first as a "decision" entry, as ``engine.game.play`` logs it headless."""
        b, g = self.battle, self.game
        assert b is not None and g is not None
        before = {m.id: (m.x, m.y, m.facing) for m in g.state.live()}
        n_rolls = len(g.dice.rolls)
        n_log = len(g.log)
        turn = g.state.turn
        if why:
            g.log.emit("decision", why, actor=action.actor)
        try:
            events = g.apply(action)
        except Exception as e:  # a rules bug must not close the window mid-game
            traceback.print_exc()
            self.messages.append(f"error applying {action.describe()}: {e}")
            if self.hud is not None:
                self.hud.open_message("Rules error", f"{action.describe()}: {e}")
            return
        b.n_actions += 1
        self.version += 1
        if g.state.turn != turn:
            b.turn_marks[n_log] = g.state.turn
        refused = [e for e in events if e.kind == "refused"]
        assert self.controller is not None
        if refused and self.controller is not None:
            m = g.state.models.get(action.actor)
            at = m.pos if m else self.camera.to_world(*self.pointer)
            self.controller.say(at, refused[0].text, False, self.time)
        # moving models glide to their new place
        for m in g.state.live():
            if m.id in before and before[m.id] != (m.x, m.y, m.facing):
                b.tweens[m.id] = Tween(before[m.id], (m.x, m.y, m.facing), self.time)
        rolls = g.dice.rolls[n_rolls:]
        if rolls and self.animate:
            res = [e for e in events if e.kind == "resolution"]
            last = res[-1] if res else None
            caption = ""
            good = None
            if last is not None:
                caption = f"{last.actor} \u2192 {last.target}: {last.outcome}".strip(": ")
                good = last.outcome.lower() in hudmod._GOOD if last.outcome else None
            faces = [f for r in rolls for f in r.faces][:12]
            sides = [r.sides for r in rolls for _ in r.faces][:12]
            b.dice = DiceAnim(faces, sides, 0.0, caption, good)
            b.dice_t0 = self.time
        self.controller.reset()
        if g.state.turn != b.last_turn or g.state.over:
            b.last_turn = g.state.turn
            self._autosave()
        self._check_handover()

    def _autosave(self) -> None:
        if self.game is None:
            return
        try:
            persistence.save(self.game, self.saves / "autosave.json")
        except OSError as e:
            self.messages.append(f"autosave failed: {e}")

    def _check_handover(self) -> None:
        """In hotseat, ask the next player to take the mouse when the side to act changes."""
        b, g = self.battle, self.game
        if b is None or g is None:
            return
        side = g.to_act()
        humans = [s for s, who in b.controllers.items() if who == "human"]
        if side is None:
            return
        if b.controllers.get(side) == "human" and len(humans) > 1 and side != b.last_side:
            b.awaiting = side
            self._open_handover(side)
        if b.controllers.get(side) == "human" and not b.awaiting:
            b.last_side = side

    def _open_handover(self, side: str) -> None:
        assert self.hud is not None and self.battle is not None
        colour = side_colours(self.game.state.sides)[side] if self.game else (200, 200, 200)
        self.hud.open_handover(side, colour, self._ready)

    def _ready(self) -> None:
        b = self.battle
        if b is None or self.hud is None:
            return
        b.last_side = b.awaiting
        b.awaiting = ""
        self.hud.close("handover")
        assert self.controller is not None
        self.controller.select("")

    def _game_over(self) -> None:
        b, g = self.battle, self.game
        if b is None or g is None or b.summary_shown or self.hud is None:
            return
        if b.dice is not None and self.animate:
            return
        b.summary_shown = True
        b.awaiting = ""
        self.hud.close("handover")
        self.hud.open_summary(
            summary_html(g), lambda: self.open_new_game(str(g.scenario.get("path", "")) or None)
        )

    def _skip_dice(self) -> bool:
        b = self.battle
        if b is not None and b.dice is not None:
            b.dice = None
            return True
        return False

    def _animate(self) -> None:
        b = self.battle
        if b is None:
            return
        if b.dice is not None:
            b.dice.t = (self.time - b.dice_t0) / DICE_SECONDS
            if b.dice.t >= 1.0:
                b.dice = None
        for mid in [m for m, tw in b.tweens.items() if self.time - tw.t0 >= TWEEN_SECONDS]:
            del b.tweens[mid]

    # --- the widgets' content -----------------------------------------------------------------------
    def _hud_dirty(self) -> None:
        if self.battle is not None:
            self.battle.hud_key = None

    def _unhover(self) -> None:
        if self.battle is not None:
            self.battle.odds_hover = ""

    def _refresh_hud(self) -> None:
        b, g, hud, c = self.battle, self.game, self.hud, self.controller
        if b is None or g is None or hud is None or c is None:
            return
        self._refresh_status()
        key = (
            self.version,
            c.selected,
            akey(c.mode.proto) if c.mode else None,
            c.move_mode,
            self.human_to_act(),
        )
        if key != b.hud_key:
            b.hud_key = key
            self._refresh_actions()
            self._refresh_card()
            hud.set_text(hud.casualties, "cas", casualties_html(g))
        self._refresh_odds()
        if hud.why is not None:
            hud.set_text(hud.why, "why", b.decision)
        log_key = (self.version, len(g.log))
        if log_key != b.log_key:
            b.log_key = log_key
            hud.set_text(hud.log, "log", self.log_html())

    def _refresh_status(self) -> None:
        b, g, hud = self.battle, self.game, self.hud
        assert b is not None and g is not None and hud is not None
        st = g.state
        side = g.to_act()
        if st.over or side is None:
            out = g.outcome()
            who = out.winner if out and out.winner else "draw"
            text = f"Game over \u2014 {who}" + (f" ({out.reason})" if out and out.reason else "")
            hud.set_status(text, "Next", False, False, g.can_undo())
            hud.set_spectator(b.paused, False, "game over")
            return
        level = b.controllers.get(side, "human")
        computer = level != "human"
        who = f"computer, {level}" if computer else "human"
        thinking = ""
        if computer and b.paused and not b.step_once:
            thinking = " \u2014 paused"
        elif b.job is not None and not b.job.done.is_set():
            thinking = " \u2014 thinking\u2026"
        act = st.vars.get("act")
        cur = act.get("current") if isinstance(act, dict) else None
        extra = f" \u00b7 activating {cur}" if cur else ""
        phase = st.phase.replace("_", " ")
        text = (
            f"Turn {st.turn} \u00b7 {phase} \u00b7 {side.upper()} to act ({who}){extra}{thinking}"
        )
        assert self.controller is not None
        nxt = self.controller.advance_action() if self.human_to_act() else None
        label = nxt.describe().capitalize() + " (Space)" if nxt is not None else "Next"
        hud.set_status(
            text, label, nxt is not None, self.human_to_act(), g.can_undo() and self.human_to_act()
        )
        state = "paused" if b.paused and not b.step_once else thinking[3:]
        hud.set_spectator(b.paused, computer and not b.step_once, state)

    def _refresh_actions(self) -> None:
        c, hud, g = self.controller, self.hud, self.game
        assert c is not None and hud is not None and g is not None
        items: list[tuple[str, str, Any, Any, bool]] = []
        for mode in c.modes():
            tip = self._mode_tip(mode)
            on = c.mode is not None and c.mode.proto == mode.proto
            items.append((mode.label, tip, lambda md=mode: self._toggle_mode(md), None, on))
        for a in c.direct_actions() + c.side_actions():
            label = choices.label(a)
            o = c.odds(a)
            tip = a.describe() + (f": {o.summary()}" if o is not None else "")
            items.append(
                (
                    label,
                    tip,
                    lambda act=a: self.submit(act),
                    lambda act=a: self._hover_action(act),
                    False,
                )
            )
        for mm in c.move_modes():
            on = c.move_mode == mm
            items.append(
                (
                    f"move: {mm}",
                    f"drag to {mm} (click again for a normal move)",
                    lambda x=mm: self._toggle_move_mode(x),
                    None,
                    on,
                )
            )
        hud.set_actions(items)

    def _mode_tip(self, mode: Mode) -> str:
        c = self.controller
        assert c is not None
        marks = c.classify(mode.proto)
        parts = []
        for tid, mk in marks.items():
            if mk.cls in ("valid", "cover"):
                a = dataclasses.replace(mode.proto, target=tid)
                o = c.odds(a)
                parts.append(f"{tid}: {o.summary()}" if o else tid)
        head = f"{mode.label}: click a target"
        return head + ("\n" + "\n".join(parts[:8]) if parts else " (none in reach)")

    def _toggle_mode(self, mode: Mode) -> None:
        c = self.controller
        assert c is not None
        same = c.mode is not None and c.mode.proto == mode.proto
        c.set_mode(None if same else mode)

    def _toggle_move_mode(self, mm: str) -> None:
        c = self.controller
        assert c is not None
        c.move_mode = "" if c.move_mode == mm else mm
        self._hud_dirty()

    def _hover_action(self, a: Action) -> None:
        if self.battle is not None:
            self.battle.odds_hover = repr(a)
            self._hover_odds = a

    def _refresh_odds(self) -> None:
        c, g, hud, b = self.controller, self.game, self.hud, self.battle
        assert c is not None and g is not None and hud is not None and b is not None
        text = ""
        linker = b.linker
        if b.odds_hover and self._hover_odds is not None:
            a = self._hover_odds
            text = odds_html(a.describe(), c.odds(a), c.check(a).reason, linker)
        elif c.mode is not None and c.mode.place:
            a = c.place_action(c.cursor)
            assert a is not None
            leg = c.check(a)
            text = f"<b>{esc(c.mode.label)}</b>: click the ground to aim it.<br>" + odds_html(
                a.describe(), c.odds(a) if leg.ok else None, leg.reason, linker
            )
        elif c.mode is not None and c.hover and c.hover in c.classify(c.mode.proto):
            a = c.target_action(c.hover)
            assert a is not None
            mk = c.classify(c.mode.proto)[c.hover]
            leg = c.check(a)
            text = odds_html(
                a.describe(),
                c.odds(a) if leg.ok else None,
                leg.reason if not leg.ok else "",
                linker,
            )
            if mk.cls == "cover":
                text += f"<br><font color='#f0cf7a'>{esc(mk.label)}</font>"
        elif c.mode is not None:
            marks = c.classify(c.mode.proto)
            counts: dict[str, int] = {}
            for mk in marks.values():
                counts[mk.cls] = counts.get(mk.cls, 0) + 1
            names = {
                "valid": "clear",
                "cover": "in cover",
                "hidden": "hidden",
                "arc": "out of arc",
                "range": "out of range",
                "illegal": "not allowed",
            }
            summary = ", ".join(
                f"<font color='{hexc(TARGET_COLOURS.get(k, (200, 200, 200)))}'>{n} "
                f"{esc(names.get(k, k))}</font>"
                for k, n in counts.items()
            )
            text = (
                f"<b>{esc(c.mode.label)}</b>: hover a target for the odds, click to "
                f"commit.<br>Targets (ring colours): {summary}"
            )
        elif c.drag is not None and c.drag.active:
            pv = c.preview()
            if pv is not None:
                col = "#8fe09a" if pv.legal else "#f08a80"
                what = f"charge {pv.charge_target}" if pv.charge_target else "move"
                text = (
                    f'<b>{esc(what)}</b> {pv.length:.1f}"'
                    + (f' of {pv.allowance:g}"' if pv.allowance is not None else "")
                    + f"<br><font color='{col}'>"
                    f"{linker.text(pv.reason) if pv.reason else 'allowed'}</font>"
                )
                if pv.chance is not None:
                    text += f"<br>{pv.chance * 100:.0f}% chance to get there"
                for line in pv.lines[:4]:
                    text += f"<br><font color='#c8ccd4'>\u2022 {linker.text(line)}</font>"
        elif c.selected:
            text = (
                "<font color='#9aa3b2'>Drag the model to move it (drop on an enemy to "
                "charge). Q/E turn it. Pick an action above to shoot or fight.</font>"
            )
        else:
            text = "<font color='#9aa3b2'>Click a model to select it. F1 for help.</font>"
        # Re-laying out rich text costs a few ms: while the mouse sweeps over targets the
        # panel follows at most ten times a second (the card on the table follows at once).
        if text != hud._texts.get("odds") and self.time - b.odds_set_at >= ODDS_PANEL_EVERY:
            b.odds_set_at = self.time
            hud.set_text(hud.odds, "odds", text)

    def _refresh_card(self) -> None:
        c, g, hud = self.controller, self.game, self.hud
        assert c is not None and g is not None and hud is not None
        m = g.state.models.get(c.selected)
        hud.set_text(
            hud.card,
            "card",
            card_html(g, m) if m is not None else "<font color='#9aa3b2'>No model selected.</font>",
        )

    def log_html(self) -> str:
        g, b = self.game, self.battle
        assert g is not None and b is not None
        events = g.log.events
        start = max(0, len(events) - LOG_ENTRIES)
        lines = []
        for i in range(len(events) - 1, start - 1, -1):
            lines.append(event_html(events[i], b.linker))
            if i in b.turn_marks:
                lines.append(
                    f"<font color='#8fbcd4'><b>\u2014 turn {b.turn_marks[i]} \u2014</b></font>"
                )
        return "<br>".join(lines) if lines else "<font color='#9aa3b2'>No rolls yet.</font>"


# --- text for the widgets --------------------------------------------------------------------------

WAITING_HTML = (
    "<font color='#9aa3b2'>After each computer move, its best options appear here "
    "with their values and the odds behind them.</font>"
)

#: how each agent decides, in a phrase, for the strip's headline
_METHOD = {
    "random": "picks at random among the legal actions",
    "greedy": "one action ahead, position score over sampled dice",
    "search": "greedy's best few, each played on past the enemy's answer",
}


def decision_html(
    g: Game, side: str, level: str, agent: Any, action: Action, options: Sequence[Any]
) -> str:
    """The strip's text after a computer move: who chose what, how it decides, and the
    options it weighed best first, each with its value, its chance and how many samples
    (dice draws or playouts) the value rests on. Why show the runners-up: a move only
    makes sense next to what the computer turned down."""
    hx = hexc(side_colours(g.state.sides).get(side, (230, 230, 230)))
    name = str(getattr(agent, "name", "computer"))
    how = _METHOD.get(name, name)
    if name == "search" and getattr(agent, "iterations", 0):
        how = (
            f"{agent.iterations} rollouts past the enemy's answer "
            f"in {getattr(agent, 'budget', 0):g} s"
        )
    who = f"computer, {level}" if level and level != "human" else name
    head = (
        f"<font color='{hx}'><b>{esc(side.upper())}</b></font> chose "
        f"<b>{esc(action.describe())}</b> "
        f"<font color='#9aa3b2'>({esc(who)}: {esc(how)})</font>"
    )
    chosen = akey(action)
    if not options:
        o = g.odds(action)
        if o is not None:
            head += f" \u2014 chance <b>{float(o.chance):.0%}</b>"
        return head
    lines = [head]
    unit = "playouts" if name == "search" else "samples"
    for k, opt in enumerate(options[:4]):
        picked = akey(opt.action) == chosen
        chance = f"chance <b>{opt.chance:.0%}</b>" if opt.chance is not None else "no odds"
        n = int(getattr(opt, "samples", 1) or 1)
        basis = "exact" if n == 1 and unit == "samples" else f"{n} {unit[:-1] if n == 1 else unit}"
        mark = "\u00bb" if picked else "\u2003"
        colour = "#8fe09a" if picked else "#c8ccd4"
        lines.append(
            f"<font color='{colour}'>{mark} {k + 1}. {esc(opt.action.describe())} "
            f"\u2014 value <b>{opt.value:+.2f}</b> \u00b7 {chance} \u00b7 "
            f"<font color='#8f98a8'>{esc(basis)}</font></font>"
        )
    return "<br>".join(lines)


def card_html(g: Game, m: Any) -> str:
    """The selected model's card: side, unit, hit points, status, stats and weapons."""
    colour = hexc(side_colours(g.state.sides)[m.side])
    v = g.ruleset.model_view(m)
    hp = v.get("hp", m.hp) if isinstance(v, dict) else m.hp
    status = v.get("status", m.status) if isinstance(v, dict) else m.status
    lines = [
        f"<font color='{colour}'><b>{esc(m.id)}</b></font>"
        + (f" <i>{esc(m.profile)}</i>" if m.profile else "")
        + f" <font color='#9aa3b2'>\u2014 {esc(m.side)}, unit {esc(m.unit)}</font>"
    ]
    life = f"hp <b>{hp}</b>/{m.max_hp}"
    if status:
        life += " \u00b7 <font color='#f0cf7a'>" + esc(", ".join(map(str, status))) + "</font>"
    if m.removed:
        life += " \u00b7 <font color='#f08a80'>removed</font>"
    if isinstance(v, dict):
        for k, val in v.items():
            if k not in ("hp", "status"):
                life += f" \u00b7 {esc(k)} {esc(val)}"
    lines.append(life)
    if m.stats:
        lines.append(
            "<font color='#c8ccd4'>"
            + esc(
                "  ".join(
                    f"{k} {val}" for k, val in m.stats.items() if not isinstance(val, (dict, list))
                )
            )
            + "</font>"
        )
    for w in m.weapons[:5]:
        keys = ", ".join(f"{k} {val}" for k, val in w.items() if k != "name")
        lines.append(
            f"<font color='#8fc8e0'>{esc(w.get('name', '?'))}</font>"
            f" <font color='#9aa3b2'>{esc(keys)}</font>"
        )
    return "<br>".join(lines)


def casualties_html(g: Game) -> str:
    """Models that have left the table, by side."""
    colours = side_colours(g.state.sides)
    lines = ["<font color='#8f98a8'><b>CASUALTIES</b></font>"]
    for s in g.state.sides:
        gone = [m for _, m in sorted(g.state.models.items()) if m.side == s and m.removed]
        total = sum(1 for m in g.state.models.values() if m.side == s)
        hx = hexc(colours[s])
        names = ", ".join(esc(m.id) for m in gone) or "\u2014"
        lines.append(f"<font color='{hx}'><b>{esc(s)}</b></font> {len(gone)}/{total}: {names}")
    return "<br>".join(lines)


def summary_html(g: Game) -> str:
    """The game-over summary: outcome, casualties per side, turns played."""
    out = g.outcome()
    colours = side_colours(g.state.sides)
    if out is None:
        head = "The game is over."
    elif out.winner:
        hx = hexc(colours.get(out.winner, (230, 230, 230)))
        head = f"<font size=5 color='{hx}'><b>{esc(out.winner.upper())} wins</b></font>"
    else:
        head = "<font size=5><b>A draw</b></font>"
    reason = f"<br>{esc(out.reason)}" if out and out.reason else ""
    lines = [
        head + reason,
        "",
        f"Turns played: <b>{g.state.turn}</b> \u00b7 actions: {len(g.history)}",
        "",
        "<b>Casualties</b>",
    ]
    for s in g.state.sides:
        gone = [m.id for _, m in sorted(g.state.models.items()) if m.side == s and m.removed]
        total = sum(1 for m in g.state.models.values() if m.side == s)
        hx = hexc(colours[s])
        lines.append(
            f"<font color='{hx}'><b>{esc(s)}</b></font>: lost {len(gone)} of "
            f"{total}" + (f" ({esc(', '.join(gone))})" if gone else "")
        )
    return "<br>".join(lines)


def legend_surface(renderer: Renderer, kinds: list[str] | None = None) -> pygame.Surface:
    """A terrain legend drawn with the table's own renderer: one swatch per kind."""
    from engine.battlefield import TERRAIN_KINDS, TerrainFeature

    kinds = list(TERRAIN_KINDS) if kinds is None else kinds
    cols = 4
    sw, sh = 140, 42
    rows = (len(kinds) + cols - 1) // cols
    surf = pygame.Surface((cols * sw, rows * sh))
    surf.fill((27, 31, 39))
    text = renderer.text
    scale = 9.0
    for k, kind in enumerate(kinds):
        r, c = divmod(k, cols)
        x, y = c * sw + 4, r * sh + 4
        sq = pygame.Rect(x, y, 44, 32)
        line = kind in ("hedge", "fence", "low_wall", "wall", "river", "stream", "road")
        poly = (
            ((0.3, 1.4), (4.6, 1.4), (4.6, 2.2), (0.3, 2.2))
            if line
            else ((0.2, 0.2), (4.7, 0.2), (4.7, 3.4), (0.2, 3.4))
        )
        feat = TerrainFeature(f"legend{k}", kind, poly, 1.0 if kind == "hill" else 0.0)
        patch = pygame.Surface(sq.size)
        patch.fill((92, 116, 70))
        for g in terrain_glyphs(feat):
            if g.kind == "text":
                continue
            renderer.tiles._glyph(patch, g, scale, 0, 0, 3.6)
        surf.blit(patch, sq)
        t = text.get(kind.replace("_", " "), 18, (230, 232, 236))
        surf.blit(t, (x + 50, y + 10))
    return surf


def run_app(path: str | None = None, size: tuple[int, int] | None = None) -> int:
    """Open the window on the start screen with ``path`` preselected; returns an exit code."""
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    app = App(size=size, scenario=path)
    return app.run()
