"""The AI's view of a position (``Ruleset.score``): what wins SWOMP games, cheaply.

Why these terms: at the turn limit the game goes to casualties, then damage, then units
broken, then ground taken (victory.py), so the score counts the same things on the
same scale: the points of every model times the share of its HP removed (a casualty
counts in full), and a quarter of a broken unit's points.

A one-step agent values a position before the enemy answers it, so two things that
happen later are priced in now:

- overwatch fire owed (a move that ends where enemy watchers can fire hands them the
  decision): each watcher's best shot at the models that set it off, at
  ``REACTION_SHARE``, lost to the mover and gained by the watcher;
- close combat not yet rolled: a declared charge's strike (at ``STRIKE_SHARE``, the
  defender may retreat) and each engaged model's next strike, so a charge is worth
  what it should win and a model in combat is not simply a model out of the fight;
- going on overwatch with no enemy in range costs ``IDLE_WATCH`` per model: a model on
  overwatch may neither move nor shoot until it fires, so its next action is lost.

A one-step agent also needs a reason to move before anything dies, so each of the
side's own models adds a little for an enemy within its weapon's range (fading
linearly over two feet short of it, so advancing is worth something) and for being
within charge reach of an enemy it out-fights in close combat (SWOMP "Charging").
These are worth less than one likely wound, so they never outweigh real damage.

With the table at hand (``ctx``) the score also counts the firepower balance, as UMR's
does: each side's models' best exact shot as they stand (sight, cover, range and the
closest-target rule measured), at ``FIRE_WEIGHT``. Why: a unit left as the enemy's
closest target in the open pays over every activation to come, not only in the one
answer a search plays out, and a kill of a heavy weapon is worth more than its points.
What it measured: docs/decisions/0003-swomp-firepower-score.md.
Sight comes from the engine's shared cache and whole answers are memoised per table,
so it costs about 0.3 ms a score; everything else is arithmetic on centre distances
less base radii.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from engine.closing import pull
from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import distance

from . import victory
from .chapters import contest, core, melee, morale, reactions, shooting, table
from .state import mv

BROKEN_SHARE = 0.25  # a broken unit costs its side a quarter of its points
IN_RANGE = 2.0  # per model with an enemy in range of a working weapon
APPROACH_SPAN = 24.0  # ...less a share for every inch short, none at this far short
IDLE_WATCH = -1.0  # per model on overwatch with no enemy in range: its next action is lost
CHARGE_REACH = 1.5  # per model within charge reach of an enemy it out-fights
REACTION_SHARE = 0.75  # of the overwatch fire owed: the watching side may hold it
STRIKE_SHARE = 0.8  # of a declared charge's strike: the defender may still retreat
FIRE_WEIGHT = 0.4  # of the firepower balance: only part of it lands before both sides move
MELEE_PULL = 0.5  # of a charge's strike, for a model without a gun closing on its foe


def lost_value(state: GameState, side: str) -> float:
    """Points-weighted HP the side has lost (casualties in full) plus its broken units."""
    own = [m for m in state.models.values() if m.side == side]
    value = sum(int(mv(m).get("points", 0)) * victory.lost_share(m) for m in own)
    for unit, info in core.sw(state)["units"].items():
        ms = core.unit_models(state, unit)
        if info.get("broken") and ms and ms[0].side == side:
            value += BROKEN_SHARE * int(info.get("points", 0))
    return value


def reach(m: Model) -> float:
    """How far a model's working ranged weapons reach (0 without one)."""
    jammed = mv(m).get("jammed", [])
    return max(
        (float(w.get("range", 0)) for w in core.ranged(m) if w["name"] not in jammed), default=0.0
    )


def fights_better(m: Model, e: Model) -> bool:
    """Would ``m`` charging ``e`` have the better of the close combat contest?"""
    if core.is_vehicle(m) or core.is_vehicle(e):
        return False
    att = sum(v for _, v in melee.attack_value(m, charging=True))
    return att > melee.defence(e).value


def charge_reach(m: Model) -> float:
    """How far ``m`` may charge: twice its move rate, its move rate when heavy (SWOMP
    "Charging")."""
    return core.mr(m) if core.heavy(m) else 2 * core.mr(m)


def charge_gain(m: Model, e: Model) -> float:
    """What ``m`` charging ``e`` should strike off it, in points, at ``MELEE_PULL``:
    the pull of a model without a gun toward the foe it would hurt most."""
    return MELEE_PULL * strike_value([m], e, charging=True)


def position(state: GameState, side: str) -> float:
    """The small pull toward targets: in range to shoot (and closing on range), or in
    reach to charge; less a wasted overwatch. A model without a working gun (a
    hormagaunt) is pulled instead toward the foe its charge would hurt most, fading
    over ``APPROACH_SPAN`` beyond its charge reach (``engine.closing``): nothing else
    moves it before the charge, and the swarm waited all game (issue 20)."""
    foes = [e for e in state.live() if e.side != side]
    if not foes:
        return 0.0
    free = [m for m in state.live(side) if not core.engaged(m) and not morale.broken(state, m.unit)]
    gunners = [m for m in free if reach(m) > 0]
    value = IN_RANGE * pull(gunners, foes, reach, APPROACH_SPAN, gap=distance)
    value += pull(
        [m for m in free if reach(m) <= 0],
        foes,
        charge_reach,
        APPROACH_SPAN,
        gain=charge_gain,
        gap=distance,
    )
    for m in free:
        if mv(m).get("overwatch") and 0 < reach(m) < min(distance(m, e) for e in foes):
            value += IDLE_WATCH
        lim = charge_reach(m)
        if any(distance(m, e) <= lim and fights_better(m, e) for e in foes):
            value += CHARGE_REACH
    return value


@lru_cache(maxsize=1024)
def p_win(a_value: int, d_value: int) -> float:
    """The chance the attacker wins a d10 contest (contest.p_win, cached as a float)."""
    return float(contest.p_win(a_value, d_value))


def shot_value(w: Model, t: Model) -> float:
    """Expected points ``w``'s best working weapon in range strikes off ``t`` with one
    overwatch shot (cover unseen: the score has no table)."""
    best = 0.0
    jammed = mv(w).get("jammed", [])
    d = distance(w, t)
    for wpn in core.ranged(w):
        if wpn["name"] in jammed or d > float(wpn.get("range", 0)):
            continue
        att = shooting.attack(w, wpn, "overwatch", []).value
        dfn = shooting.defence(t, table.NONE).value
        hp = max(1, t.hp)
        share = min(1.0, int(wpn.get("Dam", 1)) * int(wpn.get("shots", 1)) / hp)
        best = max(best, p_win(att, dfn) * share * int(mv(t).get("points", 0)))
    return best


def reaction_fire(state: GameState, side: str) -> float:
    """The overwatch fire owed right now (SWOMP "Overwatch"), from ``side``'s point of
    view: each watcher's best shot at the models that set it off, ours to gain, theirs
    to lose, at ``REACTION_SHARE`` since it may be held. Why: a move is valued before
    the enemy answers it, so without this walking into overwatch looks free."""
    value = 0.0
    for p in state.pending:
        if reactions.kind(p) != "overwatch":
            continue
        sign = 1.0 if p["side"] == side else -1.0
        about = reactions.data(p)
        targets = [state.models[t] for t in about["targets"] if not state.models[t].removed]
        for wid in about["watchers"]:
            w = state.models[wid]
            if w.removed:
                continue
            value += sign * max((shot_value(w, t) for t in targets), default=0.0)
    return REACTION_SHARE * value


@lru_cache(maxsize=1024)
def cc_hp(a_value: int, d_value: int, extra: int, hp: int) -> float:
    """Expected HP a close combat contest takes off a defender with ``hp`` left: the
    winning margin's 1, 2 or 3 (SWOMP "Winning a contest by 5 or more") plus the
    weapon's damage above 1, no more than it has."""
    return float(
        sum(
            (
                q * min(hp, contest.melee_damage(k) + extra)
                for k, q in contest.margin_dist(a_value, d_value).items()
                if k >= 0
            ),
            start=Fraction(0),
        )
    )


def strike_value(attackers: list[Model], d: Model, charging: bool) -> float:
    """Expected points one strike of ``attackers`` (a group: the best CR plus half the
    others', SWOMP "Multiple attackers") takes off the trooper ``d``."""
    attackers = [a for a in attackers if not a.removed]
    if (
        not attackers
        or d.removed
        or core.is_vehicle(d)
        or any(core.is_vehicle(a) for a in attackers)
    ):
        return 0.0
    att = melee.group_side([(a.id, melee.attack_value(a, charging)) for a in attackers])
    lead = max(attackers, key=lambda a: sum(v for _, v in melee.attack_value(a, charging)))
    hp = cc_hp(att.value, melee.defence(d).value, melee.weapon_extra(lead), max(1, d.hp))
    return hp * int(mv(d).get("points", 0)) / max(1, d.max_hp)


def melee_edge(state: GameState, side: str) -> float:
    """Close combat not yet rolled, from ``side``'s point of view: the strikes a charge
    has declared (at ``STRIKE_SHARE``: the defender may still retreat), and each engaged
    model's next strike at its first opponent, ours to gain and theirs to lose. Why: a
    charge is valued before its strike is rolled, and a model in combat gives up its
    pull toward targets, so without this a one-step agent never charges."""
    value = 0.0
    for cont in reactions.stack(state):
        if cont.get("kind") != "strike":
            continue
        for g in cont.get("groups", []):
            d = state.models[g["defender"]]
            hit = strike_value(
                [state.models[a] for a in g["attackers"]], d, bool(g.get("charging"))
            )
            value += STRIKE_SHARE * (hit if d.side != side else -hit)
    for m in state.live():
        fs = core.foes(state, m)
        if fs:
            hit = strike_value([m], fs[0], False)
            value += hit if m.side == side else -hit
    return value


def best_shot(state: GameState, ctx: Context, m: Model) -> float:
    """Expected points ``m``'s best working weapon takes off a target it may aim at as
    the table stands: sighted, within range, allowed by the targeting rule (SWOMP
    "Targeting": the closest of a size class unless a farther one is harder to hit), in
    the cover its line of fire meets. Any facing: a trooper turns as it acts."""
    return aimed_shot(state, ctx, m)[0]


def aimed_shot(state: GameState, ctx: Context, m: Model) -> tuple[float, str]:
    """``best_shot`` and the target it is aimed at ("" with no shot)."""
    best, aim = 0.0, ""
    jammed = mv(m).get("jammed", [])
    for wpn in core.ranged(m):
        if wpn["name"] in jammed:
            continue
        rng = float(wpn.get("range", 0))
        seen = shooting.seen_enemies(state, ctx, m, {**wpn, "arc": 360}, within=rng)
        if not seen:
            continue
        att = shooting.attack(m, wpn, "moved", []).value
        dam = int(wpn.get("Dam", 1)) * int(wpn.get("shots", 1))
        for s in shooting.legal_targets(seen):
            t = state.models[s.id]
            share = min(1.0, dam / max(1, t.hp))
            v = p_win(att, shooting.defence(t, s.cover).value) * share * int(mv(t).get("points", 0))
            if v > best:
                best, aim = v, t.id
    return best, aim


def capped(state: GameState, shots: list[tuple[str, float, str]]) -> dict[str, float]:
    """Per side, the sum of the shots ``(side, value, target)``, each target's share no
    more than what is left of it to take (its points times its HP left). Why: every
    model's best shot is often at the same target, the one enemy in range; counted
    without a cap, the shots outweighed the target itself, and killing it lost the
    shooters more future fire than the kill was worth, so greedy marines held their
    fire (issue 20)."""
    at: dict[tuple[str, str], float] = {}
    for side, v, t in shots:
        if t:
            at[side, t] = at.get((side, t), 0.0) + v
    out = dict.fromkeys(state.sides, 0.0)
    for (side, t), v in at.items():
        target = state.models[t]
        left = int(mv(target).get("points", 0)) * (1.0 - victory.lost_share(target))
        out[side] = out.get(side, 0.0) + min(v, left)
    return out


def firepower(state: GameState, ctx: Context) -> dict[str, float]:
    """Per side, the sum over its models free to shoot of ``best_shot``.

    Why this term: SWOMP games are mostly won at range, a few shots a round, and a
    model's worth on the table is the shot it has and the shot it offers. A unit that
    stands in the open as the enemy's closest target, or hides its heavy weapon where
    the enemy's can see it, pays for it over every activation to come, not only the
    one answer a search looks at; a unit in cover or out of sight lowers the enemy's
    sum, a kill of a heavy weapon lowers it most. Sight comes from the engine's shared
    sight cache, and whole answers are kept in the table's memo as it stands (a shot that misses
    leaves it as it was, so most samples of a search cost one lookup)."""
    broken = {u for u in {m.unit for m in state.models.values()} if morale.broken(state, u)}
    key = (frozenset(broken),) + tuple(
        (
            m.id,
            m.x,
            m.y,
            m.hp,
            m.removed,
            tuple(mv(m).get("jammed", ())),
            tuple(mv(m).get("foes", ())),
            mv(m).get("cover"),
            mv(m).get("moved"),
            mv(m).get("speed"),
        )
        for m in state.models.values()
    )
    return ctx.table.memo("swomp.fire", 20_000).get_or(key, lambda: _firepower(state, ctx, broken))


def _firepower(state: GameState, ctx: Context, broken: set[str]) -> dict[str, float]:
    shots = [
        (m.side, *aimed_shot(state, ctx, m))
        for m in state.live()
        if not (core.engaged(m) or core.is_vehicle(m) or m.unit in broken)
    ]
    return capped(state, shots)


def victory_text(scenario: Any) -> str:
    """What wins a SWOMP scenario (SWOMP-I-VICTORY), for the new-game screen."""
    text = "A side with no model left on the table has lost."
    if scenario.turn_limit:
        text += (
            f" After {scenario.turn_limit} turns the side that removed the most points of "
            "enemy models wins; ties go to damage done, then units broken, then ground taken "
            "(SWOMP-I-VICTORY)."
        )
    return text


def score(state: GameState, side: str, ctx: Context | None = None) -> float:
    """What the side has taken from its enemies less what it has lost, the overwatch
    fire owed, plus its pull toward targets; with the table at hand, plus FIRE_WEIGHT
    times the firepower balance (``firepower``)."""
    others = [s for s in state.sides if s != side]
    taken = sum(lost_value(state, s) for s in others)
    value = (
        taken
        - lost_value(state, side)
        + reaction_fire(state, side)
        + melee_edge(state, side)
        + position(state, side)
    )
    if ctx is not None and not state.over:
        fire = firepower(state, ctx)
        value += FIRE_WEIGHT * (2 * fire.get(side, 0.0) - sum(fire.values()))
    return value
