"""The players of a battle in the window: a human fed by the controls, and a computer
agent thinking on a worker thread.

Why a worker thread: the hard level thinks for a fraction of a second per decision (more
on big tables); the window keeps drawing, panning and answering F1 meanwhile. The agent
works on ``game.clone(dice_seed=n, viewer=side)``, so it can neither see the real dice nor
the other side's secrets, exactly as in ``engine.game.play``.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable

from engine.actions import Action
from engine.agents import explain
from engine.agents.greedy import Option
from engine.dice import Dice
from engine.game import Agent, Game
from engine.ui.choices import akey
from engine.ui.newgame import DEFAULT_LEVEL

#: what a computer's decision depends on (``position_of``)
Position = tuple[str, int, str]


@runtime_checkable
class _OwnDice(Protocol):
    """An agent with dice of its own (tie-breaks, samples), reseeded per position."""

    dice: Dice


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

    def __init__(
        self,
        agent: Agent | None,
        clone: Game | None,
        side: str,
        token: int,
        position: Position | None = None,
    ) -> None:
        """Think about ``clone`` for ``side`` on a worker thread; with no clone the job
        is a recalled answer (``recall``) and is done at once. ``position`` is the key
        the answer is remembered under (``Answers``)."""
        self.token = token
        self.side = side
        self.position = position
        self.result: Action | None = None
        self.error: str = ""
        self.why: str | None = None
        self.options: list[Option] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(agent, clone, side), daemon=True)
        if clone is None:
            self.done.set()
        else:
            self.thread.start()

    @classmethod
    def recall(cls, side: str, token: int, answer: AiJob) -> AiJob:
        """A job already done: the answer the computer gave before in this position."""
        job = cls(None, None, side, token, answer.position)
        job.result, job.why, job.options = answer.result, answer.why, list(answer.options)
        return job

    def _run(self, agent: Agent | None, clone: Game | None, side: str) -> None:
        if agent is None or clone is None:  # a recalled answer: nothing to think
            return
        try:
            self.result = agent.choose(clone, side)
            self.options = list(getattr(agent, "last", None) or [])
            self.why = _explain_choice(agent, side, self.result, self.options)
        except Exception as e:  # shown to the player; the game moves on with 'advance'
            self.error = f"{type(e).__name__}: {e}"
        self.done.set()


def position_of(game: Game, side: str) -> Position:
    """What a computer's decision depends on: the state, where the dice stream stands,
    and the side. Why the dice: the agent thinks on a fork of the game's stream."""
    return (game.state.checksum(), game.dice.counter, side)


def reseed(agent: Agent, game: Game, base: int) -> None:
    """Seed the agent's own dice (its tie-breaks and samples) from the position, not
    from how many decisions it made before: after an undo, or in another window opened
    on the same save, it then decides the same way in the same position."""
    if isinstance(agent, _OwnDice) and isinstance(agent.dice, Dice):
        agent.dice = Dice(seed=(base * 1_000_003 + len(game.history)) ^ game.dice.counter)


class Answers:
    """The computer's answers by position (``position_of``).

    Why remember them: in solo play Undo takes back the player's last action and the
    computer's answer to it; played again, the same action must meet the same answer,
    even from the hard level, whose search stops on the clock and so may differ from
    one run to the next. The game's dice are untouched by an undo (it stops at the last
    roll), so the answer then rolls the same faces too."""

    def __init__(self) -> None:
        self._by: dict[Position, AiJob] = {}

    def get(self, position: Position) -> AiJob | None:
        return self._by.get(position)

    def keep(self, job: AiJob) -> None:
        if job.result is not None and job.position is not None:
            self._by[job.position] = job


def _explain_choice(agent: Agent, side: str, action: Action, options: list[Option]) -> str | None:
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
    rest = [o for o in options if o is not played]
    text = f"{side} ({name}) chose {played.line()}"
    return text + ("; also weighed: " + "; ".join(o.line() for o in rest[:3]) if rest else "")
