"""What the battle screen's mixins read of the screen: one interface, ``Screen``.

Why an interface: ``Referee`` (playing frame by frame) and ``Panels`` (the widgets'
content) are parts of ``BattleScreen`` kept in their own modules; they read and write the
screen's state. Each mixin subclasses ``Screen``, so the type checker knows every
attribute they touch, and ``BattleScreen`` (which inherits them) must assign each one
with the declared type and implement each abstract method — a renamed or retyped
attribute is a type error, not a crash in the middle of a game.

Why an abstract class and not a ``typing.Protocol``: mypy takes an assignment such as
``self.hud_key = None`` in an explicit subclass of a protocol as a new declaration (the
attribute becomes ``None`` for good); under a plain base class it checks it against the
declared type.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from engine.actions import Action
    from engine.game import Agent, Game
    from engine.ui.agents import AiJob, Answers, HumanAgent
    from engine.ui.app import App
    from engine.ui.camera import Camera
    from engine.ui.controls import Controller
    from engine.ui.glossary import StatHelp
    from engine.ui.hud import Hud
    from engine.ui.markup import Linker
    from engine.ui.names import Names
    from engine.ui.overlays import DiceAnim
    from engine.ui.owed import OwedText

#: what decides whether a panel is rebuilt: the values it showed, compared with ``!=``
PanelKey = tuple[object, ...] | None


@dataclass
class Tween:
    """A model gliding from ``start`` to ``end`` (x, y, facing) since ``t0``."""

    start: tuple[float, float, float]
    end: tuple[float, float, float]
    t0: float


class Screen(ABC):
    """The battle screen's state and commands as its mixins use them."""

    app: App
    game: Game
    version: int
    controllers: dict[str, str]
    agents: dict[str, Agent | HumanAgent]
    hud: Hud
    camera: Camera
    controller: Controller
    names: Names
    glossary: dict[str, StatHelp | None]
    linker: Linker
    number_keys: dict[str, int]
    job: AiJob | None
    answers: Answers
    ai_ready_at: float
    n_actions: int
    dice: DiceAnim | None
    dice_t0: float
    tweens: dict[str, Tween]
    awaiting: str
    last_side: str | None
    last_turn: int
    summary_shown: bool
    turn_marks: dict[int, int]
    hud_key: PanelKey
    log_key: PanelKey
    odds_hover: str
    pinned: tuple[int, int] | None
    _hover_odds: Action | None
    owed: OwedText
    paused: bool
    step_once: bool
    decision: str
    autosave_name: str

    @property
    @abstractmethod
    def time(self) -> float: ...

    @property
    @abstractmethod
    def pointer(self) -> tuple[int, int]: ...

    @property
    @abstractmethod
    def saves(self) -> Path: ...

    @property
    @abstractmethod
    def animate(self) -> bool: ...

    @property
    @abstractmethod
    def ai_delay(self) -> float: ...

    @abstractmethod
    def name_of(self, mid: str) -> str: ...

    @abstractmethod
    def computer_plays(self) -> bool: ...

    @abstractmethod
    def human_to_act(self) -> bool: ...

    @abstractmethod
    def submit(self, action: Action) -> None: ...

    @abstractmethod
    def undo_count(self) -> int: ...

    @abstractmethod
    def _link(self, target: str) -> None: ...
