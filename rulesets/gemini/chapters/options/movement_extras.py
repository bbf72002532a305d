"""``running``, ``movement_save``, ``reserve_moves``, ``follow_up``, ``pursuit`` and
``breaking_off``: the extra ways a model moves, and the rolls that go with them.

Why pure: the core's movement measures paths; these say how far, whether at all, and
what must be rolled first, from plain values (the model's M and I, distances to the
nearest enemy, the states of its opponents).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.dice import Dice, Modifier, Roll
from engine.state import Model
from rulesets.gemini.chapters.options.common import Test, d6_at_least, d6_at_most, ld_test

R_RUN = "GM-RUNNING"
R_MSAVE = "GM-MOVEMENT-SAVE"
R_RESERVE = "GM-RESERVE-MOVES"
R_FOLLOW = "GM-FOLLOW-UP"
R_PURSUIT = "GM-PURSUIT"
R_BREAK = "GM-BREAKING-OFF"

RUN_CLEAR = 8.0
RESERVE_CLEAR = 4.0
#: an opponent in one of these states no longer holds a model in combat (GM-FOLLOW-UP)
OUT_OF_FIGHT = frozenset({"down", "reeling", "knocked_down", "stunned", "out_of_action"})


# --- running ----------------------------------------------------------------------------------


def run_problem(nearest_enemy: float, turns: str) -> str:
    """Why a model may not start running ("" if it may): not within 8" of an enemy;
    and running is not a GASR move in the activation-dice game."""
    if turns == "arap":
        return f"no running in the activation-dice game ({R_RUN})"
    if nearest_enemy <= RUN_CLEAR:
        return f'an enemy is within 8" ({nearest_enemy:.1f}"): no running ({R_RUN})'
    return ""


def run_allowance(dice: Dice, m: Model, mode: str, move: float) -> tuple[float, list[Roll]]:
    """GM-RUNNING: double the move (``mode`` "double") or the move plus a d6 ("d6")."""
    if mode == "double":
        return 2 * move, []
    r = dice.roll(6, f"{m.id} runs: extra inches", actor=m.id, rule=R_RUN)
    return move + r.total, [r]


def run_halt(path_clearances: Iterable[tuple[float, float]]) -> float | None:
    """Where along its path a runner halts: the first distance travelled at which an
    enemy is within 8" (pairs of (distance along the path, nearest enemy there));
    None when it never comes that close."""
    for along, clear in path_clearances:
        if clear <= RUN_CLEAR:
            return along
    return None


# --- movement save ---------------------------------------------------------------------------


def movement_save(dice: Dice, m: Model, mods: Iterable[Modifier] = (), why: str = "") -> Test:
    """GM-MOVEMENT-SAVE: a d6 of the model's Initiative or less (after modifiers) to get
    out of the way; the same roll is the agility test."""
    target = int(m.stats.get("I", 3)) + sum(x.value for x in mods)
    return d6_at_most(dice, target, f"{m.id} movement save{': ' + why if why else ''}",
                      actor=m.id, rule=R_MSAVE)  # fmt: skip


# --- reserve moves, follow up, pursuit, breaking off ----------------------------------------


def reserve_problem(m: Model, acted: bool, nearest_enemy: float, in_combat: bool) -> str:
    """GM-RESERVE-MOVES (GM-I-RESERVE): after the close combat phase a model that neither
    moved, shot nor fought this turn may move its M, but not to within 4" of an enemy,
    not into combat, and not into hiding."""
    if in_combat:
        return f"{m.id} is in close combat ({R_RESERVE})"
    if acted:
        return f"{m.id} has moved, shot or fought this turn: no reserve move ({R_RESERVE})"
    if nearest_enemy < RESERVE_CLEAR:
        return f'{m.id} is within 4" of an enemy ({R_RESERVE})'
    return ""


def reserve_end_problem(nearest_enemy_after: float) -> str:
    """A reserve move may not end (or pass) within 4" of an enemy."""
    if nearest_enemy_after < RESERVE_CLEAR:
        return f'a reserve move may not come within 4" of an enemy ({R_RESERVE})'
    return ""


def follow_up_due(opponent_states: Iterable[Iterable[str] | None]) -> bool:
    """GM-FOLLOW-UP: every opponent is down, stunned or out of action (None: removed)."""
    states = list(opponent_states)
    return bool(states) and all(s is None or set(s) & OUT_OF_FIGHT for s in states)


def halt_pursuit(
    dice: Dice, m: Model, mods: Iterable[Modifier] = (), snake_eyes: bool = False
) -> Test:
    """GM-PURSUIT: pursuing is optional; a pursuer stops with an Ld test (Ld−1 against a
    hated foe)."""
    return ld_test(dice, int(m.stats.get("Ld", 7)), f"{m.id} halts its pursuit", actor=m.id,
                   rule=R_PURSUIT, mods=list(mods), snake_eyes=snake_eyes)  # fmt: skip


def break_off(
    dice: Dice,
    m: Model,
    mods: Iterable[Modifier] = (),
    snake_eyes: bool = False,
    never_routs: str = "",
) -> tuple[Test, Test]:
    """GM-BREAKING-OFF: an Ld test to leave in order (a failure routs it), then a d6 of
    3+ gives its opponent one automatic hit. Returns (the Ld test, the free-hit roll).
    ``never_routs`` (GM-FEARLESS, GM-DOGGED: why) passes the Ld test without a roll."""
    if never_routs:
        ld = Test(True, why=never_routs)
    else:
        ld = ld_test(dice, int(m.stats.get("Ld", 7)), f"{m.id} breaks off", actor=m.id,
                     rule=R_BREAK, mods=list(mods), snake_eyes=snake_eyes)  # fmt: skip
    if ld.failed:
        m.set_status("routing")
    hit = d6_at_least(dice, 3, f"{m.id} is struck as it leaves", actor=m.id, rule=R_BREAK)
    return ld, hit
