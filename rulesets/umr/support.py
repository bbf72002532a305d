"""The free acts of UMR: the leader's gift of a die (UMR-LEADER), the optional RPG tests
(UMR-RPG-STATS), and the drones an operator brings (UMR-DRONE).

Why apart from movement and combat: none of these spends an action die, and the drones
are placed before the first round rather than during play.
"""

from __future__ import annotations

import math
from fractions import Fraction

from engine.dice import Modifier, add, die, percent, prob, shift
from engine.polygons import polygon_distance
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.umr import common, measure, pool, rounds
from rulesets.umr.abilities import DRONE, ability_of
from rulesets.umr.actions import Lead, RpgTest
from rulesets.umr.build import DRONE_DICE, DRONE_HEALTH, DRONES_PER_OPERATOR, RPG_STATS
from rulesets.umr.terrain import table

# --------------------------------------------------------------------------- leader


def is_leader(m: Model) -> bool:
    a = ability_of(m.stats)
    return bool(a and a.key == "leader")


def lead_targets(state: GameState, m: Model) -> list[Model]:
    """Teammates who could still use a die this round: characters (not drones) whose
    activation has not ended."""
    done = set(state.vars.get("act", {}).get("done", []))
    return [
        o
        for o in measure.live(state)
        if o.side == m.side
        and o.id != m.id
        and o.unit not in done
        and o.stats.get("ability") != DRONE
    ]


def can_lead(state: GameState, m: Model) -> bool:
    return is_leader(m) and "leader" not in m.vars.get("used", ()) and bool(lead_targets(state, m))


#: What the leader's extra roll may be (UMR-LEADER "an additional dice roll of any kind").
GIFT_ROLLS = ("action", "defence", "damage")


def check_lead(state: GameState, a: Lead, ctx: Context) -> list[str]:
    """UMR-LEADER: "once per game round, a leader may give any character on your team an
    additional dice roll of any kind": himself included, at any point of his side's
    turn in the round (before, during or after his own activation)."""
    if state.over:
        return ["the game is over"]
    m = state.models.get(a.actor)
    if m is None or m.removed:
        return [f"'{a.actor}' is not a model on the table"]
    if m.side != state.active:
        return [f"it is {state.active}'s turn to activate, not {m.side}'s (UMR-ROUND)"]
    if not is_leader(m):
        return [f"{m.id} is not a leader (UMR-LEADER)"]
    if "leader" in m.vars.get("used", ()):
        return [f"{m.id} has already given a roll this round (once per round, UMR-LEADER)"]
    roll = a.roll or "action"
    if roll not in GIFT_ROLLS:
        return [f"'{roll}' is not a roll the leader can give (one of {', '.join(GIFT_ROLLS)})"]
    t = state.models.get(a.target)
    if t is None or t.removed:
        return [f"'{a.target}' is not a model on the table"]
    if t.side != m.side:
        return [f"{t.id} is not on {m.id}'s team (UMR-LEADER)"]
    if t.stats.get("ability") == DRONE:
        return [f"{t.id} is a drone, not a character (UMR-LEADER)"]
    if roll == "action" and t.unit in state.vars.get("act", {}).get("done", []):
        return [f"{t.id} has already activated this round: the die would be lost (UMR-LEADER)"]
    return []


def apply_lead(state: GameState, a: Lead, ctx: Context) -> None:
    """Give the roll. An action die joins the target's dice for this round; a defence
    die is rolled with his next defence this round, keeping the higher; a damage die is
    added to his next damage roll this round (UMR-I-LEADER)."""
    m = state.models[a.actor]
    t = state.models[a.target]
    if rounds.current(state) is None and m.unit in rounds.ready(state, m.side):
        common.start(state, m)
    m.vars["used"] = [*m.vars.get("used", []), "leader"]
    roll = a.roll or "action"
    if roll == "action":
        t.vars["granted"] = int(t.vars.get("granted", 0)) + 1
        what = "an extra action die for this round, for any action"
    else:
        t.vars["gifts"] = [*t.vars.get("gifts", []), roll]
        what = f"an extra {roll} die for his next {roll} roll this round"
    ctx.log.emit(
        "status",
        f"{m.id} gives {t.id} {what} (UMR-LEADER)",
        actor=m.id,
        target=t.id,
        rule="UMR-LEADER",
        outcome="die given",
        data={} if roll == "action" else {"roll": roll},
    )


# --------------------------------------------------------------------------- RPG tests


def rpg_stat(name: str) -> str | None:
    s = name.strip().upper()
    return s if s in RPG_STATS else None


def rpg_dist(m: Model, stat: str) -> tuple[dict[int, Fraction], list[Modifier], int]:
    pts = int(m.stats.get(stat, 0))
    abil = ability_of(m.stats)
    n = 2 if abil is not None and abil.rpg_stat == stat else 1
    d = die(6) if n == 1 else add(die(6), die(6))
    mods = [Modifier(pts, stat, "UMR-RPG-STATS")] if pts else []
    return shift(d, pts), mods, n


def check_rpg(state: GameState, a: RpgTest, ctx: Context) -> list[str]:
    m, why = common.actor(state, a.actor)
    if m is None or why:
        return why
    if rpg_stat(a.stat) is None:
        return [f"'{a.stat}' is not an RPG stat (diplomacy, perception, mechanics) (UMR-RPG-STATS)"]
    if not 1 <= a.need <= 30:
        return [f"a test needs a difficulty from 1 to 30, not {a.need}"]
    return []


def rpg_chance(m: Model, a: RpgTest) -> Fraction:
    stat = rpg_stat(a.stat)
    assert stat is not None
    d, _, _ = rpg_dist(m, stat)
    return prob(d, lambda v: v >= a.need)


def apply_rpg(state: GameState, a: RpgTest, ctx: Context) -> None:
    """A free test during the model's activation: d6 + the stat's point, a second die
    added for the matching RPG ability; success on the difficulty or more (UMR-I-RPG)."""
    m = state.models[a.actor]
    common.start(state, m)
    stat = rpg_stat(a.stat)
    assert stat is not None
    _, mods, n = rpg_dist(m, stat)
    chance = rpg_chance(m, a)
    r = ctx.dice.roll(
        6,
        f"{stat.lower()} test",
        n=n,
        modifiers=mods,
        actor=m.id,
        rule="UMR-RPG-STATS",
        need=f"{a.need}+",
        chance=chance,
    )
    ok = r.total >= a.need
    ability = ability_of(m.stats)
    extra = (
        f" (an extra die for the {ability.name.lower()}, UMR-RPG-ABILITIES)"
        if n == 2 and ability is not None
        else ""
    )
    ctx.log.emit(
        "resolution",
        f"{m.id} {stat.lower()} test: {n}d6 "
        f"{' + '.join(map(str, r.faces))}{common.mods_text(mods)} = "
        f"{r.total}{extra} against {a.need}: "
        f"{'success' if ok else 'failure'} (chance {percent(chance)}, "
        f"UMR-RPG-STATS)",
        actor=m.id,
        rule="UMR-RPG-STATS",
        chance=float(chance),
        rolls=list(r.faces),
        outcome="success" if ok else "failure",
    )


# --------------------------------------------------------------------------- drones


def _free(state: GameState, ctx: Context, x: float, y: float, r: float) -> bool:
    bf = ctx.battlefield
    if not (r <= x <= bf.width - r and r <= y <= bf.depth - r):
        return False
    idx = table(ctx)
    for f in idx.tall + idx.water:
        if polygon_distance((x, y), f.polygon) < r + 0.05:
            return False
    from engine.battlefield import base_radius_in

    return all(math.dist((x, y), o.pos) >= r + base_radius_in(o.base) + 0.1 for o in state.live())


def place_drones(state: GameState, ctx: Context) -> None:
    """An operator with fewer than two drones in the scenario gets the rest placed beside
    him before the first round (UMR-I-DRONES); the scenario may place them anywhere."""
    from engine.battlefield import base_radius_in

    for op in [m for m in state.live() if m.stats.get("ability") == "drone_operator"]:
        have = [
            d
            for d in state.models.values()
            if d.stats.get("ability") == DRONE and d.vars.get("operator") == op.id
        ]
        for k in range(len(have), DRONES_PER_OPERATOR):
            did = f"{op.id}-drone{k + 1}"
            while did in state.models:
                did += "x"
            r = 25.0 / 25.4 / 2
            spot = None
            for ring in range(1, 8):
                dist = base_radius_in(op.base) + r + 0.25 + (ring - 1) * 1.2
                for step in range(16):
                    ang = math.pi / 2 + step * math.pi / 8
                    x, y = op.x + dist * math.cos(ang), op.y + dist * math.sin(ang)
                    if _free(state, ctx, x, y, r):
                        spot = (round(x, 2), round(y, 2))
                        break
                if spot:
                    break
            if spot is None:
                ctx.log.emit(
                    "note",
                    f"no room to place {op.id}'s drone {k + 1}",
                    actor=op.id,
                    rule="UMR-DRONE",
                )
                continue
            d = Model(
                id=did,
                side=op.side,
                unit=did,
                x=spot[0],
                y=spot[1],
                facing=op.facing,
                base=25.0,
                profile="drone",
                stats={"AD": DRONE_DICE, "ability": DRONE},
                hp=DRONE_HEALTH,
                max_hp=DRONE_HEALTH,
                vars={"operator": op.id},
            )
            pool.init_vars(d)
            state.models[did] = d
            ctx.log.emit(
                "status",
                f"{op.id} places {did} at ({spot[0]:g}, {spot[1]:g}): one "
                f"action die, {DRONE_HEALTH} health (UMR-DRONE)",
                actor=op.id,
                target=did,
                rule="UMR-DRONE",
                outcome="drone placed",
            )
