"""GEM bookkeeping in ``state.vars['gem']`` and on each model's ``vars``: plain JSON data.

Why one place: every rules module reads the same few records (units' starting strength,
block formations, melees, the per-turn flags on models), and saves, replays and the
checksum need them to be plain data. Everything a module keeps is listed here.

state.vars["gem"]:
  order        sides in this turn's initiative order
  streak       {side: turns in a row it has won the initiative} (GEM-2.0.1)
  strength     {unit: HIT it started with} (GEM-2.4: losses are a share of this)
  missile_lost {unit: HIT lost to missile fire this turn} (GEM-2.4.1)
  blocks       {unit: {"files", "formed", "order": [model ids front rank first]}}
  melee        [{"units": [u, v], "zone": {u: zone u attacks in}, "charged": [units]}]
  options      {"cards": bool, "magic_cards": bool, "deployment": bool}
  setup        {"order": sides, "chooser": side}; the decision owed is state.pending
  edges        {side: "south" | "north"}; plans {side: {unit: [x, y, facing]}}
  plans_revealed, setup_done  (GEM-2.0.4; see deploy.py, plans.py)
  magic, deck, ...  (see magic.py, cards.py)
model.vars (per model): type, order, fear; per turn: moved, fired, fought, rushed,
  charged; disorganized_until (turn); obstacle_debt; aboard / driving (the vehicle a
  figure rides in or drives, GEM-I-EMBARK); vehicles: see chapters/vstate.py.
"""

from __future__ import annotations

from operator import is_
from typing import Any

from engine.state import GameState, Model

from .build import in_block_order, mtype

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


def g(state: GameState) -> dict[str, Any]:
    return state.vars.setdefault("gem", {})


def option(state: GameState, name: str) -> bool:
    return bool(g(state).get("options", {}).get(name, False))


_Entry = tuple[
    dict[str, Model],
    tuple[str, ...],
    tuple[Model, ...],
    list[Model],
    dict[str, list[Model]],
    dict[Any, Any],
]
#: models dict id -> (the dict, its ids, its models, the models in id order, unit -> its
#: models in id order, memo of facts about the roster). See ``_roster``.
_ROSTERS: dict[int, _Entry] = {}


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
    is kept per models dict and rebuilt whenever its keys or model objects differ (the
    entry holds the dict itself, so its id cannot be reused meanwhile).
    """
    models = state.models
    keys = tuple(models)
    hit = _ROSTERS.get(id(models))
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
    if len(_ROSTERS) > 64:
        _ROSTERS.clear()
    entry: _Entry = (models, keys, tuple(models.values()), ordered, by_unit, {})
    _ROSTERS[id(models)] = entry
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
    return ms is not None and unit in g(state).get("blocks", {}) and in_block_order(ms[0])


def unit_type(state: GameState, unit: str) -> str:
    ms = unit_models(state, unit, live=False)
    return mtype(ms[0]) if ms else ""


def unit_side(state: GameState, unit: str) -> str:
    ms = unit_models(state, unit, live=False)
    return ms[0].side if ms else ""


def lost_percent(state: GameState, unit: str) -> float:
    """GEM-2.4: losses as a percentage of what the unit started with (HIT lost)."""
    start = g(state).get("strength", {}).get(unit, 0)
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
    return g(state).setdefault("melee", [])


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
    g(state)["melee"] = [e for e in engagements(state) if all(u in live for u in e["units"])]


def remove_model(state: GameState, m: Model, why: str = "") -> None:
    m.hp = 0
    m.removed = True
    if why:
        m.set_status(why)
    prune_engagements(state)
