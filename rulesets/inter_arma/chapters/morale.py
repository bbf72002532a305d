"""Army morale (IA-MORALE): 2d6 for the whole warband in critical situations, with the
casualty modifiers, and its four results.

Why a threshold: the text tests "in critical situations (high losses etc.)" without a
number; we call a turn critical for a side when it lost a figure that turn and its
losses have reached a third of its strength (IA-I-CRITICAL).
"""

from __future__ import annotations

from functools import partial

from engine.dice import Modifier, dice_sum, prob
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.chapters import goals, measure, night
from rulesets.inter_arma.state import gs, mv


def down(m: Model) -> bool:
    return m.removed or "wounded" in m.status


def lost(state: GameState, side: str) -> list[Model]:
    return [
        m for m in state.models.values() if m.side == side and down(m) and "fled" not in m.status
    ]


def role(m: Model) -> str:
    """IA-I-ALLIES: 'civilian', 'ally' (an allied figure on the side) or 'soldier'."""
    return "civilian" if mv(m).get("civilian") else "ally" if mv(m).get("ally") else "soldier"


def _per(mods: list[Modifier], n: int, each: int, sign: int, what: str) -> None:
    if n // each:
        mods.append(Modifier(sign * (n // each), what, "IA-MORALE"))


def modifiers(state: GameState, side: str) -> list[Modifier]:
    """IA-MORALE a): +1 per 2 enemy down, \u22121 per 3 own down, \u22121 per 4 allies
    down, \u00b11 for commanders killed, \u00b11 per 3 civilians killed; then the goals."""
    mods: list[Modifier] = []
    enemy = [m for s in state.sides if s != side for m in lost(state, s)]
    own = lost(state, side)
    foes = [m for m in enemy if role(m) != "civilian"]
    _per(mods, len(foes), 2, 1, f"{len(foes)} enemy killed or wounded")
    mine = [m for m in own if role(m) == "soldier"]
    _per(mods, len(mine), 3, -1, f"{len(mine)} own killed or wounded")
    allies = [m for m in own if role(m) == "ally"]
    _per(mods, len(allies), 4, -1, f"{len(allies)} allies killed or wounded")
    if any(m.removed and m.stats.get("class") == "commander" for m in foes):
        mods.append(Modifier(1, "enemy commander killed", "IA-MORALE"))
    if any(
        m.removed and m.stats.get("class") == "commander" and role(m) != "civilian" for m in own
    ):
        mods.append(Modifier(-1, "own commander killed", "IA-MORALE"))
    _per(
        mods,
        len([m for m in enemy if role(m) == "civilian" and killed(m)]),
        3,
        1,
        "enemy civilians killed",
    )
    _per(
        mods,
        len([m for m in own if role(m) == "civilian" and killed(m)]),
        3,
        -1,
        "own civilians killed",
    )
    return mods + goals.modifiers(state, side)


def killed(m: Model) -> bool:
    return m.removed and "dead" in m.status


def _holds_regular(total: int, k: int) -> bool:
    return total + k >= 9


def critical(state: GameState, side: str) -> bool:
    seen = gs(state).setdefault("morale_seen", {})
    n = len([m for m in lost(state, side) if role(m) != "civilian"])
    total = len([m for m in state.models.values() if m.side == side and role(m) != "civilian"])
    was = int(seen.get(side, 0))
    seen[side] = n
    return n > was and 3 * n >= total


def verdict(total: int) -> str:
    return (
        "retreat"
        if total <= 4
        else "initiative lost"
        if total <= 8
        else "regular"
        if total <= 11
        else "inspired"
    )


def army_test(state: GameState, ctx: Context, side: str) -> str:
    """IA-MORALE: the whole warband throws 2d6 with the modifiers; the result is applied
    (a lost initiative waits for the end of the turn). Returns the result word."""
    mods = modifiers(state, side)
    k = sum(x.value for x in mods)
    ch = prob(dice_sum(2, 6), partial(_holds_regular, k=k))
    r = ctx.dice.roll(6, f"{side} army morale", n=2, modifiers=mods, need="9+ to act regularly", chance=ch,
                      actor=side, rule="IA-MORALE", result=lambda tot, f: verdict(tot))  # fmt: skip
    ctx.log.emit("morale", r.explain(), actor=side, rule="IA-MORALE", chance=float(ch), rolls=list(r.faces),
                 outcome=str(r.result))  # fmt: skip
    if r.result == "retreat":
        retreat(state, ctx, side)
    elif r.result == "initiative lost":
        lost_init = gs(state)["ia"].setdefault("lose_init", [])
        if side not in lost_init:
            lost_init.append(side)
    elif r.result == "inspired":
        gs(state).setdefault("inspired", []).append(side)
        inspire(state, ctx, side)
    return str(r.result)


def end_of_turn(state: GameState, ctx: Context) -> None:
    """IA-MORALE: each side in a critical situation tests; a 5-8 of this turn's tests
    hands the initiative over for the next turn (unchanged when every side has it)."""
    goals.burn(state, ctx)
    for side in list(state.sides):
        if state.over or not critical(state, side):
            continue
        army_test(state, ctx, side)
    for side in night.disorder(state, ctx):
        if not state.over:
            army_test(state, ctx, side)
    lose_init = gs(state)["ia"].pop("lose_init", [])
    order = gs(state)["ia"]["order"]
    if lose_init and len(lose_init) < len(order):
        gs(state)["ia"]["order"] = [s for s in order if s not in lose_init] + [
            s for s in order if s in lose_init
        ]
        ctx.log.emit(
            "initiative",
            f"{', '.join(lose_init)} lose the initiative next turn (IA-MORALE 5-8)",
            rule="IA-MORALE",
        )


def retreat(state: GameState, ctx: Context, side: str) -> None:
    """IA-MORALE 0-4: the warband runs; a commander rolls a d6 for each soldier it sees,
    3+ holds it, at most twice per commander. Those who run leave the table (IA-I-RETREAT)."""
    chiefs = [
        c
        for c in state.live(side)
        if c.stats.get("class") == "commander" and "wounded" not in c.status
    ]
    for m in state.live(side):
        if "wounded" in m.status or m in chiefs:
            continue
        held = False
        for c in chiefs:
            used = int(mv(c).get("holds", 0))
            if used >= 2 or not measure.in_sight(state, ctx, c, m):
                continue
            r = ctx.dice.roll(
                6,
                f"{c.id} holds {m.id}",
                need="3+",
                actor=c.id,
                rule="IA-MORALE",
                result=lambda t, f: "holds" if t >= 3 else "runs",
            )
            ctx.log.emit(
                "morale",
                r.explain(),
                actor=c.id,
                target=m.id,
                rule="IA-MORALE",
                rolls=list(r.faces),
                outcome=str(r.result),
            )
            if r.result == "holds":
                mv(c)["holds"] = used + 1
                held = True
            break
        if not held:
            m.removed = True
            m.set_status("fled")
            ctx.log.emit(
                "removed",
                f"{m.id} runs from the field (IA-MORALE 0-4)",
                actor=m.id,
                rule="IA-MORALE",
                outcome="fled",
            )


def inspire(state: GameState, ctx: Context, side: str) -> None:
    """IA-MORALE 12: the commander has +1 damage in his next combat: the next figure he
    strikes (a blow or a shot) saves 1 worse (IA-I-INSPIRED)."""
    for c in state.live(side):
        if c.stats.get("class") == "commander" and "wounded" not in c.status:
            mv(c)["inspired"] = True
            ctx.log.emit("morale", f"{c.id} is inspired: +1 damage in his next combat (IA-MORALE 12)",
                         actor=c.id, rule="IA-MORALE")  # fmt: skip
