"""The rules' offer for a model, sorted into the window's controls.

Why a module of its own: every action a ruleset offers the selected model must be
reachable from the window (issue 23 item 1), and which control reaches it is a pure
function of the action's shape, not of the ruleset:

- a move is dragged on the table;
- an action with a ``target`` is a *targeting mode*: one button per variant (each weapon,
  each spell at each power), then a click on the target — an enemy or, when the rules
  offer it (a leader's ``lead``, a spell on a friendly block, embarking), a friend;
- an action with a ground point ``to`` (a UMR jump) is a *place mode*: a click on the
  table puts the point;
- anything else (overwatch, wait, rally, a frontage, a climb of one feature, a drive
  variant) is a plain button;
- side-level acts (end activation, end phase, end turn) are the status bar's buttons.

``control_of`` names the control for one action, so a test can walk every ruleset's
scenarios and prove that no candidate is left without one.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.actions import Action, Move, Turn

#: actor-less verbs that move play on; the status bar's buttons and Space / End give them
SIDE_ACTS = ("end_turn", "end_phase", "end_activation", "concede")
#: kinds that end or forfeit something (a whole unit's action, the activation): never
#: bound to a number key, so a stray "1" cannot throw a squad's shooting away
RISKY = ("wait", "end_activation", "end_phase", "end_turn", "concede")
#: fields that say *who* or *where*, not *which variant* of an action
_WHERE = ("actor", "target", "to", "path")


def akey(action: Action) -> str:
    """A hashable key for an action (some carry an ``options`` dict)."""
    return json.dumps(action.to_dict(), sort_keys=True, default=str)


def has_field(action: Action, name: str) -> bool:
    return any(f.name == name for f in dataclasses.fields(action))


def is_targeted(action: Action) -> bool:
    return not isinstance(action, Move) and bool(getattr(action, "target", ""))


def is_placed(action: Action) -> bool:
    """An action aimed at a point on the ground (``to``), other than a dragged move."""
    return (
        not isinstance(action, Move)
        and not is_targeted(action)
        and has_field(action, "to")
        and getattr(action, "to", None) is not None
    )


def target_of(action: Action) -> str:
    """The model a targeted action aims at ("" for none)."""
    return str(getattr(action, "target", "") or "")


def aimed(action: Action, target: str) -> Action:
    """``action`` aimed at ``target`` ("" clears the aim).

    Why by field name: the targeted classes (Shoot, Charge, a ruleset's Lead or Cast)
    each declare ``target``; the base ``Action`` the window holds does not, so the type
    checker cannot see the field, and ``dataclasses.replace`` checks it when called."""
    return dataclasses.replace(action, **{"target": target})


def placed(action: Action, to: tuple[float, float] | None) -> Action:
    """``action`` aimed at the point ``to`` (None clears it); by name, as ``aimed``.
    Each ruleset's placed class declares ``to``; the base ``Action``'s fields, which the
    checker compares with, are all strings, hence the one ignore."""
    return dataclasses.replace(action, **{"to": to})  # type: ignore[arg-type]


def proto_of(action: Action) -> Action:
    """The action with its aim (target or point) cleared: one mode per variant."""
    if is_targeted(action):
        return aimed(action, "")
    if is_placed(action):
        return placed(action, None)
    return action


def _value_text(name: str, v: object) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return name if v else f"no {name}"
    if isinstance(v, float):
        return f"{name} {v:g}"
    if isinstance(v, (tuple, list)):
        flat = [x for p in v for x in (p if isinstance(p, (tuple, list)) else (p,))]
        if name == "wheels":  # GEM drive: the turns at each wheel point
            return "turn " + ", ".join(f"{float(x):+g}\u00b0" for x in flat[1::2])
        return f"{name} " + ",".join(f"{float(x):g}" for x in flat)
    if isinstance(v, dict):
        return ", ".join(f"{k} {val}" for k, val in sorted(v.items()) if val not in ("", None))
    return f"{name} {v}"


def variant(action: Action) -> str:
    """What tells this action apart from others of its kind: 'Vigor of Hrothgar, power 2',
    'bow', 'files 6', 'speed 4, turn +30°' (empty when nothing does)."""
    bits = []
    for f in dataclasses.fields(action):
        if f.name in _WHERE:
            continue
        v = getattr(action, f.name)
        if v == f.default or v in ((), {}, None, ""):
            continue
        text = _value_text(f.name, v)
        if text:
            bits.append(text)
    return ", ".join(bits)


def label(action: Action, names: dict[str, str] | None = None) -> str:
    """A button's label: the verb and its variant ('cast: Vigor of Hrothgar, power 2')."""
    verb = action.KIND.replace("_", " ")
    var = variant(action)
    if is_targeted(action) and names is not None:
        target = target_of(action)
        return f"{verb} {names.get(target, target)}" + (f" ({var})" if var else "")
    return f"{verb}: {var}" if var else verb


@dataclass
class Mode:
    """A targeted or placed action the player has picked (shoot with a weapon, lead,
    cast a spell at a power, jump); the target or point is picked on the table."""

    proto: Action
    label: str
    #: the targets the rules offered for this variant (friends included)
    offered: frozenset[str] = field(default_factory=frozenset)
    #: True for a place mode (a click on the ground sets ``to``)
    place: bool = False


def group(actions: Iterable[Action]) -> list[Mode]:
    """Targeted and placed actions grouped by variant, in the order first offered."""
    out: dict[str, Mode] = {}
    offered: dict[str, set[str]] = {}
    for a in actions:
        if not (is_targeted(a) or is_placed(a)):
            continue
        proto = proto_of(a)
        k = akey(proto)
        if k not in out:
            out[k] = Mode(proto, label(proto), place=is_placed(a))
            offered[k] = set()
        if is_targeted(a):
            offered[k].add(target_of(a))
    for k, m in out.items():
        m.offered = frozenset(offered[k])
    return list(out.values())


def direct(actions: Iterable[Action]) -> list[Action]:
    """Untargeted actions of the selection that are plain buttons (one per variant)."""
    seen: set[str] = set()
    out = []
    for a in actions:
        if isinstance(a, (Move, Turn)) or is_targeted(a) or is_placed(a):
            continue
        if a.KIND in SIDE_ACTS:
            continue
        k = akey(a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def kind_order(verbs: Sequence[str], kind: str) -> tuple[int, int]:
    """Buttons sort by the ruleset's own verb order (then by label), risky kinds last, so
    a number key means the same verb for every model that has it."""
    if kind in RISKY:
        return (1, RISKY.index(kind))
    return (0, verbs.index(kind) if kind in verbs else len(verbs))


#: verbs every ruleset shares that get the first number keys, the same in every game
KEYED_FIRST = ("shoot", "fight", "charge")
#: kinds with a control of their own (drag, Q/E, the status bar): never a number key
_UNKEYED = ("move", "turn", "choose", *SIDE_ACTS)


def number_keys(verbs: Sequence[str]) -> dict[str, int]:
    """Each verb's number key for a whole game: shoot 1, fight 2, charge 3, then the
    ruleset's own verbs in its order (up to 9); risky verbs (wait, end activation) get
    none. Why per verb and not per button: a key must mean the same for every model and
    in every state ("1" was once "lead" for a leader and "charge" a moment later, and
    once "wait", which ended a SWOMP unit's action)."""
    out: dict[str, int] = {}
    for kind in (*KEYED_FIRST, *verbs):
        if kind in out or kind in RISKY or kind in _UNKEYED:
            continue
        if len(out) == 9:
            break
        out[kind] = len(out) + 1
    return out


def control_of(action: Action, modes: Sequence[Mode], buttons: Sequence[Action]) -> str:
    """Which control of the window gives ``action`` ('' when none does)."""
    if isinstance(action, Move):
        return "drag the model"
    if isinstance(action, Turn):
        return "Q/E then Enter"
    if action.KIND in SIDE_ACTS:
        return "status bar (Space / End)"
    k = akey(proto_of(action))
    for m in modes:
        if akey(m.proto) == k:
            if m.place:
                return f"{m.label} then click the ground"
            if target_of(action) in m.offered:
                return f"{m.label} then click {target_of(action)}"
    ak = akey(action)
    for b in buttons:
        if akey(b) == ak:
            return f"button '{label(b)}'"
    return ""
