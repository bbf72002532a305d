"""Who sits in a vehicle's exposed gunner's hatch: the crewman who jumps out, the one
who climbs back, another model who takes his place (SWOMP "Exposed crewmen/riders":
"the turret cannot fire unless another turret gunner takes his place";
SWOMP-I-VEH-CC, SWOMP-I-MAN).

Why apart: the hatch is a place a model can leave and enter; jumping out (vehicle_cc),
ending a move beside the vehicle (movement) and the ``man`` verb (vehicle_verbs) must
agree on who is in it, what HP he brings and what his loss costs, and vehicle damage
must know whose death a hit on the hatch is.

Plain data: ``mv(v)["crew_out"]`` the hatches whose man is out; ``mv(v)["manned"]``
{hatch: {"id": model id, "hp": the hatch's HP when he got in}} for a model that climbed
in (he leaves the table, ``removed`` with ``mv(m)["aboard"] = vehicle id``: not a
casualty unless he dies in the hatch or with the vehicle); a model on the ground that
came out of a hatch has ``mv(m)["crew_of"]`` and ``mv(m)["hatch"]``.
"""

from __future__ import annotations

from engine.ruleset import Context
from engine.state import GameState, Model

from ..state import mv
from . import core, table

R_CREW = "SWOMP-VEH-CREW"
CONTACT = 0.05  # inches: base contact, as melee.CONTACT


def crew_out(v: Model) -> list[str]:
    """Exposed crew locations whose crewman has jumped out."""
    return list(mv(v).get("crew_out", []))


def open_hatches(v: Model) -> list[str]:
    """The turret's exposed hatches with nobody in them: the gunner jumped out, or was
    killed in his position (the card's gunner row: "until another gunner takes his
    place"). Only a vehicle with turret weapons has a gunner's hatch to take."""
    if not mv(v)["veh"].get("turret_weapons"):
        return []
    out = crew_out(v)
    dead = "turret_lost" in mv(v).get("effects", [])
    return [
        c
        for c in mv(v)["veh"].get("exposed", [])
        if c in out or (dead and int(mv(v)["loc"].get(c, 0)) <= 0)
    ]


def ground_id(state: GameState, v: Model, crew: str) -> str:
    """An id for the card's crewman on the ground that no model on the table has."""
    base = f"{v.id}_{crew}"
    k, mid = 1, base
    while mid in state.models and not state.models[mid].removed:
        k += 1
        mid = f"{base}_{k}"
    return mid


def card_gunner(state: GameState, v: Model, crew: str, at: tuple[float, float]) -> Model:
    """The crewman on the ground: his own DR, armour and field from the card, the
    location's HP left as his HP, a combat knife (SWOMP-I-VEH-CC)."""
    c = mv(v)["veh"].get("crew", {})
    hp = int(mv(v)["loc"][crew])
    stats = {
        "MR": int(c.get("MR", 4)),
        "SR": int(c.get("SR", core.stat(v, "SR"))),
        "DR": int(c.get("DR", 3)),
        "CR": int(c.get("CR", 3)),
        "PR": int(c.get("PR", core.stat(v, "PR"))),
        "HP": hp,
        "AR": int(c.get("AR", 0)),
        "FR": int(c.get("FR", 0)),
    }
    knife = {"name": "combat knife", "kind": "melee", "WR": 0, "Dam": 1, "parry": False}
    return Model(
        id=ground_id(state, v, crew),
        side=v.side,
        unit=v.unit,
        x=round(at[0], 2),
        y=round(at[1], 2),
        facing=v.facing,
        base=25.0,
        stats=stats,
        weapons=[knife],
        hp=hp,
        max_hp=hp,
        vars={
            "size": "medium",
            "type": "troop",
            "points": 0,
            "arms": 2,
            "moved": 0.0,
            "crew_of": v.id,
            "hatch": crew,
            "act": dict(core.FRESH_ACT, fired=[]),
        },
    )


def crewman_out(state: GameState, v: Model, crew: str, at: tuple[float, float]) -> Model:
    """The model who comes out of ``crew`` at ``at`` (a new object: the caller puts it in
    the state). One who climbed in comes out as himself, less the damage the hatch took
    while he was in it; otherwise the card's crewman."""
    rec = mv(v).get("manned", {}).get(crew)
    m = state.models.get(rec["id"]) if rec else None
    if m is None:
        return card_gunner(state, v, crew, at)
    out = Model.from_dict(m.to_dict())
    assert rec is not None  # m was found by it
    taken = int(rec["hp"]) - int(mv(v)["loc"][crew])
    out.hp = max(1, m.hp - taken)
    out.removed = False
    out.x, out.y = round(at[0], 2), round(at[1], 2)
    mv(out).pop("aboard", None)
    out.vars.update({"crew_of": v.id, "hatch": crew, "act": dict(core.FRESH_ACT, fired=[])})
    return out


def left(state: GameState, v: Model, crew: str) -> None:
    """The hatch's man is out: it is empty and hits on it do nothing."""
    mv(v).get("manned", {}).pop(crew, None)
    if not mv(v).get("manned", True):
        mv(v).pop("manned")
    mv(v)["crew_out"] = sorted(set(crew_out(v)) | {crew})
    mv(v)["loc"][crew] = 0
    v.hp = sum(int(x) for x in mv(v)["loc"].values())
    v.set_status("gunner_out")


def board(state: GameState, ctx: Context, m: Model, v: Model, crew: str, why: str) -> None:
    """``m`` climbs into the empty hatch ``crew``: he leaves the table (not a casualty),
    the hatch takes his HP up to its own, and the turret may fire again."""
    full = int(mv(v)["veh"]["locations"][crew])
    hp = min(m.hp, full)
    mv(v)["loc"][crew] = hp
    v.hp = sum(int(x) for x in mv(v)["loc"].values())
    mv(v)["crew_out"] = [c for c in crew_out(v) if c != crew]
    if not mv(v)["crew_out"]:
        mv(v).pop("crew_out")
    effects = [e for e in mv(v).get("effects", []) if e != "turret_lost"]
    if "effects" in mv(v):
        mv(v)["effects"] = effects
    if not crew_out(v):
        v.set_status("gunner_out", False)
    mv(v).setdefault("manned", {})[crew] = {"id": m.id, "hp": hp}
    for f in core.foes(state, m):
        core.disengage(m, f)
    m.removed = True
    mv(m)["aboard"] = v.id
    for k in ("crew_of", "hatch"):
        m.vars.pop(k, None)
    ctx.log.emit(
        "move",
        f"{m.id} {why} {v.id}'s {crew} hatch: the turret may fire again",
        actor=m.id,
        target=v.id,
        rule=R_CREW,
        data={"hatch": crew, "hp": hp},
    )


def climb_back(state: GameState, ctx: Context, m: Model) -> None:
    """A gunner who ends a move in base contact with his vehicle, out of close combat,
    climbs back into his empty hatch (SWOMP-I-VEH-CC)."""
    v = state.models.get(str(mv(m).get("crew_of", "")))
    if v is None or v.removed or m.removed or core.engaged(m):
        return
    crew = mv(m).get("hatch") or next((c for c in crew_out(v) if f"{v.id}_{c}" == m.id), None)
    if crew not in open_hatches(v) and crew not in crew_out(v):
        return
    if table.distance(m, v) > CONTACT:
        return
    board(state, ctx, m, v, str(crew), "climbs back into")


def man_problems(state: GameState, m: Model, v: Model | None, crew: str) -> list[str]:
    """Why ``m`` may not take the gunner's place in ``v`` now (SWOMP-I-MAN): it must be
    a model on foot of the vehicle's side, in base contact with it, out of close combat,
    and not have shot, fought or cleared a jam this action (climbing in is its action)."""
    if v is None or v.removed or not core.is_vehicle(v):
        return ["no such vehicle on the table"]
    if core.is_vehicle(m) or mv(m).get("size") == "large":
        return [f"{m.id} cannot climb into a hatch: only a model on foot of man size can"]
    if v.side != m.side:
        return [f"{v.id} is not on {m.id}'s side"]
    empty = open_hatches(v)
    if not empty:
        return [f"{v.id} has no empty gunner's hatch: its turret has a gunner ({R_CREW})"]
    if crew and crew not in empty:
        return [f"{v.id}'s {crew} is not an empty gunner's hatch (empty: {', '.join(empty)})"]
    r = []
    if core.engaged(m):
        r.append(f"{m.id} is in close combat")
    d = table.distance(m, v)
    if d > CONTACT:
        r.append(f'{m.id} is {d:.1f}" from {v.id}: it climbs in from base contact')
    a = core.act(m)
    if a["shot"] or a["fought"] or a["clearing"] or a["stood"] or mv(m).get("overwatch"):
        r.append(
            f"{m.id} has already used its action: taking the gunner's place is its "
            f"action ({R_CREW})"
        )
    return r


def killed_in(state: GameState, ctx: Context, v: Model, crew: str, actor: str) -> None:
    """The hatch ``crew`` has been shot empty (HP 0): a model who climbed into it dies in
    his position and counts as a casualty of his unit (SWOMP-I-MAN)."""
    rec = mv(v).get("manned", {}).pop(crew, None)
    if not mv(v).get("manned", True):
        mv(v).pop("manned")
    m = state.models.get(rec["id"]) if rec else None
    if m is None or mv(m).get("aboard") != v.id:
        return
    mv(m).pop("aboard")
    m.removed = False
    core.remove(state, ctx, m, f"killed in {v.id}'s {crew} hatch", R_CREW, actor)
