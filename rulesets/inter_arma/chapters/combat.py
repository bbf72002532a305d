"""Saving rolls, the horse-or-rider die and ranged hits, with their exact odds (IA-SAVE,
IA-CAVALRY, IA-RANGED).

Why odds and rolls side by side: the distribution each function gives is the one the
matching roll draws from, so the preview, the AI and the log never disagree.
"""

from __future__ import annotations

from fractions import Fraction

from engine.dice import Modifier, Roll, die, prob
from engine.ruleset import Context
from engine.state import GameState, Model
from rulesets.inter_arma.build import foot_type, mounted
from rulesets.inter_arma.chapters import tables as T
from rulesets.inter_arma.state import gs, mv

SIXTH = Fraction(1, 6)
DOWN = ("dead", "wounded")


def quality(m: Model) -> int:
    return T.QUALITY.get(str(m.stats.get("class", "regular")), 0)


def save_row(m: Model) -> tuple[int, int]:
    """IA-SAVE / IA-CAVALRY: (wounded on or below, dead on or below) for the figure."""
    armored = bool(m.stats.get("armored"))
    if mounted(m):
        return T.SAVE_RIDER[armored]
    if armored:
        return T.SAVE_FOOT["armored"]
    if foot_type(m) == "skirmisher":
        return T.SAVE_FOOT["skirmisher"]
    return T.SAVE_FOOT["shield" if m.stats.get("shield") else "infantry"]


def horse_row(m: Model) -> tuple[int, int]:
    """IA-I-HORSE: the horse saves as foot of its armour (armoured rider, armoured horse)."""
    return T.SAVE_FOOT["armored" if m.stats.get("armored") else "infantry"]


def verdict(total: int, row: tuple[int, int]) -> str:
    return "dead" if total <= row[1] else "wounded" if total <= row[0] else "saved"


def save_mods(m: Model, extra: list[Modifier]) -> list[Modifier]:
    """IA-SAVE: +1 elite, +2 commander (conscripts \u22121, IA-CONSCRIPT), plus ``extra``."""
    q = quality(m)
    out = [Modifier(q, str(m.stats.get("class")), "IA-SAVE")] if q else []
    return out + list(extra)


def save_dist(row: tuple[int, int], mod: int) -> dict[str, Fraction]:
    d: dict[str, Fraction] = {"dead": Fraction(0), "wounded": Fraction(0), "saved": Fraction(0)}
    for f, p in die(6).items():
        d[verdict(f + mod, row)] += p
    return d


def horse_faces(attack: str) -> set[int]:
    """IA-CAVALRY: the faces on which the blow falls on the horse. ``attack`` is the
    range band of a shot, or 'foot' / 'cavalry' for the attacker in melee."""
    return {"short": {1, 2, 3}, "medium": {1, 2}, "long": {1, 2}, "foot": {3, 4, 5, 6}}.get(
        attack, {4, 5, 6}
    )


def hit_dist(t: Model, attack: str, extra: list[Modifier]) -> dict[str, Fraction]:
    """Outcome of one hit on ``t``: dead / wounded / dismounted / saved, exactly."""
    mod = sum(x.value for x in save_mods(t, extra))
    if not mounted(t):
        return save_dist(save_row(t), mod)
    p_horse = Fraction(len(horse_faces(attack)), 6)
    horse = save_dist(horse_row(t), 0)
    rider = save_dist(save_row(t), mod)
    out = {k: (1 - p_horse) * v for k, v in rider.items()}
    out["dismounted"] = p_horse * (horse["dead"] + horse["wounded"])
    out["saved"] += p_horse * horse["saved"]
    return out


def p_down(d: dict[str, Fraction]) -> Fraction:
    return d.get("dead", Fraction(0)) + d.get("wounded", Fraction(0))


def situational(
    state: GameState, ctx: Context, t: Model, attack: str, by: str, height: bool = False
) -> list[Modifier]:
    """Save modifiers of the moment: a closed formation (IA-SAVE c) and an inspired
    commander's blow (IA-MORALE 12: +1 damage in his next combat, IA-I-INSPIRED)."""
    from rulesets.inter_arma.chapters import formation

    band = attack if attack in T.TO_HIT else ""
    out = formation.save_mods(state, ctx, t, band, height) if attack != "break" else []
    s = state.models.get(by)
    if s is not None and mv(s).get("inspired"):
        out.append(Modifier(-1, f"{by} is inspired: +1 damage", "IA-MORALE"))
    return out


def resolve_hit(
    state: GameState,
    ctx: Context,
    t: Model,
    attack: str,
    extra: list[Modifier],
    by: str,
    height: bool = False,
) -> str:
    """Roll the hit's saves on ``t`` and apply the result; returns the outcome word.
    The closed formation and inspiration modifiers are added here (``situational``)."""
    extra = list(extra) + situational(state, ctx, t, attack, by, height)
    s = state.models.get(by)
    if s is not None:
        mv(s).pop("inspired", None)
    if mounted(t):
        faces = horse_faces(attack)
        need = "/".join(str(f) for f in sorted(faces))
        r = ctx.dice.roll(6, f"{t.id} horse or rider", need=need, chance=Fraction(len(faces), 6), actor=t.id,
                          rule="IA-CAVALRY", result=lambda tot, f: "horse" if tot in faces else "rider")  # fmt: skip
        report(ctx, r, actor=by, target=t.id, rule="IA-CAVALRY")
        if r.result == "horse":
            row = horse_row(t)
            h = ctx.dice.roll(6, f"{t.id}'s horse saves", need=f"{row[0] + 1}+", chance=save_dist(row, 0)["saved"],
                              actor=t.id, rule="IA-CAVALRY", result=lambda tot, f: verdict(tot, row))  # fmt: skip
            report(ctx, h, actor=by, target=t.id, rule="IA-CAVALRY")
            if h.result != "saved":
                t.set_status("dismounted")
                ctx.log.emit(
                    "status",
                    f"{t.id}'s horse is {h.result}: {t.id} fights on foot (IA-CAVALRY)",
                    actor=t.id,
                    rule="IA-CAVALRY",
                    outcome="dismounted",
                )
                return "dismounted"
            return "saved"
    row = save_row(t)
    mods = save_mods(t, extra)
    ch = save_dist(row, sum(x.value for x in mods))["saved"]
    r = ctx.dice.roll(6, f"{t.id} saves", modifiers=mods, need=f"{row[0] + 1}+", chance=ch, actor=t.id,
                      rule="IA-SAVE", result=lambda tot, f: verdict(tot, row))  # fmt: skip
    ctx.log.emit("resolution", r.explain() + f" (wounded on {row[0]} or less, dead on {row[1]} or less)",
                 actor=by, target=t.id, rule="IA-SAVE", chance=float(ch), rolls=list(r.faces), outcome=str(r.result))  # fmt: skip
    fall(state, ctx, t, str(r.result))
    return str(r.result)


def fall(state: GameState, ctx: Context, t: Model, result: str) -> None:
    """Apply a save's result: the dead leave the table, the wounded stay (IA-WOUNDED)."""
    if result == "dead":
        t.hp = 0
        t.removed = True
        t.set_status("dead")
        gs(state).setdefault("losses", {}).setdefault(t.side, 0)
        gs(state)["losses"][t.side] += 1
        ctx.log.emit(
            "removed", f"{t.id} is killed (IA-SAVE)", actor=t.id, rule="IA-SAVE", outcome="dead"
        )
    elif result == "wounded":
        t.set_status("wounded")
        t.set_status("crawling", False)
        gs(state).setdefault("losses", {}).setdefault(t.side, 0)
        gs(state)["losses"][t.side] += 1
        ctx.log.emit(
            "status",
            f"{t.id} is wounded: it stays in place and cannot fight (IA-WOUNDED)",
            actor=t.id,
            rule="IA-WOUNDED",
            outcome="wounded",
        )


def to_hit_chance(need: int, mod: int) -> Fraction:
    return prob(die(6), lambda f: f + mod >= need)


def report(ctx: Context, r: Roll, **kw: object) -> None:
    """Log a roll as a resolution: its explanation, faces and result, plus the actor,
    target, rule and chance the caller names (one shape for every Inter Arma roll)."""
    ctx.log.emit("resolution", r.explain(), **kw, rolls=list(r.faces), outcome=str(r.result))
