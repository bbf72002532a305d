"""The finite list of actions offered to an AI (and the window's buttons).

Why a short list: a random or searching agent needs a handful of sensible actions per
decision (advance, fire at each legal target, charge the nearest, move into cover,
hold on overwatch, wait), each of which passes ``check``; dragging out any other path
is the window's job.

The list is also where the table's knowledge reaches the AI (the position score sees
models, not terrain): shots are offered only at targets within range (the rulebook
measures range after declaring, so a longer shot is legal but wasted), each model of a
squad may fire on its own at what it can reach, an advance turns the squad so its
narrowest-arced weapon faces an enemy it can sight, and the moves into cover put the
most of a unit behind terrain from its nearest enemy (cover_moves.py).
"""

from __future__ import annotations

import math

from engine.actions import Action, Choose, EndActivation, Fight, Move, Shoot, Turn
from engine.ruleset import Context
from engine.state import GameState, Model

from . import rules
from .actions import ClearJam, Man, Overwatch, Rally, Ram, Retreat, SwompCharge, Wait
from .chapters import (
    core,
    cover_moves,
    deploy,
    hatch,
    morale,
    movement,
    reactions,
    shooting,
    table,
    vehicle_cc,
    vehicles,
)
from .chapters import fire_verbs as fv
from .flow import TURNS
from .state import mv

LIMIT = 60
NARROW = 45.0  # a fire arc this narrow or narrower steers an advance's facing (aim)


def candidates(state: GameState, side: str, ctx: Context) -> list[Action]:
    if deploy.active(state):
        return list(deploy.candidates(state, ctx))
    out = menu(state, side, ctx)
    legal = []
    seen = set()
    for a in out:
        key = repr(a)
        if key in seen:
            continue
        seen.add(key)
        if rules.check(state, a, ctx).ok:
            legal.append(a)
        if len(legal) >= LIMIT:
            break
    return legal


def menu(state: GameState, side: str, ctx: Context, lazy: bool = False) -> list[Action]:
    """The options of the decision before ``check`` (outside deployment): the answers to
    a decision owed, else "end activation" and each ready unit's options. ``lazy``: the
    unsighted menu of ``proposals``."""
    out: list[Action] = []
    p = reactions.owed(state)
    if p is not None:
        out += reaction_options(state, ctx, p, lazy)
    else:
        out.append(EndActivation())
        cur = TURNS.current(state)
        units = [cur] if cur else TURNS.ready_units(state, side)
        for u in units[:6]:
            out += unit_options(state, ctx, u, lazy)
    return out


def proposals(
    state: GameState, side: str, ctx: Context
) -> tuple[list[Action], list[Action]] | None:
    """The menu before ``check``, as (actions known legal, actions to check), for an agent
    that needs one legal action and not the whole checked list (the random agent, the
    search's rollout policy); None in deployment, where only ``candidates`` will do.

    Why it measures no sight (issue 24): sight is the dearest question on the table, and
    an agent drawing one action needs it only for the shot it draws, which ``check``
    answers. So the shots on offer are those at the nearest enemies within the weapon's
    range and arc (``quick_shots``: some will be refused, for sight or the targeting
    rule, and the agent draws again), an advance faces the nearest enemy within its
    narrow weapon's range, sighted or not, and the angled detours, which ask ``check``
    whether the straight advance is refused, are left to ``candidates``."""
    if deploy.active(state):
        return None
    return [], menu(state, side, ctx, lazy=True)


def reaction_options(state: GameState, ctx: Context, p: dict, lazy: bool = False) -> list[Action]:
    """Answers to the decision owed: decline it, or take it (fire from overwatch, fall
    back from the attack, jump out of the hatch)."""
    k, about = reactions.kind(p), reactions.data(p)
    out: list[Action] = [Choose(option=reactions.DECLINE[k])]
    if k == "overwatch":
        for wid in about["watchers"]:
            w = state.models[wid]
            for wpn in working(w)[:2]:
                if lazy:
                    ids = [t.id for t in in_reach(state, w, wpn, QUICK_TARGETS)]
                else:
                    ids = [s.id for s in reachable(state, ctx, w, wpn, 2)]
                out += [Shoot(actor=wid, target=t, weapon=wpn["name"]) for t in ids]
    elif k == "retreat":
        d = state.models[about["defender"]]
        out.append(fall_back(ctx, d, core.foes(state, d)))
    elif k == "jump":
        out.append(Choose(option="jump_out"))
    return out


def fall_back(ctx: Context, m: Model, foes: list[Model]) -> Action:
    """A retreat straight away from the first opponent, half MR."""
    foe = foes[0] if foes else m
    return Retreat(
        actor=m.id, to=clamp(ctx, toward(m.pos, (2 * m.x - foe.x, 2 * m.y - foe.y), core.mr(m) / 2))
    )


def toward(a: tuple[float, float], b: tuple[float, float], d: float) -> tuple[float, float]:
    dist = math.dist(a, b)
    if dist < 1e-9:
        return a
    k = min(1.0, d / dist)
    return (round(a[0] + (b[0] - a[0]) * k, 2), round(a[1] + (b[1] - a[1]) * k, 2))


def clamp(ctx: Context, p: tuple[float, float]) -> tuple[float, float]:
    bf = ctx.battlefield
    return (
        round(min(max(p[0], 0.6), bf.width - 0.6), 2),
        round(min(max(p[1], 0.6), bf.depth - 0.6), 2),
    )


def unit_options(state: GameState, ctx: Context, unit: str, lazy: bool = False) -> list[Action]:
    ms = core.unit_models(state, unit)
    if not ms:
        return []
    lead = ms[0]
    actor = unit if len(ms) > 1 else lead.id
    enemies = sorted(
        (e for e in state.live() if e.side != lead.side),
        key=lambda e: (table.distance(lead, e), e.id),
    )
    out: list[Action] = [Wait(actor=unit)]
    if morale.broken(state, unit):
        out.append(Rally(actor=unit))
    if any(core.engaged(m) for m in ms):
        out.append(Fight(actor=actor))
        for m in ms:
            if core.engaged(m):
                out.append(fall_back(ctx, m, core.foes(state, m)))
                break
    for m in ms:
        for name in mv(m).get("jammed", [])[:1]:
            out.append(ClearJam(actor=m.id, weapon=name))
    out += man_options(state, ms)
    if core.is_vehicle(lead):
        out += vehicle_options(state, ctx, lead, enemies, lazy)
        return out
    if not enemies:
        return out
    if lazy and all(mv(m).get("overwatch") for m in ms):
        return out  # its arc is set: it may not shoot, charge, turn, move or watch anew
    out += quick_shots(state, ms, actor) if lazy else shot_options(state, ctx, ms, actor)
    near = enemies[0]
    out += attack_options(state, lead, actor, near)
    if len(ms) == 1:
        turn_to = round(table.bearing(lead.pos, near.pos), 1)
        if abs(turn_to - lead.facing) > 1:
            out.append(Turn(actor=actor, facing=turn_to))
    if not lazy or not all(settled(m) for m in ms):
        out += move_options(state, ctx, ms, actor, near, lazy)
    if not lazy or (
        not morale.broken(state, unit) and any(fv.overwatch_problem(m) == "" for m in ms)
    ):
        out.append(Overwatch(actor=actor))
    return out


def settled(m: Model) -> bool:
    """Is the model refused any move by the state alone (on overwatch, in combat, or
    already moved, stood or fought this action)? The lazy menu offers such a unit no
    move: every one would be drawn only to be refused."""
    a = core.act(m)
    if core.engaged(m) or mv(m).get("overwatch"):
        return True
    return a["follow"] <= 0 and bool(a["moves"] or a["stood"] or a["fought"])


def move_options(
    state: GameState, ctx: Context, ms: list[Model], actor: str, near: Model, lazy: bool
) -> list[Action]:
    """The unit's moves: advances on the nearest enemy (each as far as the unit may move
    and still shoot, and all the way), detours round what blocks the straight one (not
    ``lazy``), moves into cover and a move straight back."""
    lead = ms[0]
    out: list[Action] = []
    lim, _ = movement.allowance(lead)
    steady = min(movement.shoot_limit(m) for m in ms)
    face = aim(state, ctx, ms, lazy)
    advances: list[Action] = []
    for d in sorted({lim, min(lim, movement.shoot_limit(lead)), min(lim, steady)}, reverse=True):
        dest = clamp(
            ctx, toward(lead.pos, near.pos, max(0.0, min(d, table.distance(lead, near) - 1.0)))
        )
        if math.dist(dest, lead.pos) > 0.1:
            advances.append(Move(actor=actor, to=dest, facing=face))
    out += advances
    if advances and not lazy and not rules.check(state, advances[0], ctx).ok:
        ways = detours(ctx, lead, near, lim, actor, face)
        out += ways
        short = short_advances(state, ctx, lead, [advances[0], *ways[:4:2]])
        out += short or sidesteps(state, ctx, lead, near, lim, actor, face)
        # (``short`` holds only advances the rules allow)
        if len(ms) > 1 and not short and not any(rules.check(state, a, ctx).ok for a in ways):
            out += model_advances(state, ctx, ms, face)
    unit_lim = min(movement.allowance(m)[0] for m in ms)
    out += cover_moves.moves(ctx, ms, actor, near, unit_lim, face)
    back = clamp(ctx, toward(lead.pos, (2 * lead.x - near.x, 2 * lead.y - near.y), core.mr(lead)))
    out.append(Move(actor=actor, to=back))
    return out


DETOURS = (30.0, -30.0, 60.0, -60.0)  # degrees off the straight line to the nearest enemy
DETOUR_SHARE = 0.8  # of the move allowance: the unit's other models go a little farther


def detours(
    ctx: Context, lead: Model, near: Model, lim: float, actor: str, face: float | None
) -> list[Action]:
    """Advances at an angle to the straight line to the nearest enemy, offered when the
    straight one is refused (a ruin in the way, SWOMP-I-PATH: go round it). Without them
    the swarm had no advance to choose and waited all game (issue 20)."""
    out: list[Action] = []
    bearing = table.bearing(lead.pos, near.pos)
    d = max(0.0, min(DETOUR_SHARE * lim, table.distance(lead, near) - 1.0))
    for off in DETOURS:
        for share in (1.0, 0.5):
            dest = clamp(ctx, table.offset(lead.pos, bearing + off, d * share))
            if math.dist(dest, lead.pos) > 0.1:
                out.append(Move(actor=actor, to=dest, facing=face))
    return out


SHORT_STEPS = (0.75, 0.5, 0.25)  # shares of a refused advance tried, longest first


def short_advances(
    state: GameState, ctx: Context, lead: Model, refused: list[Action]
) -> list[Action]:
    """For each refused advance (straight, and the first detour either side), the
    longest share of it the rules allow (``SHORT_STEPS``): as far as the way is clear.
    Why: a swarm set out in depth blocks its own rear broods (SWOMP-I-PATH: a path may
    not pass through another model), and every advance offered went the whole way, so
    the rear broods had nothing but waiting and a step back and sat out the game while
    the front ones were shot (issue 20)."""
    out: list[Action] = []
    for a in refused:
        if not isinstance(a, Move) or a.to is None or rules.check(state, a, ctx).ok:
            continue
        for share in SHORT_STEPS:
            to = (
                round(lead.x + (a.to[0] - lead.x) * share, 2),
                round(lead.y + (a.to[1] - lead.y) * share, 2),
            )
            if math.dist(to, lead.pos) < 1.0:
                break
            step = Move(actor=a.actor, to=to, facing=a.facing)
            if rules.check(state, step, ctx).ok:
                out.append(step)
                break
    return out


MODEL_TURNS = (0.0, 30.0, -30.0)  # degrees off a model's line to its nearest enemy


def model_advances(
    state: GameState, ctx: Context, ms: list[Model], face: float | None
) -> list[Action]:
    """Each model's own advance on its nearest enemy, as far as it may move and still
    shoot (straight, else 30 degrees off either side, else a share of it), offered when
    no advance of the whole unit is clear. Why: a unit moves by its leader's path with
    every model at its own offset, so a squad in a line behind a short wall had every
    unit advance refused by the one model the wall stood in front of; it then stood at
    the edge of range all game, one boltgun firing a round (issue 20). Each model of
    the acting unit may take its own action (SWOMP-I-UNIT-ACTIONS), so the others go
    round the wall on their own, coherency permitting (SWOMP-COHERENCY)."""
    out: list[Action] = []
    foes = [e for e in state.live() if e.side != ms[0].side]
    if not foes:
        return out
    for m in ms[:8]:
        if settled(m):
            continue
        near = min(foes, key=lambda e: (table.distance(m, e), e.id))
        d = max(0.0, min(movement.shoot_limit(m), table.distance(m, near) - 1.0))
        if d < 1.0:
            continue
        bearing = table.bearing(m.pos, near.pos)
        tries = (
            Move(actor=m.id, to=clamp(ctx, table.offset(m.pos, bearing + off, d * k)), facing=face)
            for k in (1.0, *SHORT_STEPS)
            for off in MODEL_TURNS
        )
        step = next(
            (
                a
                for a in tries
                if a.to and math.dist(a.to, m.pos) >= 1.0 and rules.check(state, a, ctx).ok
            ),
            None,
        )
        if step is not None:
            out.append(step)
    return out


SIDESTEPS = (3.0, 6.0)  # inches to one side before turning on the enemy, nearest first


def sidesteps(
    state: GameState,
    ctx: Context,
    lead: Model,
    near: Model,
    lim: float,
    actor: str,
    face: float | None,
) -> list[Action]:
    """When no advance is clear even a short way, a move in two legs: a step to either
    side (``SIDESTEPS``, square to the line to the nearest enemy), then on toward it
    with what is left of the allowance, or a share of that (``SHORT_STEPS``). Why: a
    brood wedged behind another brood and a ruin had only sideways steps and a step
    back, and no one-leg move on the menu gets round what stands in front of it."""
    out: list[Action] = []
    bearing = table.bearing(lead.pos, near.pos)
    for turn in (90.0, -90.0):
        found = False
        for step in SIDESTEPS:
            if found or step >= lim:
                break
            side = table.offset(lead.pos, bearing + turn, step)
            for share in (1.0, *SHORT_STEPS):
                on = table.offset(side, bearing, (lim - step) * share)
                if math.dist(on, side) < 1.0:
                    break
                a = Move(actor=actor, path=(clamp(ctx, side), clamp(ctx, on)), facing=face)
                if rules.check(state, a, ctx).ok:
                    out.append(a)
                    found = True
                    break
    return out


def working(m: Model) -> list[dict]:
    """The model's ranged weapons that are not jammed."""
    jammed = mv(m).get("jammed", [])
    return [w for w in core.ranged(m) if w["name"] not in jammed]


def in_range(shooter: Model, target: Model, weapon: dict) -> bool:
    """Is the target within the weapon's range, base edge to base edge?"""
    return table.distance(shooter, target) <= float(weapon.get("range", 0)) + 1e-9


def reachable(
    state: GameState, ctx: Context, m: Model, wpn: dict, limit: int | None = None
) -> list[shooting.Seen]:
    """The first ``limit`` (all for None) legal targets of ``m``'s weapon that are within
    its range, nearest first.

    Why the range is applied here and not in ``check``: the rulebook measures range only
    after a shot is declared (SWOMP-I-RANGE), so a shot beyond it is legal but sure to
    miss; offering it would only teach an agent to throw its action away (the window
    marks targets out of range for a player anyway). Why enemies are sighted one at a
    time: whether a target is legal depends only on the closer ones
    (``shooting.legal_targets``), so the search stops at the ``limit``-th, and an enemy
    beyond the range never has its sight measured."""
    seen: list[shooting.Seen] = []
    out: list[shooting.Seen] = []
    rng = float(wpn.get("range", 0))
    for s in shooting.seen_in_order(state, ctx, m, wpn, within=rng):
        seen.append(s)
        if shooting.legal_targets(seen)[-1:] == [s]:
            out.append(s)
            if limit is not None and len(out) >= limit:
                break
    return out


QUICK_TARGETS = 2  # the nearest enemies within range and arc a lazy menu offers a shot at


def in_reach(
    state: GameState,
    m: Model,
    wpn: dict,
    limit: int,
    near: list[tuple[float, str, Model]] | None = None,
) -> list[Model]:
    """The ``limit`` nearest enemies not locked in combat within the weapon's range and
    arc, sighted or not (the lazy menu's targets: ``check`` measures the sight).
    ``near``: ``foes_by_distance(state, m)``, when the caller has it."""
    rng, arc = float(wpn.get("range", 0)), float(wpn.get("arc", 360))
    out: list[Model] = []
    for d, _, t in foes_by_distance(state, m) if near is None else near:
        if d > rng + 1e-9 or len(out) >= limit:
            break
        if table.in_arc(m, t, arc):
            out.append(t)
    return out


def foes_by_distance(
    state: GameState, m: Model, free: list[Model] | None = None
) -> list[tuple[float, str, Model]]:
    """(distance, id, model) of the enemies of ``m`` not locked in combat (``free``, when
    the caller has them), nearest first."""
    if free is None:
        free = [t for t in state.live() if t.side != m.side and not core.engaged(t)]
    near = [(table.distance(m, t), t.id, t) for t in free]
    near.sort(key=lambda e: (e[0], e[1]))
    return near


def unit_weapons(ready: list[Model]) -> list[tuple[str, Model, dict]]:
    """The unit's first three weapon names, each with its first carrier among ``ready``
    and that carrier's weapon: what a whole-unit shot is offered with, in the lazy and
    the checked menu alike."""
    names: list[str] = []
    for m in ready:
        names += [w["name"] for w in working(m) if w["name"] not in names]
    out: list[tuple[str, Model, dict]] = []
    for name in names[:3]:
        carrier = next(m for m in ready if name in (w["name"] for w in working(m)))
        wpn = shooting.weapon_of(carrier, name)
        assert wpn is not None
        out.append((name, carrier, wpn))
    return out


def quick_shots(state: GameState, ms: list[Model], actor: str) -> list[Action]:
    """``shot_options`` unsighted, for the lazy menu: each model that may still shoot at
    its nearest enemies within range and arc with each of its first two weapons, and
    the unit at the nearest target of each weapon's first carrier."""
    out: list[Action] = []
    ready = [
        m
        for m in ms
        if not core.engaged(m) and not core.act(m)["shot"] and not mv(m).get("overwatch")
    ]
    side = ms[0].side
    free = [t for t in state.live() if t.side != side and not core.engaged(t)]
    near = {m.id: foes_by_distance(state, m, free) for m in ready[:8]}
    if len(ms) > 1 and not any(mv(m).get("overwatch") for m in ms):
        for name, carrier, wpn in unit_weapons(ready):
            for t in in_reach(state, carrier, wpn, 1, near.get(carrier.id)):
                out.append(Shoot(actor=actor, target=t.id, weapon=name))
    for m in ready[:8]:
        for wpn in working(m)[:2]:
            for t in in_reach(state, m, wpn, QUICK_TARGETS, near[m.id]):
                out.append(Shoot(actor=m.id, target=t.id, weapon=wpn["name"]))
    return out


def shot_options(state: GameState, ctx: Context, ms: list[Model], actor: str) -> list[Action]:
    """Shots that can hit: the whole unit at one target when every model that would fire
    reaches it (a unit's shot also fires models the target is out of range of), and
    each model on its own at its nearest reachable target with each of its weapons, so
    a squad spread across the table wastes no shot."""
    out: list[Action] = []
    ready = [m for m in ms if not core.engaged(m) and not core.act(m)["shot"]]
    if len(ms) > 1 and not any(mv(m).get("overwatch") for m in ms):
        # (a unit starting its action leaves overwatch first, and its watchers would fire)
        for name, carrier, wpn in unit_weapons(ready):
            for s in reachable(state, ctx, carrier, wpn, 2):
                t = state.models[s.id]
                pairs = fv.shooters(state, ctx, ms, t, name, {})
                if pairs and all(in_range(m, t, w) for m, w in pairs):
                    out.append(Shoot(actor=actor, target=t.id, weapon=name))
    per = 1 if len(ms) > 1 else 2
    for m in ready[:8]:
        for wpn in working(m)[:2]:
            for s in reachable(state, ctx, m, wpn, per):
                out.append(Shoot(actor=m.id, target=s.id, weapon=wpn["name"]))
    return out


def aim(state: GameState, ctx: Context, ms: list[Model], lazy: bool = False) -> float | None:
    """The facing for an advance: toward the nearest enemy the unit's narrowest-arced
    weapon could sight within its range, or None (face the way it goes). Why: a move
    turns every model to its path, and a heavy weapon's arc is narrow (a lascannon
    sees 20 degrees), so an advance that ends facing away wastes its shot. ``lazy``:
    toward the nearest enemy within range, sighted or not."""
    best: tuple[float, Model, dict] | None = None
    for m in ms:
        for wpn in working(m)[:2]:
            arc = float(wpn.get("arc", 360))
            if arc <= NARROW and (best is None or arc < best[0]):
                best = (arc, m, wpn)
    if best is None:
        return None
    _, m, wpn = best
    # the nearest enemy sighted within range: nearer ones are all hidden, so no enemy
    # beyond the range need have its sight measured (the dearest question, issue 24)
    rng = float(wpn.get("range", 0))
    if lazy:
        near = in_reach(state, m, {**wpn, "arc": 360}, 1)
        return round(table.bearing(m.pos, near[0].pos), 1) if near else None
    s = next(shooting.seen_in_order(state, ctx, m, {**wpn, "arc": 360}, within=rng), None)
    if s is not None:
        return round(table.bearing(m.pos, state.models[s.id].pos), 1)
    return None


def man_options(state: GameState, ms: list[Model]) -> list[Action]:
    """A model beside its side's vehicle whose gunner's hatch is empty may climb in
    (SWOMP-I-MAN); rare, so the search stays cheap."""
    empty = [v for v in state.live(ms[0].side) if core.is_vehicle(v) and hatch.open_hatches(v)]
    return [
        Man(actor=m.id, target=v.id)
        for v in empty
        for m in ms
        if not core.is_vehicle(m) and table.distance(m, v) <= hatch.CONTACT
    ]


def attack_options(state: GameState, lead: Model, actor: str, near: Model) -> list[Action]:
    """Charge the nearest enemy; at a vehicle, one charge per location open to attack,
    and a fight for each location of a vehicle already in reach."""
    if not core.is_vehicle(near):
        return [SwompCharge(actor=actor, target=near.id)]
    locs = vehicle_cc.open_locations(lead, near)[:3]
    out: list[Action] = [
        SwompCharge(actor=actor, target=near.id, options={"location": loc}) for loc in locs
    ]
    out += [Fight(actor=lead.id, target=near.id, options={"location": loc}) for loc in locs]
    return out


def vehicle_options(
    state: GameState, ctx: Context, v: Model, enemies: list[Model], lazy: bool = False
) -> list[Action]:
    out: list[Action] = []
    for wpn in working(v)[:3]:
        if lazy:
            ids = [t.id for t in in_reach(state, v, wpn, QUICK_TARGETS)]
        else:
            ids = [s.id for s in reachable(state, ctx, v, wpn, 2)]
        out += [Shoot(actor=v.id, target=t, weapon=wpn["name"]) for t in ids]
    if core.act(v)["moves"]:
        return out
    lo, hi = vehicles.speed_range(v)
    speeds = sorted({round(lo, 2), round(vehicles.speed(v), 2), round(hi, 2)})
    for spd in speeds:
        if spd <= 0:
            continue
        out.append(Move(actor=v.id, to=clamp(ctx, table.offset(v.pos, v.facing, spd))))
        if enemies:
            h = table.bearing(v.pos, enemies[0].pos)
            allowed = vehicles.turn_allowance(v, spd)
            off = (h - v.facing + 180) % 360 - 180
            turn = max(-allowed, min(allowed, off))
            out.append(Move(actor=v.id, to=clamp(ctx, table.offset(v.pos, v.facing + turn, spd))))
    if enemies:
        out.append(Ram(actor=v.id, target=enemies[0].id))
    return out
