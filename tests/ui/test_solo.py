"""Solo play and spectating in the window: computer levels chosen on the start screen,
a computer-vs-computer game to its summary, the explanation strip, pause and step, the
speed menu, a save continued with new controllers, and a window that keeps taking events
while a slow computer thinks.

Why real clicks: the player reaches all of this through pygame_gui widgets, so a menu
option that maps to the wrong level or a button that is not wired must fail here. Why no
timing assertions: the tests pump a bounded number of frames and check what happened.
"""

from __future__ import annotations

import threading

import pygame
import pytest

from engine import persistence
from engine.actions import EndActivation, Move, from_dict
from engine.agents import explain
from engine.agents.greedy import GreedyAgent, Option
from engine.agents.random_agent import RandomAgent
from engine.agents.search import SearchAgent
from engine.ui.agents import HumanAgent
from engine.ui.app import App
from engine.ui.markup import esc
from tests.ui.conftest import SIZE, choose, key, make_game, press, settle, step
from tests.ui.test_newgame import TOY_SCENARIO


def pump_until(app, done, frames: int = 400, dt: float = 0.1) -> bool:
    """Step frames until ``done()`` (bounded); True when it came true.

    A computer's decision runs on a worker thread. A real window sleeps between frames,
    which hands that thread the interpreter; a headless pump never sleeps and can starve
    it for seconds on an idle machine (seen: 5,000 frames, 6 s, a 0.15 s greedy decision
    still unfinished). So before each frame the pump lets a pending decision finish."""
    for _ in range(frames):
        if done():
            return True
        battle = getattr(app, "battle", None)
        job = getattr(battle, "job", None)
        if job is not None:
            job.done.wait(60)
        app.step(None, dt)
    return done()


def red_moves(app) -> int:
    return sum(1 for s in app.game.history if s.side == "red")


@pytest.fixture
def start_screen(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY_SCENARIO)
    app = App(size=SIZE, scenario=str(path), saves_dir=tmp_path / "saves", ai_delay=0.0)
    step(app)
    yield app
    app.close()


@pytest.mark.parametrize(
    ("option", "level", "cls"),
    [
        ("computer (easy)", "easy", RandomAgent),
        ("computer (normal)", "normal", GreedyAgent),
        ("computer (hard)", "hard", SearchAgent),
    ],
)
def test_a_level_chosen_on_the_start_screen_makes_that_agent(start_screen, option, level, cls):
    app = start_screen
    ng = app.newgame
    labels = [o[0] for o in ng.side_rows[1][1].options_list]
    assert labels == ["human", "computer (easy)", "computer (normal)", "computer (hard)"]
    choose(app, ng.side_rows[1][1], option)
    assert ng.controllers == {"blue": "human", "red": level}
    press(app, ng.b_start)
    assert app.battle.controllers == {"blue": "human", "red": level}
    assert type(app.battle.agents["red"]) is cls
    if cls is SearchAgent:
        assert app.battle.agents["red"].budget == SearchAgent().budget  # its default
    assert isinstance(app.battle.agents["blue"], HumanAgent)
    assert app.hud.why is not None  # a computer plays: the strip is there


def test_hotseat_has_no_computer_strip(battle):
    assert battle.hud.why is None and battle.hud.b_pause is None
    assert battle.hud.table_rect()[3] == SIZE[1] - 46


def test_computer_against_computer_plays_to_the_summary(app):
    game = make_game()
    game.state.vars["turn_limit"] = 12  # a draw at worst: the loop is bounded either way
    app.start(game, {"blue": "normal", "red": "easy"})
    assert pump_until(app, lambda: app.hud.is_open("summary"), frames=3000)
    assert game.state.over
    decisions = [e for e in game.log.events if e.kind == "decision"]
    assert decisions and all(e.text.startswith("blue (greedy) chose") for e in decisions)
    text = app.hud.windows["summary"].get_container().elements[0].html_text
    assert "Turns played" in text
    assert "Game over" in app.hud.status.text


def test_the_strip_explains_a_computer_move_and_the_log_records_it(app):
    app.start(make_game(), {"blue": "human", "red": "normal"})
    step(app)
    assert "After each computer move" in app.hud.why.html_text
    key(app, pygame.K_p)  # pause first, so the computer's options stay put while we look
    press(app, app.hud.b_next)  # blue ends its activation: red to act
    press(app, app.hud.b_step)  # one computer move
    assert pump_until(app, lambda: red_moves(app) == 1)
    settle(app, 0.5)
    assert red_moves(app) == 1  # stepped once, then held
    agent = app.battle.agents["red"]
    top = agent.last[0]
    html = app.hud.why.html_text
    assert esc(top.action.describe()) in html
    assert f"value <b>{top.value:+.2f}</b>" in html
    if any(o.chance is not None for o in agent.last):
        assert "chance <b>" in html  # the odds behind the options
    assert "RED" in html and "computer, normal" in html
    decision = [e for e in app.game.log.events if e.kind == "decision"]
    played = from_dict(app.game.history[-1].action, "example_d6")
    assert len(decision) == 1 and decision[0].actor == played.actor
    assert decision[0].text.startswith(f"red (greedy) chose {played.describe()} (value")
    if played == top.action:  # no tie broken at random: the engine's own line
        assert decision[0].text == explain(agent, "red")
    assert "Computer:" in app.hud.log.html_text
    assert esc(top.action.describe()) in app.hud.log.html_text


def test_pause_holds_the_computer_and_resume_and_step_release_it(app):
    app.start(make_game(), {"blue": "easy", "red": "easy"})
    pump_until(app, lambda: len(app.game.history) >= 2)
    press(app, app.hud.b_pause)
    assert app.battle.paused and app.hud.b_pause.text == "Resume (P)"
    held = len(app.game.history)
    settle(app, 4.0)  # 40 frames, each longer than the pause between moves
    assert len(app.game.history) == held
    assert "paused" in app.hud.status.text
    press(app, app.hud.b_step)
    assert pump_until(app, lambda: len(app.game.history) == held + 1)
    settle(app, 2.0)
    assert len(app.game.history) == held + 1 and app.battle.paused
    press(app, app.hud.b_pause)  # resume
    assert not app.battle.paused and app.hud.b_pause.text == "Pause (P)"
    assert pump_until(app, lambda: len(app.game.history) > held + 3 or app.game.state.over)


def test_the_speed_menu_sets_the_pause_between_computer_moves(app):
    app.start(make_game(), {"blue": "human", "red": "easy"})
    step(app)
    assert app.hud.speed_dd.selected_option[0] == "fast (no pause)"  # the app's 0 s
    choose(app, app.hud.speed_dd, "slow (2.5 s)")
    assert app.ai_delay == 2.5
    press(app, app.hud.b_next)  # red to act: it moves at once, then waits 2.5 s
    assert pump_until(app, lambda: red_moves(app) >= 1, dt=0.05)
    n = len(app.game.history)
    settle(app, 1.5)
    assert len(app.game.history) == n or app.game.to_act() != "red"


class BlockingAgent:
    """A computer that thinks until the test lets it go."""

    name = "blocking"

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate
        self.started = threading.Event()

    def choose(self, game, side):
        self.started.set()
        self.gate.wait(timeout=30.0)
        return EndActivation()


def test_the_window_keeps_taking_events_while_the_computer_thinks(app):
    app.start(make_game(), {"blue": "human", "red": "normal"})
    gate = threading.Event()
    slow = BlockingAgent(gate)
    app.battle.agents["red"] = slow
    try:
        press(app, app.hud.b_next)  # red to act: the slow computer starts thinking
        assert slow.started.wait(timeout=10.0)
        assert "thinking" in app.hud.status.text
        t0 = app.time
        key(app, pygame.K_F1)  # a key while it thinks: the help opens
        assert app.hud.is_open("help")
        key(app, pygame.K_ESCAPE)
        press(app, app.hud.b_pause)  # a button while it thinks
        assert app.battle.paused
        press(app, app.hud.b_pause)
        step(app, 20)
        assert app.time > t0 and not app.battle.paused
        assert app.battle.job is not None and not app.battle.job.done.is_set()
        assert red_moves(app) == 0
    finally:
        gate.set()
    assert pump_until(app, lambda: red_moves(app) == 1)
    assert app.game.history[-1].action["do"] == "end_activation"


def test_a_save_loaded_from_the_start_screen_asks_who_plays(start_screen, tmp_path):
    app = start_screen
    game = make_game()
    game.apply(EndActivation())
    saves = tmp_path / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    persistence.save(game, saves / "mine.json")
    press(app, app.newgame.b_load)
    assert app._start_dialog is not None
    press(app, app._start_dialog.ok_button)
    ng = app.newgame
    assert ng is not None and ng.loaded is not None  # not started yet: sides first
    assert "mine.json" in ng.desc.html_text and ng.b_start.text == "Continue (Enter)"
    assert ng.controllers == {"blue": "human", "red": "human"}
    choose(app, ng.side_rows[0][1], "computer (hard)")
    choose(app, ng.side_rows[1][1], "computer (normal)")
    press(app, ng.b_start)
    assert app.newgame is None
    assert app.game.state.checksum() == game.state.checksum()
    assert app.battle.controllers == {"blue": "hard", "red": "normal"}
    assert type(app.battle.agents["blue"]) is SearchAgent
    assert type(app.battle.agents["red"]) is GreedyAgent
    assert not app.battle.awaiting  # no humans: no hand-over notices


def test_a_bad_save_is_explained_on_the_start_screen(start_screen, tmp_path):
    app = start_screen
    saves = tmp_path / "saves"
    saves.mkdir(parents=True, exist_ok=True)
    (saves / "broken.json").write_text("{ not json")
    press(app, app.newgame.b_load)
    press(app, app._start_dialog.ok_button)
    assert app.newgame is not None and app.game is None
    assert "Cannot load" in app.newgame.desc.html_text


def test_leaving_a_game_does_not_wait_for_a_thinking_computer(app):
    app.start(make_game(), {"blue": "human", "red": "normal"})
    gate = threading.Event()
    slow = BlockingAgent(gate)
    app.battle.agents["red"] = slow
    try:
        press(app, app.hud.b_next)
        assert slow.started.wait(timeout=10.0)
        thread = app.battle.job.thread
        press(app, app.hud.b_menu)  # back to the start screen while it still thinks
        assert app.hud.is_open("confirm")  # a game under way: asked first
        press(
            app,
            next(b for b in app.hud.buttons if b.text == "New game" and b is not app.hud.b_menu),
        )
        assert app.newgame is not None and app.battle is None
        assert thread.is_alive()  # left to finish on its own, not waited for
        step(app, 5)
    finally:
        gate.set()
    thread.join(timeout=10.0)
    assert not thread.is_alive()


class TiedAgent:
    """Ends its activation although a move of the same value is listed first, as the
    greedy agent does when it breaks a tie at random."""

    name = "tied"

    def __init__(self) -> None:
        self.last: list[Option] = []

    def choose(self, game, side):
        mover = game.state.live(side)[0]
        self.last = [
            Option(Move(actor=mover.id, to=(mover.x, mover.y + 1)), 1.0),
            Option(EndActivation(), 1.0),
        ]
        return EndActivation()


def test_the_log_names_the_move_played_when_options_tie(app):
    app.start(make_game(), {"blue": "human", "red": "normal"})
    app.battle.agents["red"] = TiedAgent()
    press(app, app.hud.b_next)
    assert pump_until(app, lambda: red_moves(app) >= 1)
    decision = next(e for e in app.game.log.events if e.kind == "decision")
    assert decision.text.startswith("red (tied) chose end activation (value +1.00)")
    assert "also weighed: r0 move" in decision.text
    assert "\u00bb 2. end activation" in app.hud.why.html_text
