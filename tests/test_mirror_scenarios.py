"""The mirror battles (rulesets/<key>/scenarios/mirror.toml on maps/mirror.toml) used by
bench/ai_strength.py: nothing but skill and the dice may decide a pair of games played
with sides swapped, so the table and the armies must be point-symmetric under a half
turn about the table centre, (x, y) -> (W - x, D - y).

The files are read with tomllib (what the author wrote, not what a loader made of it);
the built models are compared too, so a ruleset default cannot slip in an asymmetry.
"""

from __future__ import annotations

import math
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.agents import RandomAgent
from engine.battlefield import TERRAIN_CLASSES
from engine.scenario import load_scenario, new_game

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("umr", "swomp", "gem", "gemini")
TOL = 1e-6
#: Keys of a model that place it; everything else must match its partner exactly.
PLACEMENT = {"id", "side", "unit", "x", "y", "facing"}
ACTIONS = 40


def scenario_path(key: str) -> Path:
    return ROOT / "rulesets" / key / "scenarios" / "mirror.toml"


def load(path: Path) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


def table_and_terrain(data: dict) -> tuple[tuple[float, float], list[dict]]:
    """The table size and every terrain piece of a scenario: its map's, then its own."""
    table = (72.0, 48.0)
    terrain: list[dict] = []
    if "map" in data:
        m = load(ROOT / data["map"])
        table = tuple(m.get("table", table))
        terrain += m.get("terrain", [])
    if "table" in data:
        table = tuple(data["table"])
    terrain += data.get("terrain", [])
    return (float(table[0]), float(table[1])), terrain


def height(piece: dict) -> float:
    return float(piece.get("height", 1.0 if piece["kind"] == "hill" else 0.0))


def same_points(a: list, b: list) -> bool:
    """Two polygons have the same vertices (in any order), to TOL."""
    if len(a) != len(b):
        return False
    left = [tuple(map(float, p)) for p in b]
    for p in a:
        hit = next((q for q in left if math.dist(p, q) <= TOL), None)
        if hit is None:
            return False
        left.remove(hit)
    return True


def terrain_problems(table: tuple[float, float], terrain: list[dict]) -> list[str]:
    """Pieces whose half-turned polygon is not the polygon of a piece of the same kind and
    height; also any piece claimed as the twin of two others."""
    w, d = table
    out = []
    twin_of: dict[int, str] = {}
    for i, t in enumerate(terrain):
        turned = [(w - x, d - y) for x, y in t["polygon"]]
        hits = [
            j
            for j, u in enumerate(terrain)
            if u["kind"] == t["kind"]
            and abs(height(u) - height(t)) <= TOL
            and same_points(turned, u["polygon"])
        ]
        if len(hits) != 1:
            out.append(f"{t.get('id', i)} ({t['kind']}): {len(hits)} twins under the half turn")
            continue
        j = hits[0]
        if j in twin_of:
            out.append(
                f"{terrain[j].get('id', j)} is the twin of both {twin_of[j]} and {t.get('id', i)}"
            )
        twin_of[j] = str(t.get("id", i))
    return out


def turned_facing_gap(a: float, b: float) -> float:
    """How far (degrees, 0..180) facing b is from facing a turned half a circle."""
    gap = (b - (a + 180.0)) % 360.0
    return min(gap, 360.0 - gap)


def model_problems(table: tuple[float, float], models: list[dict]) -> list[str]:
    """Blue models without exactly one red twin (half-turned place, facing turned 180
    degrees, the same profile, stats, weapons, base... and the same unit structure)."""
    w, d = table
    out = []
    sides = Counter(m["side"] for m in models)
    if set(sides) != {"blue", "red"} or sides["blue"] != sides["red"]:
        return [f"expected equal blue and red sides, got {dict(sides)}"]
    blue = [m for m in models if m["side"] == "blue"]
    red = [m for m in models if m["side"] == "red"]
    unit_map: dict[str, str] = {}
    used: set[str] = set()
    for b in blue:
        spot = (w - b["x"], d - b["y"])
        twins = [r for r in red if math.dist(spot, (r["x"], r["y"])) <= TOL]
        if len(twins) != 1:
            out.append(f"{b['id']}: {len(twins)} red models at ({spot[0]:g}, {spot[1]:g})")
            continue
        r = twins[0]
        used.add(r["id"])
        gap = turned_facing_gap(float(b.get("facing", 0.0)), float(r.get("facing", 0.0)))
        if gap > TOL:
            out.append(
                f"{b['id']}/{r['id']}: facings {b.get('facing')} and "
                f"{r.get('facing')} are not half a turn apart"
            )
        mine = {k: v for k, v in b.items() if k not in PLACEMENT}
        theirs = {k: v for k, v in r.items() if k not in PLACEMENT}
        if mine != theirs:
            out.append(f"{b['id']}/{r['id']}: {mine} != {theirs}")
        bu, ru = b.get("unit", b["id"]), r.get("unit", r["id"])
        if unit_map.setdefault(bu, ru) != ru:
            out.append(f"{b['id']}: unit {bu} twins both {unit_map[bu]} and {ru}")
    if len(set(unit_map.values())) != len(unit_map):
        out.append(f"two blue units share a red twin: {unit_map}")
    sizes = Counter(m.get("unit", m["id"]) for m in models)
    for bu, ru in unit_map.items():
        if sizes[bu] != sizes[ru]:
            out.append(f"unit {bu} has {sizes[bu]} models, its twin {ru} {sizes[ru]}")
    if len(used) != len(red):
        out.append(f"red models without a blue twin: {sorted({m['id'] for m in red} - used)}")
    return out


# --------------------------------------------------------------------------- the tests


def test_the_checks_can_fail() -> None:
    """The symmetry checks reject a nudged vertex, a wrong facing and a changed profile."""
    table = (72.0, 48.0)
    sq = [[10, 10], [12, 10], [12, 12], [10, 12]]
    twin = [[62, 38], [60, 38], [60, 36], [62, 36]]
    good: list[dict[str, Any]] = [
        {"id": "a", "kind": "building", "polygon": sq},
        {"id": "b", "kind": "building", "polygon": twin},
    ]
    assert terrain_problems(table, good) == []
    nudged = [good[0], {**good[1], "polygon": [[62, 38], [60, 38], [60, 36], [62, 36.1]]}]
    assert terrain_problems(table, nudged)
    assert terrain_problems(table, [good[0], {**good[1], "kind": "rocks"}])
    hills = [{**t, "kind": "hill", "height": h} for t, h in zip(good, (1, 2))]
    assert terrain_problems(table, hills)
    blue = {"id": "b1", "side": "blue", "profile": "rifleman", "x": 10.0, "y": 5.0, "facing": 90.0}
    red = {**blue, "id": "r1", "side": "red", "x": 62.0, "y": 43.0, "facing": 270.0}
    assert model_problems(table, [blue, red]) == []
    assert model_problems(table, [blue, {**red, "facing": 90.0}])
    assert model_problems(table, [blue, {**red, "x": 61.0}])
    assert model_problems(table, [blue, {**red, "profile": "marksman"}])
    assert model_problems(table, [blue, {**red, "side": "green"}])
    pair = [{**blue, "id": "b2", "x": 14.0}, {**red, "id": "r2", "x": 58.0}]
    assert model_problems(table, [blue, red, *pair]) == []
    assert model_problems(table, [{**blue, "unit": "u"}, red, {**pair[0], "unit": "u"}, pair[1]])


# GEM's figures walk 4" a turn, so its forces deploy nearer the middle (29" apart; GEM's
# own default battle puts its lines 15-26" apart) and fight for eight turns, as that battle
# does; otherwise the hoplites spend the game walking and one lucky arrow decides it.
# SWOMP's heavy weapons reach across the table from the first round, so its battle runs
# ten rounds: in six a few lascannon rolls decide it with 8.5 of 20 models lost. Gemini's
# 24" guns stand 28" apart at the start: a move brings them in range, six turns do.
TURN_LIMIT = {"umr": 6, "swomp": 10, "gem": 8, "gemini": 6}
BLUE_DEPTH = {"umr": (3.0, 7.0), "swomp": (3.0, 7.0), "gem": (8.0, 12.0), "gemini": (8.0, 12.0)}


@pytest.mark.parametrize("key", KEYS)
def test_scenario_is_a_short_game_on_the_mirror_map(key: str) -> None:
    data = load(scenario_path(key))
    assert data["ruleset"] == key
    assert data["map"] == "maps/mirror.toml"
    assert data["turn_limit"] == TURN_LIMIT[key] and data["seed"] == 1
    assert "bench/ai_strength.py" in data["description"]
    assert "actions" not in data and "first" not in data and "objectives" not in data


def test_mirror_map_is_varied_and_keeps_the_long_edges_clear() -> None:
    data = load(ROOT / "maps" / "mirror.toml")
    (w, d), terrain = table_and_terrain({"map": "maps/mirror.toml"})
    assert (w, d) == (72.0, 48.0) and data["table"] == [72, 48]
    assert 12 <= len(terrain) <= 18
    classes = Counter(TERRAIN_CLASSES[t["kind"]] for t in terrain)
    assert classes["tall"] >= 4 and classes["area"] >= 2 and classes["line"] >= 2
    assert classes["elevation"] >= 1
    for t in terrain:
        ys = [p[1] for p in t["polygon"]]
        assert min(ys) >= 6.0 and max(ys) <= d - 6.0, f"{t['id']} is in a deployment zone"


@pytest.mark.parametrize("key", KEYS)
def test_terrain_is_symmetric_under_a_half_turn(key: str) -> None:
    table, terrain = table_and_terrain(load(scenario_path(key)))
    assert terrain, "no terrain"
    assert terrain_problems(table, terrain) == []


@pytest.mark.parametrize("key", KEYS)
def test_models_pair_up_with_half_turned_twins(key: str) -> None:
    data = load(scenario_path(key))
    table, _ = table_and_terrain(data)
    models = data["models"]
    assert len(models) >= 12
    assert model_problems(table, models) == []
    # Blue deploys in a band along the south edge, facing the enemy.
    lo, hi = BLUE_DEPTH[key]
    for m in models:
        if m["side"] == "blue":
            assert lo <= m["y"] <= hi and m["facing"] == 90, m["id"]


@pytest.mark.parametrize("key", KEYS)
def test_built_models_of_twins_are_identical(key: str) -> None:
    """What the ruleset builds from each twin (stats, weapons, base, health) matches."""
    scn = load_scenario(scenario_path(key))
    w, d = scn.battlefield.width, scn.battlefield.depth
    red = [m for m in scn.models if m.side == "red"]
    blue = [m for m in scn.models if m.side == "blue"]
    assert len(blue) == len(red)
    units = Counter(m.unit for m in blue)
    for b in blue:
        (r,) = [m for m in red if math.dist((w - b.x, d - b.y), (m.x, m.y)) <= TOL]
        assert (b.profile, b.stats, b.weapons, b.base, b.hp, b.max_hp, b.status, b.vars) == (
            r.profile,
            r.stats,
            r.weapons,
            r.base,
            r.hp,
            r.max_hp,
            r.status,
            r.vars,
        ), b.id
        assert turned_facing_gap(b.facing, r.facing) <= TOL
        assert units[b.unit] == sum(1 for m in red if m.unit == r.unit)


@pytest.mark.parametrize("key", KEYS)
def test_random_agents_play_forty_actions(key: str) -> None:
    game = new_game(load_scenario(scenario_path(key)))
    agents = {s: RandomAgent(seed=i + 1) for i, s in enumerate(game.state.sides)}
    assert set(agents) == {"blue", "red"}
    for n in range(ACTIONS):
        side = game.to_act()
        assert side is not None, f"the game ended after {n} actions: {game.outcome()}"
        action = agents[side].choose(game.clone(dice_seed=n, viewer=side), side)
        events = game.apply(action)
        refused = [e.to_dict() for e in events if e.kind == "refused"]
        assert not refused, (action.describe(), refused)
    assert len(game.history) >= ACTIONS
