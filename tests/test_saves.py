"""Saves prove themselves (audit reliability.md D5, D6, D19): every damage a save can
suffer — an edited state, an edited roll, a forged log line, extra dice faces, an edited
dice position, battlefield digits, truncation, wrong types — is either refused as
unreadable (exit 2) or named as a divergence (exit 1), never accepted and never a
traceback; the window's loader (persistence.load) agrees with ``replay``."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine import persistence
from engine.agents import RandomAgent
from engine.scenario import load_scenario, new_game, run_script

ROOT = Path(__file__).resolve().parent.parent
SCRIPTED = ["umr_firefight.toml", "swomp_charge.toml", "gem_charge.toml"]


def _scripted(name: str):
    scn = load_scenario(ROOT / "tests" / "scenarios" / name)
    game = new_game(scn)
    run_script(game, scn)
    return game


def _played(path: str, seed: int, actions: int = 40):
    """A game of random agents: every face comes from the seeded stream."""
    scn = load_scenario(ROOT / path)
    scn.seed = seed
    game = new_game(scn)
    agents = {s: RandomAgent(seed + i) for i, s in enumerate(game.state.sides)}
    for _ in range(actions):
        side = game.to_act()
        if side is None:
            break
        game.apply(agents[side].choose(game.clone(dice_seed=seed), side))
    return game


@pytest.fixture(scope="module")
def saves() -> dict[str, dict[str, Any]]:
    games = {n: _scripted(n) for n in SCRIPTED}
    games["umr random"] = _played("rulesets/umr/scenarios/default.toml", 3, 30)
    return {n: persistence.to_dict(g) for n, g in games.items()}


def _verdict(
    doc: dict[str, Any], tmp_path: Path, text: str | None = None, window: bool = False
) -> str:
    """'ok', 'diverged' or 'unreadable', as ``replay`` sees it (and, with ``window``, the
    window's loader too, which must agree)."""
    f = tmp_path / "damaged.json"
    f.write_text(text if text is not None else json.dumps(doc))
    try:
        _, report = persistence.replay_file(f)
    except persistence.SaveError:
        verdict = "unreadable"
    else:
        verdict = "ok" if report.ok else "diverged"
    if window:
        try:
            persistence.load(f)
            loaded = "ok"
        except persistence.SaveError:
            loaded = "refused"
        assert (verdict == "ok") == (loaded == "ok"), (verdict, loaded)
    return verdict


def test_real_saves_replay_and_load(saves, tmp_path):
    for name, doc in saves.items():
        assert _verdict(doc, tmp_path, window=True) == "ok", name
        assert doc["history"], name


# --- the damages ---------------------------------------------------------------------

Damage = Callable[[dict[str, Any]], None]


def _set(path: list, value: Any) -> Damage:
    def damage(d: dict[str, Any]) -> None:
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value(node[path[-1]]) if callable(value) else value

    return damage


def _state_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    for mid in sorted(d["state"]["models"])[:4]:
        m = d["state"]["models"][mid]
        yield f"state {mid} hp", _set(["state", "models", mid, "hp"], m["hp"] + 1)
        yield f"state {mid} x", _set(["state", "models", mid, "x"], m["x"] + 0.5)
        yield f"state {mid} removed", _set(["state", "models", mid, "removed"], not m["removed"])

    def recomputed(doc: dict[str, Any]) -> None:
        from engine.state import GameState

        mid = sorted(doc["state"]["models"])[0]
        doc["state"]["models"][mid]["hp"] += 1
        doc["checksum"] = GameState.from_dict(doc["state"]).checksum()

    yield "state edited, checksum recomputed", recomputed
    yield "turn", _set(["state", "turn"], d["state"]["turn"] + 1)
    yield "checksum", _set(["checksum"], "0" * 16)
    yield "start state", _set(["start", "state", "turn"], 7)
    yield "start checksum", _set(["start", "checksum"], "f" * 16)
    yield "ruleset_version", _set(["ruleset_version"], "0.0-edited")


def _roll_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    rolled = [i for i, s in enumerate(d["history"]) if s["faces"]]
    for i in rolled[:5]:
        for j in range(min(2, len(d["history"][i]["faces"]))):
            face = d["history"][i]["faces"][j]
            yield f"roll {i}.{j}", _set(["history", i, "faces", j], 2 if face == 1 else 1)
        yield f"extra faces {i}", _set(["history", i, "faces"], lambda f: f + [1] * 1000)
        yield f"face removed {i}", _set(["history", i, "faces"], lambda f: f[:-1])
        yield f"step checksum {i}", _set(["history", i, "checksum"], "1" * 16)
    for i in range(min(3, len(d["history"]))):
        yield f"step side {i}", _set(["history", i, "side"], "nobody")
    if rolled:
        yield "forced count", _set(["history", rolled[0], "forced"], 1)


def _log_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    rolls = [i for i, e in enumerate(d["log"]) if e.get("rolls")]
    for i in rolls[:4]:
        yield f"log text {i}", _set(["log", i, "text"], "rolled 6: a hit")
        yield f"log rolls {i}", _set(["log", i, "rolls"], [6, 6, 6])
        yield f"log outcome {i}", _set(["log", i, "outcome"], "forged")

    def forged(doc: dict[str, Any]) -> None:
        doc["log"].insert(len(doc["log"]) // 2, {"kind": "resolution", "text": "a forged kill"})

    def dropped(doc: dict[str, Any]) -> None:
        del doc["log"][rolls[0]]

    yield "log forged entry", forged
    if rolls:
        yield "log entry dropped", dropped


def _dice_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    yield "dice counter", _set(["dice", "counter"], d["dice"]["counter"] + 1)
    yield "dice state", _set(["dice", "state"], d["dice"]["state"] ^ 1)
    yield "dice seed", _set(["dice", "seed"], d["dice"]["seed"] + 1)
    yield "start dice", _set(["start", "dice", "counter"], d["start"]["dice"]["counter"] + 3)


def _table_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    yield "table width", _set(["battlefield", "width"], d["battlefield"]["width"] + 1)
    for i, t in enumerate(d["battlefield"]["terrain"][:2]):
        x = t["polygon"][0][0]
        yield f"terrain {i} digit", _set(["battlefield", "terrain", i, "polygon", 0, 0], x + 1)
        yield f"terrain {i} kind", _set(["battlefield", "terrain", i, "kind"], "wallx")
    raw = d["scenario"]["raw"]
    yield "scenario seed", _set(["scenario", "raw", "seed"], raw.get("seed", 1) + 1)
    yield "scenario model", _set(["scenario", "raw", "models", 0, "x"], lambda x: x + 1)
    other = {"umr": "swomp", "swomp": "gem", "gem": "umr"}[d["ruleset"]]
    yield "ruleset swapped", _set(["ruleset"], other)


def _type_edits(d: dict[str, Any]) -> Iterator[tuple[str, Damage]]:
    for key in sorted(d):
        bad: Any
        for bad in (None, 5, "x", [], {}, True):
            if type(bad) is not type(d[key]):
                yield f"type {key}={bad!r}", _set([key], bad)
    for key in ("action", "faces", "checksum"):
        yield f"history[0].{key} wrong type", _set(["history", 0, key], 5)
    yield "history step not a table", _set(["history", 0], [1])
    yield "face zero", _set(["history", 0, "faces"], [0])
    yield "format_version true", _set(["format_version"], True)
    yield "format_version 1.0", _set(["format_version"], 1.0)
    yield "deep", _set(["log"], json.loads("[" * 500 + "]" * 500))


FAMILIES = [_state_edits, _roll_edits, _log_edits, _dice_edits, _table_edits, _type_edits]


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.__name__.strip("_"))
def test_no_damaged_save_is_accepted_or_crashes(saves, tmp_path, family):
    tried = 0
    for name, doc in saves.items():
        for label, damage in family(doc):
            bad: dict[str, Any] = copy.deepcopy(doc)
            damage(bad)
            if bad == doc:
                continue
            tried += 1
            # every seventh damage also goes through the window's loader
            verdict = _verdict(bad, tmp_path, window=tried % 7 == 0)
            assert verdict != "ok", f"{name}: {label} was accepted"
    assert tried >= 10


def test_truncated_and_odd_files_are_unreadable(saves, tmp_path):
    text = json.dumps(saves["umr_firefight.toml"])
    for cut in (0, 1, 10, len(text) // 3, len(text) // 2, len(text) - 1):
        assert _verdict({}, tmp_path, text[:cut]) == "unreadable", cut
    deep = '{"format_version": 1, "log": ' + "[" * 5000 + "]" * 5000 + "}"
    for odd in ("null", "[]", '"save"', "NaN", '{"format_version": 1}', "\x00\xff", deep):
        assert _verdict({}, tmp_path, odd) == "unreadable", odd


def test_replay_exit_codes_tell_ok_diverged_and_unreadable(saves, tmp_path):
    def replay(doc: dict[str, Any] | None, text: str | None = None) -> int:
        f = tmp_path / "s.json"
        f.write_text(text if text is not None else json.dumps(doc))
        p = subprocess.run(
            [sys.executable, str(ROOT / "main.py"), "replay", str(f)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert "Traceback" not in p.stderr
        return p.returncode

    doc = saves["umr_firefight.toml"]
    assert replay(doc) == 0
    bad = copy.deepcopy(doc)
    bad["history"][0]["checksum"] = "0" * 16
    assert replay(bad) == 1
    assert replay(None, "{not json") == 2
    assert replay(None, json.dumps({**doc, "history": 5})) == 2
    assert replay(None, "") == 2


def test_run_save_writes_a_save_that_replays(tmp_path):
    save = tmp_path / "out" / "game.json"
    scenario = ROOT / "tests" / "scenarios" / "swomp_frag.toml"
    p = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "run", str(scenario), "--save", str(save)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    _, report = persistence.replay_file(save)
    assert report.ok and report.steps == len(json.loads(save.read_text())["history"]) > 0


def test_stale_tmp_files_of_killed_saves_are_removed(tmp_path, saves):
    target = tmp_path / "autosave.json"
    old = tmp_path / ".autosave.json.abc123.tmp"
    fresh = tmp_path / ".autosave.json.def456.tmp"
    other = tmp_path / ".other.json.abc.tmp"
    for f in (old, fresh, other):
        f.write_text("{")
    past = time.time() - 3600
    os.utime(old, (past, past))
    os.utime(other, (past, past))
    persistence.write_atomic(target, json.dumps(saves["umr_firefight.toml"]))
    assert not old.exists()
    assert fresh.exists()  # may belong to a save being written right now
    assert other.exists()  # another save's, not this one's
    assert json.loads(target.read_text())["format_version"] == 1


def test_replay_reports_each_step_for_a_progress_bar(saves, tmp_path):
    """``replay_file(on_step=)`` is told (done, total) after every re-derived action, in
    order, so ``main.py replay`` can show a bar for a long save (issue 25)."""
    doc = saves["umr random"]
    f = tmp_path / "long.json"
    f.write_text(json.dumps(doc))
    seen: list[tuple[int, int]] = []
    _, report = persistence.replay_file(f, lambda done, total: seen.append((done, total)))
    n = len(doc["history"])
    assert report.ok
    assert seen == [(i, n) for i in range(1, n + 1)]


def test_a_game_with_an_undo_saves_and_replays(tmp_path):
    """The window's undo writes an "undo" note between steps; a replay applies only the
    steps kept, so that note must be read as between steps, not as a forged entry."""
    scn = load_scenario(ROOT / "rulesets" / "umr" / "scenarios" / "default.toml")
    scn.seed = 5
    game = new_game(scn)
    agent = RandomAgent(1)
    undone = 0
    for _ in range(12):
        side = game.to_act()
        assert side is not None
        game.apply(agent.choose(game.clone(dice_seed=5), side))
        if game.can_undo() and undone < 2:
            undone += int(game.undo())
    assert undone == 2 and any(e.kind == "undo" for e in game.log.events)
    assert _verdict(persistence.to_dict(game), tmp_path, window=True) == "ok"
    forged = persistence.to_dict(game)
    forged["log"].insert(0, {**forged["log"][0], "kind": "undo"})
    assert _verdict(forged, tmp_path) == "diverged"
