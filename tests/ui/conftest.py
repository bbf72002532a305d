"""Headless window tests: the dummy video driver, a toy game, and real pygame events.

Why post events instead of calling methods: the window is tested the way a player uses
it — mouse down, motion, mouse up, key presses go through pygame's queue into
``App.step`` and pygame_gui, so a broken hit-test or a button that is not wired fails.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from engine.battlefield import Battlefield, TerrainFeature  # noqa: E402
from engine.game import Game  # noqa: E402
from tests.engine.conftest import make_toy_game

SIZE = (1280, 800)


def rect(x: float, y: float, w: float, h: float) -> tuple:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def toy_battlefield() -> Battlefield:
    """A table with a few terrain kinds at known places (for pixel checks)."""
    return Battlefield(
        72.0,
        48.0,
        (
            TerrainFeature("w1", "woods", rect(30, 20, 8, 8)),
            TerrainFeature("lake", "water", rect(50, 30, 10, 8)),
            TerrainFeature("b1", "building", rect(20, 30, 6, 6)),
            TerrainFeature("f1", "wheat_field", rect(50, 8, 10, 8)),
            TerrainFeature("h1", "hill", rect(60, 18, 10, 10), 2.0),
            TerrainFeature("r1", "road", rect(0, 44, 72, 2)),
        ),
    )


def make_game(seed: int = 1, n: int = 2) -> Game:
    """The engine tests' toy game on a table with a piece of each terrain class."""
    game = make_toy_game(seed=seed, n=n, battlefield=toy_battlefield())
    game.scenario["path"] = "toy.toml"
    return game


@pytest.fixture(autouse=True)
def _room_after_every_frame(monkeypatch):
    """Every gap after a flip has room for the panel text the frame owes: these tests
    check what the window shows, not how fast this machine is under load (the waiting
    rules have tests of their own, with slots of their own: test_odds_panel.py)."""
    from engine.ui import owed

    monkeypatch.setattr(owed, "FRAME_S", 10.0)


@pytest.fixture
def app(tmp_path):
    from engine.ui.app import App

    a = App(size=SIZE, saves_dir=tmp_path / "saves", ai_delay=0.0)
    yield a
    a.close()


@pytest.fixture
def battle(app):
    """The app on the battle screen with a toy hotseat game, hand-over answered."""
    app.start(make_game(), {"blue": "human", "red": "human"})
    step(app)
    key(app, pygame.K_RETURN)
    assert not app.battle.awaiting
    return app


# --- driving the window with real events -------------------------------------------------


def step(app, n: int = 1, dt: float = 1 / 60) -> None:
    for _ in range(n):
        app.step(None, dt)


def post(app, *events: pygame.event.Event, dt: float = 1 / 60) -> None:
    for e in events:
        pygame.event.post(e)
    app.step(None, dt)


def move_mouse(app, pos, buttons=(0, 0, 0)) -> None:
    post(app, pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons))


def click(app, pos, button: int = 1) -> None:
    move_mouse(app, pos)
    post(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def drag(app, a, b, button: int = 1, steps: int = 4, release: bool = True) -> None:
    move_mouse(app, a)
    post(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=button))
    held = (1, 0, 0) if button == 1 else (0, 0, 1)
    for k in range(1, steps + 1):
        p = (a[0] + (b[0] - a[0]) * k // steps, a[1] + (b[1] - a[1]) * k // steps)
        move_mouse(app, p, held)
    if release:
        post(app, pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=button))


def key(app, k: int, mod: int = 0, unicode: str = "") -> None:
    post(app, pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=unicode, scancode=0))
    post(app, pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode=unicode, scancode=0))


def press(app, button) -> None:
    """Click a pygame_gui button where it is drawn."""
    click(app, button.rect.center)


def choose(app, dropdown, option: str) -> None:
    """Open a pygame_gui drop-down with a click and click one of its options."""
    click(app, dropdown.rect.center)
    state = dropdown.current_state
    items = state.options_selection_list.item_list_container.elements
    target = next(b for b in items if b.text == option)
    click(app, target.rect.center)


def settle(app, seconds: float = 2.0) -> None:
    """Let animations and the computer's thinking finish."""
    for _ in range(int(seconds / 0.1)):
        app.step(None, 0.1)


def screen_pos(app, mid: str) -> tuple[int, int]:
    m = app.game.state.models[mid]
    return app.camera.to_screen_i(m.x, m.y)
