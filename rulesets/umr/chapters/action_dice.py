"""The action-dice pool of one model during its activation (UMR-ACTION-DICE).

Why a module: four kinds of dice can pay for an action and the rules differ on each —
the two normal action dice, a pending bonus die from a natural six that must be used at
once, an ability's once-per-round extra die that serves only one kind of action, and a
die the leader gave. Deciding which die pays, and what a six on it earns, in one place
keeps move, shoot and fight honest with each other.

Flow (UMR-I-DICE-FLOW): each die-spending action pays with one die, taken in this order:
a pending bonus die (so it is "used at once": the model's very next action takes it),
then the ability's extra die when the action is of its kind, then a normal action die,
then the leader's gift. A natural six on any of these dice gives the model one pending
bonus die. Ending the activation loses whatever is left.
"""

from __future__ import annotations

from engine.state import Model
from rulesets.umr.chapters.abilities import ability_of
from rulesets.umr.state import mv

#: The action group each die-spending verb belongs to.
GROUP = {
    "move": "move",
    "charge": "move",
    "jump": "move",
    "climb": "move",
    "shoot": "shoot",
    "fight": "fight",
}

#: Sources in the order they pay, with the rule each cites.
SOURCES = ("bonus", "ability", "dice", "granted")
SOURCE_RULE = {"bonus": "UMR-SIX-ACTION", "dice": "UMR-ACTION-DICE", "granted": "UMR-LEADER"}


def init_vars(m: Model) -> None:
    """Bookkeeping every model carries (plain data, saved with the state)."""
    v = mv(m)
    v.setdefault("dice", 0)
    v.setdefault("bonus", 0)
    v.setdefault("granted", 0)
    v.setdefault("used", [])
    v.setdefault("moved", 0.0)
    v.setdefault("elev", 0.0)
    v.setdefault("on", "")


def ability_die(m: Model, group: str) -> bool:
    """True when the model's ability gives an unused extra die for ``group`` this round."""
    abil = ability_of(m.stats)
    return bool(abil and abil.extra_die == group and abil.key not in mv(m).get("used", ()))


def available(m: Model, group: str, fresh: bool = False) -> int:
    """Dice the model could spend on an action of ``group`` now. ``fresh``: its
    activation has not begun yet, so its normal dice are still all there."""
    normal = int(m.stats.get("AD", 2)) if fresh else int(mv(m).get("dice", 0))
    bonus = 0 if fresh else int(mv(m).get("bonus", 0))
    return bonus + normal + int(mv(m).get("granted", 0)) + (1 if ability_die(m, group) else 0)


def any_left(m: Model) -> bool:
    """Whether the model still has a die for anything at all."""
    return any(available(m, g) for g in ("move", "shoot", "fight"))


def spend(m: Model, group: str) -> str:
    """Take one die for ``group``; returns its source (see SOURCES). Caller checked."""
    v = mv(m)
    if v.get("bonus", 0) > 0:
        v["bonus"] -= 1
        return "bonus"
    if ability_die(m, group):
        abil = ability_of(m.stats)
        assert abil is not None
        v["used"] = [*v.get("used", []), abil.key]
        return "ability"
    if v.get("dice", 0) > 0:
        v["dice"] -= 1
        return "dice"
    if v.get("granted", 0) > 0:
        v["granted"] -= 1
        return "granted"
    raise ValueError(f"{m.id} has no action die for {group}")


def source_rule(m: Model, source: str) -> str:
    if source == "ability":
        abil = ability_of(m.stats)
        return abil.rule if abil else "UMR-ACTION-DICE"
    return SOURCE_RULE[source]


def source_name(m: Model, source: str) -> str:
    """How an explanation names the die: 'action die', 'bonus die (six)', ..."""
    if source == "ability":
        abil = ability_of(m.stats)
        return f"{abil.name.lower() if abil else 'ability'} extra die"
    return {
        "bonus": "bonus die from a six",
        "dice": "action die",
        "granted": "die from the leader",
    }[source]


def six_bonus(m: Model, face: int, source: str) -> str:
    """A natural six on an action die earns a pending bonus die; returns the rule cited
    (UMR-SIX-ABILITY for an ability's die, UMR-SIX-ACTION otherwise), "" for no six."""
    if face != 6:
        return ""
    mv(m)["bonus"] = int(mv(m).get("bonus", 0)) + 1
    return "UMR-SIX-ABILITY" if source in ("ability", "granted") else "UMR-SIX-ACTION"
