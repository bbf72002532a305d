"""Magic (GEM-3.5): wizards' offensive and defensive power points, one spell of each kind
per wizard per magic segment, secret power, and resolution on Table 1 first against the
paired defensive spell and then against the target's MAG.

Why the power is kept apart from the card: at the table the spell's card lies face up by
its target and the power is written on the hidden side until every card is down. The
state keeps the cards in ``gs(state)["magic"]["cards"]`` and ``view.redact``
blanks the other side's power (and plans) for a hotseat player's view.

The rulebook gives one spell effect (a point of MOV per power level); the others are the
designer's interpretations listed in reference.toml (GEM-I-SPELLS).
"""

from __future__ import annotations

import math
from typing import Any

from engine.dice import Modifier
from engine.ruleset import OUT_OF_RANGE, Context, Reason
from engine.state import GameState, Model

from ..state import gs, mtype, mv, unit_models
from . import measure
from .combat import Attack, roll_attack
from .damage import apply_hits
from .tables import clamp10, rng, table1
from .tables import data as tables

PAIRS = {
    "Indolence of Beavis": "Vigor of Hrothgar",
    "Dread of Morphus": "Peace of Jude",
    "Bane of Vex": "Benevolence of Angeline",
    "Eye of Smaug": "Defense of St. George",
    "Sloth of Grimgut": "Haste of Gygax",
}
OFFENSIVE = tuple(PAIRS)
DEFENSIVE = tuple(PAIRS.values())
SPELLS = OFFENSIVE + DEFENSIVE


def spell_name(name: str) -> str | None:
    for s in SPELLS:
        if s.lower() == name.strip().lower():
            return s
    return None


def kind_of(spell: str) -> str:
    return "offensive" if spell in OFFENSIVE else "defensive"


def mag(state: GameState, unit: str) -> int:
    """The unit's MAG: its best figure's (a unit resists as a whole)."""
    return clamp10(max((int(m.stat("MAG", 2)) for m in unit_models(state, unit)), default=2))


def data(state: GameState) -> dict[str, Any]:
    gg = gs(state)
    mg = gg.setdefault("magic", {"cards": [], "effects": {}, "turn": state.turn})
    if mg.get("turn") != state.turn:
        mg["cards"], mg["effects"], mg["turn"] = [], {}, state.turn
        mg.pop("lying", None)
    return mg


def _bump(state: GameState, unit: str, key: str, v: int) -> None:
    e = data(state)["effects"].setdefault(unit, {})
    e[key] = e.get(key, 0) + v


# ------------------------------------------------------------------ casting
def cast_problems(
    state: GameState, w: Model, spell: str, target_unit: str | None, power: int
) -> list[str]:
    out = []
    if mtype(w) != "wizard":
        return [f"{w.id} is not a wizard (GEM-3.5.1)"]
    sp = spell_name(spell)
    if sp is None:
        return [f"unknown spell '{spell}' (spells: {', '.join(SPELLS)})"]
    kind = kind_of(sp)
    want = "magic_offence" if kind == "offensive" else "magic_defence"
    if state.phase != want and state.phase != "cards":  # cards: its magic card (rules.py)
        out.append(
            f"{kind} spells are cast in the {want.replace('_', ' ')} step of the magic "
            f"segment (GEM-3.5.2)"
        )
    flag = "cast_off" if kind == "offensive" else "cast_def"
    if w.vars.get(flag):
        out.append(f"{w.id} has already cast an {kind} spell this turn (GEM-3.5.1)")
    pool = int(mv(w).get("power", {}).get(kind, 0))
    if not 1 <= power <= 10:
        out.append(f"a spell's power level is 1 to 10, not {power} (GEM-3.5.1)")
    elif power > pool:
        out.append(f"{w.id} has only {pool} {kind} power points left (GEM-3.5.1)")
    if target_unit is None or not unit_models(state, target_unit):
        out.append("no such unit on the table")
        return out
    tside = unit_models(state, target_unit)[0].side
    if kind == "offensive" and tside == w.side:
        out.append("offensive spells are cast on enemy units")
    if kind == "defensive" and tside != w.side:
        out.append("defensive spells are cast on your own units")
    d = min(measure.distance(w, m) for m in unit_models(state, target_unit))
    if d > rng("spell_range") + 1e-9:
        out.append(
            Reason(
                f'{target_unit} is out of spell range ({d:.1f}" > {rng("spell_range"):g}", '
                f"GEM-I-SPELLRANGE)",
                OUT_OF_RANGE,
                distance=d,
                limit=rng("spell_range"),
            )
        )
    return out


def _spend(w: Model, spell: str, target_unit: str, power: int) -> dict[str, Any]:
    """GEM-3.5.1: the wizard's spell of this kind for the turn, paid from its pool."""
    sp = spell_name(spell) or spell
    kind = kind_of(sp)
    mv(w)["cast_off" if kind == "offensive" else "cast_def"] = True
    mv(w)["power"][kind] = int(mv(w)["power"][kind]) - power
    return {
        "side": w.side,
        "wizard": w.id,
        "spell": sp,
        "kind": kind,
        "target": target_unit,
        "power": int(power),
    }


def cast(
    state: GameState, ctx: Context, w: Model, spell: str, target_unit: str, power: int
) -> None:
    """GEM-3.5.2: the card is laid by its target, its power hidden until resolve()."""
    sp = spell_name(spell) or spell
    data(state)["cards"].append(_spend(w, spell, target_unit, power))
    ctx.log.emit(
        "note",
        f"{w.id} lays a card of {sp} by {target_unit} (power hidden until "
        f"the cards are turned, GEM-3.5.2)",
        actor=w.id,
        target=target_unit,
        rule="GEM-3.5.2",
    )


def cast_at_once(
    state: GameState, ctx: Context, w: Model, spell: str, target_unit: str, power: int
) -> None:
    """GEM-2.5 with magic cards: "the results of the card are immediately worked out".
    No card of the other side can be waiting unseen, so GEM-3.5.3 is played at once
    (GEM-I-MAGICCARDS): a defensive spell beats MAG for its effect and its card stays by
    the unit for the turn; an offensive spell must first beat the paired defensive card
    of the other side lying by its target (which it uses up), then the target's MAG."""
    c = _spend(w, spell, target_unit, power)
    ctx.log.emit(
        "note",
        f"{w.id} casts {c['spell']} at power {power} on {target_unit} (magic card, GEM-2.5)",
        actor=w.id,
        target=target_unit,
        rule="GEM-2.5",
    )
    lying = data(state).setdefault("lying", [])
    unit = target_unit
    if c["kind"] == "offensive":
        opp = next(
            (
                d
                for d in lying
                if d["target"] == unit
                and d["spell"] == PAIRS[c["spell"]]
                and d["side"] != c["side"]
                and not d.get("spent")
            ),
            None,
        )
        if opp is not None:
            opp["spent"] = True
            if not _contest(ctx, c, opp["power"], f"{opp['spell']} ({opp['power']})", unit):
                return
    else:
        lying.append(c)
    if unit_models(state, unit) and _contest(
        ctx, c, mag(state, unit), f"MAG {mag(state, unit)}", unit
    ):
        _effect(state, ctx, c)


def can_cast_more(state: GameState, unit: str) -> bool:
    """A wizard of ``unit`` still has a spell of a kind it has not cast this turn
    (GEM-3.5.1: one offensive and one defensive), so its magic card stays up."""
    return any(
        mtype(w) == "wizard"
        and any(
            int(mv(w).get("power", {}).get(kind, 0)) > 0
            and not mv(w).get("cast_off" if kind == "offensive" else "cast_def")
            for kind in ("offensive", "defensive")
        )
        for w in unit_models(state, unit)
    )


# ------------------------------------------------------------------ resolution
def resolve(state: GameState, ctx: Context) -> None:
    """GEM-3.5.3: turn every card, unit by unit: offensive spells first against their
    paired defensive spell, then against MAG; unopposed defensive spells against MAG."""
    mg = data(state)
    cards = mg["cards"]
    used: set[int] = set()
    for unit in sorted({c["target"] for c in cards}):
        for i, c in enumerate(cards):
            if c["target"] != unit or c["kind"] != "offensive":
                continue
            used.add(i)
            opp = next(
                (
                    j
                    for j, d in enumerate(cards)
                    if j not in used
                    and d["target"] == unit
                    and d["spell"] == PAIRS[c["spell"]]
                    and d["side"] != c["side"]
                ),
                None,
            )
            if opp is not None:
                used.add(opp)
                d = cards[opp]
                if not _contest(ctx, c, d["power"], f"{d['spell']} ({d['power']})", unit):
                    continue
            if not unit_models(state, unit):
                continue
            if _contest(ctx, c, mag(state, unit), f"MAG {mag(state, unit)}", unit):
                _effect(state, ctx, c)
        for i, c in enumerate(cards):
            if c["target"] != unit or i in used:
                continue
            used.add(i)
            if unit_models(state, unit) and _contest(
                ctx, c, mag(state, unit), f"MAG {mag(state, unit)}", unit
            ):
                _effect(state, ctx, c)
    mg["cards"] = []


def _contest(ctx: Context, c: dict[str, Any], dfn: int, against: str, unit: str) -> bool:
    cell = table1(c["power"], dfn)
    chance = cell.chance(0)
    r = ctx.dice.roll(
        20,
        f"{c['spell']} (power {c['power']}) against {against}",
        need=cell.text(),
        chance=chance,
        actor=c["wizard"],
        rule="GEM-3.5.3",
        result=lambda _t, fs: "succeeds" if cell.hits(fs[0], 0) else "fails",
    )
    ctx.log.emit(
        "resolution",
        r.explain() + f" (power {c['power']} as OFF vs {against} as DEF on Table 1, GEM-3.5.3)",
        actor=c["wizard"],
        target=unit,
        rule="GEM-3.5.3",
        chance=float(chance),
        rolls=list(r.faces),
        outcome=str(r.result),
    )
    return r.result == "succeeds"


def _effect(state: GameState, ctx: Context, c: dict[str, Any]) -> None:
    """GEM-3.5.4 and the designer's interpretations GEM-I-SPELLS."""
    unit, p, sp = c["target"], int(c["power"]), c["spell"]
    half, third = math.ceil(p / 2), math.ceil(p / 3)
    text = ""
    factor = tables().get("spells", {}).get(sp)
    if factor is not None:
        v = factor["sign"] * math.ceil(p / factor["per"])
        _bump(state, unit, factor["factor"], v)
        text = f"{v:+d} {factor['text']}"
    elif sp == "Benevolence of Angeline":
        healed = 0
        for m in unit_models(state, unit):
            while healed < third and m.hp < m.max_hp:
                m.hp += 1
                healed += 1
        text = f"{healed} HIT restored"
    ctx.log.emit(
        "status",
        f"{sp} takes effect on {unit}: {text}" if text else f"{sp} takes effect on {unit}",
        actor=c["wizard"],
        target=unit,
        rule="GEM-3.5.4",
        outcome=sp,
    )
    if sp == "Dread of Morphus":
        from .morale import check

        check(
            state,
            ctx,
            unit,
            "fear",
            f"Dread of Morphus (power {p})",
            [Modifier(-half, "Dread of Morphus", "GEM-3.5.4")],
        )
    elif sp == "Bane of Vex":
        ms = unit_models(state, unit)
        if ms:
            from ..build import def_value

            t = ms[0]
            a = Attack(clamp10(p), def_value(t, ""), third, (), f"Bane of Vex on {unit}")
            hits, faces, txt, chance = roll_attack(
                ctx, a, actor=c["wizard"], target=t.id, rule="GEM-3.5.4"
            )
            ctx.log.emit(
                "resolution",
                txt,
                actor=c["wizard"],
                target=t.id,
                rule="GEM-3.5.4",
                chance=float(chance),
                rolls=faces,
                outcome="hit" if hits else "miss",
            )
            apply_hits(state, ctx, t, hits, off=a.off, rule="GEM-3.5.4")


def has_power(state: GameState, side: str, kind: str) -> bool:
    flag = "cast_off" if kind == "offensive" else "cast_def"
    return any(
        mtype(m) == "wizard"
        and int(mv(m).get("power", {}).get(kind, 0)) > 0
        and not m.vars.get(flag)
        for m in state.live(side)
    )
