"""The Combat Score system (GM-COMBAT-SCORE) and parrying (GM-PARRY): the text's seven
steps for a close combat between two models, in place of the WS chart.

Why a contest: both models roll their Attack dice at once; only the highest die counts,
plus WS and the modifiers, and each 1 helps the foe and each extra 6 helps the roller.
The higher score wins and the difference is the number of hits, which then wound and
are saved as shots are (``wounds.resolve_hits``). Dice order (GM-I-DICE): the acting
model's attack dice, the foe's, the parry re-rolls (of the actor's dice first), then the
winner's to-wound rolls and the loser's saves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dice import Modifier
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.gemini import build
from rulesets.gemini.chapters import switches, wounds
from rulesets.gemini.chapters.options import fight_hooks
from rulesets.gemini.state import mv

OBSTACLES = ("hedge", "fence", "low_wall")
#: statuses in which a model adds no WS to its score (GM-COMBAT-SCORE 2)
NO_WS = ("routing", "running_for_cover")
#: the status of a model in a smoke or blind cloud (GM-COMBAT-SCORE, GM-I-SMOKE)
SMOKE = "in_smoke"


@dataclass
class Side:
    """One combatant's half of the contest."""

    model: Model
    dice: list[int] = field(default_factory=list)
    mods: list[Modifier] = field(default_factory=list)
    ws: int = 0
    score: int = 0
    #: (index, face before) of each die the foe's parry made it re-roll (GM-PARRY)
    parried: list[tuple[int, int]] = field(default_factory=list)

    @property
    def best(self) -> int:
        return max(self.dice) if self.dice else 0


def hand_weapons(m: Model) -> list[dict[str, Any]]:
    """The melee weapons the model fights with (a shield is not struck with)."""
    ws = [w for w in build.melee_weapons(m) if w.get("parry") != "always"]
    return ws or [build.melee_weapon(m)]


def attack_dice(state: GameState, ctx: Context, m: Model, foe: Model) -> int:
    """GM-COMBAT-SCORE 1: A dice, +1 for a weapon in each hand, +1 from the rear in the
    first round (the turn it charged)."""
    n = max(1, int(m.stat("A", 1)))
    if len(hand_weapons(m)) >= 2:
        n += 1
    if mv(m).get("charged") == state.turn and ctx.table.zone_of(foe, m) == "rear":
        n += 1
    return n


def modifiers(state: GameState, ctx: Context, m: Model, foe: Model) -> list[Modifier]:
    """GM-COMBAT-SCORE: the score modifiers the text's table lists."""
    out: list[Modifier] = []
    rule = "GM-COMBAT-SCORE"
    if mv(m).get("charged") == state.turn:
        zone = ctx.table.zone_of(foe, m)
        if zone in ("flank", "rear"):
            out.append(Modifier(2, f"charging the {zone}", rule))
        else:
            out.append(Modifier(1, "charging", rule))
        if mv(m).get("charge_obstacle") == state.turn:
            out.append(Modifier(-1, "charged a foe behind an obstacle", rule))
    if ctx.geo.elevation_at(m.pos) > ctx.geo.elevation_at(foe.pos) + 1e-9:
        out.append(Modifier(1, "higher up", rule))
    if any(w.get("class") == "heavy" for w in m.weapons):
        out.append(Modifier(-1, "encumbered", rule))
    size = hand_weapons(m)[0].get("size", "normal")
    if size == "improvised":
        out.append(Modifier(-1, "improvised weapon", rule))
    elif size == "unarmed":
        out.append(Modifier(-2, "unarmed", rule))
    return out


def parries(m: Model, foe: Model) -> int:
    """GM-PARRY: re-rolls ``m`` forces on ``foe``'s dice: one per parrying weapon (two
    at most) whose parry value is at least the foe's weapon's; shields always parry."""
    foe_value = max(_parry_value(w) for w in hand_weapons(foe))
    n = 0
    for w in build.melee_weapons(m):
        p = w.get("parry", 0)
        if p == "always" or (isinstance(p, int) and p > 0 and p >= foe_value):
            n += 1
    return min(n, 2)


def _parry_value(w: dict[str, Any]) -> int:
    p = w.get("parry", 0)
    return 7 if p == "always" else int(p)


def roll_dice(ctx: Context, side: Side, n: int, foe: Model) -> None:
    m = side.model
    r = ctx.dice.roll(6, f"{m.id} attack dice against {foe.id} (Combat Score)", n=n,
                      actor=m.id, rule="GM-COMBAT-SCORE",
                      result=lambda tot, f: f"highest {max(f, default=0)}")  # fmt: skip
    wounds.report(ctx, r, m.id, "GM-COMBAT-SCORE", foe.id)
    side.dice = list(r.faces)


def reroll(ctx: Context, side: Side, by: Model, times: int) -> None:
    """GM-PARRY: re-roll the highest die ``times``; with two or more dice the model
    keeps its next highest if that is better (the best of the dice stands)."""
    for _ in range(times):
        k = side.dice.index(side.best)
        old = side.dice[k]
        r = ctx.dice.roll(6, f"{by.id} parries: {side.model.id} re-rolls its {old}",
                          actor=side.model.id, rule="GM-PARRY",
                          result=lambda tot, f: f"now {tot}")  # fmt: skip
        wounds.report(ctx, r, side.model.id, "GM-PARRY", by.id)
        side.dice[k] = r.faces[0]
        side.parried.append((k, old))


def score(side: Side, foe: Side) -> None:
    """GM-COMBAT-SCORE 2: highest die + WS + modifiers; +1 per foe's 1, +1 per own 6
    after the first."""
    fumbles = foe.dice.count(1)
    crits = max(0, side.dice.count(6) - 1)
    if fumbles:
        side.mods.append(Modifier(fumbles, f"{foe.model.id}'s fumbles", "GM-COMBAT-SCORE"))
    if crits:
        side.mods.append(Modifier(crits, "critical hits", "GM-COMBAT-SCORE"))
    side.score = side.best + side.ws + sum(x.value for x in side.mods)


def explain(side: Side) -> str:
    dice = ", ".join(map(str, side.dice))
    mods = "".join(f" {'+' if x.value >= 0 else '−'} {abs(x.value)} {x.reason}" for x in side.mods)
    parried = ", ".join(f"{old} parried, now {side.dice[k]}" for k, old in side.parried)
    dice += f" ({parried})" if parried else ""
    return f"{side.model.id} rolled {dice}: {side.best} + WS {side.ws}{mods} = {side.score}"


def shown(side: Side) -> dict[str, Any]:
    """One side of the contest as the window draws it (``engine.ui`` reads ``contest``):
    who, the dice as they stand, which were re-rolled by a parry, the sum."""
    sum_ = f"{side.best} + WS {side.ws}" + "".join(
        f" {'+' if x.value >= 0 else '−'} {abs(x.value)} {x.reason}" for x in side.mods
    )
    return {"model": side.model.id, "dice": list(side.dice),
            "parried": [k for k, _ in side.parried], "sum": sum_, "score": side.score}  # fmt: skip


def ws_of(state: GameState, m: Model) -> int:
    """WS as it adds to the score: none while routing or running for cover; halved,
    rounding up, in a smoke or blind cloud (status ``in_smoke``, GM-I-SMOKE)."""
    if any(s in m.status for s in NO_WS):
        return 0
    ws = fight_hooks.defend_ws(state, m)
    return -(-ws // 2) if SMOKE in m.status else ws


def contest(state: GameState, ctx: Context, m: Model, foe: Model) -> tuple[Side, Side]:
    """Steps 1 and 2: both sides' dice, parries and scores."""
    a, b = Side(m, ws=ws_of(state, m)), Side(foe, ws=ws_of(state, foe))
    roll_dice(ctx, a, fight_hooks.attack_dice(state, ctx, m, attack_dice(state, ctx, m, foe)), foe)
    roll_dice(ctx, b, fight_hooks.attack_dice(state, ctx, foe, attack_dice(state, ctx, foe, m)), m)
    if switches.of(state).parry:
        reroll(ctx, a, foe, parries(foe, m))
        reroll(ctx, b, m, parries(m, foe))
    a.mods, b.mods = modifiers(state, ctx, m, foe), modifiers(state, ctx, foe, m)
    score(a, b)
    score(b, a)
    return a, b


def winner(a: Side, b: Side) -> tuple[Side | None, int]:
    """Steps 3 and 4: the winner and its hits (a tie goes to the higher I with one hit;
    still tied, a stand-off)."""
    if a.score != b.score:
        w = a if a.score > b.score else b
        return w, abs(a.score - b.score)
    ia, ib = int(a.model.stat("I")), int(b.model.stat("I"))
    if ia == ib:
        return None, 0
    return (a if ia > ib else b), 1


def fight(state: GameState, ctx: Context, m: Model, foe: Model) -> None:
    """GM-COMBAT-SCORE: one contest of ``m`` against ``foe`` (several foes are fought one
    at a time: each is its own Fight); steps 5 to 7 through ``wounds``."""
    a, b = contest(state, ctx, m, foe)
    won, hits = winner(a, b)
    verdict = "a stand-off" if won is None else f"{won.model.id} wins: {hits} hit(s)"
    ctx.log.emit("resolution", f"Combat Score: {explain(a)}; {explain(b)}: {verdict}",
                 actor=m.id, target=foe.id, rule="GM-COMBAT-SCORE", rolls=a.dice + b.dice,
                 outcome="stand-off" if won is None else f"{won.model.id} {hits}",
                 data={"scores": {m.id: a.score, foe.id: b.score}, "hits": hits,
                       "contest": [shown(a), shown(b)], "verdict": verdict})  # fmt: skip
    if won is None or hits <= 0:
        return
    lost = b.model if won is a else a.model
    ws = hand_weapons(won.model)
    s = int(won.model.stat("S"))
    hit_list = [
        wounds.Hit(int(w.get("S", s)), int(w.get("save", 0)), w, "melee")
        for w in (ws[k % len(ws)] for k in range(hits))
    ]
    wounds.resolve_hits(state, ctx, won.model, lost, hit_list, "GM-COMBAT-SCORE")
