"""Batch battles: statistics, progress, charts, and Ctrl-C keeping finished games."""

import io
import zlib

import pytest

from engine import sim
from engine.chart import bar_chart


def test_wilson_interval():
    lo, hi = sim.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    assert sim.wilson(0, 0) == (0.0, 0.0)


def _result(i, winner_agent, winner, agents=("greedy", "random")):
    sides = {"blue": agents[i % 2], "red": agents[1 - i % 2]}
    return sim.GameResult(
        i, i, sides, winner, winner_agent, "x", 3 + i % 2, 10, {"blue": 1, "red": 2}, 0.1
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


def test_progress_line_has_count_rate_and_time_left():
    buf = io.StringIO()
    p = sim.Progress(10, buf)
    p.step(4)
    assert "4/10 games" in p.line() and "left" in p.line()
    assert buf.getvalue().startswith("\r[")


def test_ctrl_c_keeps_the_finished_games(monkeypatch):
    calls = []

    def fake_play(job):
        calls.append(job.game)
        if job.game == 3:
            raise KeyboardInterrupt
        return _result(job.game, "greedy", "blue")

    monkeypatch.setattr(sim, "play_one", fake_play)
    results, interrupted = sim.run_batch(sim.jobs_for("x", 6, ("a", "b")), processes=1)
    assert interrupted and [r.game for r in results] == [0, 1, 2]


def test_chart_is_a_valid_png(tmp_path):
    f = tmp_path / "c.png"
    bar_chart(f, "wins", ["greedy", "random"], [75.0, 25.0], [(60, 85), (15, 40)])
    data = f.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w = int.from_bytes(data[16:20], "big")
    h = int.from_bytes(data[20:24], "big")
    idat = data.index(b"IDAT")
    n = int.from_bytes(data[idat - 4 : idat], "big")
    raw = zlib.decompress(data[idat + 4 : idat + 4 + n])
    assert len(raw) == h * (1 + 3 * w)
