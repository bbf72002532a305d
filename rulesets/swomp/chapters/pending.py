"""Raising reactions and running what waits on them: overwatch fire when enemy models
end a move in view (SWOMP-I-OVERWATCH), the defender's chance to retreat and the
exposed gunner's chance to jump out before a close combat is rolled (SWOMP-I-RETREAT,
SWOMP-I-VEH-CC), and the continuations (a charge's fight, planned strikes) that run
once nothing is owed.

Why apart: every verb that moves or attacks ends by raising these; the answers to them
(answers.py) and the verbs both call in here, and nothing here knows any verb.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import core, melee, reactions, vehicle_cc, watch

R_OVERWATCH = "SWOMP-OVERWATCH"


def can_fire_at(state: GameState, ctx: Context, w: Model, targets: list[Model]) -> bool:
    """May ``w`` fire one of its working weapons at one of ``targets``?"""
    for wpn in core.ranged(w):
        if wpn["name"] in mv(w).get("jammed", []):
            continue
        if watch.may_aim_at_any(state, ctx, w, targets, wpn):
            return True
    return False


def trigger_overwatch(
    state: GameState, ctx: Context, movers: list[Model], after: dict[str, Any] | None
) -> None:
    """Enemy models ending a move where an overwatching model could fire at them hand
    play to the overwatching side; ``after`` (e.g. the charge's close combat) runs once
    every reaction is answered."""
    movers = [m for m in movers if not m.removed]
    by_side: dict[str, list[str]] = {}
    for side in state.sides:
        if not movers or side == movers[0].side:
            continue
        watchers = [
            w.id
            for w in state.live(side)
            if mv(w).get("overwatch") and not core.engaged(w) and can_fire_at(state, ctx, w, movers)
        ]
        if watchers:
            by_side[side] = watchers
    offer(state, ctx, by_side, movers, after, "")


def offer(
    state: GameState,
    ctx: Context,
    by_side: dict[str, list[str]],
    targets: list[Model],
    after: dict[str, Any] | None,
    when: str,
) -> None:
    """Owe each side its overwatch decision (``by_side``: side -> the watchers that may
    fire at ``targets``; ``when`` says at which moment, for the log); ``after`` (what
    the interrupted action still has to do) runs once every reaction is answered."""
    entries = []
    for side, watchers in by_side.items():
        entries.append(
            reactions.ask(side, "overwatch", watchers=watchers, targets=[m.id for m in targets])
        )
        ctx.log.emit(
            "note",
            f"{', '.join(watchers)} on overwatch may fire at "
            f"{', '.join(m.id for m in targets)}{when} ({side} shoots or passes)",
            rule=R_OVERWATCH,
        )
    reactions.defer(state, after)
    reactions.push(state, entries)
    settle(state, ctx)


def settle(state: GameState, ctx: Context) -> None:
    """Run the continuations of interrupted actions while nothing is owed."""
    while not state.over:
        cont = reactions.next_continuation(state)
        if cont is None:
            return
        run_continuation(state, ctx, cont)


#: continuations the verbs register (the rest of an interrupted move, an action that
#: waits on overwatch fire at its unit): kind -> runner
CONTINUATIONS: dict[str, Callable[[GameState, Context, dict[str, Any]], None]] = {}


def run_continuation(state: GameState, ctx: Context, cont: dict[str, Any]) -> None:
    if cont["kind"] in CONTINUATIONS:
        CONTINUATIONS[cont["kind"]](state, ctx, cont)
    elif cont["kind"] == "charge_fight":
        groups = melee.charge_groups(cont["pairs"], cont.get("location", ""))
        open_combat(state, ctx, melee.join_charge(state, groups))
    elif cont["kind"] == "strike":
        for group in cont["groups"]:
            if state.over:
                return
            melee.strike(state, ctx, group)


def open_combat(state: GameState, ctx: Context, groups: list[dict[str, Any]]) -> None:
    """A close combat is about to be rolled: each trooper defender may first try to
    retreat at -2 CR (SWOMP "Retreating from close combat", SWOMP-I-RETREAT), and an
    exposed gunner may jump out to meet an attack he could not otherwise defend
    (SWOMP "Exposed crewmen/riders"). The strikes wait until those are answered."""
    entries: list[dict[str, Any]] = []
    for g in groups:
        d = state.models[g["defender"]]
        if d.removed:
            continue
        if core.is_vehicle(d):
            entries += vehicle_cc.jump_offers(state, g)
            continue
        held = [a for a in g["attackers"] if a in mv(d).get("foes", [])]
        if held:
            entries.append(reactions.ask(d.side, "retreat", defender=d.id, attackers=held))
    reactions.defer(state, {"kind": "strike", "groups": groups})
    reactions.push(state, entries)


def pending_done(state: GameState, ctx: Context) -> None:
    """An overwatch decision stays owed while it has watchers left to fire."""
    state.pending[:] = [
        p
        for p in state.pending
        if reactions.kind(p) != "overwatch" or reactions.data(p)["watchers"]
    ]
    settle(state, ctx)
