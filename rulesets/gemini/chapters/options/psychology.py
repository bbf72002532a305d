"""``psychology``: Frenzy (with its distance), Frenzied, Blood Frenzy, Stupidity, Fear,
Terror, Hatred and Confusion; Fearless and Dogged models.

Why the traits are read from the model's stats: a scenario writes a model "subject to
Stupidity-6, Frenzy-9, 12" as ``stupidity = 6``, ``frenzy = [9, 12]`` (value, then
distance), ``frenzied = true``...; ``true`` means "test on Cl" (Ld for Stupidity and
Confusion). Each test is one function that rolls, writes the status it leaves
(``frenzied``, ``stupid``, ``routing``) and returns the :class:`Test`; the core calls them
at the moments :data:`ORDER` and the docstrings give.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.dice import Dice, Modifier, Roll
from engine.state import Model
from rulesets.gemini.chapters.options.common import Test, d6_at_least, ld_test
from rulesets.gemini.state import mv

R_PSY = "GM-PSYCHOLOGY"
R_ORDER = "GM-I-PSY-ORDER"
R_FRENZY = "GM-FRENZY"
R_BLOOD = "GM-BLOOD-FRENZY"
R_STUPID = "GM-STUPIDITY"
R_FEAR = "GM-FEAR"
R_TERROR = "GM-TERROR"
R_HATRED = "GM-HATRED"
R_CONFUSION = "GM-CONFUSION"
R_FEARLESS = "GM-FEARLESS"
R_DOGGED = "GM-DOGGED"

#: the order of the tests when several fall due together (GM-I-PSY-ORDER: the text's
#: list is missing, so the order it describes them in)
ORDER = ("confusion", "frenzy", "stupidity", "fear", "terror")


def cool(m: Model) -> int:
    """Cl, which is Ld unless the profile gives it."""
    return int(m.stats.get("Cl", m.stats.get("Ld", 7)))


def lowest(values: Iterable[int]) -> int:
    """A group tests on its lowest value (every model is its own unit in a skirmish)."""
    return min(values)


@dataclass(frozen=True)
class Trait:
    """A psychology trait as a model's stats give it: on, the value, the distance."""

    on: bool
    value: int
    distance: float | None = None


def trait(m: Model, key: str, base: int) -> Trait:
    """Read ``stats[key]``: absent/false (off), true (on, ``base``), a number (its
    value), a list ``[value, distance]``."""
    v: Any = m.stats.get(key, False)
    if v is False or v is None:
        return Trait(False, base)
    if v is True:
        return Trait(True, base)
    if isinstance(v, (list, tuple)):
        return Trait(True, int(v[0]), float(v[1]) if len(v) > 1 else None)
    return Trait(True, int(v))


def fearless(m: Model) -> bool:
    return bool(m.stats.get("fearless"))


def dogged(m: Model) -> bool:
    return bool(m.stats.get("dogged"))


def passes_morale(m: Model) -> bool:
    """GM-FEARLESS, GM-DOGGED: both pass morale checks without a roll (not the Ld tests
    to fire when charged) and never rout from close combat."""
    return fearless(m) or dogged(m)


# --- hatred --------------------------------------------------------------------------------


def hates(m: Model, foe: Model) -> bool:
    """``hatred = true`` hates every enemy; a word or list names the hated sides,
    profiles or models."""
    v: Any = m.stats.get("hatred", False)
    if v is True:
        return foe.side != m.side
    if not v:
        return False
    names = {v} if isinstance(v, str) else set(v)
    return bool(names & {foe.side, foe.profile, foe.id, foe.unit})


def hatred_ld_mod(m: Model, foe: Model | None, test: str) -> list[Modifier]:
    """GM-HATRED: Ld+1 to rout and rally against a hated foe; Ld−1 to hold back from a
    pursuit, end one, or break off. (Returned as a change to the value tested.)"""
    if foe is None or not hates(m, foe):
        return []
    if test in ("rout", "rally"):
        return [Modifier(1, f"hates {foe.id}", R_HATRED)]
    if test in ("pursue", "end_pursuit", "break_off"):
        return [Modifier(-1, f"hates {foe.id}", R_HATRED)]
    return []


def rerolls_misses(m: Model, foe: Model, first_round: bool) -> bool:
    """GM-HATRED: re-roll missed blows against a hated foe in the first round."""
    return first_round and hates(m, foe)


def may_run_from(m: Model, charger: Model) -> bool:
    """GM-HATRED: never run from the charge of a hated enemy."""
    return not hates(m, charger)


# --- frenzy ---------------------------------------------------------------------------------


def frenzy_trait(m: Model) -> Trait:
    return trait(m, "frenzy", cool(m))


def start_frenzied(m: Model) -> None:
    """Models described as Frenzied or Blood Frenzied start the battle frenzied."""
    if m.stats.get("frenzied") or m.stats.get("blood_frenzy"):
        m.set_status("frenzied")


def frenzy_test(dice: Dice, m: Model, why: str, snake_eyes: bool = False) -> Test:
    """GM-FRENZY: 2d6 against the frenzy value (Cl unless given): above it, the model
    becomes frenzied."""
    tr = frenzy_trait(m)
    t = ld_test(dice, tr.value, f"{m.id} frenzy test ({why})", actor=m.id, rule=R_FRENZY,
                snake_eyes=snake_eyes)  # fmt: skip
    if t.failed:
        m.set_status("frenzied")
        t.why = f"{m.id} is frenzied"
    return t


def frenzy_due_on_charge(m: Model) -> bool:
    """A model subject to Frenzy and not frenzied tests when it charges."""
    return frenzy_trait(m).on and "frenzied" not in m.status


def frenzy_due_at_start(m: Model, nearest_enemy: float) -> bool:
    """A model with a frenzy distance tests at the start of its turn when an enemy is
    that close."""
    tr = frenzy_trait(m)
    return (
        tr.on
        and tr.distance is not None
        and "frenzied" not in m.status
        and nearest_enemy <= tr.distance
    )


def calm_down(dice: Dice, m: Model, snake_eyes: bool = False) -> Test | None:
    """After a combat a frenzied model loses its frenzy by passing a frenzy test on Cl;
    a Blood Frenzied one never does (GM-BLOOD-FRENZY). None: nothing to test."""
    if "frenzied" not in m.status:
        return None
    if m.stats.get("blood_frenzy"):
        return Test(False, why=f"{m.id} is blood frenzied: it cannot calm down ({R_BLOOD})")
    t = ld_test(
        dice, cool(m), f"{m.id} calms down", actor=m.id, rule=R_FRENZY, snake_eyes=snake_eyes
    )
    if t.passed:
        m.set_status("frenzied", False)
    return t


def frenzied_attacks(m: Model, attacks: int) -> int:
    """GM-I-FRENZIED: a frenzied model rolls twice its attacks."""
    return attacks * 2 if "frenzied" in m.status else attacks


# --- stupidity and confusion ---------------------------------------------------------------


def stupidity_test(dice: Dice, m: Model, snake_eyes: bool = False) -> Test | None:
    """GM-STUPIDITY: at the start of each of its turns, 2d6 against the stupidity value
    (Ld unless given); a failure marks it ``stupid`` for the turn: no shooting, a random
    wander out of combat, a 4+ to forget to attack in it. None: not subject."""
    tr = trait(m, "stupidity", int(m.stats.get("Ld", 7)))
    if not tr.on:
        return None
    t = ld_test(dice, tr.value, f"{m.id} stupidity test", actor=m.id, rule=R_STUPID,
                snake_eyes=snake_eyes)  # fmt: skip
    m.set_status("stupid", t.failed)
    return t


def forgets_to_attack(dice: Dice, m: Model) -> Test:
    """GM-STUPIDITY: a stupid model in close combat forgets to attack on a 4+ (it still
    defends at its WS; no attack dice in a Combat Score fight)."""
    return d6_at_least(dice, 4, f"{m.id} forgets what it is doing", actor=m.id, rule=R_STUPID)


def wander_direction(dice: Dice, m: Model) -> tuple[float, Roll]:
    """GM-I-WANDER: the random direction of a stupid model's wander — a d6, each face
    a sixth of a turn from its facing (1 straight ahead)."""
    r = dice.roll(6, f"{m.id} wanders: direction", actor=m.id, rule=R_STUPID)
    return (m.facing + 60.0 * (r.faces[0] - 1)) % 360.0, r


def confusion_test(dice: Dice, m: Model, snake_eyes: bool = False) -> Test:
    """GM-CONFUSION: always against Ld (never Cl); a failure confuses the model."""
    t = ld_test(dice, int(m.stats.get("Ld", 7)), f"{m.id} confusion test", actor=m.id,
                rule=R_CONFUSION, snake_eyes=snake_eyes)  # fmt: skip
    m.set_status("confused", t.failed)
    return t


# --- fear and terror --------------------------------------------------------------------------


def causes_fear(m: Model) -> bool:
    return bool(m.stats.get("causes_fear") or m.stats.get("causes_terror"))


def causes_terror(m: Model) -> bool:
    return bool(m.stats.get("causes_terror"))


def fear_due(m: Model, source: Model) -> bool:
    """Whether ``m`` fears ``source``: it causes fear or terror, ``m`` is not Fearless,
    frenzied, nor a terror-causer itself."""
    if not causes_fear(source) or fearless(m) or "frenzied" in m.status:
        return False
    return not causes_terror(m)


def terror_due(m: Model, source: Model) -> bool:
    """A Terror test replaces the Fear test once a game; a fear-causer only fears."""
    return (
        causes_terror(source)
        and fear_due(m, source)
        and not causes_fear(m)
        and not mv(m).get("terror_tested")
    )


def fear_test(dice: Dice, m: Model, source: Model, snake_eyes: bool = False) -> Test:
    """GM-FEAR: 2d6 against Cl (or the model's ``fear`` value). GM-I-FEAR: a failure
    leaves it ``afraid`` of ``source`` this turn."""
    tr = trait(m, "fear", cool(m))
    t = ld_test(dice, tr.value if tr.on else cool(m), f"{m.id} fear test ({source.id})",
                actor=m.id, rule=R_FEAR, snake_eyes=snake_eyes)  # fmt: skip
    if t.failed:
        m.set_status("afraid")
        mv(m)["afraid_of"] = source.id
    return t


def terror_test(dice: Dice, m: Model, source: Model, snake_eyes: bool = False) -> Test:
    """GM-TERROR: once a game, 2d6 against Cl−1 (+1 if it hates the source); a failure
    is an automatic rout. Either way the model takes no further Terror tests."""
    mv(m)["terror_tested"] = True
    tr = trait(m, "terror", cool(m))
    mods = [Modifier(-1, "terror", R_TERROR)]
    if hates(m, source):
        mods.append(Modifier(1, f"hates {source.id}", R_TERROR))
    t = ld_test(dice, tr.value if tr.on else cool(m), f"{m.id} terror test ({source.id})",
                actor=m.id, rule=R_TERROR, mods=mods, snake_eyes=snake_eyes)  # fmt: skip
    if t.failed:
        m.set_status("routing")
        t.why = f"{m.id} is terrified: it routs"
    return t


def face_fear(dice: Dice, m: Model, source: Model, snake_eyes: bool = False) -> Test | None:
    """Whichever of Terror or Fear ``m`` must take facing ``source`` (Terror first, and
    then no Fear test that turn); None when neither is due."""
    if terror_due(m, source):
        return terror_test(dice, m, source, snake_eyes)
    if fear_due(m, source):
        return fear_test(dice, m, source, snake_eyes)
    return None
