"""Night (IA-NIGHT): the direction dice every group throws, and disorder after five
night turns out of combat.

Why per group: the text has each group of soldiers roll the direction dice once against
its intended direction; a group is a scenario unit, and its first figure to move in a
turn throws for all of them (IA-I-NIGHT).
"""

from __future__ import annotations

import math

from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.chapters import measure
from rulesets.inter_arma.state import gs, mv

#: IA-NIGHT: (lowest total, degrees turned left; negative turns right)
BANDS = ((11, 90), (9, 45), (6, 0), (4, -45), (2, -90))
#: turns out of combat at night after which a figure is disordered
DISORDER_TURNS = 5


def veer(total: int) -> int:
    """IA-NIGHT: 12-11 90 left, 10-9 45 left, 8-6 as meant, 5-4 45 right, 3-2 90 right."""
    for low, deg in BANDS:
        if total >= low:
            return deg
    return -90


def helped(total: int) -> int:
    """A commander present shifts the total by 1 where it makes a difference (towards
    the intended route)."""
    for k in (1, -1):
        if abs(veer(total + k)) < abs(veer(total)):
            return total + k
    return total


def commander_present(state: GameState, ctx: Context, m: Model) -> bool:
    return any(
        c.stats.get("class") == "commander"
        and "wounded" not in c.status
        and (c.id == m.id or c.unit == m.unit or measure.in_sight(state, ctx, c, m))
        for c in state.live(m.side)
    )


def direction(state: GameState, ctx: Context, m: Model) -> int:
    """Degrees ``m``'s group turns from its intended direction this turn (0 by day)."""
    if measure.conditions(state) != "night":
        return 0
    dice = gs(state).setdefault("night_dice", {})
    got = dice.get(m.unit)
    if got and got[0] == state.turn:
        return int(got[1])
    r = ctx.dice.roll(6, f"{m.unit} direction dice", n=2, actor=m.id, rule="IA-NIGHT")
    total = r.total
    if commander_present(state, ctx, m):
        total = helped(total)
    deg = veer(total)
    side = "as intended" if deg == 0 else f"{abs(deg)}\u00b0 {'left' if deg > 0 else 'right'}"
    ctx.log.emit("resolution", f"{r.explain()}{' (commander: ' + str(total) + ')' if total != r.total else ''}: "
                 f"the group goes {side} (IA-NIGHT)", actor=m.id, rule="IA-NIGHT", rolls=list(r.faces),
                 outcome=str(deg))  # fmt: skip
    dice[m.unit] = [state.turn, deg]
    return deg


def turn_path(
    path: list[tuple[float, float]], deg: int, width: float, depth: float, r: float
) -> list[tuple[float, float]]:
    """The path turned ``deg`` (counter-clockwise = left) about its start, kept on the table."""
    if not deg or len(path) < 2:
        return path
    x0, y0 = path[0]
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    out = [path[0]]
    for x, y in path[1:]:
        dx, dy = x - x0, y - y0
        nx, ny = x0 + dx * c - dy * s, y0 + dx * s + dy * c
        out.append((min(max(nx, r), width - r), min(max(ny, r), depth - r)))
    return out


def disorder(state: GameState, ctx: Context) -> list[str]:
    """IA-NIGHT: at the end of a night turn, figures out of combat for five turns in a
    row become disordered; returns the sides that must take the extra morale test."""
    if measure.conditions(state) != "night" or state.turn < DISORDER_TURNS:
        return []
    sides: list[str] = []
    for m in state.live():
        if "wounded" in m.status or "disordered" in m.status:
            continue
        last = int(mv(m).get("clashed") or 0)
        if state.turn - last >= DISORDER_TURNS:
            m.set_status("disordered")
            ctx.log.emit("status", f"{m.id} has been out of combat for {DISORDER_TURNS} night turns: disordered (IA-NIGHT)",
                         actor=m.id, rule="IA-NIGHT", outcome="disordered")  # fmt: skip
            if m.side not in sides:
                sides.append(m.side)
    return sides
