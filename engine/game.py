"""Game: one game in progress — the state, its dice and log, and the one play loop.

Why a class around the state: undo, clones for the AI, saves and replays all need the
state, the dice stream and the history kept together. ``apply`` is the only way the
state changes: it asks ``check`` first, so no illegal action is ever applied; a refusal
leaves the state untouched and is logged with its reasons.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.actions import Action, EndTurn, unsound
from engine.battlefield import Battlefield
from engine.dice import Dice
from engine.events import Event, EventLog
from engine.ruleset import Context, Legality, Odds, Outcome, Ruleset
from engine.state import GameState
from engine.whether import whether


@dataclass
class Step:
    """One applied action in the history, with the faces it consumed (for replays)."""

    action: dict[str, Any]
    faces: list[int]
    checksum: str
    side: str | None
    #: how many of ``faces`` (the first ones) were forced rather than rolled from the
    #: stream: a replay forces only those, so the stream's position is re-derived too
    forced: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "action": self.action,
            "faces": self.faces,
            "checksum": self.checksum,
            "side": self.side,
        }
        if self.forced:
            d["forced"] = self.forced
        return d


@dataclass
class _Snapshot:
    state: dict[str, Any]
    dice: dict[str, Any]
    consumed: int
    log_len: int
    history_len: int


@dataclass
class Game:
    """A game: ruleset + battlefield + state + dice + event log + history."""

    ruleset: Ruleset
    battlefield: Battlefield
    state: GameState
    dice: Dice
    log: EventLog = field(default_factory=EventLog)
    history: list[Step] = field(default_factory=list)
    scenario: dict[str, Any] = field(default_factory=dict)
    #: clones made for AI search skip history, checksums and undo snapshots (speed)
    record: bool = True
    ctx: Context = field(init=False)
    _undo: list[_Snapshot] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        self.battlefield = self.ruleset.placed_terrain(self.battlefield, self.state)
        self.ctx = Context(self.battlefield, self.dice, self.log)

    # --- queries --------------------------------------------------------------------
    def to_act(self) -> str | None:
        return self.ruleset.to_act(self.state)

    def check(self, action: Action) -> Legality:
        if self.state.over:
            return Legality.no("the game is over")
        bad = unsound(action)
        if bad:
            return Legality.no(bad)
        return self.ruleset.check(self.state, action, self.ctx)

    def allowed(self, action: Action) -> bool:
        """``check(action).ok``, letting the rules stop at the first reason
        (``engine.whether``): for agents, which read the verdict alone."""
        with whether():
            return self.check(action).ok

    def candidates(self, side: str | None = None) -> list[Action]:
        side = side or self.to_act()
        if side is None:
            return []
        return self.ruleset.candidates(self.state, side, self.ctx)

    def odds(self, action: Action) -> Odds | None:
        return self.ruleset.odds(self.state, action, self.ctx)

    def score(self, side: str) -> float:
        """The ruleset's position value for ``side`` (the AI's hint), measured on this
        game's battlefield."""
        return self.ruleset.score(self.state, side, self.ctx)

    def outcome(self) -> Outcome | None:
        return self.ruleset.outcome(self.state)

    # --- changing the state -----------------------------------------------------------
    def apply(self, action: Action, *, checked: bool = False) -> list[Event]:
        """Check and apply ``action``; returns the events it produced.

        An illegal action produces one ``refused`` event and changes nothing.
        ``checked``: the caller has already found ``action`` legal on this very position
        (the same state; legality never reads the dice), so the check is skipped. Why:
        the search applies one action to several copies of one position, each with other
        dice, and re-checking it on every copy was a tenth of a Gemini rollout (issue 24).
        """
        start = len(self.log)
        if not checked:
            if isinstance(action, EndTurn) and not self.check(action).ok:
                return self._end_turn(start)
            legal = self.check(action)
            if not legal.ok:
                self.log.emit("refused", legal.reason or "not allowed", actor=action.actor)
                return self.log.since(start)
        if not self.record:
            self.ruleset.apply(self.state, action, self.ctx)
            self._follow_terrain()
            return self.log.since(start)
        snap = _Snapshot(
            self.state.to_dict(),
            self.dice.get_state(),
            len(self.dice.consumed),
            start,
            len(self.history),
        )
        side = self.to_act()
        queued = len(self.dice.forced)
        self.ruleset.apply(self.state, action, self.ctx)
        self._follow_terrain()
        faces = self.dice.consumed[snap.consumed :]
        forced = min(len(faces), queued - len(self.dice.forced))
        self.history.append(
            Step(action.to_dict(), list(faces), self.state.checksum(), side, forced)
        )
        if faces:
            self._undo.clear()  # undo stops at the last roll
        else:
            self._undo.append(snap)
        return self.log.since(start)

    def _follow_terrain(self) -> None:
        """Measure on the table the state describes: a setup that places terrain (GEM's
        alternating bunches) moves it (``Ruleset.placed_terrain``, the same whatever table
        it starts from, so a replay from the start and an undo agree)."""
        bf = self.ruleset.placed_terrain(self.battlefield, self.state)
        if bf is not self.battlefield:
            self.battlefield = bf
            self.ctx = Context(bf, self.dice, self.log)

    def _end_turn(self, start: int) -> list[Event]:
        """'End turn' for rulesets without their own: click 'end activation / end phase'
        (each recorded as its own step) until the turn number changes."""
        turn = self.state.turn
        for _ in range(10_000):
            if self.state.over or self.state.turn != turn:
                break
            step = self.ruleset.advance(self.state, self.ctx)
            if step is None:
                break
            self.apply(step)
        return self.log.since(start)

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undoable(self) -> list[Step]:
        """The steps ``undo`` can still take back, oldest first: those since the last
        roll (the window's solo undo looks for the player's own among them)."""
        return self.history[len(self.history) - len(self._undo) :]

    def undo(self) -> bool:
        """Take back the last action, back to (not past) the last dice roll."""
        if not self._undo:
            return False
        snap = self._undo.pop()
        self.state = GameState.from_dict(snap.state)
        self._follow_terrain()
        del self.history[snap.history_len :]
        self.log.truncate(snap.log_len)
        self.log.emit("undo", "last action taken back")
        return True

    def clone(
        self, dice_seed: int | None = None, viewer: str | None = None, stream: int | None = None
    ) -> Game:
        """An independent copy for AI search: forked dice (it cannot see the real future
        faces), a fresh log, no undo; geometry is shared (terrain is static). With a
        ``viewer``, the other sides' secrets are hidden (``Ruleset.redact``). ``stream``
        gives the copy a fresh stream of that seed, whatever this game's dice: clones of
        two different positions then roll the same faces (common random numbers, which
        a search needs to compare two actions on the same luck)."""
        if stream is not None:
            dice = Dice(seed=stream)
        elif dice_seed is not None:
            dice = self.dice.fork(f"clone:{dice_seed}")
            dice.forced = []
        else:
            dice = self.dice.copy()
        state = self.state.copy()
        if viewer is not None:
            state = self.ruleset.redact(state, viewer)
        g = Game(self.ruleset, self.battlefield, state, dice, EventLog(), record=False)
        g.ctx = self.ctx.fork(dice, g.log)
        g.scenario = self.scenario
        return g


class Agent(Protocol):
    """Anything that picks an action for a side: a human via the window, or an AI."""

    name: str

    def choose(self, game: Game, side: str) -> Action: ...


Observer = Callable[[Sequence[Event]], None]


def explain(agent: Agent, side: str) -> str | None:
    """'red (greedy) chose b1 shoot r3: value +2.10, chance 42%; next: ...' from the
    agent's last decision, for the log headless and the window's panel. Here, beside the
    loop that writes it, so the engine's game and its agents import in one direction."""
    last = getattr(agent, "last", None)
    if not last:
        return None
    head, *rest = last
    text = f"{side} ({agent.name}) chose {head.line()}"
    if rest:
        text += "; also weighed: " + "; ".join(o.line() for o in rest[:3])
    return text


class Stepper:
    """The one game loop, one action at a time: whose turn it is, the view that side's
    agent may see, and the commit of its choice.

    ``play`` (headless), the batch runner and the window all step a game through this,
    so an agent sees the same clone (forked dice seeded by the action count, the other
    sides' secrets hidden) and a computer's reasons reach the log the same way whether
    the game runs in a batch or on screen.
    """

    def __init__(self, game: Game, max_actions: int = 20_000, n: int = 0) -> None:
        self.game = game
        self.max_actions = max_actions
        self.n = n  # actions committed: the seed of the next agent's dice

    def side(self) -> str | None:
        """The side to act next, or None at the end of the game or the action cap."""
        return self.game.to_act() if self.n < self.max_actions else None

    def view(self, side: str, seed: int | None = None) -> Game:
        """What ``side``'s agent may look at: a clone with forked dice and no peeking.
        The dice fork from the action count, or from ``seed`` (the window seeds from the
        position, so an undone and replayed position is answered with the same dice)."""
        return self.game.clone(dice_seed=self.n if seed is None else seed, viewer=side)

    def commit(self, action: Action, why: str | None = None) -> list[Event]:
        """Apply ``action``; a computer's explanation ``why`` is logged first as a
        "decision" entry and returned with the action's own events."""
        log = self.game.log
        start = len(log)
        if why:
            log.emit("decision", why, actor=action.actor)
        events = self.game.apply(action)
        self.n += 1
        return log.since(start) if why else events


def play(
    game: Game,
    agents: Mapping[str, Agent],
    *,
    observers: Sequence[Observer] = (),
    max_actions: int = 20_000,
) -> Outcome | None:
    """The one loop for every mode: solo, hotseat, AI-vs-AI, replay (``Stepper`` is its
    stepping form, which the batch runner and the window drive)."""
    loop = Stepper(game, max_actions)
    while (side := loop.side()) is not None:
        agent = agents[side]
        action = agent.choose(loop.view(side), side)
        events = loop.commit(action, why=explain(agent, side))
        for obs in observers:
            obs(events)
    return game.outcome()


def mark_start(game: Game) -> None:
    """Remember the state right after setup, so saves can be replayed from it."""
    game.scenario["start"] = {
        "state": game.state.to_dict(),
        "dice": game.dice.get_state(),
        "checksum": game.state.checksum(),
        "log": len(game.log.events),
    }
