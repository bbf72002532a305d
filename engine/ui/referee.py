"""The battle screen's turn of play: ask the agent of the side to act, apply its action,
animate it, autosave, hand over in hotseat, and end the game.

Why a mixin of ``BattleScreen``: it is the engine's ``play`` loop unrolled into frames
(one decision at most per frame, the computer's on a worker thread), and reads and writes
the screen's state; apart it keeps the screen's module readable.
"""

from __future__ import annotations

import traceback

from engine import persistence
from engine.actions import Action, EndTurn
from engine.game import Agent, Stepper
from engine.ruleset import Ruleset
from engine.ui import markup
from engine.ui.agents import AiJob, HumanAgent, position_of, reseed
from engine.ui.markup import esc
from engine.ui.overlays import DiceAnim, contest_rows
from engine.ui.screen import Screen, Tween
from engine.ui.style import side_colours
from engine.ui.texts import decision_html, summary_html

DICE_SECONDS = 0.9
#: autosaves kept in the saves folder (one per game, the newest)
AUTOSAVES = 5
TWEEN_SECONDS = 0.25


class Referee(Screen):
    """Mixin: playing the game frame by frame (see the module docstring)."""

    def _play(self) -> None:
        """Ask the agent of the side to act for its action (one per frame at most)."""
        b, g = self, self.game
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
            b.job = self._think(agent, side)
            return
        if not b.job.done.is_set() or held:
            return
        job, b.job = b.job, None
        b.answers.keep(job)
        if job.token != self.version or job.side != side:
            return
        action = job.result
        if action is None:
            self.app.notify(f"the computer ({side}) failed: {job.error}", good=False)
            action = g.ruleset.advance(g.state, g.ctx) or EndTurn()
            b.decision = (
                f"<font color='#f08a80'><b>{esc(side)}</b>: the computer failed "
                f"({esc(job.error)}); the game moved on with "
                f"{esc(action.describe())}.</font>"
            )
        else:
            b.decision = decision_html(
                g, side, b.controllers.get(side, ""), agent, action, job.options, b.names
            )
        b.step_once = False
        self._apply(action, why=job.why if job.result is not None else None)
        b.ai_ready_at = self.time + self.ai_delay

    def _think(self, agent: Agent, side: str) -> AiJob:
        """The computer's decision for ``side``: the answer it gave before in this very
        position (after an undo), else a new one on a worker thread. Both the clone's
        dice and the agent's own are seeded from the position (``agents.reseed``)."""
        g = self.game
        position = position_of(g, side)
        before = self.answers.get(position)
        if before is not None:
            return AiJob.recall(side, self.version, before)
        reseed(agent, g, g.state.sides.index(side) + 1)
        clone = Stepper(g).view(side, seed=len(g.history))
        return AiJob(agent, clone, side, self.version, position)

    def _apply(self, action: Action, why: str | None = None) -> None:
        """Apply ``action``; ``why`` (a computer's explanation) goes into the roll log
        first as a "decision" entry: the window steps the game through ``engine.game.Stepper``,
        the loop ``play`` and the batch runner step through headless."""
        b, g = self, self.game
        before = {m.id: (m.x, m.y, m.facing) for m in g.state.live()}
        n_rolls = len(g.dice.rolls)
        n_log = len(g.log)
        turn = g.state.turn
        try:
            events = Stepper(g, n=b.n_actions).commit(action, why)
        except Exception as e:  # a rules bug must not close the window mid-game
            traceback.print_exc()
            self.app.notify(f"error applying {action.describe()}: {e}", good=False)
            self.hud.open_message("Rules error", f"{action.describe()}: {e}")
            return
        b.n_actions += 1
        self.version += 1
        side = g.history[-1].side if g.history else None
        if self.computer_plays() and side is not None and b.controllers.get(side) == "human":
            # the player's actions in a row (a shot, then Space) make one pinned span
            keep = b.pinned is not None and b.pinned[1] == n_log
            b.pinned = (b.pinned[0] if keep and b.pinned else n_log, len(g.log))
        if g.state.turn != turn:
            b.turn_marks[n_log] = g.state.turn
        refused = [e for e in events if e.kind == "refused"]
        if refused:
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
                who = f"{b.names.of(last.actor)} \u2192 {b.names.of(last.target)}"
                caption = f"{who}: {last.outcome}".strip(": ")
                good = last.outcome.lower() in markup.GOOD if last.outcome else None
            faces = [f for r in rolls for f in r.faces][:12]
            sides = [r.sides for r in rolls for _ in r.faces][:12]
            b.dice = DiceAnim(faces, sides, 0.0, caption, good)
            contest = next((e.data for e in events if e.data.get("contest")), None)
            if contest is not None:  # a contested roll: each side's dice and score
                b.dice.rows = contest_rows(contest["contest"], b.names.of)
                b.dice.caption = b.names.text(str(contest.get("verdict", caption)))
                b.dice.good = None
            b.dice_t0 = self.time
        self.controller.reset()
        if g.state.turn != b.last_turn or g.state.over:
            b.last_turn = g.state.turn
            self._autosave()
        self._check_handover()

    def _autosave(self) -> None:
        """Save the game to its own autosave file (one per game, named by scenario and
        start time) and keep only the newest ``AUTOSAVES`` of them."""
        try:
            self.saves.mkdir(parents=True, exist_ok=True)
            persistence.save(self.game, self.saves / self.autosave_name)
            old = sorted(self.saves.glob("autosave-*.json"), key=lambda p: p.stat().st_mtime)
            for p in old[:-AUTOSAVES]:
                p.unlink()
        except OSError as e:
            self.app.notify(f"autosave failed: {e}", good=False)

    def _check_handover(self) -> None:
        """In hotseat, ask the next player to take the mouse when the side to act changes,
        where the rules keep secrets from the other side (GEM's spell power and plans).
        Why not always: UMR alternates sides every activation and hides nothing, so a
        notice each time only costs a click; the status bar names the side to act."""
        b, g = self, self.game
        side = g.to_act()
        humans = [s for s, who in b.controllers.items() if who == "human"]
        if side is None:
            return
        secrets = type(g.ruleset).redact is not Ruleset.redact
        if (
            secrets
            and b.controllers.get(side) == "human"
            and len(humans) > 1
            and side != b.last_side
        ):
            b.awaiting = side
            self._open_handover(side)
        if b.controllers.get(side) == "human" and not b.awaiting:
            b.last_side = side

    def _open_handover(self, side: str) -> None:
        colour = side_colours(self.game.state.sides)[side]
        self.hud.open_handover(side, colour, self._ready)

    def _ready(self) -> None:
        b = self
        b.last_side = b.awaiting
        b.awaiting = ""
        self.hud.close("handover")
        self.controller.select("")

    def _game_over(self) -> None:
        b, g = self, self.game
        if b.summary_shown:
            return
        if b.dice is not None and self.animate:
            return
        b.summary_shown = True
        b.awaiting = ""
        self.hud.close("handover")
        self.hud.open_summary(
            summary_html(g), lambda: self.app.open_new_game(str(g.scenario.get("path", "")) or None)
        )

    def _skip_dice(self) -> bool:
        b = self
        if b.dice is not None:
            b.dice = None
            return True
        return False

    def _animate(self) -> None:
        b = self
        if b.dice is not None:
            b.dice.t = (self.time - b.dice_t0) / DICE_SECONDS
            if b.dice.t >= 1.0:
                b.dice = None
        for mid in [m for m, tw in b.tweens.items() if self.time - tw.t0 >= TWEEN_SECONDS]:
            del b.tweens[mid]
