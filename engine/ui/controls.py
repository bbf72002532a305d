"""Mouse and keys into proposed actions, with the rules' reasons and odds shown live.

Why here and not in the rules: the window never decides what is legal. It builds the
action a player is pointing at (a move along the dragged path, a shot at the hovered
enemy), asks ``Game.check`` why it is or is not legal and ``Game.odds`` what it would
bring, and commits it through the human agent only when the player lets go or clicks.
Everything it shows is cached per game version (the app bumps the version whenever the
state changes), so hovering costs a dictionary lookup, not a rules call, per frame.
"""

from __future__ import annotations

import math
import traceback
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, cast

from engine.actions import Action, Move, Turn
from engine.battlefield import Footprint
from engine.game import Game
from engine.ruleset import TOO_FAR, Legality, Odds
from engine.ui import choices, measure
from engine.ui.camera import Camera
from engine.ui.choices import Mode, akey
from engine.ui.moving import Moving
from engine.ui.overlays import OddsCard, Overlays, TargetMark
from engine.ui.targets import Sliced, mark_of

Point = tuple[float, float]
T = TypeVar("T")

#: Pixels the mouse must travel with the button held before a click becomes a drag.
DRAG_THRESHOLD = 5
#: Degrees per Q/E press (Shift: coarse).
TURN_STEP, TURN_STEP_COARSE = 15.0, 45.0
#: How rules state a move allowance in a refusal: 'too far (7.1" > 6")', '... may move 5"'.


class Session(Protocol):
    """What the controls need of the app (kept narrow so tests can read it)."""

    game: Game
    version: int
    camera: Camera

    def human_to_act(self) -> bool: ...

    def submit(self, action: Action) -> None: ...


@dataclass
class Drag:
    """A left-button drag in progress: who moves, the waypoints so far, the cursor."""

    actor: str
    start_px: tuple[int, int]
    origin: Point
    waypoints: list[Point] = field(default_factory=list)
    cursor: Point = (0.0, 0.0)
    active: bool = False


def footprint_of(game: Game, mid: str) -> Footprint:
    m = game.state.models[mid]
    return Footprint(m.x, m.y, m.facing, m.base)


class Controller(Moving):
    """Turns input into overlays and committed actions for one game."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.selected = ""
        self.hover = ""
        self.cursor: Point = (0.0, 0.0)
        self.mode: Mode | None = None
        self.move_mode = ""
        self.drag: Drag | None = None
        self.pending_facing: float | None = None
        self.note: tuple[Point, str, bool] | None = None
        self.note_until = 0.0
        self.unit_links = True
        self._cache: dict[Hashable, object] = {}
        self._cache_version = -1
        #: the last rules query that raised, shown in the hint instead of a silent blank
        self.rules_error = ""
        self.sight = measure.Sight(session.game.ctx)
        #: target marks measured a slice per frame (``marks_soon``)
        self.sliced = Sliced()
        self.on_change: Callable[[], None] | None = None
        #: model ids to the names a player reads, in what the table shows (Names.text)
        self.rename: Callable[[str], str] = lambda text: text

    # --- cached rules queries -----------------------------------------------------------------
    def _memo(self, key: Hashable, fn: Callable[[], T]) -> T:
        """``fn()``, asked once per game version under ``key``; each key is asked of one
        query only (its first element names the query), so its value has ``fn``'s type."""
        if self._cache_version != self.s.version:
            self._cache.clear()
            self._cache_version = self.s.version
            self.rules_error = ""
        if key not in self._cache:
            self._cache[key] = fn()
        return cast(T, self._cache[key])

    def failed(self, what: str, e: Exception, shown: T) -> T:
        """A rules query that raised: print the traceback, keep the message for the hint
        (the window says a rules bug happened rather than showing an empty box), and show
        ``shown`` meanwhile so one bad query never closes the window."""
        traceback.print_exc()
        self.rules_error = f"rules error in {what}: {e}"
        return shown

    @property
    def game(self) -> Game:
        return self.s.game

    def check(self, action: Action) -> Legality:
        return self._memo(("check", akey(action)), lambda: self.game.check(action))

    def odds(self, action: Action) -> Odds | None:
        def get() -> Odds | None:
            try:
                return self.game.odds(action)
            except Exception as e:
                return self.failed(f"odds of {action.describe()}", e, None)

        return self._memo(("odds", akey(action)), get)

    def actions(self, actor: str | None = None) -> list[Action]:
        """The legal actions of the selected model (``Ruleset.actions_for``)."""
        actor = actor or self.selected
        if not actor or not self.s.human_to_act():
            return []

        def get() -> list[Action]:
            g = self.game
            m = g.state.models.get(actor)
            if m is None or m.removed or m.side != g.to_act():
                return []
            try:
                return list(g.ruleset.actions_for(g.state, actor, g.ctx))
            except Exception as e:
                return self.failed(f"the actions of {actor}", e, [])

        return self._memo(("actions", actor), get)

    def side_actions(self) -> list[Action]:
        """Side-level choices owed now (reactions, pending decisions: actor-less acts) and
        the acts of units off the table (a squad aboard its transport disembarks): no
        model to click carries them, so they are always shown."""
        if not self.s.human_to_act():
            return []

        def get() -> list[Action]:
            try:
                cands = self.game.candidates()
            except Exception as e:
                return self.failed("the side's choices", e, [])
            on_table = {m.id for m in self.game.state.live()}
            on_table |= {m.unit for m in self.game.state.live()}
            return [
                a
                for a in cands
                if a.KIND not in choices.SIDE_ACTS and (not a.actor or a.actor not in on_table)
            ]

        return self._memo(("side",), get)

    def modes(self) -> list[Mode]:
        """Targeted and placed actions, one mode per variant (each weapon, each spell at
        each power); the target (friend or foe) or the point is picked on the table."""
        verbs = tuple(self.game.ruleset.verbs)
        return sorted(
            choices.group(self.actions()),
            key=lambda m: (choices.kind_order(verbs, m.proto.KIND), m.label),
        )

    def direct_actions(self) -> list[Action]:
        """Untargeted actions of the selection (rally, overwatch, a frontage, a climb, a
        drive variant...): plain buttons, in the ruleset's verb order."""
        verbs = tuple(self.game.ruleset.verbs)
        return sorted(
            choices.direct(self.actions()),
            key=lambda a: (choices.kind_order(verbs, a.KIND), choices.label(a)),
        )

    def control_of(self, action: Action) -> str:
        """Which control gives ``action`` to the player ('' when none does)."""
        return choices.control_of(action, self.modes(), self.direct_actions() + self.side_actions())

    def move_modes(self) -> list[str]:
        modes = []
        for a in self.actions():
            if isinstance(a, Move) and a.mode and a.mode not in modes:
                modes.append(a.mode)
        return modes

    # --- targets ------------------------------------------------------------------------------
    def shooter_of(self, action: Action) -> str:
        actor = action.actor
        if actor in self.game.state.models:
            return actor
        return self.selected

    def offered(self, proto: Action) -> frozenset[str]:
        """The targets the rules offer for this variant (models or units, friends too)."""
        k = akey(proto)
        return next((m.offered for m in self.modes() if akey(m.proto) == k), frozenset())

    def aim_of(self, proto: Action, mid: str) -> str:
        """What the action names as its target when the player clicks model ``mid``: the
        model, or its unit where the rules aim at units (a GEM spell on a block)."""
        offered = self.offered(proto)
        m = self.game.state.models.get(mid)
        if mid in offered or m is None:
            return mid
        return m.unit if m.unit in offered else mid

    def classify(self, proto: Action) -> dict[str, TargetMark]:
        """Every enemy, and every friend the rules offer, as a target of ``proto``: valid,
        cover (with its visible fraction), hidden, out of arc, out of range, or illegal
        for another reason. All of them now (a click commits on this answer); the frame
        asks ``marks_soon``."""
        return self._memo(
            ("classify", akey(proto)),
            lambda: {t: self._mark_target(proto, t) for t in self._target_ids(proto)},
        )

    def marks_soon(self, proto: Action) -> tuple[dict[str, TargetMark], bool]:
        """``classify`` a slice per frame (``engine.ui.targets``): (marks, complete)."""
        key = ("classify", akey(proto))
        if self._cache_version == self.s.version and key in self._cache:
            return cast(dict[str, TargetMark], self._cache[key]), True
        models = self.game.state.models
        marks, done = self.sliced.soon(
            self.s.version,
            key,
            lambda: self._target_ids(proto),
            lambda t: self._mark_target(proto, t),
            lambda t: t in models and not models[t].removed,
        )
        return (self._memo(key, lambda: marks), True) if done else (marks, False)

    def _target_ids(self, proto: Action) -> list[str]:
        g = self.game
        shooter = self.shooter_of(proto)
        if shooter not in g.state.models or not choices.has_field(proto, "target"):
            return []
        me = g.state.models[shooter]
        offered = self.offered(proto)
        return [
            t.id
            for t in g.state.live()
            if not (t.side == me.side and t.id not in offered and t.unit not in offered)
        ]

    def _mark_target(self, proto: Action, target: str) -> TargetMark:
        a = choices.aimed(proto, self.aim_of(proto, target))
        sight = None
        if a.KIND == "shoot":
            me = footprint_of(self.game, self.shooter_of(proto))
            sight = self.sight.sight(me, footprint_of(self.game, target))
        return mark_of(self.check(a), sight)

    def target_action(self, target: str) -> Action | None:
        """The current mode aimed at model ``target`` (its unit where the rules aim so)."""
        if self.mode is None or self.mode.place:
            return None
        aim = self.aim_of(self.mode.proto, target)
        return choices.aimed(self.mode.proto, aim)

    def place_action(self, point: Point) -> Action | None:
        """The current place mode aimed at a point on the ground."""
        if self.mode is None or not self.mode.place:
            return None
        return choices.placed(self.mode.proto, point)

    # --- moving ---------------------------------------------------------------------------------
    def allowance(self, actor: str) -> float | None:
        """How far the actor may move now: the ruleset's ``allowance`` hook, else the
        limit its refusal of a long move carries (a ``too_far`` reason's data). None when
        the ruleset does not say."""

        def get() -> float | None:
            g = self.game
            m = g.state.models.get(actor)
            if m is None:
                return None
            allow = g.ruleset.allowance(g.state, actor, g.ctx, self.move_mode)
            if allow is not None:
                return allow
            bf = g.battlefield
            far = max(
                (
                    (0.5, 0.5),
                    (bf.width - 0.5, 0.5),
                    (0.5, bf.depth - 0.5),
                    (bf.width - 0.5, bf.depth - 0.5),
                ),
                key=lambda p: math.dist(p, m.pos),
            )
            probe = Move(actor=actor, path=(m.pos, far, m.pos), mode=self.move_mode)
            return _limit(self.check(probe))

        return self._memo(("allow", actor, self.move_mode), get)

    # --- picking ----------------------------------------------------------------------------
    def model_at(self, p: Point, exclude: str = "") -> str:
        """The live model whose base is under the point (the nearest centre wins)."""
        best, best_d = "", float("inf")
        pad = 3.0 / self.s.camera.scale  # a few pixels of slack for tiny bases
        for m in self.game.state.live():
            if m.id == exclude:
                continue
            fp = Footprint(m.x, m.y, m.facing, m.base)
            if measure.contains(fp, p[0], p[1], pad):
                d = math.dist(p, m.pos)
                if d < best_d:
                    best, best_d = m.id, d
        return best

    def own(self, mid: str) -> bool:
        m = self.game.state.models.get(mid)
        return bool(m and not m.removed and m.side == self.game.to_act() and self.s.human_to_act())

    def select(self, mid: str) -> None:
        if mid != self.selected:
            self.selected = mid
            self.mode = None
            self.pending_facing = None
            if self.on_change:
                self.on_change()

    def set_mode(self, mode: Mode | None) -> None:
        self.mode = mode
        if self.on_change:
            self.on_change()

    def say(self, at: Point, text: str, good: bool, now: float, secs: float = 3.0) -> None:
        self.note = (at, self.rename(text), good)
        self.note_until = now + secs

    # --- input ------------------------------------------------------------------------------
    def press(self, world: Point, px: tuple[int, int], now: float) -> None:
        """Left button down on the table."""
        hit = self.model_at(world)
        if self.mode is not None:
            return  # targets are picked on release (a click)
        if hit and self.own(hit):
            self.select(hit)
            m = self.game.state.models[hit]
            self.drag = Drag(hit, px, m.pos, cursor=world)

    def motion(self, world: Point, px: tuple[int, int]) -> None:
        world = (round(world[0], 2), round(world[1], 2))
        self.cursor = world
        self.hover = self.model_at(world, exclude=self.drag.actor if self.drag else "")
        d = self.drag
        if d is not None:
            d.cursor = world
            if not d.active and math.dist(px, d.start_px) >= DRAG_THRESHOLD:
                d.active = True

    def release(self, world: Point, now: float) -> None:
        """Left button up: drop a drag, pick a target, or select what was clicked."""
        world = (round(world[0], 2), round(world[1], 2))
        d = self.drag
        self.drag = None
        if d is not None and d.active:
            d.cursor = world
            self.drag = d
            action = self.drop_action()
            self.drag = None
            if action is None:
                return
            leg = self.check(action)
            if leg.ok:
                self.s.submit(action)
                self.pending_facing = None
            else:
                self.say(world, leg.reason or "not allowed", False, now)
            return
        hit = self.model_at(world)
        if self.mode is not None and self.mode.place:
            self._commit(self.place_action(world), world, now)
            return
        if self.mode is not None:
            marks = self.classify(self.mode.proto)
            if hit and hit in marks and (hit != self.selected or hit in self.mode.offered):
                self._commit(self.target_action(hit), world, now)
                return
            if not hit:
                self.set_mode(None)
                return
        if hit:
            self.select(hit)
        else:
            self.select("")

    def _commit(self, action: Action | None, at: Point, now: float) -> None:
        """Submit ``action`` if the rules allow it, else say why beside ``at``."""
        if action is None:
            return
        leg = self.check(action)
        if leg.ok:
            self.s.submit(action)
        else:
            self.say(at, leg.reason or "not allowed", False, now)

    def add_waypoint(self) -> None:
        if self.drag is not None and self.drag.active:
            self.drag.waypoints.append(self.drag.cursor)

    def rotate(self, step: float, now: float = 0.0) -> None:
        """Q/E: turn the pending facing of the dragged or selected model. Where the rules
        offer no turn on its own (UMR), a turn is part of a move: Q/E turn the ghost
        while dragging, and say so otherwise instead of offering what Enter cannot do."""
        mid = self.drag.actor if self.drag else self.selected
        if not mid or not self.own(mid):
            return
        if self.drag is None and not any(isinstance(a, Turn) for a in self.actions()):
            m = self.game.state.models[mid]
            self.say(m.pos, "no turn on its own now: press Q/E while dragging a move", False, now)
            return
        base = self.pending_facing
        if base is None:
            base = self.game.state.models[mid].facing
        self.pending_facing = (base + step) % 360

    def turn_action(self) -> Action | None:
        if self.pending_facing is None or not self.selected or self.drag is not None:
            return None
        return self.legal_variant(Turn(actor=self.selected, facing=self.pending_facing))[0]

    def commit_turn(self, now: float) -> None:
        action = self.turn_action()
        if action is None:
            return
        leg = self.check(action)
        if leg.ok:
            self.s.submit(action)
            self.pending_facing = None
        else:
            m = self.game.state.models[self.selected]
            self.say(m.pos, leg.reason or "cannot turn now", False, now)

    def cancel(self) -> None:
        if self.drag is not None:
            self.drag = None
        elif self.pending_facing is not None:
            self.pending_facing = None
        elif self.mode is not None:
            self.set_mode(None)
        else:
            self.select("")

    def reset(self) -> None:
        """After the state changed under us (undo, load, the other side acted)."""
        self.drag = None
        self.pending_facing = None
        if self.selected and (
            self.selected not in self.game.state.models
            or self.game.state.models[self.selected].removed
        ):
            self.selected = ""
        if self.mode is not None and not any(m.proto == self.mode.proto for m in self.modes()):
            self.mode = None

    def cycle(self) -> None:
        """Tab: select the next model of the side to act."""
        side = self.game.to_act()
        ids = [m.id for m in self.game.state.live(side)] if side else []
        if not ids:
            return
        i = ids.index(self.selected) + 1 if self.selected in ids else 0
        self.select(ids[i % len(ids)])

    # --- what to draw --------------------------------------------------------------------------
    def overlays(self, now: float) -> Overlays:
        g = self.game
        ov = Overlays(selected=self.selected, hover=self.hover, unit_links=self.unit_links)
        sel = g.state.models.get(self.selected)
        if sel is not None and not sel.removed:
            ov.unit_selected = tuple(m.id for m in g.state.live(sel.side) if m.unit == sel.unit)
            view = g.ruleset.model_view(sel)
            # A vehicle's turning radius: 'turn_radius' when the ruleset names it, else its
            # current 'speed' (DESIGN.md: "arcs whose radius the ruleset gives").
            tr = None
            if isinstance(view, dict):
                tr = view.get("turn_radius", view.get("speed"))
            if isinstance(tr, (int, float)) and tr > 0:
                ov.turn_arcs = measure.turn_arcs(footprint_of(g, sel.id), float(tr))
        if self.note and now < self.note_until:
            ov.note = self.note
        if sel is not None and self.mode is None and self.drag is None and self.own(sel.id):
            if any(isinstance(a, Move) for a in self.actions()):
                ov.reach = self.reach(sel.id)
        ov.move = self.preview()
        if self.pending_facing is not None and sel is not None and self.drag is None:
            ov.turn_ghost = (sel.x, sel.y, self.pending_facing, sel.base)
        hov = g.state.models.get(self.hover)
        if hov is not None and not hov.removed and (sel is None or hov.side != sel.side):
            ov.zones = self.zones(hov.id)
        if self.mode is not None and sel is not None:
            self._target_overlays(ov)
        return ov

    def _target_overlays(self, ov: Overlays) -> None:
        g = self.game
        assert self.mode is not None
        proto = self.mode.proto
        shooter = self.shooter_of(proto)
        if shooter not in g.state.models:
            return
        ov.targets, done = self.marks_soon(proto)
        ov.busy = "" if done else "measuring lines of sight\u2026"
        if not done and self.hover not in ov.targets and self.hover in self._target_ids(proto):
            ov.targets = {**ov.targets, self.hover: self._mark_target(proto, self.hover)}
        me = footprint_of(g, shooter)
        weapon = (
            g.state.models[shooter].weapon(getattr(proto, "weapon", "") or "")
            if getattr(proto, "weapon", "")
            else None
        )
        reach = float(weapon.get("range", 24)) if weapon else 24.0
        if weapon and isinstance(weapon.get("arc"), (int, float)) and weapon["arc"] < 360:
            ov.arc = measure.arc_wedge(me, float(weapon["arc"]), reach)
        tid = self.hover if self.hover in ov.targets else ""
        if not tid:
            return
        tfp = footprint_of(g, tid)
        if proto.KIND == "shoot":
            sv = self.sight.sight(me, tfp)
            ov.shadow = [list(p) for p in sv.shadow]
            band = "hard" if sv.hard else "soft" if (sv.soft or sv.fraction < 0.995) else "clear"
            for p in measure.rim_points((me.x, me.y), tfp):
                hidden = any(measure.point_in_polygon(p[0], p[1], poly) for poly in sv.shadow)
                ov.sight_lines.append(((me.x, me.y), p, "blocked" if hidden else band))
            if sv.fraction <= 0 and not sv.shadow:
                ov.sight_lines = [((me.x, me.y), (tfp.x, tfp.y), "blocked")]
        if weapon:
            blast = weapon.get("blast")
            r = float(blast) / 2 if isinstance(blast, (int, float)) else weapon.get("radius")
            if isinstance(r, (int, float)) and r > 0:
                scatter = weapon.get("scatter", 6)
                ring = float(r) + (float(scatter) if isinstance(scatter, (int, float)) else 6.0)
                ov.template = ((tfp.x, tfp.y), float(r), ring)
        action = choices.aimed(proto, tid)
        ov.odds = self.odds_card(action, (tfp.x, tfp.y))

    def zones(self, mid: str) -> dict[str, list[list[Point]]]:
        """Front, flank and rear zones of a model, as far out as a charge would come."""
        m = self.game.state.models[mid]
        extent = max(6.0, 3 * measure.radius(m.base) + 4)
        return self._memo(
            ("zones", mid), lambda: measure.zones(footprint_of(self.game, mid), extent)
        )

    def advance_action(self) -> Action | None:
        """What 'next' means now (``Ruleset.advance``), asked once per game version."""
        g = self.game
        return self._memo(("advance",), lambda: g.ruleset.advance(g.state, g.ctx))

    def odds_card(self, action: Action, anchor: Point) -> OddsCard:
        """The card beside a hovered target: the odds of a legal action, the rules'
        reason instead of odds for a refused one, never an empty box."""
        leg = self.check(action)
        if not leg.ok:
            return OddsCard(
                anchor,
                self.rename(action.describe()),
                None,
                lines=[self.rename(leg.reason or "not allowed")],
            )
        o = self.odds(action)
        if o is None:
            return OddsCard(
                anchor, self.rename(action.describe()), None, lines=["certain: no dice rolled"]
            )
        dist = sorted((int(k), float(v)) for k, v in (o.dist or {}).items())
        return OddsCard(
            anchor,
            self.rename(action.describe()),
            float(o.chance),
            dist[:12],
            None if o.expected is None else float(o.expected),
            [self.rename(line) for line in o.lines],
            refused=False,
        )


def _limit(leg: Legality) -> float | None:
    """The move allowance a ``too_far`` refusal carries (its ``limit``), if any."""
    r = leg.find(TOO_FAR)
    limit = r.data.get("limit") if r is not None else None
    return None if limit is None else float(limit)
