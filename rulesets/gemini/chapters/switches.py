"""The optional rules a scenario turns on: the ``options`` table, checked and read.

Why one table of switches: the rulebook is a page of optional rules, each of which a
group of players agrees to use or not. Every switch has a name and the values it may
take; a scenario that names an unknown switch or gives a value it does not have stops
the load with ``error: FILE: options.NAME: WHAT`` (exit 2), never plays a rule it did
not mean. The rules read the parsed switches through ``of(state)`` (a ``Switches``),
so a test or scenario that leaves a switch out gets the core rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.state import GameState
from rulesets.gemini.state import options

#: name -> allowed values (the first is the default: the core rule). Booleans are on/off
#: switches; the words are the modes the issue names ("none" is the switch off).
SWITCHES: dict[str, tuple[Any, ...]] = {
    "snake_eyes": (False, True),
    "turns": ("phases", "initiative", "arap"),
    "reactions": (False, True),
    "overwatch": ("none", "old", "arap"),
    "fast_draw": (False, True),
    "movement_save": (False, True),
    "skills": (False, True),
    "observation": (False, True),
    "reserve_moves": (False, True),
    "psychology": (False, True),
    "gasr_morale": (False, True),
    "broken_nerve": (False, True),
    "pursuit": (False, True),
    "breaking_off": (False, True),
    "follow_up": (False, True),
    "all_out_rout": (False, True),
    "gasr_targeting": (False, True),
    "frozen_pinned": (False, True),
    "running": ("none", "double", "d6"),
    "ammo_rolls": (False, True),
    "lucky_shots": (False, True),
    "critical_damage": (False, True),
    "extra_wounds": ("none", "2d6", "3d6"),
    "injuries": ("none", "wound_chart", "mordheim", "gasr_table"),
    "instant_death": (False, True),
    "combat_score": (False, True),
    "parry": (False, True),
}
#: keys of the ``options`` table the engine's schema knows for other rulesets; they mean
#: nothing to Gemini and are refused like any unknown switch
KEY = "options"


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return f'"{v}"' if isinstance(v, str) else str(v)


def problems(options: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(where, what) for each unknown switch and each value a switch does not take.

    A word switch also takes ``false`` for "none" (off), so ``running = false`` reads
    as players write it."""
    out: list[tuple[str, str]] = []
    for name, value in options.items():
        allowed = SWITCHES.get(name)
        if allowed is None:
            out.append((name, f"unknown Gemini switch '{name}' (switches: {', '.join(SWITCHES)})"))
            continue
        if _normal(name, value) is None:
            out.append(
                (
                    name,
                    f"{_show(value)} is not a value of '{name}' "
                    f"(one of {', '.join(_show(v) for v in allowed)})",
                )
            )
    return out


def _normal(name: str, value: Any) -> Any:
    """The switch's value as the rules read it, or None when it is not allowed."""
    allowed = SWITCHES[name]
    if isinstance(allowed[0], bool):
        return value if isinstance(value, bool) else None
    if value is False and "none" in allowed:
        return "none"
    if isinstance(value, str) and value in allowed:
        return value
    return None


@dataclass(frozen=True)
class Switches:
    """The switches in force (every one has a value: the scenario's or the core's).

    Read as attributes (``sw.combat_score``, ``sw.turns``); ``on(name)`` is True for a
    switch that is not at its core value."""

    values: tuple[tuple[str, Any], ...]

    def __post_init__(self) -> None:
        # each switch an attribute of its own: the rules read them some 100,000 times a
        # game, and a walk along ``values`` each time was a tenth of a rollout (issue 24)
        for k, v in self.values:
            object.__setattr__(self, k, v)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(name)  # a switch that is not in ``SWITCHES``

    def on(self, name: str) -> bool:
        return bool(getattr(self, name) != SWITCHES[name][0])

    def as_dict(self) -> dict[str, Any]:
        return dict(self.values)


_CACHE: dict[tuple[tuple[str, Any], ...], Switches] = {}


_PARSED: dict[tuple[tuple[str, Any], ...], Switches] = {}


def parse(options: Mapping[str, Any] | None) -> Switches:
    """The switches of an options table (already checked by ``problems``): unknown or
    bad entries are ignored here, the core value stands. Kept per table as given
    (every rule reads the switches, and a state's copy brings a fresh table)."""
    try:
        given_key: tuple[tuple[str, Any], ...] | None = tuple(sorted((options or {}).items()))
        hit = _PARSED.get(given_key)  # type: ignore[arg-type]
    except TypeError:  # a list among the values: no key, worked out each time
        given_key, hit = None, None
    if hit is not None:
        return hit
    sw = _parse(options)
    if given_key is not None and len(_PARSED) < 256:
        _PARSED[given_key] = sw
    return sw


def _parse(options: Mapping[str, Any] | None) -> Switches:
    """``parse`` without the memo."""
    given = dict(options or {})
    vals = []
    for name, allowed in SWITCHES.items():
        v = _normal(name, given[name]) if name in given else None
        vals.append((name, allowed[0] if v is None else v))
    key = tuple(vals)
    sw = _CACHE.get(key)
    if sw is None:
        sw = _CACHE.setdefault(key, Switches(key))
    return sw


def of(state: GameState) -> Switches:
    """The switches in force in this game (``state.GemVars``' options). A game with
    none (the core alone) skips the parse."""
    given = options(state)
    return parse(given) if given else CORE


#: the switches of a game that turns none on
CORE = _parse(None)
