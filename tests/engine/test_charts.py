"""Charts: 800 x 450 PNGs with a title, axis titles and a legend; no window, no pygame."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

from engine import charts

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = {
    "games": 40,
    "agents": {
        "greedy": {"win_rate": 0.7, "ci95": [0.55, 0.82]},
        "random": {"win_rate": 0.2, "ci95": [0.1, 0.35]},
    },
    "draws": 4,
    "draws_ci95": [0.04, 0.23],
}


def _texts(fig) -> tuple[str, str, str, list[str]]:
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    return ax.get_title(), ax.get_xlabel(), ax.get_ylabel(), legend


def _size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        assert im.format == "PNG"
        return im.size


def test_win_rates_have_intervals_axis_titles_and_a_legend(tmp_path):
    fig = charts.win_rates(tmp_path / "w.png", "mirror", SUMMARY)
    title, x, y, legend = _texts(fig)
    assert title == "mirror" and "40 games" in x and y == "games won (%)"
    assert legend == ["even (50%)", "share of games won", "95% interval"]
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["greedy\n70.0% (55-82%)", "random\n20.0% (10-35%)", "draws\n10.0% (4-23%)"]
    assert _size(tmp_path / "w.png") == (800, 450)


def test_point_study_draws_the_rulebook_formula_and_the_fit(tmp_path):
    fig = charts.point_study(
        tmp_path / "p.png",
        "GEM",
        [0.5, 1.0, 2.0],
        [0.2, 0.5, 0.9],
        [(0.1, 0.3), (0.3, 0.7), (0.7, 0.97)],
        2.0,
    )
    _, x, y, legend = _texts(fig)
    assert "point ratio" in x and "won" in y
    assert legend[0].startswith("rulebook") and "k = 2.00" in legend[1]
    lines = {ln.get_label().split(":")[0]: ln for ln in fig.axes[0].get_lines()}
    rulebook, fitted = lines["rulebook"], lines["fitted"]
    # at a ratio of 2 the rulebook gives 2/3; the fit with k = 2 gives 4/5
    assert abs(rulebook.get_ydata()[-1] - 2 / 3) < 1e-9
    assert abs(fitted.get_ydata()[-1] - 4 / 5) < 1e-9
    assert _size(tmp_path / "p.png") == (800, 450)


def test_luck_chart_puts_actual_against_expected_hits(tmp_path):
    fig = charts.luck(tmp_path / "l.png", "luck", {"greedy": [(1.5, 2), (3.0, 1)]})
    _, x, y, legend = _texts(fig)
    assert x.startswith("expected hits") and y == "actual hits"
    assert legend == ["greedy (2 sides played)", "as expected"]


def test_charts_load_neither_pygame_nor_pyplot():
    code = (
        "import sys; from engine import charts; "
        "print('pygame' in sys.modules, 'matplotlib.pyplot' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert out.stdout.strip() == "False False", out.stderr
