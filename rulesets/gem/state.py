"""GEM's bookkeeping, typed: every key it keeps in ``state.vars["gem"]`` and on each
model's ``vars``, with the accessors every rules module reads them through.

Why one place: every chapter reads the same few records (units' starting strength, block
formations, melees, the per-turn flags on models, a vehicle's damage), and saves, replays
and the checksum need them to be plain JSON data. A ``TypedDict`` here names each key and
its type, so a mistyped key is a type error, not a silent rules bug; outside this module
no code subscripts a ``vars`` dict with a string (tests/test_skeleton.py). The accessors
only cast (``gs`` creates the "gem" record, as it always did): no key is added by
reading, so checksums are unchanged.

Vehicles (GEM-3.1 to GEM-3.3): what a vehicle's damage leaves it able to do is asked here
without dice. GEM's effects depend on which system was struck (actuator, mobilizer, main
body, central control) and some last ("stuck at full throttle", "frame broken"), so each
vehicle keeps ``damage[system] = [effects]``; the rules for driving, firing, arms and
drivers all read it here, and ``check`` may ask without writing anything (``damage_of``
never creates the record).
"""

from __future__ import annotations

from operator import is_
from typing import Any, TypedDict, cast

from engine.ruleset import Context
from engine.state import GameState, Model


class Setup(TypedDict):
    """The pre-game setup (GEM-2.0.2 to 2.0.4): sides in order, who chose the edges."""

    order: list[str]
    chooser: str


class GemVars(TypedDict, total=False):
    """``state.vars["gem"]``."""

    #: sides in this turn's initiative order
    order: list[str]
    #: side -> turns in a row it has won the initiative (GEM-2.0.1)
    streak: dict[str, int]
    #: unit -> HIT it started with (GEM-2.4: losses are a share of this)
    strength: dict[str, int]
    #: unit -> HIT lost to missile fire this turn (GEM-2.4.1)
    missile_lost: dict[str, int]
    #: unit -> {"files", "formed", "order": [model ids front rank first]} (blocks.py)
    blocks: dict[str, dict[str, Any]]
    #: [{"units": [u, v], "zone": {u: the zone u attacks in}, "charged": [units]}]
    melee: list[dict[str, Any]]
    #: scenario switches: cards, magic_cards, deployment, terrain_placement (GEM-I-OPTIONS)
    options: dict[str, bool]
    #: GEM-2.0.4 deployment (deploy.py, plans.py); the decision owed is state.pending
    setup: Setup
    edges: dict[str, str]
    plans: dict[str, dict[str, list[float]]]
    plans_revealed: bool
    setup_done: bool
    #: GEM-2.0.2 terrain placement: {"at": {id: [x, y]}, "left": [ids], "order": sides}
    bunches: dict[str, Any]
    #: this turn's magic cards and effects (magic.py): {"cards", "effects", "turn", ...}
    magic: dict[str, Any]
    #: GEM-2.5 card activation: the deck of [unit, "move" | "fire" | "magic"], the card
    deck: list[list[str]]
    card: int


class StateVars(TypedDict, total=False):
    """The keys of ``state.vars`` GEM reads: its own record and the scenario's."""

    gem: GemVars
    objectives: list[dict[str, Any]]
    options: dict[str, Any]
    turn_limit: int


class GemModelVars(TypedDict, total=False):
    """A model's ``vars``: what ``build`` sets, then the flags play keeps."""

    #: skirmisher, block, heavy, peltast, cavalry, vehicle... (build.py)
    type: str
    #: "block" or "skirmish" (peltasts switch, GEM-2.3.4)
    order: str
    #: causes fear on contact (GEM-2.4)
    fear: bool
    #: spell power left this turn: {"offensive": n, "defensive": n} (GEM-3.5)
    power: dict[str, int]
    # per turn (PER_TURN): cleared when a turn begins
    moved: float
    fired: bool
    fought: bool
    rushed: bool
    charged: bool
    frontage: bool
    cast_off: bool
    cast_def: bool
    overrun_done: bool
    acted: bool
    #: the distance a scenario says it moved before turn 1 (``state.moved``)
    moved_before: float
    moved_done: bool
    #: the turn through which it stays disorganized (GEM-2.4.5)
    disorganized_until: int
    #: inches still owed for a line obstacle (GEM-2.1)
    obstacle_debt: float
    #: the vehicle a figure rides in or drives (GEM-I-EMBARK)
    aboard: str
    driving: str
    # vehicles (GEM-3.1 to GEM-3.4)
    mobilizer: str
    speed: float
    last_speed: float
    damage: dict[str, list[str]]
    last_legs: list[list[Any]]
    random_next: bool
    full_throttle: bool
    #: the central control is a driver (as on a motorcycle)
    driver: bool
    #: the turn the driver was lost, and the figure that replaced him
    driver_out: int
    driver_figure: str
    capacity: int
    crew: dict[str, int]


PER_TURN = (
    "moved",
    "fired",
    "fought",
    "rushed",
    "charged",
    "frontage",
    "cast_off",
    "cast_def",
    "overrun_done",
    "acted",
)


def gs(state: GameState) -> GemVars:
    """GEM's record in ``state.vars`` (created when missing)."""
    return cast(GemVars, state.vars.setdefault("gem", {}))


def svars(state: GameState) -> StateVars:
    """``state.vars`` as GEM reads it (nothing created)."""
    return cast(StateVars, state.vars)


def mv(m: Model) -> GemModelVars:
    """A model's ``vars`` as GEM keeps them (nothing created)."""
    return cast(GemModelVars, m.vars)


def mtype(m: Model) -> str:
    """The figure type (skirmisher, block, heavy, peltast, vehicle...; build.py)."""
    return str(mv(m).get("type", "skirmisher"))


def in_block_order(m: Model) -> bool:
    """Block infantry (GEM-2.1.2): block and heavy types, and peltasts in block order."""
    return mtype(m) in ("block", "heavy", "peltast") and mv(m).get("order") == "block"


def option(state: GameState, name: str) -> bool:
    return bool(gs(state).get("options", {}).get(name, False))


_Entry = tuple[
    dict[str, Model],
    tuple[str, ...],
    tuple[Model, ...],
    list[Model],
    dict[str, list[Model]],
    dict[Any, Any],
]
#: where a state keeps its roster entry: (its models dict, the dict's ids, its models,
#: the models in id order, unit -> its models in id order, memo of facts about the
#: roster). See ``_roster_entry``.
ROSTER_KEY = "_gem_roster"


def roster_memo(state: GameState) -> dict[Any, Any]:
    """A memo that lives as long as the roster (see ``_roster``): for facts that follow
    from which models there are, their units and their bases alone (none of which ever
    changes in a game), such as a block's slot size."""
    return _roster_entry(state)[5]


def _roster(state: GameState) -> tuple[list[Model], dict[str, list[Model]]]:
    """(every model in id order, unit -> its models in id order), removed ones included."""
    entry = _roster_entry(state)
    return entry[3], entry[4]


def _roster_entry(state: GameState) -> _Entry:
    """The cached roster of ``state`` (see ``_roster``), built anew when it is not there.

    Why cached: ``check`` asks "which models make up this unit" hundreds of times per
    candidate list, and sorting the whole roster each time was a good share of its cost.
    Which models exist and which unit each belongs to never change during a game (only
    positions and ``removed`` do, and callers filter those on every call), so the grouping
    is kept and rebuilt whenever the models dict, its keys or its model objects differ.

    Why on the state: the entry lives exactly as long as the state that owns it, so a
    freed state's roster can never answer for another (no table keyed by ``id()``). It is
    kept in the instance's ``__dict__``, not a field, like ``GameState.ids``'s order:
    ``to_dict``, saves and the checksum never see it; a copy (a pickle) carries it with
    its own copied models, so it stays consistent there too.
    """
    models = state.models
    keys = tuple(models)
    hit: _Entry | None = state.__dict__.get(ROSTER_KEY)
    if (
        hit is not None
        and hit[0] is models
        and hit[1] == keys
        and all(map(is_, hit[2], models.values()))
    ):
        return hit
    ordered = [m for _, m in sorted(models.items())]
    by_unit: dict[str, list[Model]] = {}
    for m in ordered:
        by_unit.setdefault(m.unit, []).append(m)
    entry: _Entry = (models, keys, tuple(models.values()), ordered, by_unit, {})
    state.__dict__[ROSTER_KEY] = entry
    return entry


def unit_models(state: GameState, unit: str, live: bool = True) -> list[Model]:
    ms = _roster(state)[1].get(unit, ())
    return [m for m in ms if not live or not m.removed]


def roster(state: GameState) -> list[Model]:
    """Every model, removed ones included, in id order (the cached list: do not change
    it)."""
    return _roster(state)[0]


def live_models(state: GameState, side: str | None = None) -> list[Model]:
    """``state.live(side)`` (models on the table, id order) from the cached roster."""
    return [m for m in _roster(state)[0] if not m.removed and (side is None or m.side == side)]


def unit_of(state: GameState, actor: str) -> str | None:
    """A model id or a unit id -> the unit id (None if neither)."""
    if actor in state.models:
        return state.models[actor].unit
    if actor in _roster(state)[1]:
        return actor
    return None


def is_block(state: GameState, unit: str) -> bool:
    gem = state.vars.get("gem")
    if gem is not None and unit not in gem.get("blocks", {}):
        return False  # the usual answer, without looking the unit up
    ms = _roster(state)[1].get(unit)
    return ms is not None and unit in gs(state).get("blocks", {}) and in_block_order(ms[0])


def unit_type(state: GameState, unit: str) -> str:
    ms = unit_models(state, unit, live=False)
    return mtype(ms[0]) if ms else ""


def unit_side(state: GameState, unit: str) -> str:
    ms = unit_models(state, unit, live=False)
    return ms[0].side if ms else ""


def lost_percent(state: GameState, unit: str) -> float:
    """GEM-2.4: losses as a percentage of what the unit started with (HIT lost)."""
    start = gs(state).get("strength", {}).get(unit, 0)
    if start <= 0:
        return 0.0
    now = sum(m.hp for m in unit_models(state, unit, live=False) if on_hand(m))
    return max(0.0, 100.0 * (start - now) / start)


def on_hand(m: Model) -> bool:
    """Still in the game: on the table, or riding in a vehicle (GEM-I-EMBARK) — a figure
    inside is not a loss."""
    return not m.removed or (bool(m.vars.get("aboard") or m.vars.get("driving")) and m.hp > 0)


def disorganized(m: Model) -> bool:
    return "disorganized" in m.status


def set_disorganized(state: GameState, unit: str) -> None:
    """GEM-2.4.5: disorganized now, and through the whole of next turn."""
    for m in unit_models(state, unit):
        m.set_status("disorganized")
        m.vars["disorganized_until"] = state.turn + 1


def engagements(state: GameState) -> list[dict[str, Any]]:
    return gs(state).setdefault("melee", [])


def foes_in_melee(state: GameState, unit: str) -> list[str]:
    out = []
    for e in engagements(state):
        if unit in e["units"]:
            out += [u for u in e["units"] if u != unit and u not in out]
    return out


def in_melee(state: GameState, unit: str) -> bool:
    return bool(foes_in_melee(state, unit))


def engagement(state: GameState, a: str, b: str) -> dict[str, Any] | None:
    for e in engagements(state):
        if a in e["units"] and b in e["units"]:
            return e
    return None


def engage(state: GameState, attacker: str, defender: str, zone: str, charged: bool) -> None:
    e = engagement(state, attacker, defender)
    if e is None:
        e = {"units": [attacker, defender], "zone": {}, "charged": []}
        engagements(state).append(e)
    e["zone"][attacker] = zone
    e["zone"].setdefault(defender, "front")
    if charged and attacker not in e["charged"]:
        e["charged"].append(attacker)


def prune_engagements(state: GameState) -> None:
    """Melees end when one side is gone (removed or routed)."""
    live = set(state.units())
    gs(state)["melee"] = [e for e in engagements(state) if all(u in live for u in e["units"])]


def remove_model(state: GameState, m: Model, why: str = "") -> None:
    m.hp = 0
    m.removed = True
    if why:
        m.set_status(why)
    prune_engagements(state)


# --- vehicles (GEM-3.1 to GEM-3.3): what damage leaves a vehicle able to do -----------

#: effects that put a system out of use (GEM-3.3; torn off mobilizers count as broken,
#: GEM-I-EXPLODE)
DISABLED = ("jammed", "broken", "torn_off")
MOBILIZERS = ("left_mobilizer", "right_mobilizer")


def damage(m: Model) -> dict[str, list[str]]:
    """The damage record, created when missing (only for code that applies effects)."""
    return m.vars.setdefault("damage", {})


def damage_of(m: Model) -> dict[str, list[str]]:
    """The damage record, read-only: an empty one when the vehicle has none yet."""
    return m.vars.get("damage") or {}


def has(m: Model, system: str, effect: str) -> bool:
    return effect in damage_of(m).get(system, [])


def amok(m: Model) -> bool:
    """GEM-3.3: central control out of control: every system runs amok for good."""
    return has(m, "central_control", "out_of_control")


def wheels(m: Model) -> bool:
    return m.vars.get("mobilizer") == "wheels"


def mobilizer_hit(m: Model) -> bool:
    """Is a mobilizer jammed, broken or torn off (GEM-3.3)?"""
    return any(e in damage_of(m).get(s, []) for s in MOBILIZERS for e in DISABLED)


def in_place_only(m: Model) -> bool:
    """GEM-3.3: a tread or leg jammed or broken leaves only turning in place."""
    return mobilizer_hit(m) and not wheels(m)


def wheel_dragging(m: Model) -> bool:
    """GEM-3.3: a jammed or broken wheel halves speed and the turning arc."""
    return mobilizer_hit(m) and wheels(m)


def has_driver(m: Model) -> bool:
    """Is the central control a driver (a rider, as on a motorcycle; GEM-3.3)?"""
    return bool(m.vars.get("driver"))


def driverless(m: Model) -> bool:
    """The driver was lost (knocked out, killed, torn off) and not yet replaced."""
    return m.vars.get("driver_out") is not None


def no_controls(m: Model) -> bool:
    """GEM-3.3: controls torn off (or a driver lost): it coasts, unsteered, unarmed."""
    return has(m, "central_control", "torn_off") or driverless(m)


def max_speed(m: Model) -> float:
    """MOV, cut by damage: a wheel jammed, broken or torn halves it; a tread or leg in the
    same state, or a broken frame, leaves nothing (GEM-3.3). Lost controls do not lower
    it: the vehicle coasts to a stop instead (so no sudden deceleration, GEM-3.4)."""
    top = float(m.stat("MOV", 0))
    if wheel_dragging(m):
        top /= 2
    if in_place_only(m) or has(m, "main_body", "frame_broken"):
        top = 0.0
    return top


def speed_range(m: Model) -> tuple[float, float]:
    """GEM-3.1: this turn's speed is last turn's give or take ACC, within the maximum;
    stuck at full throttle it is the maximum (GEM-3.3)."""
    top = max_speed(m)
    if m.vars.get("full_throttle"):
        return top, top
    last = float(m.vars.get("speed", 0.0))
    acc = float(m.stat("ACC", 0))
    hi = min(top, last + acc)
    return min(max(0.0, last - acc), hi), hi


def turn_radius(m: Model, speed: float | None = None) -> float:
    """GEM-3.1: a wheel's radius is the current speed in inches; a dragging wheel turns
    in half the arc, so its radius is twice the speed (GEM-I-HALFARC); a vehicle limited
    to turning in place pivots (radius 0)."""
    s = float(m.vars.get("speed", 0.0)) if speed is None else float(speed)
    if in_place_only(m):
        return 0.0
    return 2.0 * s if wheel_dragging(m) else s


def actuator_problem(m: Model, side: str) -> str:
    """GEM-3.3 (GEM-I-ARMS): why the arm (actuator) on ``side`` cannot be used, or ""."""
    effs = damage_of(m).get(f"{side}_actuator", [])
    for e in DISABLED + ("out_of_control",):
        if e in effs:
            return f"{m.id}'s {side} actuator (arm) is {e.replace('_', ' ')} (GEM-3.3)"
    return ""


def weapon_problem(m: Model, w: dict[str, Any]) -> str:
    """Why a vehicle may not use weapon ``w``: its arm is out of use, or it has no
    controls ("without controls, no weapons can be fired", GEM-3.3)."""
    side = w.get("side")
    if side:
        why = actuator_problem(m, str(side))
        if why:
            return f"{why}: {w.get('name')} cannot be used"
    if no_controls(m):
        return f"{m.id} has lost its controls: no weapons can be used (GEM-3.3)"
    return ""


def forced_move(m: Model) -> str | None:
    """Why the vehicle drives itself this turn, or None (GEM-3.3)."""
    if no_controls(m):
        return "coasting to a stop"
    if amok(m) or m.vars.get("random_next"):
        return "out of control"
    if has(m, "central_control", "jammed") or has(m, "central_control", "broken"):
        return "repeats last turn (controls jammed)"
    return None


def d6_check(
    ctx: Context, m: Model, purpose: str, need: int, rule: str, yes: str, no: str, note: str = ""
) -> bool:
    """One d6 that succeeds on ``need``+ (the vehicle rolls of GEM-3.3/3.4), logged with
    its exact chance; True when it succeeds. Why one helper: these rolls all read alike
    and each must carry the chance before the roll in its event."""
    from fractions import Fraction

    chance = Fraction(7 - need, 6)
    r = ctx.dice.roll(
        6,
        purpose,
        need=f"{need}+",
        chance=chance,
        actor=m.id,
        rule=rule,
        result=lambda t, _f: yes if t >= need else no,
    )
    ctx.log.emit(
        "resolution",
        r.explain() + note,
        actor=m.id,
        rule=rule,
        rolls=list(r.faces),
        chance=float(chance),
        outcome=str(r.result),
    )
    return r.result == yes
