"""The AI's menu (Ruleset.candidates): a short list of sensible legal actions for the
side to act, always with "end segment" first.

Why a few per figure: random and search agents only need a representative spread —
advance, close in, rush, charge the nearest foes, fire at the nearest targets, fight
every foe in contact, a spell or two — and every option is passed through ``check`` so
nothing illegal is ever offered.
"""

from __future__ import annotations

import heapq
import math

from engine.actions import Action, Charge, EndPhase, Fight, Move, Shoot
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.whether import whether

from .actions import Cast, ChangeFrontage, Disembark, Drive, Embark, ReplaceDriver
from .chapters import blocks, magic, measure, missile, movement, transport, vehicles
from .flow import cards_current
from .rules import check
from .state import foes_in_melee, is_block, mtype, mv, unit_models

CAP = 60
SHOT_LOOK = 6  # foes looked at, nearest first, for a figure's shots ...
SHOT_LOOK_UNIT = 2  # ... of them no more than this many of one enemy unit


def _nearest(
    state: GameState, m: Model, k: int = 2, foes: list[Model] | None = None
) -> list[Model]:
    """The ``k`` live foes nearest ``m``'s centre, ties by id (each id is unique, so the
    model itself is never compared; a partial sort: the menu asks this of every figure).
    ``foes``: the live models of the other sides, when the caller has them already."""
    p, side = m.pos, m.side
    pool = foes if foes is not None else [f for f in state.live() if f.side != side]
    ranked = heapq.nsmallest(k, ((math.dist(p, (f.x, f.y)), f.id, f) for f in pool))
    return [f for _, _, f in ranked]


def _foes(state: GameState, unit: str) -> list[Model]:
    """The live models not on ``unit``'s side (asked once per unit, not per figure)."""
    ms = unit_models(state, unit, live=False)
    side = ms[0].side if ms else ""
    return [f for f in state.live() if f.side != side]


def _toward(p: tuple[float, float], q: tuple[float, float], d: float) -> tuple[float, float]:
    L = math.dist(p, q)
    if L < 1e-9:
        return p
    d = min(d, L)
    return (round(p[0] + (q[0] - p[0]) * d / L, 2), round(p[1] + (q[1] - p[1]) * d / L, 2))


def _units_now(state: GameState, side: str, need: str) -> list[str]:
    if state.phase == "cards":
        card = cards_current(state)
        return [card[0]] if card and card[1] == need else []
    return sorted(state.units(side))


def candidates(state: GameState, side: str, ctx: Context) -> list[Action]:
    if state.pending:  # the setup's decisions (GEM-2.0.2 to GEM-2.0.4)
        from .flow import setup_step

        return list(setup_step(state.pending[0]).replies(state, state.pending[0], ctx))
    sure, unsure = _proposals(state, side, ctx)
    out: list[Action] = [EndPhase()]
    ok = {repr(a.to_dict()) for a in sure}
    seen = set()
    for a in sure + unsure:
        key = repr(a.to_dict())
        if key in seen:
            continue
        seen.add(key)
        if len(out) >= CAP:
            break
        if key in ok:
            out.append(a)
            continue
        with whether():
            legal = check(state, a, ctx).ok
        if legal:
            out.append(a)
    return out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[Action], list[Action]] | None:
    """The menu before ``check``: (actions known legal, actions to check), for an agent
    that wants one legal action at random and need not check them all
    (``RandomAgent``); None where only ``candidates`` will do (deployment)."""
    if state.pending:
        return None
    sure, unsure = _proposals(state, side, ctx)
    return sure, [EndPhase(), *unsure]


def _proposals(state: GameState, side: str, ctx: Context) -> tuple[list[Action], list[Action]]:
    """(shots, which have passed ``check`` already since each measures sight; every
    other option of the phase, unchecked)."""
    ph = state.phase
    opts: list[Action] = []
    checked: list[Action] = []
    if ph in ("magic_offence", "magic_defence"):
        opts += _magic(state, side, ph)
    if ph == "cards" and (cards_current(state) or ["", ""])[1] == "magic":
        showing = _units_now(state, side, "magic")  # the unit whose magic card is up
        for step in ("magic_offence", "magic_defence"):
            opts += [a for a in _magic(state, side, step) if state.models[a.actor].unit in showing]
    if ph == "movement" or (ph == "cards" and (cards_current(state) or ["", ""])[1] == "move"):
        for u in _units_now(state, side, "move"):
            opts += _moves(state, ctx, u)
    if ph == "missile" or (ph == "cards" and (cards_current(state) or ["", ""])[1] == "fire"):
        for u in _units_now(state, side, "fire"):
            checked += _shots(state, ctx, u)
    if ph == "melee":
        for u in sorted(state.units(side)):
            for foe in foes_in_melee(state, u):
                if is_block(state, u):
                    opts.append(Fight(actor=u, target=foe))
                else:
                    for m in unit_models(state, u):
                        opts.append(Fight(actor=m.id, target=foe))
    return checked, opts


def _magic(state: GameState, side: str, ph: str) -> list[Action]:
    kind = "offensive" if ph == "magic_offence" else "defensive"
    spells = magic.OFFENSIVE if kind == "offensive" else magic.DEFENSIVE
    out: list[Action] = []
    for w in state.live(side):
        if mtype(w) != "wizard":
            continue
        pool = int(mv(w).get("power", {}).get(kind, 0))
        if pool <= 0:
            continue
        if kind == "offensive":
            targets = sorted({f.unit for f in _nearest(state, w, 3)})
        else:
            mates = sorted(state.live(side), key=lambda f: (math.dist(w.pos, f.pos), f.id))
            targets = sorted({f.unit for f in mates[:3]})
        for i, sp in enumerate(spells):
            for t in targets[:2]:
                out.append(Cast(actor=w.id, target=t, spell=sp, power=min(pool, 2 + i)))
    return out


def _moves(state: GameState, ctx: Context, unit: str) -> list[Action]:
    ms = unit_models(state, unit)
    if not ms:
        return []
    out: list[Action] = []
    foes = _foes(state, unit)
    if is_block(state, unit):
        if movement.can_move_problems(state, unit, blocks.live_order(state, unit)[0]):
            return out  # moved, disordered or fighting: every option below is refused
        rec = blocks.record(state, unit)
        f = (rec["front"][0], rec["front"][1])
        mv = float(ms[0].stat("MOV", 4))
        ang = math.radians(rec["facing"])
        for d in (mv * 0.9, mv * 0.5):
            out.append(
                Move(
                    actor=unit,
                    to=(round(f[0] + d * math.cos(ang), 2), round(f[1] + d * math.sin(ang), 2)),
                )
            )
        for t in _nearest(state, ms[0], 2, foes):
            out.append(Charge(actor=unit, target=t.id))
            b = measure.bearing(f, t.pos)
            out.append(Move(actor=unit, to=_toward(f, t.pos, mv * 0.4), facing=round(b, 1)))
        for df in (-2, 2):
            out.append(ChangeFrontage(actor=unit, files=rec["files"] + df))
        for goal in _goals(state):
            out += _block_to_goal(state, unit, f, rec["facing"], mv, goal)
        return out
    for m in ms[:4]:
        if mtype(m) == "vehicle":
            out += _drives(state, m)
            continue
        if movement.can_move_problems(state, unit, m):
            continue  # it may not move: no move, charge or ride of its would pass
        out += _rides(state, m)
        mv = float(m.stat("MOV", 4))
        for t in _nearest(state, m, 2, foes):
            gap = max(0.0, measure.distance(m, t) - 1.0)
            out.append(Move(actor=m.id, to=_toward(m.pos, t.pos, min(mv * 0.9, gap))))
            out.append(Charge(actor=m.id, target=t.id))
        near = _nearest(state, m, 1, foes)
        if near:
            away = measure.bearing(near[0].pos, m.pos)
            out.append(
                Move(
                    actor=m.id,
                    to=(
                        round(m.x + mv * 0.5 * math.cos(math.radians(away)), 2),
                        round(m.y + mv * 0.5 * math.sin(math.radians(away)), 2),
                    ),
                )
            )
            out.append(Move(actor=m.id, to=_toward(m.pos, near[0].pos, mv * 1.6), mode="rush"))
        for goal in _goals(state):
            out.append(Move(actor=m.id, to=_toward(m.pos, goal, mv * 0.9)))
            out.append(Move(actor=m.id, to=_toward(m.pos, goal, mv * 1.6), mode="rush"))
    return out


#: the widest turn a block's advance on an objective makes in one move: the rest of the
#: turn is left for later moves, so the block still gains ground
GOAL_TURN = 40.0


def _block_to_goal(
    state: GameState,
    unit: str,
    f: tuple[float, float],
    facing: float,
    mv: float,
    goal: tuple[float, float],
) -> list[Action]:
    """A block's advances on an objective (GEM-3.7): facing it, or turned at most
    ``GOAL_TURN`` degrees toward it, and as far as the move left after the wheel allows
    (GEM-I-WHEEL: half the frontage times the angle). Why: the advances at 0.9 and 0.4 of
    MOV facing the objective cost the full wheel on top, so a block more than about 60
    degrees off the objective had no legal move toward it, and the Roman legion stood
    beside the hill while a Greek horseman took it."""
    out: list[Action] = []
    b = measure.bearing(f, goal)
    off = (b - facing + 180.0) % 360.0 - 180.0
    faces = [b] if abs(off) <= GOAL_TURN else [facing + math.copysign(GOAL_TURN, off)]
    for fc in faces:
        left = mv - movement.wheel_cost(state, unit, facing, fc) - 0.05
        if left < 0.5:
            continue
        ang = math.radians(fc)
        gap = math.dist(f, goal)
        for d in (min(left, gap), min(left, gap) * 0.45):
            to = (round(f[0] + d * math.cos(ang), 2), round(f[1] + d * math.sin(ang), 2))
            out.append(Move(actor=unit, to=to, facing=round(fc % 360.0, 1)))
    return out


def _goals(state: GameState) -> list[tuple[float, float]]:
    """The centres of the scenario's objectives (GEM-3.7): one side wins by holding one
    at the end of a turn, so both sides need a way to walk onto it."""
    from .score import objectives

    return [(float(o["x"]), float(o["y"])) for o in objectives(state)]


def _shots(state: GameState, ctx: Context, unit: str) -> list[Action]:
    """Fire at the nearest targets that can be fired at. Why not simply the nearest: on a
    table with a hill or a wood in the middle the two nearest foes are often hidden or
    outside the arc while a farther one stands in the open, and a menu of refused shots
    left archers standing in bow range never loosing an arrow."""
    out: list[Action] = []
    ms = unit_models(state, unit)
    if not ms:
        return out
    if is_block(state, unit):
        front = blocks.front_rank(state, unit)
        w = missile.default_weapon(front[0]) if front else None
        if w is not None:
            out += _open_shots(state, ctx, unit, front[0], w, 3)
        return out
    for m in ms:
        for w in m.weapons:
            if missile.is_ranged(w):
                out += _open_shots(state, ctx, m.id, m, w, 2)
    return out


def _open_shots(
    state: GameState, ctx: Context, actor: str, m: Model, w: dict, k: int
) -> list[Action]:
    """Up to ``k`` legal shots of ``w`` by ``actor`` at the foes nearest ``m``, looking
    at no more than ``SHOT_LOOK`` foes (each look measures sight) and no more than
    ``SHOT_LOOK_UNIT`` of any one enemy unit. Why per unit: a block's sixteen figures
    were the six nearest foes of a slinger whose line to all of them a friend crossed,
    and it never loosed at the archers standing clear beyond them."""
    out: list[Action] = []
    looks: dict[str, int] = {}
    n = 0
    for t in _nearest(state, m, len(state.models)):
        if looks.get(t.unit, 0) >= SHOT_LOOK_UNIT:
            continue
        looks[t.unit] = looks.get(t.unit, 0) + 1
        a = Shoot(actor=actor, target=t.id, weapon=str(w.get("name", "")))
        with whether():
            ok = check(state, a, ctx).ok
        if ok:
            out.append(a)
            if len(out) >= k:
                break
        n += 1
        if n >= SHOT_LOOK:
            break
    return out


def _drives(state: GameState, v: Model) -> list[Action]:
    """A vehicle: three speeds straight or wheeling, a pivot, troops out, a new driver."""
    out: list[Action] = []
    lo, hi = vehicles.speed_range(v)
    for sp in sorted({round(lo, 1), round((lo + hi) / 2, 1), round(hi, 1)}):
        out.append(Drive(actor=v.id, speed=sp))
        out.append(Drive(actor=v.id, speed=sp, wheels=((0.0, 30.0),)))
        out.append(Drive(actor=v.id, speed=sp, wheels=((0.0, -30.0),)))
    inside = transport.aboard(state, v)
    for f in inside[:2]:
        out.append(Disembark(actor=f.id))
    if inside:
        out.append(Disembark(actor=inside[0].unit))
    if mv(v).get("driver_out") is not None:
        mates = inside + sorted(
            (f for f in state.live(v.side) if mtype(f) != "vehicle"),
            key=lambda f: (math.dist(f.pos, v.pos), f.id),
        )
        out += [ReplaceDriver(actor=f.id, target=v.id) for f in mates[:2]]
    return out


def _rides(state: GameState, m: Model) -> list[Action]:
    """A figure: get into the nearest friendly vehicle with room, when one is near."""
    near = [
        v
        for v in state.live(m.side)
        if mtype(v) == "vehicle"
        and transport.room(state, v) > 0
        and measure.distance(m, v) <= float(m.stat("MOV", 4))
    ]
    near.sort(key=lambda v: (measure.distance(m, v), v.id))
    return [Embark(actor=m.id, target=v.id) for v in near[:1]]
