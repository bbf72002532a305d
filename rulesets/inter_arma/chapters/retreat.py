"""Leaving a melee: breaking contact (IA-BREAK) and retreat from contact (IA-MORALE).

Why a move decides it: the text lets missile troops touched by the enemy keep their
distance at the price of a save, and melee troops retreat at the price of a morale
test; both happen when the figure moves away in the movement phase, so a ``move`` of a
figure in contact is the decision, and it must end out of contact (IA-I-BREAK).
"""

from __future__ import annotations

from engine.battlefield import Footprint
from engine.dice import Modifier
from engine.geometry import distance
from engine.ruleset import Context, Reason
from engine.state import GameState, Model
from rulesets.inter_arma.build import mounted
from rulesets.inter_arma.chapters import combat, measure

#: IA-BREAK: the archers and missile troops who break contact with a save
MISSILE = ("bow", "sling", "crossbow")
IN_CONTACT = "in_contact"


def missile_troop(m: Model) -> bool:
    return any(w.get("kind") in MISSILE for w in m.weapons)


def light_cavalry(m: Model) -> bool:
    """Unarmoured riders still mounted; conscripts do not count (IA-BREAK)."""
    return mounted(m) and not m.stats.get("armored") and m.stats.get("class") != "conscript"


def commander_sees(state: GameState, ctx: Context, m: Model) -> bool:
    """IA-MORALE: a figure retreats from contact only in its commander's sight."""
    if m.stats.get("class") == "commander":
        return True
    return any(
        c.stats.get("class") == "commander"
        and "wounded" not in c.status
        and measure.in_sight(state, ctx, c, m)
        for c in state.live(m.side)
        if c.id != m.id
    )


def check(state: GameState, ctx: Context, m: Model, path: list[tuple[float, float]]) -> list[str]:
    """Why ``m``, in contact, may not move along ``path`` (nothing when not in contact)."""
    foes = measure.enemies_in_contact(state, m)
    if not foes:
        return []
    why: list[str] = []
    end = Footprint(path[-1][0], path[-1][1], m.facing, measure.footprint(m).base)
    still = [e.id for e in foes if distance(end, measure.footprint(e)) <= measure.CONTACT]
    if still:
        why.append(
            Reason(
                f"{m.id} is in contact with {', '.join(still)}: a move must take it out of "
                "contact (IA-BREAK, IA-I-BREAK)",
                IN_CONTACT,
            )
        )
    if not missile_troop(m) and not commander_sees(state, ctx, m):
        why.append(
            f"{m.id} is out of its commander's sight: it cannot retreat from contact (IA-MORALE)"
        )
    return why


def break_away(state: GameState, ctx: Context, m: Model) -> bool:
    """Pay for leaving the melee; True when ``m`` may go on with its move."""
    foes = measure.enemies_in_contact(state, m)
    if not foes:
        return True
    if light_cavalry(m):
        ctx.log.emit("note", f"{m.id} is light cavalry: it leaves contact freely (IA-BREAK, IA-MORALE)",
                     actor=m.id, rule="IA-BREAK")  # fmt: skip
        return True
    if missile_troop(m):
        ctx.log.emit(
            "note",
            f"{m.id} breaks contact: it saves first, +1 (IA-BREAK)",
            actor=m.id,
            rule="IA-BREAK",
        )
        plus = [Modifier(1, "breaking contact", "IA-BREAK")]
        res = combat.resolve_hit(state, ctx, m, "break", plus, foes[0].id)
        return res == "saved"
    from rulesets.inter_arma.chapters import morale

    ctx.log.emit("note", f"{m.id} retreats from contact: {m.side} tests its morale (IA-MORALE)",
                 actor=m.id, rule="IA-MORALE")  # fmt: skip
    morale.army_test(state, ctx, m.side)
    return not m.removed
