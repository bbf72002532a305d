"""The parts of a scenario file, each checked against ``engine.schema``: the ruleset key,
the battlefield (table, map, terrain), the models and the script.

Why apart from ``engine.scenario``: the checks are most of a loader's code; the scenario
module keeps what a game needs (the Scenario, new_game, the script runner, the JSON).
Each function records its problems on the shared Checker and returns only what is
sound, so nothing malformed ever reaches a ruleset builder or the rules.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from engine import actions as act
from engine import schema as sc
from engine.battlefield import TERRAIN_CLASSES, Battlefield, TerrainFeature, base_size_in
from engine.data import Checker, DataError, load_toml, type_name
from engine.ruleset import Ruleset, UnknownRuleset, available, load
from engine.state import Model

ROOT = Path(__file__).resolve().parent.parent
KEY = re.compile(r"[a-z][a-z0-9_]*")
COMMON_VERBS = (
    "move",
    "charge",
    "shoot",
    "fight",
    "end_turn",
    "end_activation",
    "end_phase",
    "turn",
    "concede",
    "choose",
)


def ruleset_problem(key: str) -> str | None:
    """Why ``key`` cannot name a ruleset, or None. Why before importing: the key comes
    from file data, and a dotted key (``gem.balance``) would import and run that module;
    a plain lower-case name can only be a ruleset package (or nothing)."""
    if KEY.fullmatch(key):
        return None
    return f"unknown ruleset '{key}' (known: {', '.join(available())})"


def find_ruleset(chk: Checker, data: dict[str, Any], where: str = "ruleset") -> Ruleset | None:
    """The ruleset ``data`` names, or None after recording why not."""
    key = data.get("ruleset")
    if not isinstance(key, str) or not key:
        return None  # the schema has said what is wrong with it
    why = ruleset_problem(key)
    if why is None:
        try:
            return load(key)
        except (UnknownRuleset, ModuleNotFoundError):
            why = f"unknown ruleset '{key}' (known: {', '.join(available())})"
    chk.add(where, why)
    return None


def resolve(path: str) -> Path:
    """A map path as SCENARIO_FORMAT.md gives it: relative to the project root (a path
    that exists where the user stands is taken as it is)."""
    p = Path(path)
    try:
        if p.is_absolute() or p.exists():
            return p
    except (OSError, ValueError):  # a NUL or an over-long name: read_regular says so
        return p
    return ROOT / p


def load_map(ref: str, chk: Checker, where: str) -> tuple[tuple[float, float] | None, list[Any]]:
    """Read a map file; problems are reported against the scenario key that names it."""
    try:
        data = load_toml(resolve(ref), display=ref)
    except DataError as e:
        for pr in e.problems:
            chk.add(where, f"bad map reference '{ref}': {pr.where}: {pr.what}")
        return None, []
    sub = Checker(ref)
    got = sc.MAP.check(sub, data, "")
    for pr in sub.problems:
        chk.add(where, f"bad map '{ref}': {pr.where}: {pr.what}")
    if sub.problems:
        return None, []
    return got.get("table"), list(got.get("terrain", []))


def _area(pts: list[tuple[float, float]]) -> float:
    return abs(
        sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))
        / 2
    )


def terrain(chk: Checker, items: list[Any], prefix: str, ids: set[str]) -> list[TerrainFeature]:
    """Terrain pieces: a known kind and a polygon of at least three points with an area."""
    out = []
    kinds = sc.Str(choices=tuple(TERRAIN_CLASSES))
    for i, t in enumerate(items):
        where = f"{prefix}[{i}]"
        before = len(chk.problems)
        got = sc.TERRAIN.check(chk, t, where)
        if got is sc.MISSING:
            continue
        kind = got.get("kind")
        if isinstance(kind, str) and kinds.check(chk, kind, f"{where}.kind") is sc.MISSING:
            kind = None
        pts = got.get("polygon")
        if isinstance(pts, list) and sc.MISSING not in pts:
            if len(pts) < 3:
                chk.add(f"{where}.polygon", f"a polygon needs at least 3 points, got {len(pts)}")
            elif _area(pts) < 1e-6:
                chk.add(f"{where}.polygon", "the points enclose no area (all on one line)")
        height = got.get("height", 1.0 if kind == "hill" else 0.0)
        tid = got.get("id", f"{kind or 'terrain'}{len(ids) + 1}")
        if tid in ids:
            chk.add(f"{where}.id", f"duplicate terrain id '{tid}'")
        ids.add(tid)
        if len(chk.problems) == before:
            out.append(TerrainFeature(tid, kind, tuple(pts), float(height)))
    return out


def battlefield(chk: Checker, data: dict[str, Any]) -> Battlefield:
    """The table (from ``table``, else the map's, else 72 x 48) and its terrain."""
    table: Any = (72.0, 48.0)
    items: list[Any] = []
    ref = data.get("map")
    if isinstance(ref, str) and ref:
        msize, items = load_map(ref, chk, "map")
        table = msize or table
    if isinstance(data.get("table"), tuple):
        table = data["table"]
    ids: set[str] = set()
    features = terrain(chk, items, "map.terrain", ids)
    extra = data.get("terrain")
    features += terrain(chk, extra if isinstance(extra, list) else [], "terrain", ids)
    return Battlefield(
        table[0], table[1], tuple(features), name=ref if isinstance(ref, str) else ""
    )


def corners(x: float, y: float, facing: float, base: Any) -> list[tuple[float, float]]:
    """The points of a base that must lie on the table."""
    w, d = base_size_in(base)
    if not isinstance(base, tuple):
        r = w / 2
        return [(x - r, y), (x + r, y), (x, y - r), (x, y + r)]
    c, s = math.cos(math.radians(facing)), math.sin(math.radians(facing))
    return [
        (x + fx * c - fy * s, y + fx * s + fy * c)
        for fx, fy in ((d / 2, w / 2), (d / 2, -w / 2), (-d / 2, w / 2), (-d / 2, -w / 2))
    ]


def _build(ruleset: Ruleset, spec: dict[str, Any]) -> tuple[Model | None, list[tuple[str, str]]]:
    """The ruleset's builder on an entry the schema passed. Its own checks are the
    ruleset's; a value it still cannot take becomes a problem line, never a traceback."""
    try:
        return ruleset.build_model(spec)
    except (TypeError, ValueError, KeyError, AttributeError, OverflowError) as e:
        return None, [("", f"model '{spec.get('id')}' cannot be built from these values ({e})")]


def models(
    chk: Checker, specs: list[Any], ruleset: Ruleset | None, bf: Battlefield
) -> tuple[list[Model], bool, dict[str, int]]:
    """Build every model entry; returns the models, whether every entry was sound, and
    the index of each model id in the file."""
    out: list[Model] = []
    seen: dict[str, int] = {}
    sound = True
    model_keys = tuple(ruleset.model_keys) if ruleset else ()
    for i, spec in enumerate(specs):
        where = f"models[{i}]"
        before = len(chk.problems)
        if ruleset is None and isinstance(spec, dict):
            # without a ruleset, its own keys cannot be told from typos: check only ours
            spec = {k: v for k, v in spec.items() if k in sc.MODEL.fields}
        got = sc.MODEL.check(chk, spec, where, allowed=model_keys)
        if got is not sc.MISSING and isinstance(got.get("id"), str):
            mid = got["id"]
            if mid in seen:
                chk.add(f"{where}.id", f"duplicate model id '{mid}'")
            seen[mid] = i
        if got is sc.MISSING or len(chk.problems) > before:
            sound = False
            continue
        model = _model(chk, spec, got, where, ruleset, bf)
        if model is None:
            sound = False
        else:
            out.append(model)
    for m in out:
        j = seen.get(m.unit)
        if m.unit != m.id and j is not None:
            chk.add(f"models[{seen[m.id]}].unit", f"unit '{m.unit}' is the id of models[{j}]")
            sound = False
    return out, sound, seen


def _model(
    chk: Checker,
    spec: dict[str, Any],
    got: dict[str, Any],
    where: str,
    ruleset: Ruleset | None,
    bf: Battlefield,
) -> Model | None:
    mid, x, y = got["id"], got["x"], got["y"]
    if not bf.on_table(x, y):
        chk.add(
            where,
            f"model '{mid}' is off the table ({x:g}, {y:g}) on a {bf.width:g}x{bf.depth:g} table",
        )
        return None
    if ruleset is None:
        return None
    given = {"x": x, "y": y, "facing": got.get("facing", 0.0)}
    if "base" in got:
        given["base"] = got["base"]  # else the ruleset's profile decides the base
    model, probs = _build(ruleset, {**spec, **given})
    for w, what in probs:
        chk.add(f"{where}.{w}" if w else where, what)
    if model is None or probs:
        return None
    if not all(bf.on_table(px, py) for px, py in corners(x, y, model.facing, model.base)):
        chk.add(
            where,
            f"model '{mid}' is off the table: its base crosses the edge at "
            f"({x:g}, {y:g}) on a {bf.width:g}x{bf.depth:g} table",
        )
        return None
    return model


def overlaps(chk: Checker, built: list[Model], index: dict[str, int]) -> None:
    """One line for each model whose base overlaps an earlier one's.

    Why a grid and one line per model: comparing every pair took 101 s for 10,000 models,
    and 3,000 models stacked on one spot printed 4.5 million lines. Each model is
    compared only with the models in the grid cells its base touches, and stops at the
    first overlap it finds.
    """
    from engine import geometry

    cell = 4.0
    grid: dict[tuple[int, int], list[tuple[Model, Any]]] = {}
    for m in built:
        fp = geometry.Footprint(m.x, m.y, m.facing, m.base)
        reach = max(base_size_in(m.base)) / 2 + 0.01
        keys = [
            (gx, gy)
            for gx in range(int((m.x - reach) // cell), int((m.x + reach) // cell) + 1)
            for gy in range(int((m.y - reach) // cell), int((m.y + reach) // cell) + 1)
        ]
        hit = None
        for k in keys:
            for other, ofp in grid.get(k, ()):
                if geometry.overlaps(ofp, fp):
                    hit = other
                    break
            if hit:
                break
        if hit is not None:
            chk.add(f"models[{index[m.id]}]", f"base of '{m.id}' overlaps '{hit.id}'")
        for k in keys:
            grid.setdefault(k, []).append((m, fp))


def script(
    chk: Checker,
    items: list[Any],
    ruleset: Ruleset | None,
    model_ids: set[str],
) -> list[tuple[act.Action, list[int]]]:
    """The ``[[actions]]``: a verb of the ruleset, known models, dice the ruleset rolls."""
    out: list[tuple[act.Action, list[int]]] = []
    if ruleset is None:
        return out  # verbs and dice cannot be judged without the ruleset
    verbs = set(COMMON_VERBS) | set(ruleset.verbs)
    for i, a in enumerate(items):
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            chk.add(where, f"expected a table, got {type_name(a)}")
            continue
        if sc.ACTION.check(chk, {k: v for k, v in a.items() if k != "dice"}, where) is sc.MISSING:
            continue
        a = dict(a)
        faces = _dice(chk, a.pop("dice", []), f"{where}.dice", ruleset.max_die)
        verb = a.get("do")
        if not isinstance(verb, str):
            chk.add(f"{where}.do", "missing (a verb such as move, shoot, fight is required)")
            continue
        if verb not in verbs:
            chk.add(
                f"{where}.do",
                f"unknown action '{verb}' for {ruleset.key} (verbs: {', '.join(sorted(verbs))})",
            )
            continue
        bad = next(
            (
                k
                for k in ("actor", "target")
                if isinstance(a.get(k), str) and a[k] and a[k] not in model_ids
            ),
            None,
        )
        if bad:
            chk.add(f"{where}.{bad}", f"unknown model '{a[bad]}'")
            continue
        try:
            out.append((act.from_dict(a, ruleset.key), faces))
        except act.ActionError as e:
            key, _, what = str(e).partition(": ")
            if what and key.isidentifier():
                chk.add(f"{where}.{key}", what)
            else:
                chk.add(where, str(e))
    return out


def _dice(chk: Checker, dice: Any, where: str, top: int) -> list[int]:
    if not isinstance(dice, list):
        chk.add(where, f"expected a list of die faces, got {type(dice).__name__}")
        return []
    faces = []
    for j, f in enumerate(dice):
        if isinstance(f, bool) or not isinstance(f, int):
            chk.add(f"{where}[{j}]", "expected an integer die face")
        elif not 1 <= f <= top:
            chk.add(
                f"{where}[{j}]",
                f"die face {f} out of range (this ruleset rolls dice of 1 to {top})",
            )
        else:
            faces.append(f)
    return faces
