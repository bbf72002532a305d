"""``broken_nerve`` and ``frozen_pinned``: the GASR tests a single model takes when a
friend falls beside it or a shot hits it without hurting it.

Why together: both end in the same states (frozen, pinned, running for cover, nerve
broken in cover) and the same rally; the core calls :func:`nerve_test` when a friend is
struck down, :func:`pin_test` after a hit that did no damage, and :func:`start_of_turn`
for the models already shaken.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.dice import Dice, Modifier, Roll
from engine.state import Model
from rulesets.gemini.chapters.options.common import Test, d6_at_most, ld_test
from rulesets.gemini.chapters.options.morale_extras import Friend, alone_mod
from rulesets.gemini.state import mv

R_NERVE = "GM-BROKEN-NERVE"
R_FROZEN = "GM-FROZEN-PINNED"
R_LEDGE = "GM-LEDGE"

WITNESS_RANGE = 3.0
LEND_RANGE = 6.0
#: a comrade in one of these states lends no Ld to a nerve test
NOT_LENDING = frozenset({"routing", "running_for_cover", "nerve_broken", "breaking_off"})
#: what a friend must have just become for its neighbours to test (GM-BROKEN-NERVE)
STRUCK_DOWN = frozenset({"knocked_down", "stunned", "down", "out_of_action"})
SHAKEN = ("frozen", "pinned", "running_for_cover", "nerve_broken")


def witnesses(friends_of_casualty: Iterable[Friend]) -> list[str]:
    """The friends within 3" of a model struck down: each takes a nerve test."""
    return [f.id for f in friends_of_casualty if not f.removed and f.distance <= WITNESS_RANGE]


def nerve_ld(ld: int, friends: Iterable[Friend], casualties: Iterable[str] = ()) -> tuple[int, str]:
    """The Ld a nerve test uses: the model's own, or the higher Ld of its leader or a
    comrade within 6" who is neither among the casualties nor running away."""
    gone = set(casualties)
    best, whose = ld, "own"
    for f in friends:
        if f.removed or f.id in gone or f.distance > LEND_RANGE or f.status & NOT_LENDING:
            continue
        if f.status & {"knocked_down", "stunned", "down"}:
            continue
        if f.ld > best:
            best, whose = f.ld, f.id
    return best, whose


def nerve_test(
    dice: Dice,
    m: Model,
    friends: Iterable[Friend],
    casualties: Iterable[str] = (),
    snake_eyes: bool = False,
) -> Test:
    """GM-BROKEN-NERVE: the Ld test of a model that saw a friend within 3" struck
    down (−1 if more than 3" from every other friend). On a failure the model is set
    running for cover; the caller makes the D6" flinch (:func:`flinch`)."""
    fs = list(friends)
    ld, whose = nerve_ld(int(m.stats.get("Ld", 7)), fs, casualties)
    label = f"{m.id} nerve test" + ("" if whose == "own" else f" on {whose}'s Ld")
    t = ld_test(
        dice, ld, label, actor=m.id, rule=R_NERVE, mods=alone_mod(fs), snake_eyes=snake_eyes
    )
    if t.failed:
        m.set_status("running_for_cover")
    return t


def flinch(dice: Dice, actor: str = "") -> Roll:
    """The D6" flinch away from the enemy toward the nearest cover (``.total`` inches)."""
    return dice.roll(6, f"{actor} flinches (inches)", actor=actor, rule=R_NERVE)


def cover_run(dice: Dice, actor: str = "") -> Roll:
    """The 2D6" a model running for cover moves at the start of each of its turns."""
    return dice.roll(6, f"{actor} runs for cover (inches)", n=2, actor=actor, rule=R_NERVE)


@dataclass
class TurnStart:
    """What a shaken model does at the start of its turn: move (inches, toward cover
    or the table edge when ``to_edge``), and the rally rolls."""

    move: int = 0
    rallied: bool = False
    rolls: list[Roll] = field(default_factory=list)


def start_of_turn(
    dice: Dice, m: Model, friends: Iterable[Friend], in_cover: bool, snake_eyes: bool = False
) -> TurnStart:
    """A running-for-cover model moves 2D6" toward cover and tests to rally (−1 alone);
    one in cover with broken nerve only tests, unmodified. A rally ends both states."""
    out = TurnStart()
    ld = int(m.stats.get("Ld", 7))
    if "nerve_broken" in m.status:
        t = ld_test(
            dice, ld, f"{m.id} regains its nerve", actor=m.id, rule=R_NERVE, snake_eyes=snake_eyes
        )
    elif "running_for_cover" in m.status:
        if not in_cover:
            r = cover_run(dice, m.id)
            out.move = r.total
            out.rolls.append(r)
        t = ld_test(
            dice,
            ld,
            f"{m.id} rallies",
            actor=m.id,
            rule=R_NERVE,
            mods=alone_mod(friends),
            snake_eyes=snake_eyes,
        )
    else:
        return out
    out.rolls += t.rolls
    if t.passed:
        out.rallied = True
        for w in ("running_for_cover", "nerve_broken"):
            m.set_status(w, False)
    return out


def reached_cover(m: Model) -> None:
    """A model running for cover that reaches it stays there, nerve broken, until it
    passes an unmodified Ld test at the start of a turn."""
    if "running_for_cover" in m.status:
        m.set_status("running_for_cover", False)
        m.set_status("nerve_broken")


# --- frozen and pinned in cover ------------------------------------------------------------


def pin_test(
    dice: Dice,
    m: Model,
    *,
    turn: int,
    in_cover: bool,
    in_combat: bool = False,
    fearless: bool = False,
    snake_eyes: bool = False,
    ld: int | None = None,
    mods: Iterable[Modifier] = (),
) -> Test | None:
    """GM-FROZEN-PINNED: a model hit by shooting and not hurt tests Ld once a turn
    (never while in close combat; a Fearless model passes). A failure pins it in cover or
    freezes it in the open until the end of the next game turn; a model already frozen or
    pinned that fails runs for cover instead. None: no test due. ``ld`` and ``mods``: the
    GASR morale Ld (a leader's) and modifiers, when that switch is on."""
    if in_combat or mv(m).get("pin_tested") == turn:
        return None
    mv(m)["pin_tested"] = turn
    if fearless:
        return Test(True, why=f"{m.id} is fearless: passes (GM-FEARLESS)")
    value = int(m.stats.get("Ld", 7)) if ld is None else ld
    t = ld_test(dice, value, f"{m.id} hit but unhurt: pinning test",
                actor=m.id, rule=R_FROZEN, snake_eyes=snake_eyes, mods=list(mods))  # fmt: skip
    if t.passed:
        return t
    if "frozen" in m.status or "pinned" in m.status:
        for w in ("frozen", "pinned"):
            m.set_status(w, False)
        m.set_status("running_for_cover")
        t.why = f"{m.id} flinches and runs for cover"
    else:
        m.set_status("pinned" if in_cover else "frozen")
        mv(m)["shaken_until"] = turn + 1
        t.why = f"{m.id} is {'pinned in cover' if in_cover else 'frozen'} until the end of turn {turn + 1}"
    return t


def expire(m: Model, turn: int) -> bool:
    """At the end of game turn ``turn``: frozen and pinned end when their time is up."""
    if int(mv(m).get("shaken_until", -1)) <= turn and {"frozen", "pinned"} & set(m.status):
        m.set_status("frozen", False)
        m.set_status("pinned", False)
        mv(m).pop("shaken_until", None)
        return True
    return False


def charged(m: Model) -> None:
    """Frozen, pinned and running-for-cover models attacked in close combat defend
    themselves and are back to combat status at once."""
    for w in ("frozen", "pinned", "running_for_cover", "nerve_broken"):
        m.set_status(w, False)


def ledge_test(dice: Dice, m: Model) -> Test:
    """GM-LEDGE: an Initiative test (d6 of I or less) not to fall off a ledge."""
    return d6_at_most(
        dice, int(m.stats.get("I", 3)), f"{m.id} keeps its footing", actor=m.id, rule=R_LEDGE
    )
