"""Charts of batch runs, drawn by matplotlib on its Agg canvas (PNG files, no window).

Why matplotlib: axis titles, legends, error bars and fonts that stay readable come with
it; the hand-written PNG writer this replaced drew labels over the bars. Only the
object API is used (``Figure`` + ``FigureCanvasAgg``), never ``pyplot``: no global
backend is chosen, nothing opens a window, and pygame is never loaded (DESIGN rule 1).

Every chart is written through :func:`engine.batch_files.write_atomic`, so a run folder
never holds half a PNG and a symbolic link in its place is replaced, not followed.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from engine.batch_files import write_atomic

#: 8 x 4.5 inches at 100 dpi: 800 x 450 pixels, 11-point text readable at 100% zoom
SIZE = (8.0, 4.5)
DPI = 100
COLOURS = ("#3465a4", "#cc0000", "#4e9a06", "#f57900", "#75507b", "#555753")


def _figure() -> tuple[Figure, Any]:
    fig = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.grid(True, alpha=0.3)
    return fig, ax


def _save(fig: Figure, path: str | Path) -> None:
    def write(fh: IO[bytes]) -> None:
        fig.savefig(fh, format="png", dpi=DPI)

    write_atomic(Path(path), write)


def win_rates(path: str | Path, title: str, summary: dict[str, Any]) -> Figure:
    """One bar per agent (and draws): the share of games won, with its 95% Wilson
    interval, against the even line a mirror match should straddle."""
    fig, ax = _figure()
    n = summary["games"]
    names = list(summary["agents"])
    rates = [100 * summary["agents"][a]["win_rate"] for a in names]
    lows = [100 * summary["agents"][a]["ci95"][0] for a in names]
    highs = [100 * summary["agents"][a]["ci95"][1] for a in names]
    if "draws_ci95" in summary and n:
        names.append("draws")
        rates.append(100 * summary["draws"] / n)
        lows.append(100 * summary["draws_ci95"][0])
        highs.append(100 * summary["draws_ci95"][1])
    err = [
        [max(0.0, r - lo) for r, lo in zip(rates, lows)],
        [max(0.0, hi - r) for r, hi in zip(rates, highs)],
    ]
    ticks = [
        f"{name}\n{r:.1f}% ({lo:.0f}-{hi:.0f}%)"
        for name, r, lo, hi in zip(names, rates, lows, highs)
    ]
    ax.bar(ticks, rates, color=COLOURS[: len(names)], width=0.6, label="share of games won")
    ax.errorbar(ticks, rates, yerr=err, fmt="none", ecolor="black", capsize=8, label="95% interval")
    ax.axhline(50, color="grey", linestyle="--", linewidth=1, label="even (50%)")
    ax.set_ylim(0, 100)
    ax.set_ylabel("games won (%)")
    ax.set_xlabel(f"agent ({n} games, sides swapped every other game)")
    ax.set_title(title)
    ax.legend(loc="upper right")
    _save(fig, path)
    return fig


def point_study(
    path: str | Path,
    title: str,
    ratios: Sequence[float],
    rates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    fitted_k: float,
) -> Figure:
    """Each pairing's point ratio V_A / V_B (log scale) against A's simulated win rate,
    with its 95% interval, the rulebook's formula P = V_A / (V_A + V_B) and the fitted
    P = V_A^k / (V_A^k + V_B^k)."""
    fig, ax = _figure()
    err = [
        [max(0.0, r - lo) for r, (lo, _) in zip(rates, intervals)],
        [max(0.0, hi - r) for r, (_, hi) in zip(rates, intervals)],
    ]
    ax.errorbar(
        ratios,
        rates,
        yerr=err,
        fmt="o",
        color=COLOURS[0],
        ecolor="#9db3d0",
        markersize=4,
        capsize=2,
        label="simulated duels (95% interval)",
    )
    lo, hi = min(ratios), max(ratios)
    xs = [lo * (hi / lo) ** (i / 100) for i in range(101)] if hi > lo else [lo]
    ax.plot(
        xs, [x / (1 + x) for x in xs], color=COLOURS[1], label=r"rulebook: $V_A\,/\,(V_A + V_B)$"
    )
    ax.plot(
        xs,
        [x**fitted_k / (1 + x**fitted_k) for x in xs],
        color=COLOURS[2],
        linestyle="--",
        label=rf"fitted: $V_A^k\,/\,(V_A^k + V_B^k)$, k = {fitted_k:.2f}",
    )
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(r"point ratio $V_A\,/\,V_B$ (log scale)")
    ax.set_ylabel("A's share of duels won")
    ax.set_title(title)
    ax.legend(loc="upper left")
    _save(fig, path)
    return fig


def luck(path: str | Path, title: str, points: dict[str, list[tuple[float, int]]]) -> Figure:
    """Per game and side: hits the dice gave against the hits their exact chances
    expected. Points above the diagonal had good luck; the spread shows how much of a
    game the dice decide."""
    fig, ax = _figure()
    top = 1.0
    for i, (agent, xy) in enumerate(sorted(points.items())):
        if not xy:
            continue
        ax.scatter(
            [x for x, _ in xy],
            [y for _, y in xy],
            s=14,
            alpha=0.6,
            color=COLOURS[i % len(COLOURS)],
            label=f"{agent} ({len(xy)} sides played)",
        )
        top = max(top, *(x for x, _ in xy), *(y for _, y in xy))
    ax.plot([0, top], [0, top], color="grey", linestyle="--", label="as expected")
    ax.set_xlim(-0.03 * top, top * 1.05)
    ax.set_ylim(-0.03 * top, top * 1.05)
    ax.set_xlabel("expected hits (sum of each attack's exact chance)")
    ax.set_ylabel("actual hits")
    ax.set_title(title)
    ax.legend(loc="upper left")
    _save(fig, path)
    return fig
