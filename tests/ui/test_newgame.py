"""The start screen: choose ruleset, scenario and who plays each side, then start."""

from __future__ import annotations

import pygame

from engine.ui.app import App
from tests.ui.conftest import SIZE, choose, press, settle, step

TOY_SCENARIO = """
title = "Toy skirmish"
description = "Two against two across open ground."
ruleset = "example_d6"
seed = 3
first = "blue"
[[terrain]]
kind = "woods"
polygon = [[30, 20], [38, 20], [38, 28], [30, 28]]
[[models]]
id = "b0"
side = "blue"
x = 10
y = 5
[[models]]
id = "b1"
side = "blue"
x = 15
y = 5
[[models]]
id = "r0"
side = "red"
x = 10
y = 40
[[models]]
id = "r1"
side = "red"
x = 15
y = 40
"""


def test_start_screen_offers_rulesets_scenarios_and_controllers(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY_SCENARIO)
    app = App(size=SIZE, scenario=str(path), saves_dir=tmp_path / "saves", ai_delay=0.0)
    try:
        step(app)
        ng = app.newgame
        assert ng is not None and ng.key == "example_d6" and ng.path == path.resolve()
        assert "Toy skirmish" in ng.desc.html_text and "2 models" in ng.desc.html_text
        assert ng.controllers == {"blue": "human", "red": "human"}
        red_dd = ng.side_rows[1][1]
        choose(app, red_dd, "computer (normal)")
        assert ng.controllers["red"] == "normal"
        press(app, ng.b_start)
        assert app.newgame is None and app.game is not None
        assert app.battle.controllers == {"blue": "human", "red": "normal"}
        assert app.game.state.turn == 1 and app.game.to_act() == "blue"
        settle(app, 0.5)
        assert not app.battle.awaiting  # solo against the computer: no hand-over
    finally:
        app.close()


def test_enter_starts_a_hotseat_game(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY_SCENARIO)
    app = App(size=SIZE, scenario=str(path), saves_dir=tmp_path / "saves")
    try:
        step(app)
        pygame.event.post(
            pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)
        )
        step(app)
        assert app.game is not None and app.battle.controllers == {
            "blue": "human",
            "red": "human",
        }  # hotseat (the toy rules keep no secrets, so no hand-over notice)
    finally:
        app.close()


def test_a_broken_scenario_is_explained_not_started(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(TOY_SCENARIO.replace("x = 15\ny = 40", "x = 150\ny = 40"))
    app = App(size=SIZE, scenario=str(path), saves_dir=tmp_path / "saves")
    try:
        step(app)
        assert "cannot be used" in app.newgame.desc.html_text
        assert "off the table" in app.newgame.desc.html_text
        assert not app.newgame.b_start.is_enabled
    finally:
        app.close()


def test_start_screen_says_how_the_scenario_is_won(tmp_path):
    """Issue 20: the victory conditions come from the ruleset (``victory_text``): GEM's
    default names its hill and the turn limit's count of points kept (GEM-3.7)."""
    from pathlib import Path

    gem = Path(__file__).resolve().parents[2] / "rulesets" / "gem" / "scenarios" / "default.toml"
    app = App(size=SIZE, scenario=str(gem), saves_dir=tmp_path / "saves", ai_delay=0.0)
    try:
        step(app)
        text = app.newgame.desc.html_text
        assert "To win:" in text and "the hill" in text and "GEM-I-TURNLIMIT" in text
    finally:
        app.close()


def test_menus_name_rulesets_and_scenarios_by_title_with_benchmark_maps_apart(tmp_path):
    """Titles, not keys and file names; the mirror and ten-a-side maps bench/ plays come
    after the scenarios to play, marked as benchmark maps (issue 23 item 6)."""
    from engine.ui.newgame import BENCHMARK_MAPS, scenario_files

    app = App(size=SIZE, saves_dir=tmp_path / "saves")
    try:
        step(app)
        ng = app.newgame
        assert ng.key == "umr"
        assert ng.rs_dd.selected_option == ("Universal Miniatures Rules (umr)", "umr")
        labels = list(ng.files)
        assert labels[0] == "Crossroads of the ruined city"
        assert not any(label.endswith(".toml") for label in labels)
        bench = [label for label in labels if label.startswith("benchmark map: ")]
        assert {ng.files[label].stem for label in bench} == {"mirror", "skirmish10"}
        assert labels[-len(bench) :] == bench  # apart: after every scenario to play
        choose(app, ng._scn_dd, bench[0])
        assert "A benchmark map" in ng.desc.html_text
        choose(app, ng.rs_dd, "GEM: Generic Miniatures (gem)")
        assert ng.key == "gem" and ng.path == scenario_files("gem")[0]
        assert ng.files[list(ng.files)[0]].stem == "default"
        assert all(
            (ng.files[label].stem in BENCHMARK_MAPS) == label.startswith("benchmark map: ")
            for label in ng.files
        )
    finally:
        app.close()


def test_bench_plays_only_maps_the_start_screen_calls_benchmarks():
    """The stems bench/ asks for are the ones listed apart (kept in step by this test)."""
    from engine.ui.newgame import BENCHMARK_MAPS, ROOT

    src = "".join((ROOT / "bench" / f).read_text() for f in ("_common.py", "ai_strength.py"))
    for stem in ("mirror", "skirmish10"):
        assert f'"{stem}.toml"' in src and stem in BENCHMARK_MAPS


def test_a_ruleset_that_cannot_load_is_named_with_its_error(monkeypatch):
    """No silent blank (issue 18): the menu keeps going and says why the title is missing."""
    from engine.ui import newgame

    def broken(key: str):
        raise ImportError("no module named rulesets.half_written")

    monkeypatch.setattr(newgame, "load", broken)
    label = newgame.ruleset_label("half_written")
    assert label == "half_written (cannot load: ImportError: no module named rulesets.half_written)"
