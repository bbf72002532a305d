"""Close combat against a vehicle: the location the attacker picks, the locations he
can reach, the exposed crewman who must be fought first, and the turret gunner who
jumps out to meet an attack he could not defend from his hatch (SWOMP "Close combat
with vehicles", "Exposed crewmen/riders").

Why apart: these are questions about a vehicle's data card (which locations a man on
foot can reach, which ones each exposed crewman can defend, which weapons sit in the
turret) asked before the contest is rolled; the contest itself stays in melee.py.

Card keys read here (units.toml, SWOMP-I-VEH-CC): ``unreachable`` (locations only a
large model can reach), ``defends`` ({crew location: [locations he can defend]},
default every location), ``crew`` (the crewman's DR, AR, FR and, for jumping out, MR,
CR, SR), ``turret_weapons`` (silent while the gunner is out).
"""

from __future__ import annotations

import math
from typing import Any

from engine.ruleset import Context
from engine.state import GameState, Model
from engine.table import footprint as fp

from ..state import mv
from . import core, hatch, reactions
from .hatch import crew_out, crewman_out

R_VEH_CC = "SWOMP-VEH-CC"
R_CREW = hatch.R_CREW


def locations(v: Model) -> list[str]:
    return list(mv(v)["veh"]["locations"])


def crewmen(v: Model) -> list[str]:
    """Exposed crew locations whose crewman is aboard and alive."""
    out = crew_out(v)
    return [
        c
        for c in mv(v)["veh"].get("exposed", [])
        if c not in out and int(mv(v)["loc"].get(c, 0)) > 0
    ]


def defended_by(v: Model, crew: str) -> list[str]:
    d = mv(v)["veh"].get("defends", {}).get(crew)
    return list(d) if d is not None else locations(v)


def reachable(a: Model, v: Model) -> list[str]:
    """Locations ``a`` can reach from the ground: all for a large model, else all but
    the card's ``unreachable`` ones (SWOMP-I-VEH-CC)."""
    if mv(a).get("size") == "large":
        return locations(v)
    high = set(mv(v)["veh"].get("unreachable", []))
    return [loc for loc in locations(v) if loc not in high]


def default_location(a: Model, v: Model) -> str:
    """The location an attacker who names none goes for: an exposed crewman he must
    fight first, else the body, else the first he can reach."""
    for c in crewmen(v):
        return c
    reach = reachable(a, v)
    return "body" if "body" in reach else (reach[0] if reach else "body")


def location_problem(a: Model, v: Model, location: str) -> str:
    """'' if ``a`` may attack ``location`` of ``v`` in close combat, else why not."""
    if not location:
        return ""
    if location not in locations(v):
        return f"{v.id} has no location '{location}' (locations: {', '.join(locations(v))})"
    if location not in reachable(a, v):
        return (
            f"{a.id} cannot reach {v.id}'s {location} from the ground (only a large model "
            f"can) ({R_VEH_CC})"
        )
    for c in crewmen(v):
        if location != c and location in defended_by(v, c):
            return (
                f"{v.id}'s exposed {c} must be fought first: he can defend the {location} "
                f"({R_CREW})"
            )
    return ""


def open_locations(a: Model, v: Model) -> list[str]:
    return [loc for loc in reachable(a, v) if not location_problem(a, v, loc)]


def jump_offers(state: GameState, group: dict[str, Any]) -> list[dict[str, Any]]:
    """An attack on a location an exposed crewman cannot defend: his side may have him
    jump out to meet it (the Razorback gunner and the tracks)."""
    v = state.models[group["defender"]]
    out = []
    for aid in group["attackers"][:1]:
        a = state.models[aid]
        loc = group.get("location") or default_location(a, v)
        for c in crewmen(v):
            if loc != c and loc not in defended_by(v, c):
                out.append(reactions.ask(v.side, "jump", vehicle=v.id, gunner=c, attacker=a.id))
                break
    return out


def jump_spot(
    state: GameState, ctx: Context, v: Model, crew: str, attacker: Model
) -> tuple[float, float] | None:
    """Where the crewman lands: in base contact with his attacker, clear of everything."""
    ghost = crewman_out(state, v, crew, v.pos)
    bodies = {m.id: fp(m) for m in state.live()}
    bodies[ghost.id] = fp(ghost)
    ctx.physics.sync(bodies)
    spot = ctx.physics.place_in_contact(attacker.id, [ghost.id], {ghost.id: v.pos})
    return spot.get(ghost.id)


def jump_out(
    state: GameState, ctx: Context, entry: dict[str, Any], groups: list[list[dict[str, Any]]]
) -> None:
    """Place the crewman on the ground in contact with his attacker; the turret falls
    silent until a gunner is back in it; that attacker's blow now falls on him.
    ``groups``: the strike lists still to be rolled, rewritten in place."""
    v = state.models[entry["vehicle"]]
    a = state.models[entry["attacker"]]
    crew = entry["gunner"]
    spot = jump_spot(state, ctx, v, crew, a)
    assert spot is not None  # check() refused a jump with no room
    g = crewman_out(state, v, crew, spot)
    g.facing = round(math.degrees(math.atan2(a.y - g.y, a.x - g.x)) % 360, 1)
    state.models[g.id] = g
    hatch.left(state, v, crew)
    core.engage(a, g)
    for glist in groups:
        for group in list(glist):
            if group["defender"] == v.id and a.id in group["attackers"]:
                group["attackers"] = [x for x in group["attackers"] if x != a.id]
                if not group["attackers"]:
                    glist.remove(group)
                glist.append(
                    {
                        "attackers": [a.id],
                        "defender": g.id,
                        "charging": group["charging"],
                        "rule": R_CREW,
                    }
                )
    ctx.log.emit(
        "move",
        f"{v.id}'s {crew} jumps out to ({g.x:.2f}, {g.y:.2f}) to meet "
        f"{a.id}: {v.id}'s turret cannot fire until a gunner takes his place",
        actor=g.id,
        target=a.id,
        rule=R_CREW,
        data={"to": [g.x, g.y]},
    )


def turret_silent(v: Model, weapon: dict) -> str:
    """'' unless ``weapon`` sits in a turret whose gunner is out."""
    empty = crew_out(v) or "turret_lost" in mv(v).get("effects", [])
    if empty and weapon["name"] in mv(v)["veh"].get("turret_weapons", []):
        return (
            f"{v.id}'s turret gunner is out: its {weapon['name']} cannot fire until a "
            f"gunner takes his place ({R_CREW})"
        )
    return ""
