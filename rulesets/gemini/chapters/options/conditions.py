"""What a model's status words let it do, and how the injury statuses move on.

Why one place: the injury systems, frozen/pinned, broken nerve, stupidity and running
each take some action away; the core asks :func:`limits` once before a move, a shot, a
charge or a blow, and gets every reason with its rule. The status words are the ones the
window shows (``down``, ``reeling``, ``knocked_down``, ``stunned``, ``dazed``, ``frozen``,
``pinned``, ``running_for_cover``, ``nerve_broken``, ``stupid``, ``ran``...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.dice import Dice
from engine.state import Model
from rulesets.gemini.chapters.options.injuries import (
    OUT,
    R_CHART,
    R_DOWN,
    R_GASR,
    R_MORDHEIM,
    Injury,
    down_result,
)
from rulesets.gemini.state import mv

R_FLESH = "GM-FLESH-WOUND"
R_FROZEN = "GM-FROZEN-PINNED"
R_NERVE = "GM-BROKEN-NERVE"
R_STUPID = "GM-STUPIDITY"
R_RUN = "GM-RUNNING"

#: how far a model may move: normal, half its allowance, crawl 2", or not at all
MOVES = ("normal", "half", "crawl", "none")
CRAWL_INCHES = 2.0


@dataclass
class Limits:
    """What a model may do now; each refusal keeps its reason (with the rule cited)."""

    move: str = "normal"
    shoot: bool = True
    charge: bool = True
    run: bool = True
    fight: bool = True
    parry: bool = True
    defend_ws: int | None = None
    strikes_last: bool = False
    max_activation_dice: int = 3
    reasons: list[str] = field(default_factory=list)

    def restrict_move(self, how: str, why: str) -> None:
        if MOVES.index(how) > MOVES.index(self.move):
            self.move = how
        self.reasons.append(why)


def _injury_limits(lim: Limits, st: set[str], system: str, combat_score: bool) -> None:
    if "stunned" in st:
        lim.restrict_move(
            "none", f"stunned: may do nothing ({R_GASR if system == 'gasr_table' else R_MORDHEIM})"
        )
        lim.shoot = lim.charge = lim.run = lim.fight = lim.parry = False
        lim.defend_ws = 0 if combat_score else 1
    if "knocked_down" in st:
        lim.restrict_move("crawl", f'knocked down: crawls 2" at most, no fighting ({R_MORDHEIM})')
        lim.shoot = lim.charge = lim.run = lim.fight = lim.parry = False
        lim.defend_ws = 0 if combat_score else 1
    if "down" in st:
        lim.restrict_move("none", f"down: cannot move, shoot or fight, defends at WS 1 ({R_CHART})")
        lim.shoot = lim.charge = lim.run = lim.fight = lim.parry = False
        lim.defend_ws = 1
    if "reeling" in st:
        lim.restrict_move(
            "half", f"reeling: half move, no shooting or charging, defends at WS 1 ({R_DOWN})"
        )
        lim.shoot = lim.charge = lim.run = lim.fight = lim.parry = False
        lim.defend_ws = 1
    if "dazed" in st:
        lim.restrict_move(
            "half",
            f"dazed: half move, no charge or run, strikes last ({R_GASR if system == 'gasr_table' else R_MORDHEIM})",
        )
        lim.charge = lim.run = False
        lim.strikes_last = True
        if system == "gasr_table":
            lim.shoot = False


def _other_limits(lim: Limits, st: set[str]) -> None:
    if "pinned" in st:
        lim.restrict_move("none", f"pinned in cover: hides, cannot move or shoot ({R_FROZEN})")
        lim.shoot = lim.charge = lim.run = False
    if "frozen" in st:
        lim.restrict_move("none", f"frozen: cannot move or charge ({R_FROZEN})")
        lim.charge = lim.run = False
        lim.max_activation_dice = 2
    if "running_for_cover" in st:
        lim.shoot = lim.charge = False
        lim.reasons.append(f"running for cover: no charging or shooting ({R_NERVE})")
    if "nerve_broken" in st:
        lim.restrict_move(
            "none", f"in cover with broken nerve: no move or shot until it rallies ({R_NERVE})"
        )
        lim.shoot = lim.charge = lim.run = False
    if "stupid" in st:
        lim.shoot = False
        lim.reasons.append(f"failed its stupidity test: no shooting this turn ({R_STUPID})")
    if "ran" in st:
        lim.shoot = False
        lim.reasons.append(f"ran this turn: no shooting ({R_RUN})")


def limits(m: Model, system: str = "none", combat_score: bool = False) -> Limits:
    """Every limit the model's statuses put on it (injury ``system`` as the scenario's
    ``injuries`` option)."""
    lim = Limits()
    st = set(m.status)
    _injury_limits(lim, st, system, combat_score)
    _other_limits(lim, st)
    return lim


def to_hit_penalty(m: Model) -> int:
    """GM-GASR-WOUNDS: a flesh wound to an arm is −1 to hit (one or both arms)."""
    return -1 if int(mv(m).get("arm_wounds", 0)) > 0 else 0


def _flesh_wound(m: Model) -> bool:
    """WS and BS −1 (GM-FLESH-WOUND); True when either reaches 0 (out of the fight)."""
    for k in ("WS", "BS"):
        m.stats[k] = int(m.stats.get(k, 0)) - 1
    mv(m)["flesh_wounds"] = int(mv(m).get("flesh_wounds", 0)) + 1
    return int(m.stats["WS"]) <= 0 or int(m.stats["BS"]) <= 0


def _set(m: Model, word: str) -> None:
    for w in ("stunned", "knocked_down", "down", "reeling", "dazed"):
        m.set_status(w, False)
    m.set_status(word)


def apply_injury(m: Model, inj: Injury) -> bool:
    """Write ``inj`` on ``m``; True when the model is out of action.

    A Down result on a model already Down or Reeling is ignored (GM-WOUND-CHART);
    a lighter status never replaces a heavier one (a stunned model hit again and
    knocked down stays stunned); flesh wounds always add up."""
    st = set(m.status)
    r = inj.result
    if r in OUT:
        return True
    if r in ("flesh_wound", "arm_wound", "leg_wound", "dazed_leg_wound") and _flesh_wound(m):
        return True
    if r == "arm_wound":
        mv(m)["arm_wounds"] = int(mv(m).get("arm_wounds", 0)) + 1
    if r in ("leg_wound", "dazed_leg_wound"):
        m.stats["M"] = max(0, int(m.stats.get("M", 0)) - 1)
    if r == "down" and not st & {"down", "reeling"}:
        _set(m, "down")
        mv(m)["down_fresh"] = True
    elif r == "reeling":
        _set(m, "reeling")
    elif r == "stunned":
        _set(m, "stunned")
    elif r == "knocked_down" and "stunned" not in st:
        _set(m, "knocked_down")
    elif r in ("dazed", "dazed_leg_wound") and not st & {"stunned", "knocked_down"}:
        _set(m, "dazed")
        mv(m)["dazed_fresh"] = True
    return False


def clear_injury_statuses(m: Model) -> None:
    for w in ("stunned", "knocked_down", "down", "reeling", "dazed"):
        m.set_status(w, False)


def at_turn_start(m: Model) -> list[str]:
    """At the start of the model's own turn: a knocked-down model stands up dazed, and a
    dazed model's dazed turn is this one (GM-MORDHEIM, GM-GASR-WOUNDS)."""
    out = []
    if "knocked_down" in m.status:
        _set(m, "dazed")
        out.append(f"{m.id} stands up, dazed this turn")
    if "dazed" in m.status:
        mv(m)["dazed_fresh"] = False
    return out


def at_recovery(m: Model) -> list[str]:
    """In its side's recovery phase a stunned model turns face up: knocked down."""
    if "stunned" in m.status:
        _set(m, "knocked_down")
        return [f"{m.id} comes round: knocked down"]
    return []


def at_turn_end(m: Model, own: bool) -> list[str]:
    """At the end of any turn a fresh Down stops being fresh (its Down Result comes at
    the next due point); at the end of its own turn a dazed model recovers."""
    out = []
    mv(m).pop("down_fresh", None)
    if own:
        m.set_status("ran", False)
        if "dazed" in m.status and not mv(m).get("dazed_fresh"):
            m.set_status("dazed", False)
            out.append(f"{m.id} is no longer dazed")
    return out


def down_roll_due(m: Model) -> bool:
    """GM-DOWN-RESULT: a Down or Reeling model rolls on the Down Result table at the
    next due point, but not in the turn it went down."""
    return bool({"down", "reeling"} & set(m.status)) and not mv(m).get("down_fresh")


def resolve_down(dice: Dice, m: Model) -> tuple[Injury, bool]:
    """Roll the Down Result for ``m`` and write it: a flesh wound gets it up (WS and BS
    −1), reeling keeps it down a turn more, a 6 is out of action. True when out."""
    inj = down_result(dice, m.id)
    if inj.result == "flesh_wound":
        for w in ("down", "reeling"):
            m.set_status(w, False)
        return inj, _flesh_wound(m)
    if inj.result == "reeling":
        _set(m, "reeling")
        return inj, False
    return inj, True
