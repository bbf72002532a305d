"""Massed combat (IA-MASSED): groups against groups, initiative by dice in rank order.

Why its own resolution: when several figures of each side touch each other the text
stops pairing one against one; each side throws a die per figure of its meeting rank,
the dice are sorted and compared rank by rank, and every won rank is one initiative.
Only the meeting ranks suffer; spears and pikes (and mounted polearms) strike from the
second rank; elites and commanders lose their initiative bonus. How the initiatives
become blows is the smallest reading we could make of that (IA-I-MASSED).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from engine.actions import Fight
from engine.ruleset import Context, Odds
from engine.state import GameState, Model
from rulesets.inter_arma.build import mounted
from rulesets.inter_arma.chapters import combat, measure
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import mv


def _ready(state: GameState, m: Model) -> bool:
    return not m.removed and "wounded" not in m.status and mv(m).get("clashed") != state.turn


def meeting(state: GameState, a: Fight) -> tuple[list[Model], list[Model]]:
    """The meeting ranks: the ready figures linked to the actor and its target by base
    contact, an enemy touching or a friend alongside who touches an enemy too (the
    actor's side first, each in id order)."""
    m, t = state.models[a.actor], state.models[a.target]
    groups: dict[str, dict[str, Model]] = {m.side: {m.id: m}, t.side: {t.id: t}}
    foe = {m.side: t.side, t.side: m.side}
    todo = [m, t]
    while todo:
        cur = todo.pop()
        for e in [*state.live(foe[cur.side]), *state.live(cur.side)]:
            if e.id in groups[e.side] or not _ready(state, e) or not measure.in_contact(cur, e):
                continue
            if e.side == cur.side and not any(
                _ready(state, x) and measure.in_contact(e, x) for x in state.live(foe[e.side])
            ):
                continue
            groups[e.side][e.id] = e
            todo.append(e)
    mine, theirs = groups[m.side], groups[t.side]
    return sorted(mine.values(), key=lambda x: x.id), sorted(theirs.values(), key=lambda x: x.id)


def is_massed(state: GameState, a: Fight) -> bool:
    """Massed when at least two figures of each side meet (IA-I-MASSED)."""
    a_side, b_side = meeting(state, a)
    return len(a_side) >= 2 and len(b_side) >= 2


def reaches(m: Model) -> bool:
    """IA-MASSED: spears and pikes strike from the second rank; polearms only mounted."""
    kinds = {str(w.get("kind")) for w in m.weapons}
    return bool(kinds & {"spear", "pike"}) or ("polearm" in kinds and mounted(m))


def second_rank(state: GameState, front: list[Model], foes: list[Model]) -> list[Model]:
    """Ready friends behind the meeting rank who reach an enemy of it with a spear: in
    contact with a front friend, out of contact with the enemy, an enemy of the meeting
    rank within ``T.REACH_CM`` (IA-I-MASSED)."""
    side = front[0].side
    ids = {f.id for f in front}
    out = []
    for f in state.live(side):
        if f.id in ids or not _ready(state, f) or not reaches(f):
            continue
        if measure.enemies_in_contact(state, f):
            continue
        if any(measure.in_contact(f, x) for x in front) and any(
            measure.gap_cm(f, e) <= T.REACH_CM for e in foes
        ):
            out.append(f)
    return out


def order(a: list[int], b: list[int]) -> list[str]:
    """Each side's dice high to low, compared rank by rank: 'A', 'B' or 'reroll'. A die
    with no die against it wins its rank (IA-I-MASSED). The text's example: A 6,5,3,1
    against B 5,5,2,2 gives A, reroll, A, B."""
    xa, xb = sorted(a, reverse=True), sorted(b, reverse=True)
    out = []
    for k in range(max(len(xa), len(xb))):
        if k >= len(xb):
            out.append("A")
        elif k >= len(xa):
            out.append("B")
        else:
            out.append("A" if xa[k] > xb[k] else "B" if xb[k] > xa[k] else "reroll")
    return out


@dataclass
class Ranks:
    """The rolled meeting ranks: each side's figures high die first, and who won each."""

    a: list[tuple[int, Model]] = field(default_factory=list)
    b: list[tuple[int, Model]] = field(default_factory=list)
    won: list[str] = field(default_factory=list)


def _throw(ctx: Context, side: list[Model], rule: str) -> list[tuple[int, Model]]:
    r = ctx.dice.roll(6, f"{side[0].side}'s meeting rank", n=len(side), actor=side[0].id, rule=rule)
    combat.report(ctx, r, actor=side[0].id, rule=rule)
    pairs = list(zip(r.faces, side, strict=True))
    return sorted(pairs, key=lambda p: (-p[0], p[1].id))


def roll_ranks(ctx: Context, a_side: list[Model], b_side: list[Model]) -> Ranks:
    """IA-MASSED: throw, sort, compare; an equal rank rerolls one die each until it falls."""
    rk = Ranks(_throw(ctx, a_side, "IA-MASSED"), _throw(ctx, b_side, "IA-MASSED"))
    rk.won = order([f for f, _ in rk.a], [f for f, _ in rk.b])
    for k, w in enumerate(rk.won):
        for _ in range(50):
            if w != "reroll":
                break
            x = ctx.dice.roll(
                6, f"rank {k + 1} reroll ({rk.a[k][1].id})", actor=rk.a[k][1].id, rule="IA-MASSED"
            )
            y = ctx.dice.roll(
                6, f"rank {k + 1} reroll ({rk.b[k][1].id})", actor=rk.b[k][1].id, rule="IA-MASSED"
            )
            w = "A" if x.total > y.total else "B" if y.total > x.total else "reroll"
            ctx.log.emit("resolution", f"rank {k + 1} tied: {x.explain()} against {y.explain()}: {w}",
                         rule="IA-MASSED", rolls=[*x.faces, *y.faces], outcome=w)  # fmt: skip
        rk.won[k] = w
    ctx.log.emit("resolution", "massed combat, rank by rank: " + "; ".join(rank_text(r) for r in _table(rk)) + " (IA-MASSED)",
                 rule="IA-MASSED", outcome=",".join(rk.won), data={"ranks": _table(rk)})  # fmt: skip
    return rk


def rank_text(row: list[object]) -> str:
    """One rank of the rank-order dice, as the log and the window show it:
    'rank 2: 5 a2 v 5 b1, tied, A on the reroll'."""
    k, da, fa, db, fb, w = row
    a = f"{da} {fa}" if fa else "\u2013"
    b = f"{db} {fb}" if fb else "\u2013"
    tied = fa and fb and da == db
    return f"rank {k}: {a} v {b}, {'tied, ' + str(w) + ' on the reroll' if tied else str(w)}"


def _table(rk: Ranks) -> list[list[object]]:
    """The rank-order dice for the window: [rank, A die, A figure, B die, B figure, won]."""
    rows: list[list[object]] = []
    for k, w in enumerate(rk.won):
        fa = rk.a[k] if k < len(rk.a) else (0, None)
        fb = rk.b[k] if k < len(rk.b) else (0, None)
        rows.append([k + 1, fa[0], fa[1].id if fa[1] else "", fb[0], fb[1].id if fb[1] else "", w])
    return rows


def _foe(
    state: GameState, m: Model, foes: list[Model], struck: set[str], reach: bool
) -> Model | None:
    """The enemy ``m``'s blow falls on: one of the meeting rank it touches (or reaches
    from the second rank), not yet struck if there is one, in id order."""
    near = [
        e
        for e in foes
        if not combat_down(e)
        and (measure.gap_cm(m, e) <= T.REACH_CM if reach else measure.in_contact(m, e))
    ]
    fresh = [e for e in near if e.id not in struck]
    pool = fresh or near
    return pool[0] if pool else None


def combat_down(m: Model) -> bool:
    return m.removed or "wounded" in m.status


def blows(rk: Ranks) -> list[Model]:
    """Who strikes in which order: the rank winners first (rank by rank), then the
    others by their die, each once; a figure put down before its blow does not strike."""
    first: list[Model] = []
    later: list[Model] = []
    for k, w in enumerate(rk.won):
        for side, tag in ((rk.a, "A"), (rk.b, "B")):
            if k < len(side):
                (first if w == tag else later).append(side[k][1])
    return first + later


def resolve(state: GameState, ctx: Context, a: Fight) -> None:
    """Roll the ranks, then the blows, then the second rank's spears (IA-MASSED)."""
    a_side, b_side = meeting(state, a)
    a_back, b_back = second_rank(state, a_side, b_side), second_rank(state, b_side, a_side)
    for f in (*a_side, *b_side, *a_back, *b_back):
        mv(f)["clashed"] = state.turn
    ctx.log.emit("note", f"massed combat: {len(a_side)} of {a_side[0].side} against {len(b_side)} of {b_side[0].side}"
                 f" (+{len(a_back)} and +{len(b_back)} spears from the second rank; IA-MASSED)",
                 actor=a.actor, target=a.target, rule="IA-MASSED")  # fmt: skip
    rk = roll_ranks(ctx, a_side, b_side)
    struck: set[str] = set()
    for m in blows(rk):
        _strike(state, ctx, m, b_side if m.side == a_side[0].side else a_side, struck, False)
    for m in (*a_back, *b_back):
        _strike(state, ctx, m, b_side if m.side == a_side[0].side else a_side, struck, True)


def _strike(
    state: GameState, ctx: Context, m: Model, foes: list[Model], struck: set[str], reach: bool
) -> None:
    if combat_down(m):
        return
    e = _foe(state, m, foes, struck, reach)
    if e is None:
        return
    struck.add(e.id)
    kind = "cavalry" if mounted(m) else "foot"
    combat.resolve_hit(state, ctx, e, kind, [], m.id)


def odds(state: GameState, ctx: Context, a: Fight) -> Odds:
    """The actor's own pairing: its rank is an even contest of plain dice (no class
    bonus), so it strikes first half the time; the target falls to its blow."""
    m, t = state.models[a.actor], state.models[a.target]
    a_side, b_side = meeting(state, a)
    kind_m, kind_t = ("cavalry" if mounted(x) else "foot" for x in (m, t))
    hit = combat.p_down(combat.hit_dist(t, kind_m, combat.situational(state, ctx, t, kind_m, m.id)))
    back = combat.p_down(
        combat.hit_dist(m, kind_t, combat.situational(state, ctx, m, kind_t, t.id))
    )
    half = Fraction(1, 2)
    down = half * hit + half * (1 - back) * hit
    lines = [f"massed combat, {len(a_side)} against {len(b_side)}: each rank an even die (IA-MASSED)",
             f"{t.id} put down by {m.id}'s blow {float(down):.0%}"]  # fmt: skip
    return Odds(down, dist={0: 1 - down, 1: down}, lines=lines, expected=down)
