"""The battle screen: one game on the table, its controls, panels and players.

Why a screen object: the window has two screens (the new-game screen and this one), and
everything the battle needs — the game, who plays each side, the controls, the widgets,
the animations — lives and dies with it. ``App`` only owns the display and switches
screens. Playing frame by frame is ``Referee``'s part, keeping the panels current is
``Panels``'; this module takes the player's input and runs the commands.
"""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pygame

from engine import persistence
from engine.actions import Action, EndTurn
from engine.agents import make as make_agent
from engine.game import Agent, Game
from engine.ui import choices
from engine.ui.agents import AiJob, Answers, HumanAgent, controller_of
from engine.ui.busy import busy_marker
from engine.ui.camera import Camera
from engine.ui.controls import Controller
from engine.ui.draw import Renderer
from engine.ui.glossary import StatHelp
from engine.ui.hud import Hud
from engine.ui.markup import Linker
from engine.ui.names import Names
from engine.ui.overlays import DiceAnim, ModelView, Overlays, TableView
from engine.ui.owed import OwedText
from engine.ui.panels import Panels
from engine.ui.referee import TWEEN_SECONDS, Referee
from engine.ui.screen import PanelKey, Tween
from engine.ui.style import side_colours
from engine.ui.texts import WAITING_HTML, legend_surface

if TYPE_CHECKING:  # pragma: no cover
    from engine.ui.app import App

#: numbers the games of this window, so two started in one second keep two autosaves
_GAMES = itertools.count(1)
ZOOM_STEP = 2  # levels per wheel notch (each level is 2^(1/12), about 6%)


class BattleScreen(Referee, Panels):
    """The battle screen of ``app`` for ``game`` (see the module docstring)."""

    def __init__(self, app: App, game: Game, controllers: dict[str, str] | None = None) -> None:
        """``controllers`` maps a side to "human" or a computer level ("easy", "normal",
        "hard"; plain "computer" is the default level); sides default to human."""
        self.app = app
        self.game = game
        self.version = 0
        ctrl = {s: controller_of((controllers or {}).get(s, "human")) for s in game.state.sides}
        self.controllers: dict[str, str] = ctrl
        self.agents: dict[str, Agent | HumanAgent] = {}
        for k, s in enumerate(game.state.sides):
            self.agents[s] = HumanAgent() if ctrl[s] == "human" else make_agent(ctrl[s], seed=k + 1)
        self.hud: Hud = self._make_hud(self.computer_plays())
        self.camera = Camera(game.battlefield.width, game.battlefield.depth, self.hud.table_rect())
        self.camera.fit()
        self.renderer = Renderer(game.battlefield)
        self.names = Names(game.state.models.values())
        #: stat key -> what the rules reference says of it (glossary.stat_help), cached
        self.glossary: dict[str, StatHelp | None] = {}
        self.linker = Linker(game.ruleset.reference, self.names.text)
        #: each verb's number key, the same for every model all game (choices.number_keys)
        self.number_keys = choices.number_keys(tuple(game.ruleset.verbs))
        self.job: AiJob | None = None
        #: the computer's answers by position, so an undone answer replays the same
        self.answers = Answers()
        self.ai_ready_at = 0.0
        self.n_actions = 0
        self.dice: DiceAnim | None = None
        self.dice_t0 = 0.0
        self.tweens: dict[str, Tween] = {}
        self.awaiting = ""
        self.last_side: str | None = None
        self.last_turn = game.state.turn
        self.summary_shown = False
        self.turn_marks: dict[int, int] = {}
        self.hud_key: PanelKey = None
        self.log_key: PanelKey = None
        self.odds_hover = ""
        #: the log span (start, end) of the player's own last action, kept on top of the
        #: roll log while the computer answers, until the player's next input
        self.pinned: tuple[int, int] | None = None
        self._hover_odds: Action | None = None
        self.view_key = -1
        self.view: TableView | None = None
        #: panel text owed by the frame, laid out after its flip (engine/ui/owed.py)
        self.owed = OwedText()
        #: the computer holds its moves (a decision in flight is kept, not applied)
        self.paused = False
        #: one computer move is allowed through the pause (the Step button)
        self.step_once = False
        #: the strip's text: the last computer decision and the options it weighed
        self.decision = WAITING_HTML
        self._left_down = False
        self._pan_from: tuple[int, int] | None = None
        stem = Path(str(game.scenario.get("path", "game"))).stem or "game"
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.autosave_name = f"autosave-{stem}-{stamp}-{next(_GAMES)}.json"
        self.controller = Controller(self)
        self.controller.rename = self.names.text
        self.controller.on_change = self._hud_dirty
        self._check_handover()

    # --- what the screen reads of the app ----------------------------------------------------
    @property
    def time(self) -> float:
        return self.app.time

    @property
    def pointer(self) -> tuple[int, int]:
        return self.app.pointer

    @property
    def saves(self) -> Path:
        return self.app.saves

    @property
    def animate(self) -> bool:
        return self.app.animate

    @property
    def ai_delay(self) -> float:
        return self.app.ai_delay

    def name_of(self, mid: str) -> str:
        """A model's name as a player reads it (``names.name_of``)."""
        return self.names.of(mid)

    def computer_plays(self) -> bool:
        return any(who != "human" for who in self.controllers.values())

    def close(self) -> threading.Thread | None:
        """Drop the widgets; returns the worker thread of a decision still in flight (it
        works on a clone, so it is left to finish on its own and its result dropped)."""
        self.hud.kill()
        return self.job.thread if self.job is not None else None

    def _make_hud(self, computer: bool) -> Hud:
        hud = Hud(self.app.manager, self.app.size, computer=computer, delay=self.ai_delay)
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
        hud.bind(hud.b_menu, self.ask_new_game)
        return hud

    # --- the session protocol the controls use ---------------------------------------------------
    def human_to_act(self) -> bool:
        b, g = self, self.game
        if b is None or g is None:
            return False
        side = g.to_act()
        return side is not None and b.controllers.get(side) == "human" and not b.awaiting

    def submit(self, action: Action) -> None:
        """The player committed ``action``: hand it to the human agent of the side to act."""
        b, g = self, self.game
        if b is None or g is None:
            return
        side = g.to_act()
        agent = b.agents.get(side) if side else None
        if isinstance(agent, HumanAgent) and not b.awaiting:
            agent.queue.append(action)
            self._play()

    def draw(self, screen: pygame.Surface) -> None:
        """The table and its overlays (the app draws the widgets over them)."""
        if self.renderer.tiles.bf is not self.game.battlefield:  # terrain placed (GEM-2.0.2)
            self.renderer = Renderer(self.game.battlefield)
        self.renderer.render(screen, self.table_view(), self.overlays(), self.camera)

    def settle(self, frame_start: float) -> None:
        """After the frame's flip: the panel text it owes, as the gap allows."""
        self.owed.settle(frame_start, self.hud.set_text)

    def draw_owed(self, screen: pygame.Surface) -> None:
        """The busy marker on each panel still showing its last good picture, turning
        with the app's clock (two draws of one frame are the same picture)."""
        now_ms = int(self.time * 1000)
        for box in self.owed.waiting():
            r = box.rect
            view = (r.right - 118, r.y - 4, 118, r.h)
            busy_marker(screen, view, "updating", self.renderer._label, now_ms)

    def table_view(self) -> TableView:
        """The game as the renderer sees it, rebuilt only when the state changed."""
        b, g = self, self.game
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
                label = self.names.of(m.id)
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
                g.ruleset.unit_per_inch,
            )
            b.view_key = self.version
        return b.view

    def overlays(self) -> Overlays:
        b, c = self, self.controller
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
        ov.sight_circle = self._sight_circle(ov.selected)
        if b.job is not None and not b.job.done.is_set():
            ov.busy = "computer thinking\u2026"
        return ov

    def _sight_circle(self, mid: str) -> tuple[tuple[float, float], float] | None:
        """The selected model's sight radius from the rules (``Ruleset.sight_radius``)."""
        g = self.game
        m = g.state.models.get(mid) if mid else None
        if m is None or m.removed:
            return None
        r = g.ruleset.sight_radius(g.state, mid, g.ctx)
        return (m.pos, r) if r else None

    def handle(self, e: pygame.event.Event, consumed: bool) -> None:
        """One input event (after pygame_gui saw it; ``consumed`` if a widget took it)."""
        pin = self.pinned
        if e.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and pin is not None:
            if pin[1] < len(self.game.log):  # shown (the computer answered): input ends it
                self.pinned = None
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
            if cam.in_view(*self.pointer) and not self.app.manager.get_hovering_any_element():
                cam.zoom(ZOOM_STEP if e.y > 0 else -ZOOM_STEP, self.pointer)
            return
        world = cam.to_world(*self.pointer)
        if e.type == pygame.MOUSEMOTION:
            if self._pan_from is not None:
                cam.pan(self.pointer[0] - self._pan_from[0], self.pointer[1] - self._pan_from[1])
                self._pan_from = self.pointer
            elif cam.in_view(*self.pointer) or c.drag is not None:
                c.motion(world, self.pointer)
            else:
                c.hover = ""  # zones and odds of a model the mouse has left go with it
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
        c, hud, b = self.controller, self.hud, self
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
            c.rotate(step if k == pygame.K_q else -step, self.time)
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
        elif pygame.K_1 <= k <= pygame.K_9 or pygame.K_KP1 <= k <= pygame.K_KP9:
            number = k - (pygame.K_1 if k <= pygame.K_9 else pygame.K_KP1) + 1
            why = hud.press_number(number)
            if why and c.selected in self.game.state.models:
                c.say(self.game.state.models[c.selected].pos, why, False, self.time)
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

    def resize(self) -> None:
        """Lay the widgets out again for the app's new size; the table keeps its view."""
        self.hud.kill()
        self.hud = self._make_hud(self.computer_plays())
        self.camera.set_view(self.hud.table_rect())
        self.hud_key = self.log_key = None
        if self.awaiting:
            self._open_handover(self.awaiting)

    # --- commands ------------------------------------------------------------------------------
    def advance(self) -> None:
        g = self.game
        if g is None or not self.human_to_act():
            return
        a = g.ruleset.advance(g.state, g.ctx)
        if a is not None:
            self.submit(a)

    def left_to_do(self) -> int:
        """How many actions the rules still offer the side to act, beyond moving play on
        (why End turn asks first: a stray End once threw away whole turns)."""
        acts = choices.SIDE_ACTS
        return sum(1 for a in self.game.candidates() if a.KIND not in acts)

    def end_turn(self) -> None:
        if not self.human_to_act():
            return
        n = self.left_to_do()
        if n == 0:
            self.submit(EndTurn())
            return
        self.hud.open_confirm(
            "End the turn?",
            f"Your side still has {n} action{'s' if n != 1 else ''} it could take this turn.",
            "End turn",
            self._end_turn_confirmed,
        )

    def _end_turn_confirmed(self) -> None:
        self.hud.close("confirm")
        self.submit(EndTurn())

    def ask_new_game(self) -> None:
        """Back to the start screen; a game under way is only left after a yes."""
        path = str(self.game.scenario.get("path", "")) or None
        if self.game.state.over or not self.game.history:
            self.app.open_new_game(path)
            return
        self.hud.open_confirm(
            "Leave this game?",
            "The game under way is left (its last autosave stays in saves/).",
            "New game",
            lambda: self.app.open_new_game(path),
        )

    def toggle_pause(self) -> None:
        """Hold or release the computer. Why hold rather than cancel a decision already
        being computed: the worker cannot be interrupted, and its move is still valid when
        the spectator resumes (or steps)."""
        b = self
        if b is None or not b.computer_plays():
            return
        b.paused = not b.paused
        b.step_once = False

    def step_computer(self) -> None:
        """Let exactly one computer move through, then stay paused (pausing first if the
        game was running): the spectator follows the game one decision at a time."""
        b, g = self, self.game
        if b is None or g is None or not b.computer_plays():
            return
        side = g.to_act()
        b.paused = True
        if side is not None and b.controllers.get(side, "human") != "human":
            b.step_once = True

    def set_speed(self, delay: float) -> None:
        """The pause between computer moves; the next move waits the new delay."""
        self.app.ai_delay = max(0.0, float(delay))
        b = self
        if b is not None:
            b.ai_ready_at = min(b.ai_ready_at, self.time + self.ai_delay)

    def undo_count(self) -> int:
        """How many steps Undo takes back now (0: it cannot).

        In hotseat, the last step. Against the computer, the player's own last action
        and every computer answer after it, so the computer is never asked again in a
        position it already answered (and ``Answers`` makes it answer the same, were the
        player to play the same action again). Nothing when a roll stands in between."""
        steps = self.game.undoable()
        if not steps or self.awaiting:
            return 0
        humans = {s for s, who in self.controllers.items() if who == "human"}
        if not self.computer_plays():
            return 1
        if not humans:
            return 0
        for back, st in enumerate(reversed(steps), 1):
            if st.side in humans:
                return back
        return 0

    def undo(self) -> None:
        """Take back ``undo_count`` steps. A computer decision still being computed is
        dropped with them (its token no longer matches the game's version)."""
        g = self.game
        n = self.undo_count()
        if n == 0:
            return
        for _ in range(n):
            g.undo()
        self.version += 1
        self.tweens.clear()
        self.pinned = None
        self.dice = None
        self.controller.reset()
        self._check_handover()

    def ask_save(self) -> None:
        if self.hud is None or self.game is None:
            return
        self.saves.mkdir(parents=True, exist_ok=True)
        stem = Path(str(self.game.scenario.get("path", "game"))).stem or "game"
        self.hud.open_file_dialog("save", self.saves / f"{stem}-turn{self.game.state.turn}.json")

    def ask_load(self) -> None:
        self.hud.open_file_dialog("load", self.app.latest_save())

    def save(self, path: str | Path) -> bool:
        """Save to ``path``; a failure (a folder that cannot be written, a full disk) is
        shown and the game goes on untouched."""
        try:
            persistence.save(self.game, path)
        except (OSError, ValueError) as e:
            self.hud.open_message("Cannot save", f"{path}: {e}")
            self.app.notify(f"cannot save {path}: {e}", good=False)
            return False
        self.app.notify(f"saved to {path}")
        return True

    def load(self, path: str | Path) -> bool:
        try:
            game = persistence.load(path)
        except (persistence.SaveError, Exception) as e:
            if self.hud is not None:
                self.hud.open_message("Cannot load", str(e))
            self.app.notify(f"cannot load {path}: {e}", good=False)
            return False
        self.app.start(game, dict(self.controllers))
        self.app.notify(f"loaded {path}")
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
        if self.hud is None or self is None or self.game is None:
            return
        kinds = sorted({f.kind for f in self.game.battlefield.terrain})
        self.hud.open_help(legend_surface(self.renderer, kinds or None))
