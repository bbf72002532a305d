"""Exact odds (Ruleset.odds) for the window's preview and the AI: Table 1 with every
modifier in force, as Fractions, for shots, fights and spells.

Why the same objects as the rules: the preview builds the very Attack that ``apply``
would roll, so the chance shown is the chance rolled.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Action, Fight, Shoot
from engine.dice import expected
from engine.ruleset import Context, Odds
from engine.state import GameState

from .actions import field_of
from .chapters import blocks, magic, melee, missile
from .chapters.tables import table1
from .state import foes_in_melee, is_block, unit_models, unit_of


def odds(state: GameState, a: Action, ctx: Context) -> Odds | None:
    unit = unit_of(state, a.actor)
    if unit is None or not unit_models(state, unit):
        return None
    m = state.models[a.actor] if a.actor in state.models else unit_models(state, unit)[0]
    if isinstance(a, Shoot):
        from .rules import _target_model

        t = _target_model(state, a.target, m)
        if t is None:
            return None
        if a.actor not in state.models and is_block(state, unit):
            shooters = missile.volley_shooters(state, ctx, unit, t, a.weapon)
        else:
            shooters = [m]
        if not shooters:
            return None
        total: dict[int, Fraction] = {0: Fraction(1)}
        lines: list[str] = []
        for s in shooters:
            w = s.weapon(a.weapon) if a.weapon else missile.default_weapon(s)
            if w is None:
                return None
            _p, dist, ls = missile.shot_odds(state, ctx, s, t, w)
            total = _conv(total, dist)
            lines = ls
        p_any = 1 - total.get(0, Fraction(0))
        return Odds(p_any, total, lines, expected(total))
    if isinstance(a, Fight):
        from .rules import _target_model

        foes = foes_in_melee(state, unit)
        if not foes:
            return None
        t = _target_model(state, a.target or foes[0], m)
        if t is None:
            return None
        actor = blocks.front_rank(state, unit)[0].id if is_block(state, unit) else m.id
        p, dist, lines = melee.fight_odds(state, ctx, unit, actor, t)
        return Odds(p, dist, lines, expected(dist))
    if a.KIND == "cast":
        power = int(field_of(a, "power", 0) or 0)
        tgt = unit_of(state, str(field_of(a, "target", "")))
        if not power or tgt is None or not unit_models(state, tgt):
            return None
        cell = table1(power, magic.mag(state, tgt))
        p = cell.chance(0)
        return Odds(
            p,
            {1: p, 0: 1 - p},
            [
                f"power {power} vs MAG {magic.mag(state, tgt)} needs "
                f"{cell.text()} (GEM-3.5.3); an opposing defensive "
                f"spell must be beaten first"
            ],
        )
    return None


def _conv(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + px * py
    return out
