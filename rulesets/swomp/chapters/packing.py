"""Packing a charge: where the physics service puts each charger round its target, and
whether each can reach the spot it is given (SWOMP "Charging"; "Multiple attackers";
SWOMP-I-CHARGE).

Why apart: the check and the charge must agree on who gets into contact, and the only
honest measure is the spot a charger is actually packed into, not the spot it would
have had alone: a later charger may be pushed round the target's far side. ``plan``
packs the chargers, measures each to its own spot with ``reach.reach``, and takes out
one that cannot get there before packing the rest again, so a charger that falls short
never takes a spot another could have used. Read-only on the game state (the physics
service only proposes), so ``check`` may call it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from engine.ruleset import Context
from engine.state import GameState, Model

from . import melee, reach, table

Point = tuple[float, float]


@dataclass(frozen=True)
class Plan:
    """Who reaches base contact with the target (``placed``) and who does not
    (``short``: the way to the spot it was packed into, or no spot when it found no
    room), each keyed by charger id, in packing order."""

    placed: dict[str, reach.Reach] = field(default_factory=dict)
    short: dict[str, reach.Reach] = field(default_factory=dict)


def order(chargers: Sequence[Model], target: Model) -> list[Model]:
    """Packing order: nearest the target first (its edges fill from the near side)."""
    return sorted(chargers, key=lambda c: (table.distance(c, target), c.id))


def plan(
    state: GameState,
    ctx: Context,
    target: Model,
    chargers: Sequence[Model],
    allowance: Mapping[str, float],
    via: Mapping[str, Sequence[Point]] | None = None,
) -> Plan:
    """Pack ``chargers`` round ``target`` and measure each to its packed spot. One that
    has a spot but cannot reach it is set aside and the rest packed again; one that finds
    no room stays in the packing (a spot may free up) and is short if it never gets one.
    At most one packing per charger set aside: cheap when everyone arrives."""
    via = via or {}
    live = order(chargers, target)
    rank = {c.id: k for k, c in enumerate(live)}
    short: dict[str, reach.Reach] = {}
    placed: dict[str, reach.Reach] = {}
    while live:
        ids = [c.id for c in live]
        melee.sync(state, ctx)
        came = {
            c.id: (via[c.id][-1][0], via[c.id][-1][1]) if via.get(c.id) else c.pos for c in live
        }
        poses = ctx.physics.place_in_contact(target.id, ids, came)
        placed = {}
        fell = ""
        for c in live:
            p = poses.get(c.id)
            if p is None:
                continue
            r = reach.reach(
                state,
                ctx,
                c,
                target,
                allowance[c.id],
                via.get(c.id, ()),
                spot=p,
                movers=[i for i in ids if i != c.id],
            )
            if not r.ok:
                short[c.id], fell = r, c.id
                break
            placed[c.id] = r
        if not fell:
            for c in live:
                if c.id not in placed:
                    short[c.id] = reach.Reach(
                        None,
                        (),
                        0.0,
                        f"there is no room for {c.id} in base contact with {target.id}",
                    )
            break
        live = [c for c in live if c.id != fell]
    return Plan(placed, dict(sorted(short.items(), key=lambda kv: rank[kv[0]])))


def place_alone(
    state: GameState, ctx: Context, target: Model, c: Model, limit: float
) -> reach.Reach | None:
    """The way for ``c`` alone into contact with ``target`` (pairing off with another
    model after finding no room: SWOMP "The gang fight"), or None if it cannot."""
    r = reach.reach(state, ctx, c, target, limit)
    return r if r.ok else None
