"""Saves and replays: atomic writes, exact reload, replays that reproduce every roll and
name the first action that diverges."""

from __future__ import annotations

import json
import os

import pytest

from engine import persistence as p
from engine.actions import EndActivation, Move, Shoot
from engine.agents import RandomAgent
from engine.game import play
from tests.engine.conftest import make_toy_game


def _played(seed: int = 4):
    g = make_toy_game(seed=seed, turn_limit=3)
    play(g, {"blue": RandomAgent(1), "red": RandomAgent(2)})
    return g


def test_save_and_load_restore_the_exact_state(tmp_path):
    g = _played()
    f = tmp_path / "game.json"
    p.save(g, f)
    doc = json.loads(f.read_text())
    assert doc["format_version"] == p.FORMAT_VERSION
    h = p.load(f)
    assert h.state.checksum() == g.state.checksum()
    assert h.state.to_dict() == g.state.to_dict()
    assert len(h.history) == len(g.history) and len(h.log) == len(g.log)
    # and the dice go on exactly as they would have
    assert [h.dice.face(6) for _ in range(5)] == [g.dice.face(6) for _ in range(5)]


def test_replay_reproduces_every_roll_and_the_final_checksum(tmp_path):
    g = _played(seed=9)
    f = tmp_path / "game.json"
    p.save(g, f)
    replayed, report = p.replay_file(f)
    assert report.ok, report.message
    assert report.steps == len(g.history)
    assert replayed.state.checksum() == g.state.checksum()
    assert replayed.outcome() == g.outcome()


def test_replay_names_the_first_action_that_diverges(tmp_path):
    g = make_toy_game(seed=2)
    g.apply(Move(actor="b0", to=(10.0, 9.0)))
    g.dice.force([6])
    g.apply(Shoot(actor="b0", target="r0"))
    g.apply(EndActivation())
    doc = p.to_dict(g)
    doc["history"][1]["faces"] = [1]  # the shot now misses: the checksum after it differs
    _, report = p.replay(doc)
    assert not report.ok and report.diverged_at == 1
    assert "action 1 (b0 shoot r0)" in report.message


def test_a_crash_mid_write_keeps_the_previous_save(tmp_path, monkeypatch):
    g = _played()
    f = tmp_path / "game.json"
    p.save(g, f)
    before = f.read_text()
    g.apply(EndActivation())

    def boom(*a, **k):
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        p.save(g, f)
    assert f.read_text() == before
    assert [x.name for x in tmp_path.iterdir()] == ["game.json"]  # no temp file left


@pytest.mark.parametrize(
    "content, msg",
    [
        ("{not json", "not a save file"),
        ('{"a": 1}', "no format_version"),
        ('{"format_version": 99}', "format_version 99 is not supported"),
    ],
)
def test_bad_save_files_are_refused_clearly(tmp_path, content, msg):
    f = tmp_path / "bad.json"
    f.write_text(content)
    with pytest.raises(p.SaveError) as e:
        p.load(f)
    assert msg in str(e.value)


def test_a_tampered_save_is_detected(tmp_path):
    g = _played()
    f = tmp_path / "game.json"
    p.save(g, f)
    doc = json.loads(f.read_text())
    doc["state"]["models"]["b0"]["hp"] = 99
    f.write_text(json.dumps(doc))
    with pytest.raises(p.SaveDiverged, match=r"state.models.b0.hp differs"):
        p.load(f)
