"""Batch battles: statistics, luck from the log's exact chances, Ctrl+C keeping finished
games, and the same games.jsonl from one process and from a two-worker Dask cluster."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from engine import sim
from engine.batch_run import Request, simulate
from engine.scenario import load_scenario, new_game, run_script

ROOT = Path(__file__).resolve().parents[2]
UMR = "rulesets/umr/scenarios/default.toml"
#: a ruleset that keeps ``Ruleset.losses``' default (UMR and Inter Arma count their own)
DEFAULT_LOSSES = "rulesets/gemini/scenarios/default.toml"


def test_wilson_interval():
    lo, hi = sim.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert sim.wilson(0, 0) == (0.0, 0.0)


def _result(i, winner_agent, winner, agents=("greedy", "random")):
    sides = {"blue": agents[i % 2], "red": agents[1 - i % 2]}
    return sim.GameResult(
        i, i, sides, winner, winner_agent, "x", 3 + i % 2, 10, {"blue": 1, "red": 2}
    )


def test_summary_counts_wins_per_agent_across_swapped_sides():
    rs = [_result(i, "greedy", "blue" if i % 2 == 0 else "red") for i in range(8)]
    rs.append(_result(8, None, None))
    s = sim.summarize(rs)
    assert s["agents"]["greedy"]["wins"] == 8 and s["agents"]["random"]["wins"] == 0
    assert s["draws"] == 1 and s["games"] == 9
    assert s["mean_turns"] == pytest.approx(sum(3 + i % 2 for i in range(9)) / 9)
    assert "greedy" in sim.summary_table(s)


def test_mirror_jobs_share_seeds_and_swap_sides():
    jobs = sim.jobs_for("x.toml", 4, ("a", "b"), seed=2)
    assert jobs[0].seed == jobs[1].seed and jobs[2].seed == jobs[3].seed
    assert [j.swap for j in jobs] == [False, True, False, True]
    # a game's seed follows from the base seed and its index alone
    assert [j.seed for j in sim.jobs_for("x.toml", 6, ("a", "b"), seed=2)[4:]] == [
        2 * 100_003 + 2
    ] * 2


def test_luck_sums_each_attacks_exact_chance_of_a_hit():
    """tests/scenarios/umr_firefight.toml, forced dice. UMR-BALLISTIC/UMR-MELEE: the
    attack must beat the defence, ties to the defender, a natural six on defence wins
    (UMR-SIX-DEFENSE). Blue: the sergeant's d6+1 against d6 (20/36, misses), the
    rifleman's two d6+2-1-1 shots against d6 (15/36 each: a hit and a defence six).
    Red: the bruiser's d6+2 against d6+2 (15/36, hits), the grenadier's d6 against
    d6+2 (6/36, hits)."""
    scn = load_scenario(ROOT / "tests/scenarios/umr_firefight.toml")
    game = new_game(scn)
    run_script(game, scn)
    hits, expected = sim.luck(game)
    assert hits == {"blue": 1, "red": 2}
    assert expected["blue"] == pytest.approx(float(Fraction(20, 36) + Fraction(30, 36)), abs=1e-6)
    assert expected["red"] == pytest.approx(float(Fraction(21, 36)), abs=1e-6)


def test_luck_counts_a_save_roll_as_no_attack():
    """Inter Arma logs a hit (IA-RANGED, chance of the hit) and then the target's save
    roll (IA-SAVE: saved, wounded or dead, chance of the save) as two resolutions; the
    save is not a second attack. UMR's "saved" (UMR-BALLISTIC: the attack die beaten
    by a six on defence, chance of the hit) is an attack. Events as each logs them."""
    game = new_game(load_scenario(ROOT / "rulesets/inter_arma/scenarios/default.toml"))
    blue, red = game.state.sides[:2]
    shooter = next(m.id for m in game.state.live(blue))
    target = next(m.id for m in game.state.live(red))
    emit = game.log.emit
    emit("resolution", actor=shooter, target=target, rule="IA-RANGED", chance=0.5, outcome="hit")
    emit("resolution", actor=shooter, target=target, rule="IA-SAVE", chance=0.75, outcome="saved")
    emit("resolution", actor=shooter, target=target, rule="IA-RANGED", chance=0.5, outcome="miss")
    emit("resolution", actor=shooter, target=target, rule="IA-SAVE", chance=0.25, outcome="dead")
    emit(
        "resolution",
        actor=shooter,
        target=target,
        rule="UMR-BALLISTIC",
        chance=0.4,
        outcome="saved",
    )
    emit(
        "resolution", actor=shooter, target=target, rule="UMR-BALLISTIC", chance=0.4, outcome="hit"
    )
    hits, expected = sim.luck(game)
    assert hits[blue] == 2 and hits[red] == 0
    assert expected[blue] == pytest.approx(0.5 + 0.5 + 0.4 + 0.4)


def test_ctrl_c_keeps_the_finished_games(monkeypatch):
    seen = []

    def fake_play(job):
        if job.game == 3:
            raise KeyboardInterrupt
        return _result(job.game, "greedy", "blue")

    monkeypatch.setattr(sim, "play_one", fake_play)
    results, interrupted = sim.run_batch(
        sim.jobs_for("x", 6, ("a", "b")), workers=0, on_result=seen.append
    )
    assert interrupted and [r.game for r in results] == [0, 1, 2]
    assert [r.game for r in seen] == [0, 1, 2]  # each was handed over as it finished


def _lines(out: Path) -> list[str]:
    return sorted((out / "games.jsonl").read_text(encoding="utf-8").splitlines())


def test_a_two_worker_cluster_plays_the_same_games_as_one_process(tmp_path):
    req = Request(UMR, "umr", "t", 4, ("random", "greedy"), seed=5, turn_limit=1)
    simulate(req, tmp_path / "one", workers=0, quiet=True)
    simulate(req, tmp_path / "two", workers=2, quiet=True)
    one, two = _lines(tmp_path / "one"), _lines(tmp_path / "two")
    assert len(one) == 4 and one == two
    s = json.loads((tmp_path / "two" / "summary.json").read_text())
    assert (s["ruleset"], s["scenario"], s["games"]) == ("umr", UMR, 4)
    assert (tmp_path / "two" / "wins.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "two" / "luck.png").read_bytes()[:4] == b"\x89PNG"


def test_resume_plays_only_the_missing_games(tmp_path):
    req = Request(UMR, "umr", "t", 4, ("random", "random"), seed=3, turn_limit=1)
    simulate(req, tmp_path / "full", workers=0, quiet=True)
    part = tmp_path / "part"
    simulate(Request(**{**req.__dict__, "games": 2}), part, workers=0, quiet=True)
    with (part / "games.jsonl").open("a") as fh:
        fh.write('{"game": 3, "cut sh')  # a line a kill cut short is dropped
    s, _ = simulate(req, part, workers=0, quiet=True, resume=True)
    assert s["resumed_with"] == 2 and s["games"] == 4
    assert _lines(part) == _lines(tmp_path / "full")


def test_losses_default_to_the_share_of_models_removed():
    """``Ruleset.losses``' default (a ruleset that counts nothing else): models removed
    over the side's models at the start, whatever their wounds."""
    game = new_game(load_scenario(ROOT / DEFAULT_LOSSES))
    side = game.state.sides[0]
    mine = [m for m in game.state.models.values() if m.side == side]
    assert game.ruleset.losses(game.state, side) == 0.0
    mine[0].removed = True
    mine[1].hp = 1  # wounded, not removed: no loss by the default
    assert game.ruleset.losses(game.state, side) == pytest.approx(1 / len(mine))


def test_a_game_reports_each_sides_losses_from_its_ruleset(monkeypatch):
    """``play_one`` records the ruleset's losses per side (the bench's "removed")."""
    monkeypatch.setattr(
        "engine.ruleset.Ruleset.losses", lambda self, state, side: 0.25 if side == "x" else 0.5
    )
    job = sim.jobs_for(DEFAULT_LOSSES, 1, ("random", "random"), seed=3, turn_limit=1)[0]
    r = sim.play_one(job)
    assert set(r.losses) == set(r.agents) and set(r.losses.values()) == {0.5}
