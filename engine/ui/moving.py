"""A dragged move planned, previewed and committed as one and the same action.

Why one plan for the preview and the drop: the player must see exactly what releasing
the mouse will do (issue 23 item 2). ``plan`` builds the action once — the dragged path
trimmed to the legal end when it runs past the allowance, or a charge into contact when
it ends on an enemy — and both the preview and the drop use it. The preview is the rules'
own ``check`` of that action; where a move rolls no dice it is also played on a throwaway
clone, so a move the rules stop short (a wall in the way) shows where it really ends.

The reach area is the same check asked along rays from the model: how far a straight
move may go in each direction with the terrain's costs, up to the allowance.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from engine.actions import Action, Charge, Move
from engine.battlefield import Footprint
from engine.ruleset import TOO_FAR, Legality, Odds
from engine.ui import measure
from engine.ui.choices import akey
from engine.ui.overlays import MovePreview, length_text

if TYPE_CHECKING:  # pragma: no cover
    from engine.game import Game
    from engine.ui.controls import Drag

Point = tuple[float, float]
#: directions the reach area is measured in
REACH_RAYS = 48
#: halvings of each ray (the edge is found to allowance / 2^7, under 0.1" for 12")
REACH_STEPS = 7
#: how far (inches) the real end may lie from the dragged end before it is shown
STOP_TOLERANCE = 0.1
T = TypeVar("T")


def trim(path: list[Point], limit: float) -> list[Point]:
    """The polyline cut at ``limit`` inches from its start."""
    out = [path[0]]
    left = limit
    for a, b in zip(path, path[1:]):
        d = math.dist(a, b)
        if d <= left:
            out.append(b)
            left -= d
            continue
        t = left / d if d > 0 else 0.0
        out.append((round(a[0] + (b[0] - a[0]) * t, 2), round(a[1] + (b[1] - a[1]) * t, 2)))
        break
    return out


@dataclass
class Plan:
    """The move a drag would commit now."""

    action: Action
    path: list[Point]
    end: Point
    face: float
    target: str = ""
    trimmed: bool = False


class Controls(Protocol):
    """What ``Moving`` reads of the ``Controller`` it is a part of."""

    move_mode: str
    drag: Drag | None
    pending_facing: float | None

    @property
    def game(self) -> Game: ...

    def check(self, action: Action) -> Legality: ...

    def odds(self, action: Action) -> Odds | None: ...

    def allowance(self, actor: str) -> float | None: ...

    def model_at(self, p: Point, exclude: str = "") -> str: ...

    def _memo(self, key: Hashable, fn: Callable[[], T]) -> T: ...


class Moving(Controls):
    """Mixin of ``Controller``: planning, previewing and measuring moves."""

    def move_action(self, actor: str, path: list[Point], facing: float | None) -> Move:
        return Move(actor=actor, path=tuple(path), facing=facing, mode=self.move_mode)

    def legal_variant(self, action: Action) -> tuple[Action, Legality]:
        """Try the action for the model, then for its unit (rulesets that move whole units)."""
        leg = self.check(action)
        if leg.ok:
            return action, leg
        m = self.game.state.models.get(action.actor)
        if m is not None and m.unit != m.id:
            alt = dataclasses.replace(action, actor=m.unit)
            leg2 = self.check(alt)
            if leg2.ok:
                return alt, leg2
        return action, leg

    def contact_point(self, actor: str, target: str) -> Point:
        """Where the charger's base first touches the target along the straight line."""
        g = self.game
        a, b = g.state.models[actor], g.state.models[target]
        fa, fb = Footprint(a.x, a.y, a.facing, a.base), Footprint(b.x, b.y, b.facing, b.base)
        d = math.dist(a.pos, b.pos)
        if d < 1e-9:
            return a.pos
        ux, uy = (b.x - a.x) / d, (b.y - a.y) / d
        lo, hi = 0.0, d
        for _ in range(30):
            mid = (lo + hi) / 2
            fp = Footprint(fa.x + ux * mid, fa.y + uy * mid, fa.facing, fa.base)
            if measure.distance(fp, fb) > 0.005:
                lo = mid
            else:
                hi = mid
        return (round(a.x + ux * lo, 2), round(a.y + uy * lo, 2))

    def plan(self) -> Plan | None:
        """The action the current drag commits on release, as the preview shows it."""
        d = self.drag
        if d is None or not d.active:
            return None
        g = self.game
        m = g.state.models[d.actor]
        over = self.model_at(d.cursor, exclude=d.actor)
        if over and g.state.models[over].side != m.side:
            end = self.contact_point(d.actor, over)
            path = [d.origin, *d.waypoints, end]
            charge = Charge(actor=d.actor, target=over, path=tuple(path) if d.waypoints else ())
            o = g.state.models[over]
            face = math.degrees(math.atan2(o.y - end[1], o.x - end[0]))
            return Plan(self.legal_variant(charge)[0], path, end, face, over)
        path = [d.origin, *d.waypoints, d.cursor]
        face = self.pending_facing if self.pending_facing is not None else m.facing
        action, leg = self.legal_variant(self.move_action(d.actor, path, self.pending_facing))
        if leg.ok or leg.find(TOO_FAR) is None:
            return Plan(action, path, path[-1], face)
        return self._trimmed(d.actor, path, face) or Plan(action, path, path[-1], face)

    def _trimmed(self, actor: str, path: list[Point], face: float) -> Plan | None:
        """A path past the allowance cut back to its furthest legal end (the allowance
        first, then by halving, since some rules charge more than the length: a wheel)."""
        allow = self.allowance(actor)
        length = measure.path_length(path)
        hi = min(length, allow) if allow is not None else length
        best: Plan | None = None
        lo_len, hi_len = 0.0, hi
        for k in range(REACH_STEPS + 1):
            cut = hi_len if k == 0 else (lo_len + hi_len) / 2
            p = trim(path, cut)
            action, leg = self.legal_variant(self.move_action(actor, p, self.pending_facing))
            if leg.ok:
                best = Plan(action, p, p[-1], face, trimmed=True)
                if k == 0:
                    break
                lo_len = cut
            else:
                hi_len = cut
        return best

    def drop_action(self) -> Action | None:
        """The action the current drag commits on release (None if there is none)."""
        p = self.plan()
        return p.action if p is not None else None

    def preview(self) -> MovePreview | None:
        p, d = self.plan(), self.drag
        if p is None or d is None:
            return None
        g = self.game
        m = g.state.models[p.action.actor] if p.action.actor in g.state.models else None
        base = m.base if m is not None else g.state.models[d.actor].base
        leg = self.check(p.action)
        length = measure.path_length(p.path)
        allow = None if p.target else self.allowance(d.actor)
        if allow is None:
            r = leg.find(TOO_FAR)
            allow = float(r.data["limit"]) if r is not None and "limit" in r.data else None
        odds = self.odds(p.action) if leg.ok else None
        lines = list(odds.lines) if odds is not None else []
        end = p.end
        if p.trimmed:
            rs = g.ruleset
            lines.insert(
                0,
                f"trimmed to the legal end ({length_text(length, rs.unit_name, rs.unit_per_inch)})",
            )
        if leg.ok and odds is None:
            real, said = self.outcome(p.action, d.actor)
            if real is not None and math.dist(real, p.end) > STOP_TOLERANCE:
                end = real
                lines.insert(0, said or f"stops at ({real[0]:.1f}, {real[1]:.1f})")
        return MovePreview(
            actor=d.actor,
            path=p.path,
            length=length,
            legal=leg.ok,
            reason=leg.reason,
            remaining=None if allow is None else allow - length,
            allowance=allow,
            ghost=(end[0], end[1], p.face, base),
            charge_target=p.target,
            chance=None if odds is None else float(odds.chance),
            lines=lines,
        )

    def outcome(self, action: Action, mid: str) -> tuple[Point | None, str]:
        """Where ``mid`` really ends if ``action`` is applied now (on a clone; only asked
        for actions that roll no dice), and the first thing the rules said about it."""

        def get() -> tuple[Point | None, str]:
            clone = self.game.clone(dice_seed=0)
            events = clone.apply(action)
            m = clone.state.models.get(mid)
            said = next((e.text for e in events if "stop" in e.text.lower()), "")
            return (m.pos if m is not None else None), said

        return self._memo(("outcome", akey(action), mid), get)

    def reach(self, actor: str) -> list[Point]:
        """The outline of where a straight move of ``actor`` may end (the rules' check
        along ``REACH_RAYS`` rays, terrain costs included), or [] without an allowance."""

        def get() -> list[Point]:
            allow = self.allowance(actor)
            m = self.game.state.models.get(actor)
            if allow is None or m is None or allow <= 0:
                return []
            pts = []
            for k in range(REACH_RAYS):
                a = 2 * math.pi * k / REACH_RAYS
                ux, uy = math.cos(a), math.sin(a)
                lo, hi = 0.0, float(allow)
                for _ in range(REACH_STEPS):
                    mid = (lo + hi) / 2
                    end = (m.x + ux * mid, m.y + uy * mid)
                    if self.legal_variant(self.move_action(actor, [m.pos, end], None))[1].ok:
                        lo = mid
                    else:
                        hi = mid
                pts.append((m.x + ux * lo, m.y + uy * lo))
            return pts

        return self._memo(("reach", actor, self.move_mode), get)
