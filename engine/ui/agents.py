"""The players of a battle in the window: a human fed by the controls, and a computer
agent thinking on a worker thread.

Why a worker thread: the hard level thinks for a fraction of a second per decision (more
on big tables); the window keeps drawing, panning and answering F1 meanwhile. The agent
works on ``game.clone(dice_seed=n, viewer=side)``, so it can neither see the real dice nor
the other side's secrets, exactly as in ``engine.game.play``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from engine.actions import Action
from engine.agents import explain
from engine.game import Game
from engine.ui.choices import akey
from engine.ui.newgame import DEFAULT_LEVEL


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
