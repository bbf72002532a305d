"""The text of the battle screen's widgets: the model card, the computer's strip, the
casualties, the game-over summary and the terrain legend.

Why apart from the screen: these are pure functions of the game (HTML-ish markup for
pygame_gui text boxes), testable without a window and shared by the screenshots script.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from engine.actions import Action
from engine.agents.greedy import Option
from engine.game import Game
from engine.state import Model
from engine.ui.choices import akey
from engine.ui.draw import Renderer, terrain_glyphs
from engine.ui.markup import esc
from engine.ui.names import Names
from engine.ui.style import hexc, side_colours

# --- text for the widgets --------------------------------------------------------------------------

WAITING_HTML = (
    "<font color='#9aa3b2'>After each computer move, its best options appear here "
    "with their values and the odds behind them.</font>"
)

#: how each agent decides, in a phrase, for the strip's headline
_METHOD = {
    "random": "picks at random among the legal actions",
    "greedy": "one action ahead, position score over sampled dice",
    "search": "greedy's best few, each played on past the enemy's answer",
    "passive": "never acts: ends every activation or phase",
    "rush": "attacks with the best odds, else closes on the nearest enemy",
}


def decision_html(
    g: Game,
    side: str,
    level: str,
    agent: object,
    action: Action,
    options: Sequence[Option],
    names: Names | None = None,
) -> str:
    """The strip's text after a computer move: who chose what, how it decides, and the
    options it weighed best first, each with its value, its chance and how many samples
    (dice draws or playouts) the value rests on. Why show the runners-up: a move only
    makes sense next to what the computer turned down."""
    hx = hexc(side_colours(g.state.sides).get(side, (230, 230, 230)))
    named = (names or Names(g.state.models.values())).text
    name = str(getattr(agent, "name", "computer"))
    how = _METHOD.get(name, name)
    rollouts = int(getattr(agent, "iterations", 0) or 0)
    if name == "search" and rollouts:
        how = f"{rollouts} rollouts past the enemy's answer in {getattr(agent, 'budget', 0):g} s"
    who = f"computer, {level}" if level and level != "human" else name
    head = (
        f"<font color='{hx}'><b>{esc(side.upper())}</b></font> chose "
        f"<b>{esc(named(action.describe()))}</b> "
        f"<font color='#9aa3b2'>({esc(who)}: {esc(how)})</font>"
    )
    chosen = akey(action)
    if not options:
        o = g.odds(action)
        if o is not None:
            head += f" \u2014 chance <b>{float(o.chance):.0%}</b>"
        return head
    lines = [head]
    unit = "playouts" if name == "search" else "samples"
    for k, opt in enumerate(options[:4]):
        picked = akey(opt.action) == chosen
        chance = f"chance <b>{opt.chance:.0%}</b>" if opt.chance is not None else "no odds"
        n = opt.samples or 1
        basis = "exact" if n == 1 and unit == "samples" else f"{n} {unit[:-1] if n == 1 else unit}"
        mark = "\u00bb" if picked else "\u2003"
        colour = "#8fe09a" if picked else "#c8ccd4"
        lines.append(
            f"<font color='{colour}'>{mark} {k + 1}. {esc(named(opt.action.describe()))} "
            f"\u2014 value <b>{opt.value:+.2f}</b> \u00b7 {chance} \u00b7 "
            f"<font color='#8f98a8'>{esc(basis)}</font></font>"
        )
    why = next((o.note for o in options if akey(o.action) == chosen and o.note), "")
    if why:  # why the choice beat the best attack on offer (issue 20)
        lines.append(f"<font color='#c8ccd4'>\u2003why: {esc(why)}</font>")
    return "<br>".join(lines)


#: how a weapon's keys read on the card ('range 24"', 'arc 90°'); others read "key value"
_WEAPON_UNITS = {"range": '"', "arc": "\u00b0", "blast": '"', "radius": '"', "scatter": '"'}


def weapon_text(w: dict[str, Any]) -> str:
    """A weapon's line as a player reads it: 'range 24", arc 90°, 2 shots, heavy' — a
    flag is named when set and left out when not (never "heavy False")."""
    bits = []
    for k, val in w.items():
        if k == "name" or val is None or val == "":
            continue
        word = k.replace("_", " ")
        if isinstance(val, bool):
            if val:
                bits.append(word)
            continue
        if isinstance(val, (int, float)):
            bits.append(f"{word} {val:g}{_WEAPON_UNITS.get(k, '')}")
            continue
        bits.append(f"{word} {val}")
    return ", ".join(bits)


def card_html(g: Game, m: Model, names: Names | None = None) -> str:
    """The selected model's card: name, side, unit, hit points, status and weapons (the
    stats are chips under it, each with its tooltip: ``Hud.set_stats``)."""
    nm = names or Names(g.state.models.values())
    colour = hexc(side_colours(g.state.sides)[m.side])
    v = g.ruleset.model_view(m)
    hp = v.get("hp", m.hp) if isinstance(v, dict) else m.hp
    status = v.get("status", m.status) if isinstance(v, dict) else m.status
    lines = [
        f"<font color='{colour}'><b>{esc(nm.of(m.id))}</b></font>"
        + f" <font color='#9aa3b2'>\u2014 {esc(m.side)}"
        + (f", unit {esc(m.unit.replace('_', ' '))}" if m.unit != m.id else "")
        + f" \u00b7 id {esc(m.id)}</font>"
    ]
    life = f"hp <b>{hp}</b>/{m.max_hp}"
    if status:
        life += " \u00b7 <font color='#f0cf7a'>" + esc(", ".join(map(str, status))) + "</font>"
    if m.removed:
        life += " \u00b7 <font color='#f08a80'>removed</font>"
    if isinstance(v, dict):
        for k, val in v.items():
            if k not in ("hp", "status"):
                life += f" \u00b7 {esc(k)} {esc(val)}"
    lines.append(life)
    for w in m.weapons[:5]:
        keys = weapon_text(w)
        lines.append(
            f"<font color='#8fc8e0'>{esc(w.get('name', '?'))}</font>"
            f" <font color='#9aa3b2'>{esc(keys)}</font>"
        )
    return "<br>".join(lines)


def casualties_html(g: Game, names: Names | None = None) -> str:
    """Models that have left the table, by side."""
    nm = names or Names(g.state.models.values())
    colours = side_colours(g.state.sides)
    lines = ["<font color='#8f98a8'><b>CASUALTIES</b></font>"]
    for s in g.state.sides:
        gone = [m for _, m in sorted(g.state.models.items()) if m.side == s and m.removed]
        total = sum(1 for m in g.state.models.values() if m.side == s)
        hx = hexc(colours[s])
        who = ", ".join(esc(nm.of(m.id)) for m in gone) or "\u2014"
        lines.append(f"<font color='{hx}'><b>{esc(s)}</b></font> {len(gone)}/{total}: {who}")
    return "<br>".join(lines)


def summary_html(g: Game) -> str:
    """The game-over summary: outcome, casualties per side, turns played."""
    nm = Names(g.state.models.values())
    out = g.outcome()
    colours = side_colours(g.state.sides)
    if out is None:
        head = "The game is over."
    elif out.winner:
        hx = hexc(colours.get(out.winner, (230, 230, 230)))
        head = f"<font size=5 color='{hx}'><b>{esc(out.winner.upper())} wins</b></font>"
    else:
        head = "<font size=5><b>A draw</b></font>"
    reason = f"<br>{esc(out.reason)}" if out and out.reason else ""
    lines = [
        head + reason,
        "",
        f"Turns played: <b>{g.state.turn}</b> \u00b7 actions: {len(g.history)}",
        "",
        "<b>Casualties</b>",
    ]
    for s in g.state.sides:
        gone = [nm.of(m.id) for _, m in sorted(g.state.models.items()) if m.side == s and m.removed]
        total = sum(1 for m in g.state.models.values() if m.side == s)
        hx = hexc(colours[s])
        lines.append(
            f"<font color='{hx}'><b>{esc(s)}</b></font>: lost {len(gone)} of "
            f"{total}" + (f" ({esc(', '.join(gone))})" if gone else "")
        )
    return "<br>".join(lines)


def legend_surface(renderer: Renderer, kinds: list[str] | None = None) -> pygame.Surface:
    """A terrain legend drawn with the table's own renderer: one swatch per kind."""
    from engine.battlefield import TERRAIN_KINDS, TerrainFeature

    kinds = list(TERRAIN_KINDS) if kinds is None else kinds
    cols = 4
    sw, sh = 140, 42
    rows = (len(kinds) + cols - 1) // cols
    surf = pygame.Surface((cols * sw, rows * sh))
    surf.fill((27, 31, 39))
    text = renderer.text
    scale = 9.0
    for k, kind in enumerate(kinds):
        r, c = divmod(k, cols)
        x, y = c * sw + 4, r * sh + 4
        sq = pygame.Rect(x, y, 44, 32)
        line = kind in ("hedge", "fence", "low_wall", "wall", "river", "stream", "road")
        poly = (
            ((0.3, 1.4), (4.6, 1.4), (4.6, 2.2), (0.3, 2.2))
            if line
            else ((0.2, 0.2), (4.7, 0.2), (4.7, 3.4), (0.2, 3.4))
        )
        feat = TerrainFeature(f"legend{k}", kind, poly, 1.0 if kind == "hill" else 0.0)
        patch = pygame.Surface(sq.size)
        patch.fill((92, 116, 70))
        for g in terrain_glyphs(feat):
            if g.kind == "text":
                continue
            renderer.tiles._glyph(patch, g, scale, 0, 0, 3.6)
        surf.blit(patch, sq)
        t = text.get(kind.replace("_", " "), 18, (230, 232, 236))
        surf.blit(t, (x + 50, y + 10))
    return surf
