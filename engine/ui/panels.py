"""The battle screen's side panels kept in step with the game: status bar, action
buttons, odds, model card, roll log.

Why a mixin of ``BattleScreen``: these methods read the whole screen (game, controls,
agents) but only write widgets; apart they keep the screen's module readable. Each panel
is rebuilt only when what it shows changed (a key per panel), because re-laying out rich
text costs milliseconds.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine.actions import Action, Move
from engine.ui import choices
from engine.ui.choices import Mode, akey
from engine.ui.glossary import stat_help, tooltip
from engine.ui.hud import ActionItem, StatChip
from engine.ui.markup import esc, event_html, odds_html
from engine.ui.overlays import length_text
from engine.ui.screen import Screen
from engine.ui.style import TARGET_COLOURS, hexc
from engine.ui.texts import card_html, casualties_html

if TYPE_CHECKING:  # pragma: no cover
    from engine.state import Model

LOG_ENTRIES = 80


class Panels(Screen):
    """Mixin: the widgets' content (see the module docstring)."""

    def _hud_dirty(self) -> None:
        self.hud_key = None

    def _unhover(self) -> None:
        self.odds_hover = ""

    def _refresh_hud(self) -> None:
        b, g, hud, c = self, self.game, self.hud, self.controller
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
            hud.set_text(hud.casualties, "cas", casualties_html(g, self.names))
        self._refresh_odds()
        if hud.why is not None:
            hud.set_text(hud.why, "why", b.decision)
        log_key = (self.version, len(g.log), b.pinned)
        if log_key != b.log_key:
            b.log_key = log_key
            hud.set_text(hud.log, "log", self.log_html())

    def _refresh_status(self) -> None:
        b, g, hud = self, self.game, self.hud
        st = g.state
        side = g.to_act()
        if st.over or side is None:
            out = g.outcome()
            who = out.winner if out and out.winner else "draw"
            text = f"Game over \u2014 {who}" + (f" ({out.reason})" if out and out.reason else "")
            hud.set_status(text, "Next", False, False, self.undo_count() > 0)
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
        extra = f" \u00b7 activating {self.names.text(str(cur))}" if cur else ""
        phase = st.phase.replace("_", " ")
        text = (
            f"Turn {st.turn} \u00b7 {phase} \u00b7 {side.upper()} to act ({who}){extra}{thinking}"
        )
        nxt = self.controller.advance_action() if self.human_to_act() else None
        label = nxt.describe().capitalize() + " (Space)" if nxt is not None else "Next"
        hud.set_status(text, label, nxt is not None, self.human_to_act(), self.undo_count() > 0)
        state = "paused" if b.paused and not b.step_once else thinking[3:]
        hud.set_spectator(b.paused, computer and not b.step_once, state)

    def _refresh_actions(self) -> None:
        c, hud = self.controller, self.hud
        keys = self.number_keys
        items: list[ActionItem] = []
        for mode in c.modes():
            kind = mode.proto.KIND
            items.append(
                ActionItem(
                    mode.label,
                    self._mode_tip(mode),
                    partial(self._toggle_mode, mode),
                    on=c.mode is not None and c.mode.proto == mode.proto,
                    kind=kind,
                    key=keys.get(kind),
                    mode=True,
                )
            )
        for a in c.direct_actions() + c.side_actions():
            o = c.odds(a)
            tip = a.describe() + (f": {o.summary()}" if o is not None else "")
            items.append(
                ActionItem(
                    choices.label(a),
                    tip,
                    partial(self.submit, a),
                    partial(self._hover_action, a),
                    kind=a.KIND,
                    key=keys.get(a.KIND) if a.actor else None,
                )
            )
        for mm in c.move_modes():
            items.append(
                ActionItem(
                    f"move: {mm}",
                    f"drag to {mm} (click again for a normal move)",
                    partial(self._toggle_move_mode, mm),
                    on=c.move_mode == mm,
                    kind="move",
                )
            )
        hud.set_actions(items)

    def _mode_tip(self, mode: Mode) -> str:
        c = self.controller
        if mode.place:  # aimed at a point (a deployment, a jump): no targets to list
            return f"{mode.label}: click the ground"
        marks, done = c.marks_soon(mode.proto)
        if not done:  # measured a slice per frame: the rings follow, the tip stays short
            return f"{mode.label}: hover a target for the odds"
        parts = []
        for tid, mk in marks.items():
            if mk.cls in ("valid", "cover"):
                a = choices.aimed(mode.proto, tid)
                o = c.odds(a)
                who = self.names.of(tid)
                parts.append(f"{who}: {o.summary()}" if o else who)
        head = f"{mode.label}: click a target"
        return head + ("\n" + "\n".join(parts[:8]) if parts else " (none in reach)")

    def _toggle_mode(self, mode: Mode) -> None:
        c = self.controller
        same = c.mode is not None and c.mode.proto == mode.proto
        c.set_mode(None if same else mode)

    def _toggle_move_mode(self, mm: str) -> None:
        c = self.controller
        c.move_mode = "" if c.move_mode == mm else mm
        self._hud_dirty()

    def _hover_action(self, a: Action) -> None:
        self.odds_hover = repr(a)
        self._hover_odds = a

    def _refresh_odds(self) -> None:
        c, hud, b = self.controller, self.hud, self
        text = ""
        linker = b.linker
        marks, done = c.marks_soon(c.mode.proto) if c.mode is not None else ({}, True)
        if b.odds_hover and self._hover_odds is not None:
            hovered = self._hover_odds
            text = odds_html(hovered.describe(), c.odds(hovered), c.check(hovered).reason, linker)
        elif c.mode is not None and c.mode.place:
            a = c.place_action(c.cursor)
            assert a is not None
            leg = c.check(a)
            text = f"<b>{esc(c.mode.label)}</b>: click the ground to aim it.<br>" + odds_html(
                a.describe(), c.odds(a) if leg.ok else None, leg.reason, linker
            )
        elif c.mode is not None and c.hover and c.hover in marks:
            a = c.target_action(c.hover)
            assert a is not None
            mk = marks[c.hover]
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
            if not done:
                summary += " <font color='#9aa3b2'>(measuring\u2026)</font>"
            text = (
                f"<b>{esc(c.mode.label)}</b>: hover a target for the odds, click to "
                f"commit.<br>Targets (ring colours): {summary}"
            )
        elif c.drag is not None and c.drag.active:
            pv = c.preview()
            if pv is not None:
                col = "#8fe09a" if pv.legal else "#f08a80"
                what = f"charge {pv.charge_target}" if pv.charge_target else "move"
                u = (self.game.ruleset.unit_name, self.game.ruleset.unit_per_inch)
                text = (
                    f"<b>{esc(what)}</b> {length_text(pv.length, *u)}"
                    + (
                        f" of {length_text(pv.allowance, *u, 'g')}"
                        if pv.allowance is not None
                        else ""
                    )
                    + f"<br><font color='{col}'>"
                    f"{linker.text(pv.reason) if pv.reason else 'allowed'}</font>"
                )
                if pv.chance is not None:
                    text += f"<br>{pv.chance * 100:.0f}% chance to get there"
                for line in pv.lines[:4]:
                    text += f"<br><font color='#c8ccd4'>\u2022 {linker.text(line)}</font>"
        elif c.selected:
            text = "<font color='#9aa3b2'>" + self._selection_hint() + "</font>"
        else:
            text = "<font color='#9aa3b2'>Click a model to select it. F1 for help.</font>"
        # Re-laying out rich text costs milliseconds: the frame only owes it, and it is
        # laid out after the flip, in the gap before the next frame (engine/ui/owed.py).
        b.owed.owe("odds", hud.odds, text, hud._texts.get("odds"))

    def _selection_hint(self) -> str:
        """What the player can do with the selected model, or why nothing: the rules'
        own refusal of a short move when its actions box is empty."""
        c, g = self.controller, self.game
        m = g.state.models.get(c.selected)
        side = g.to_act()
        if m is None or m.removed:
            return "Click a model to select it. F1 for help."
        if not self.human_to_act():
            return f"{esc(self.name_of(m.id))}: the other side is playing."
        if m.side != side:
            return f"{esc(self.name_of(m.id))} is the enemy's; {esc(str(side).upper())} to act."
        moves = any(isinstance(a, Move) for a in c.actions())
        if c.rules_error:
            return f"<font color='#ff6b6b'>{esc(c.rules_error)}</font>"
        if not c.actions() and not c.side_actions():
            probe = Move(actor=m.id, path=(m.pos, (m.x + 0.1, m.y)))
            why = c.check(probe).reason or "it has no action left now"
            return (
                f"{esc(self.name_of(m.id))} has nothing to do now: {self.linker.plain(why)}. "
                "Space moves play on."
            )
        bits = []
        if moves:
            bits.append(
                "Drag the model to move it (drop on an enemy to charge); releasing commits."
            )
        if c.modes():
            bits.append("Pick an action above, then click its target.")
        elif moves:
            bits.append("No target in reach or sight from here.")
        return " ".join(bits) or "Pick an action above."

    def _refresh_card(self) -> None:
        c, g, hud = self.controller, self.game, self.hud
        m = g.state.models.get(c.selected)
        hud.set_text(
            hud.card,
            "card",
            card_html(g, m, self.names)
            if m is not None
            else "<font color='#9aa3b2'>No model selected.</font>",
        )
        hud.set_stats(self._stat_chips(m) if m is not None else [])

    def _stat_chips(self, m: Model) -> list[StatChip]:
        """The model's stats in the ruleset's order, as the ruleset reads them on a card
        (``Ruleset.model_card``: UMR's "MOVE +0", "AD 1 of 2 left"), each with what it
        means from the rules reference (``glossary``)."""
        g = self.game
        try:
            shown = g.ruleset.model_card(g.state, m)
        except Exception as e:  # shown in the hint; the raw stats stand in meanwhile
            shown = self.controller.failed(f"the card of {m.id}", e, {})
        order = list(g.ruleset.stat_keys)
        keys = [k for k in m.stats if not isinstance(m.stats[k], (dict, list))]
        keys += [k for k in shown if k not in keys]
        keys.sort(key=lambda k: (order.index(k) if k in order else len(order), k))
        chips = []
        for k in keys:
            text = f"{k} {shown.get(k, m.stats.get(k))}"
            if k not in self.glossary:
                self.glossary[k] = stat_help(g.ruleset.reference, k)
            h = self.glossary[k]
            if h is None:
                chips.append(StatChip(text, f"<b>{esc(k)}</b>: not in the rules reference"))
                continue
            chips.append(StatChip(text, tooltip(h), partial(self._link, f"rule:{h.section}")))
        return chips

    def log_html(self) -> str:
        g, b = self.game, self
        events = g.log.events
        start = max(0, len(events) - LOG_ENTRIES)
        lines = []
        for i in range(len(events) - 1, start - 1, -1):
            lines.append(event_html(events[i], b.linker))
            if i in b.turn_marks:
                lines.append(
                    f"<font color='#8fbcd4'><b>\u2014 turn {b.turn_marks[i]} \u2014</b></font>"
                )
        if not lines:
            return "<font color='#9aa3b2'>No rolls yet.</font>"
        return self._pinned_html() + "<br>".join(lines)

    def _pinned_html(self) -> str:
        """The player's own last result on top of the log once the computer has answered
        (it would scroll out of sight under the computer's paragraphs otherwise)."""
        events = self.game.log.events
        if self.pinned is None:
            return ""
        start, end = self.pinned
        if end >= len(events):
            return ""  # nothing came after it: it is on top anyway
        mine = [event_html(e, self.linker) for e in events[start:end] if e.kind != "decision"]
        if not mine:
            return ""
        return (
            "<font color='#8fbcd4'><b>YOUR LAST ACTION</b></font><br>"
            + "<br>".join(mine)
            + "<br><font color='#8fbcd4'><b>\u2014 since then, newest first \u2014</b></font><br>"
        )


# --- text for the widgets --------------------------------------------------------------------------
