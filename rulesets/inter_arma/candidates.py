"""The computer's options (candidates).

Why few options: each figure gets a walk and a run towards its nearest enemy (and a
crawl for skirmishers), its shots at the three nearest enemies, and its clashes; the
search agents then choose by the exact odds and the score.
"""

from __future__ import annotations

import math

from engine import actions as act
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.whether import whether
from rulesets.inter_arma import rules
from rulesets.inter_arma.build import ranged_weapons
from rulesets.inter_arma.chapters import measure, melee, movement
from rulesets.inter_arma.chapters import tables as T


def nearest(state: GameState, m: Model, k: int = 1) -> list[Model]:
    foes = [e for e in state.live() if e.side != m.side]
    return sorted(foes, key=lambda e: (math.dist(m.pos, e.pos), e.id))[:k]


def _towards(m: Model, e: Model, inches: float) -> tuple[float, float]:
    d = math.dist(m.pos, e.pos)
    k = min(1.0, inches / d) if d else 0.0
    return (round(m.x + (e.x - m.x) * k, 2), round(m.y + (e.y - m.y) * k, 2))


def _moves(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    out: list[act.Action] = []
    foe = nearest(state, m)
    if not foe:
        return out
    for mode in ("walk", "run", "crawl"):
        probe = act.Move(actor=m.id, to=(m.x, m.y), mode=mode)
        if movement.base_cm(m, mode) is None:
            continue
        allow, _ = movement.allowance_cm(state, ctx, m, mode, [m.pos, foe[0].pos])
        if allow <= 0:
            continue
        to = _towards(m, foe[0], max(0.0, T.inches(allow) - 0.05))
        mv = act.Move(actor=m.id, to=to, mode=mode)
        # rules.check of a move in the movement phase is movement.check: asked once
        with whether():
            legal = not rules.check(state, mv, ctx)
        if probe and legal:
            out.append(mv)
    return out


def _shots(state: GameState, ctx: Context, m: Model, k: int = 3) -> list[act.Action]:
    """Shots at the ``k`` nearest enemies the figure may shoot (a hidden crawler or an
    enemy out of sight is passed over for the next one, IA-I-SPOT)."""
    out: list[act.Action] = []
    for e in nearest(state, m, len(state.models)):
        s = act.Shoot(actor=m.id, target=e.id)
        with whether():
            legal = not rules.check(state, s, ctx)
        if legal:
            out.append(s)
            if len(out) >= k:
                break
    return out


def candidates(state: GameState, side: str, ctx: Context) -> list[act.Action]:
    if state.over or state.active != side:
        return []
    out: list[act.Action] = []
    for m in state.live(side):
        if "wounded" in m.status:
            continue
        if state.phase == "movement":
            out += _moves(state, ctx, m)
        elif state.phase == "ranged" and ranged_weapons(m):
            out += _shots(state, ctx, m)
        elif state.phase == "melee":
            for e in measure.enemies_in_contact(state, m):
                f = act.Fight(actor=m.id, target=e.id)
                if not melee.check(state, ctx, f):
                    out.append(f)
    out.append(act.EndPhase())
    return out
