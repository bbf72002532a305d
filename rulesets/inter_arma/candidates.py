"""The computer's options: ``candidates``, a short list of checked options, and
``proposals``, the same menu with the moves unchecked.

Why few options: each figure gets a walk and a run towards its nearest enemy (and a
crawl for skirmishers), its shots at the three nearest enemies, and its clashes; the
search agents then choose by the exact odds and the score.

Why ``proposals`` too: checking every figure's moves (the retreat, the woods, the
formation along each path) was most of a random game's time (issue 24), and the random
agent needs one legal action, the search's rollout policy only the attacks. So the
moves go unchecked (each agent checks what it draws); the shots and clashes are
``candidates``' own, checked, in its order, so the rollout's best attack is the same.
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


def _advances(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    """A walk, a run and a crawl (those the figure has) toward its nearest enemy, each as
    far as its allowance along the straight line reaches; unchecked."""
    out: list[act.Action] = []
    foe = nearest(state, m)
    if not foe:
        return out
    line = [m.pos, foe[0].pos]
    cut: dict[bool, float] = {}  # the reductions differ only for a crawl (IA-MOVE)
    for mode in movement.MODES:
        base = movement.base_cm(m, mode)
        if base is None:
            continue
        crawl = mode == "crawl"
        if crawl not in cut:
            cut[crawl] = sum(r for r, _ in movement.reductions(state, ctx, m, mode, line))
        allow = max(0.0, base - cut[crawl])
        if allow <= 0:
            continue
        to = _towards(m, foe[0], max(0.0, T.inches(allow) - 0.05))
        out.append(act.Move(actor=m.id, to=to, mode=mode))
    return out


def _moves(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    """The advances the rules allow (a move in the movement phase is ruled by
    movement.check alone: asked once, verdict only)."""
    out: list[act.Action] = []
    for mv in _advances(state, ctx, m):
        with whether():
            legal = not rules.check(state, mv, ctx)
        if legal:
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


def _fights(state: GameState, ctx: Context, m: Model) -> list[act.Action]:
    out: list[act.Action] = []
    for e in measure.enemies_in_contact(state, m):
        f = act.Fight(actor=m.id, target=e.id)
        if not melee.check(state, ctx, f):
            out.append(f)
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
            out += _fights(state, ctx, m)
    out.append(act.EndPhase())
    return out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[act.Action], list[act.Action]] | None:
    """``candidates``' menu as (actions known legal, actions to check): the shots, clashes
    and the end of the phase checked as ``candidates`` checks them, the moves unchecked
    (an agent checks the one it draws); None when the side has nothing to do, as
    ``candidates`` offers nothing then."""
    if state.over or state.active != side:
        return None
    sure: list[act.Action] = []
    unsure: list[act.Action] = []
    for m in state.live(side):
        if "wounded" in m.status:
            continue
        if state.phase == "movement":
            unsure += _advances(state, ctx, m)
        elif state.phase == "ranged" and ranged_weapons(m):
            sure += _shots(state, ctx, m)
        elif state.phase == "melee":
            sure += _fights(state, ctx, m)
    sure.append(act.EndPhase())
    return sure, unsure
