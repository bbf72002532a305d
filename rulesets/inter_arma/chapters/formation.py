"""Closed formations (IA-SAVE c, IA-MOVE): the shield wall and the testudo.

Why from the table and not declared: the text names the formations by what they are,
shields locked side by side, so a figure is in one when it stands in base contact with
shielded friends (IA-I-CLOSED); the player forms one by moving figures together, the
window and the AI read it from the same positions, and nothing needs an extra verb.
"""

from __future__ import annotations

import math

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.build import foot_type, mounted
from rulesets.inter_arma.chapters import measure

#: the fewest shielded figures in a chain of base contact that make a closed formation
WALL = 3


def can_close(m: Model) -> bool:
    """Shielded infantry on foot, up and standing (skirmishers fight loose)."""
    return (
        not m.removed
        and not mounted(m)
        and foot_type(m) == "infantry"
        and bool(m.stats.get("shield"))
        and not {"wounded", "crawling"} & set(m.status)
    )


def _touching(a: Model, b: Model) -> bool:
    """Base contact, with a cheap centre-distance test first (rectangles fit in 2")."""
    return math.dist(a.pos, b.pos) <= 2.0 + measure.CONTACT and measure.in_contact(a, b)


def chain(state: GameState, ctx: Context, m: Model) -> list[Model]:
    """The shielded friends linked to ``m`` by base contact (``m`` included), outside
    heavy woods (a closed formation cannot stand there, IA-MOVE)."""
    if not can_close(m) or in_heavy_woods(ctx, m):
        return []
    pool = [f for f in state.live(m.side) if f.id != m.id and can_close(f)]
    pool = [f for f in pool if not in_heavy_woods(ctx, f)]
    out, todo = [m], [m]
    while todo:
        cur = todo.pop()
        for f in pool:
            if f not in out and _touching(cur, f):
                out.append(f)
                todo.append(f)
    return out


def closed(state: GameState, ctx: Context, m: Model) -> bool:
    """IA-SAVE c: ``m`` stands in a closed formation (IA-I-CLOSED)."""
    return len(chain(state, ctx, m)) >= WALL


def in_heavy_woods(ctx: Context, m: Model) -> bool:
    return "heavy_woods" in measure.kinds_under(ctx, m)


def save_mods(
    state: GameState, ctx: Context, t: Model, band: str = "", from_height: bool = False
) -> list[Modifier]:
    """IA-SAVE c: +1 to the save in a closed formation, except against volley fire (a
    shot at long range) or angled fire (a shot down from a height; IA-I-CLOSED)."""
    if band == "long" or from_height or not closed(state, ctx, t):
        return []
    return [Modifier(1, "closed formation", "IA-SAVE")]


def woods_ban(state: GameState, ctx: Context, m: Model, path: list[tuple[float, float]]) -> str:
    """IA-MOVE: a figure in a closed formation cannot enter heavy woods ('' when it may)."""
    if len(path) < 2 or not closed(state, ctx, m) or in_heavy_woods(ctx, m):
        return ""
    from engine.geometry import crossings

    if crossings(path, ctx.battlefield, {"heavy_woods"}):
        return f"{m.id} is in a closed formation, which cannot enter heavy woods (IA-MOVE)"
    return ""
