"""Melee (IA-MELEE-1/2/3, IA-AMBUSH, IA-WOUNDED, IA-MASSED): the clash of one turn.

Why one clash: the text gives each pairing one clash a turn (the attacked saves and, if
saved, counterattacks once). A ``fight`` brings every ready friend touching the target
into the clash, so two on one is 1.5d6 and three or more 2d6, as the text counts them.
"""

from __future__ import annotations

from fractions import Fraction

from engine.actions import Fight
from engine.dice import Dist, Modifier, dice_sum, die
from engine.ruleset import Context, Odds
from engine.state import GameState, Model
from rulesets.inter_arma.build import mounted
from rulesets.inter_arma.chapters import combat, massed, measure
from rulesets.inter_arma.state import mv


def ready(state: GameState, m: Model) -> bool:
    return not m.removed and "wounded" not in m.status and mv(m).get("clashed") != state.turn


def attackers(state: GameState, a: Fight) -> list[Model]:
    """The actor first, then every ready friend in contact with the target (id order)."""
    m, t = state.models[a.actor], state.models[a.target]
    out = [m]
    for f in state.live(m.side):
        if f.id != m.id and ready(state, f) and measure.in_contact(f, t):
            out.append(f)
    return out


def check(state: GameState, ctx: Context, a: Fight) -> list[str]:
    m, t = state.models[a.actor], state.models.get(a.target)
    if t is None or t.removed or t.side == m.side:
        return [f"{a.target} is not an enemy figure on the table"]
    why = []
    if "wounded" in m.status:
        why.append(f"{m.id} is wounded and cannot fight (IA-WOUNDED)")
    if mv(m).get("clashed") == state.turn:
        why.append(f"{m.id} has had its clash this turn (IA-MELEE-1: one clash per turn)")
    if mv(t).get("clashed") == state.turn and "wounded" not in t.status:
        why.append(f"{t.id} has had its clash this turn (IA-MELEE-1: one clash per turn)")
    if not measure.in_contact(m, t):
        why.append(f"{t.id} is not in contact ({measure.gap_cm(m, t):.1f} cm away, IA-MELEE-1)")
    return why


def archer_penalty(state: GameState, m: Model) -> int:
    """IA-MELEE-1: \u22121 for an archer who shot earlier this turn."""
    return -1 if mv(m).get("shot") == state.turn else 0


def single_bonus(state: GameState, m: Model, other: Model) -> list[Modifier]:
    """IA-MELEE-1: the class difference in m's favour (+1 elite v regular, +1 commander v
    elite, +2 commander v regular; conscripts one worse against each, IA-CONSCRIPT)."""
    out = []
    diff = combat.quality(m) - combat.quality(other)
    if diff > 0:
        out.append(
            Modifier(diff, f"{m.stats['class']} against {other.stats['class']}", "IA-MELEE-1")
        )
    if archer_penalty(state, m):
        out.append(Modifier(-1, "archer who shot this turn", "IA-MELEE-1"))
    return out


def group_bonus(group: list[Model]) -> list[Modifier]:
    """IA-MELEE-2: +1 when the group includes an elite, +2 with a commander."""
    q = max(combat.quality(g) for g in group)
    return (
        [Modifier(q, f"group includes a {'commander' if q == 2 else 'elite'}", "IA-MELEE-2")]
        if q > 0
        else []
    )


def one_and_half() -> Dist:
    """IA-MELEE-2 '1.5d6', doubled to stay whole: 2 × the lower die + the higher die
    (two dice rolled, the higher one counted at half; IA-I-HALF)."""
    d: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            v = 2 * min(a, b) + max(a, b)
            d[v] = d.get(v, Fraction(0)) + Fraction(1, 36)
    return d


def initiative_dists(state: GameState, group: list[Model], t: Model) -> tuple[Dist, Dist, int]:
    """(group's, target's) doubled-total distributions and the scale (2 when doubled)."""
    n = len(group)
    if n == 1:
        ga = sum(x.value for x in single_bonus(state, group[0], t))
        gb = sum(x.value for x in single_bonus(state, t, group[0]))
        return _shift(die(6), ga), _shift(die(6), gb), 1
    gbonus = sum(x.value for x in group_bonus(group))
    solo = archer_penalty(state, t)
    if n == 2:
        return (
            _shift(one_and_half(), 2 * gbonus),
            _shift({2 * k: v for k, v in die(6).items()}, 2 * solo),
            2,
        )
    return _shift(dice_sum(2, 6), gbonus), _shift(die(6), solo), 1


def _shift(d: Dist, k: int) -> Dist:
    return {f + k: p for f, p in d.items()}


def p_group_first(state: GameState, group: list[Model], t: Model) -> Fraction:
    """Ties are rerolled, so the chance is P(win) / P(someone wins)."""
    owed = owed_first(state, group, t)
    if owed is not None:
        return Fraction(int(owed))
    a, b, _ = initiative_dists(state, group, t)
    win = sum(pa * pb for fa, pa in a.items() for fb, pb in b.items() if fa > fb)
    lose = sum(pa * pb for fa, pa in a.items() for fb, pb in b.items() if fa < fb)
    return Fraction(win) / (win + lose)


def ambushing(m: Model, group: list[Model]) -> bool:
    """IA-AMBUSH: a crawling figure striking alone is an ambush (single combat)."""
    return "crawling" in m.status and len(group) == 1


def attack_kind(m: Model) -> str:
    return "cavalry" if mounted(m) else "foot"


def counter_mods(group: list[Model], t: Model) -> list[Modifier]:
    """IA-MELEE-2: a lone figure's class bonus becomes a reduction of one enemy's save."""
    q = combat.quality(t)
    if len(group) >= 2 and q > 0:
        return [Modifier(-q, f"{t.id} fights alone as {t.stats['class']}", "IA-MELEE-2")]
    return []


def ambush_mods(t: Model) -> list[Modifier]:
    """IA-AMBUSH: the attacked saves at \u22122, \u22121 if armoured."""
    return [
        Modifier(-1 if t.stats.get("armored") else -2, "attacked by a crawling enemy", "IA-AMBUSH")
    ]


def _blow(
    state: GameState, ctx: Context, t: Model, by: Model, extra: list[Modifier]
) -> dict[str, Fraction]:
    """The outcome of ``by``'s blow on ``t``, with the modifiers of the moment."""
    kind = attack_kind(by)
    return combat.hit_dist(t, kind, extra + combat.situational(state, ctx, t, kind, by.id))


def odds(state: GameState, ctx: Context, a: Fight) -> Odds:
    m, t = state.models[a.actor], state.models[a.target]
    if "wounded" in t.status:
        return Odds(
            Fraction(1),
            dist={1: Fraction(1)},
            lines=[f"{t.id} is wounded (IA-WOUNDED)"],
            expected=Fraction(1),
        )
    group = attackers(state, a)
    survive = Fraction(1)
    if not ambushing(m, group) and massed.is_massed(state, a):
        return massed.odds(state, ctx, a)
    if ambushing(m, group):
        d = combat.p_down(_blow(state, ctx, t, m, ambush_mods(t)))
        return Odds(
            d,
            dist={0: 1 - d, 1: d},
            lines=[f"ambush: no initiative, {t.id} saves at a penalty (IA-AMBUSH)"],
            expected=d,
        )
    for g in group:
        survive *= 1 - combat.p_down(_blow(state, ctx, t, g, []))
    first = p_group_first(state, group, t)
    primary_up = 1 - combat.p_down(_blow(state, ctx, m, t, counter_mods(group, t)))
    down = first * (1 - survive) + (1 - first) * primary_up * (1 - survive)
    lines = [f"{len(group)} on 1: initiative to {m.id}'s side {float(first):.0%} (IA-MELEE-{min(len(group), 3)})",
             f"{t.id} put down {float(down):.0%}"]  # fmt: skip
    return Odds(down, dist={0: 1 - down, 1: down}, lines=lines, expected=down)


def owed_first(state: GameState, group: list[Model], t: Model) -> bool | None:
    """IA-AMBUSH: a figure that saved against an ambush has the initiative against its
    ambusher the next turn (True: the group has it, False: ``t`` has it, None: roll)."""
    if len(group) != 1:
        return None
    g = group[0]
    if mv(g).get("ambush_first") == [state.turn, t.id]:
        return True
    if mv(t).get("ambush_first") == [state.turn, g.id]:
        return False
    return None


def roll_initiative(state: GameState, ctx: Context, group: list[Model], t: Model) -> bool:
    """Roll until someone wins (ties reroll); True when the group strikes first."""
    owed = owed_first(state, group, t)
    if owed is not None:
        who = group[0] if owed else t
        ctx.log.emit("note", f"{who.id} has the initiative: it saved against an ambush last turn (IA-AMBUSH)",
                     actor=who.id, rule="IA-AMBUSH")  # fmt: skip
        return owed
    n = len(group)
    rule = f"IA-MELEE-{min(n, 3)}"
    ch = p_group_first(state, group, t)
    for _ in range(50):
        if n == 1:
            ra = ctx.dice.roll(
                6,
                f"{group[0].id} melee initiative",
                modifiers=single_bonus(state, group[0], t),
                actor=group[0].id,
                rule=rule,
                chance=ch,
            )
            rb = ctx.dice.roll(
                6,
                f"{t.id} melee initiative",
                modifiers=single_bonus(state, t, group[0]),
                actor=t.id,
                rule=rule,
            )
            va, vb = ra.total, rb.total
        else:
            halved = " (1.5d6: higher die halved)" if n == 2 else ""
            ra = ctx.dice.roll(
                6,
                f"{len(group)} on 1 initiative{halved}",
                n=2,
                modifiers=group_bonus(group),
                actor=group[0].id,
                rule=rule,
                chance=ch,
            )
            rb = ctx.dice.roll(
                6,
                f"{t.id} alone",
                modifiers=[Modifier(-1, "archer who shot this turn", rule)]
                if archer_penalty(state, t)
                else [],
                actor=t.id,
                rule=rule,
            )
            if n == 2:  # 1.5d6 in halves: twice the lower die plus the higher, against 2x
                lo, hi = min(ra.faces), max(ra.faces)
                va, vb = 2 * lo + hi + 2 * sum(x.value for x in ra.modifiers), 2 * rb.total
            else:
                va, vb = ra.total, rb.total
        word = (
            "group strikes first"
            if va > vb
            else f"{t.id} strikes first"
            if vb > va
            else "tie: reroll"
        )
        shown = f" (1.5d6 = {va / 2:g})" if n == 2 else ""
        ctx.log.emit("resolution", f"{ra.explain()}{shown} against {rb.explain()}: {word}", actor=group[0].id, target=t.id,
                     rule=rule, chance=float(ch), rolls=[*ra.faces, *rb.faces], outcome=word)  # fmt: skip
        if va != vb:
            return va > vb
    return True


def down(t: Model) -> bool:
    return t.removed or "wounded" in t.status


def apply(state: GameState, ctx: Context, a: Fight) -> None:
    m, t = state.models[a.actor], state.models[a.target]
    if "wounded" in t.status:
        wounded_fate(state, ctx, m, t, str(a.options.get("fate", "")))
        mv(m)["clashed"] = state.turn
        return
    group = attackers(state, a)
    if not ambushing(m, group) and massed.is_massed(state, a):
        massed.resolve(state, ctx, a)
        return
    for g in group:
        mv(g)["clashed"] = state.turn
    mv(t)["clashed"] = state.turn
    if ambushing(m, group):
        m.set_status("crawling", False)
        ctx.log.emit(
            "note",
            f"{m.id} strikes from hiding: no initiative roll (IA-AMBUSH)",
            actor=m.id,
            target=t.id,
            rule="IA-AMBUSH",
        )
        res = combat.resolve_hit(state, ctx, t, attack_kind(m), ambush_mods(t), m.id)
        if res in ("saved", "dismounted") and t.stats.get("class") == "commander":
            combat.resolve_hit(state, ctx, m, attack_kind(t), [], t.id)
        elif res in ("saved", "dismounted"):
            mv(t)["ambush_first"] = [state.turn + 1, m.id]
            ctx.log.emit("note", f"{t.id} saved: it cannot strike back now but has the initiative next turn (IA-AMBUSH)",
                         actor=t.id, target=m.id, rule="IA-AMBUSH")  # fmt: skip
        return
    if roll_initiative(state, ctx, group, t):
        _group_strikes(state, ctx, group, t)
        if not down(t) and not down(m):
            combat.resolve_hit(state, ctx, m, attack_kind(t), counter_mods(group, t), t.id)
        return
    combat.resolve_hit(state, ctx, m, attack_kind(t), counter_mods(group, t), t.id)
    if not down(m):
        _group_strikes(state, ctx, group, t)


def _group_strikes(state: GameState, ctx: Context, group: list[Model], t: Model) -> None:
    for g in group:
        if down(t):
            return
        if not down(g):
            combat.resolve_hit(state, ctx, t, attack_kind(g), [], g.id)


FATES = ("kill", "capture")


def commander_near(state: GameState, ctx: Context, m: Model, t: Model) -> bool:
    """IA-WOUNDED: an enemy commander who sees the wounded figure decides its fate."""
    return any(c.stats.get("class") == "commander" and "wounded" not in c.status and measure.in_sight(state, ctx, c, t)
               for c in state.live(m.side))  # fmt: skip


def wounded_fate(state: GameState, ctx: Context, m: Model, t: Model, fate: str) -> None:
    """IA-WOUNDED: the commander in range decides; else 1-2 kill, 3 leave, 4+ capture."""
    if commander_near(state, ctx, m, t):
        choice = fate if fate in FATES else "capture"
        ctx.log.emit(
            "note",
            f"{m.side}'s commander is in range and decides: {choice} {t.id} (IA-WOUNDED)",
            actor=m.id,
            target=t.id,
            rule="IA-WOUNDED",
        )
    else:
        r = ctx.dice.roll(6, f"fate of wounded {t.id}", actor=m.id, rule="IA-WOUNDED", need="4+ capture",
                          result=lambda tot, f: "kill" if tot <= 2 else "leave" if tot == 3 else "capture")  # fmt: skip
        ctx.log.emit("resolution", r.explain() + " (1-2 kill, 3 leave, 4+ capture; IA-I-WOUNDED)", actor=m.id, target=t.id,
                     rule="IA-WOUNDED", rolls=list(r.faces), outcome=str(r.result))  # fmt: skip
        choice = str(r.result)
    if choice == "leave":
        return
    t.removed = True
    t.hp = 0
    t.set_status("dead" if choice == "kill" else "captured")
    ctx.log.emit(
        "removed",
        f"{t.id} is {'killed' if choice == 'kill' else 'captured'} (IA-WOUNDED)",
        actor=t.id,
        rule="IA-WOUNDED",
        outcome=choice,
    )


def massed_order(a: list[int], b: list[int]) -> list[str]:
    """IA-MASSED: each side's dice sorted high to low and compared rank by rank; 'A' or
    'B' wins that rank's initiative, 'reroll' when equal (the rank rerolls one die each).
    The text's example: A 6,5,3,1 against B 5,5,2,2 -> A, reroll, A, B."""
    out = []
    for x, y in zip(sorted(a, reverse=True), sorted(b, reverse=True), strict=False):
        out.append("A" if x > y else "B" if y > x else "reroll")
    return out
