"""CPU used by an idle window: the start screen and a battle nobody touches.

Why this benchmark: the play test measured an idle window at 50-60 % of a core, because
it redrew 60 times a second whatever happened (issue 23 item 7: target at most 5 %). The
window now sleeps in ``pygame.event.wait`` until an event comes (``App.run``). This runs
the real ``App.run`` headless for a few seconds on each screen, with no input, and
prints the process's CPU time over the wall time (medians of the runs), next to the old
way measured in the same run: a frame drawn 60 times a second regardless
(``App.run(redraw=True)``). Under the dummy video driver a frame costs less than on a
real display, so the baseline here is lower than what the play test saw; the ratio
between the two is the point.

    python bench/idle_cpu.py [--seconds 4] [--runs 3] [--ruleset umr]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.scenario import load_scenario, new_game  # noqa: E402
from engine.ui.app import App  # noqa: E402

SIZE = (1280, 800)
SAVES = Path("/tmp") / "warbench-bench-saves"


def cpu_share(run: Callable[[], object]) -> float:
    """CPU seconds this process spent in ``run`` per wall second (1.0 = a whole core)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return (time.process_time() - cpu) / max(1e-9, time.perf_counter() - wall)


def settle(app: App) -> None:
    """Let the opening animations and notices end before measuring."""
    for _ in range(400):
        if not app.busy():
            return
        app.step(None, 0.05)


def start_screen(path: Path) -> App:
    app = App(size=SIZE, scenario=str(path), saves_dir=SAVES, ai_delay=0.0)
    settle(app)
    return app


def battle(path: Path) -> App:
    app = App(size=SIZE, saves_dir=SAVES, ai_delay=0.0)
    game = new_game(load_scenario(path))
    app.start(game, {s: "human" for s in game.state.sides})
    app.step(None, 0.0)
    if app.battle is not None and app.battle.awaiting:
        app.battle._ready()
    settle(app)
    return app


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="wall seconds per run (4)")
    ap.add_argument("--runs", type=int, default=3, help="runs per screen and loop (3)")
    ap.add_argument("--ruleset", default="umr", help="whose default scenario (umr)")
    args = ap.parse_args()
    path = ROOT / "rulesets" / args.ruleset / "scenarios" / "default.toml"
    screens: dict[str, Callable[[Path], App]] = {
        "start screen": start_screen,
        "battle (hotseat, idle)": battle,
    }
    print(f"idle window CPU, {args.runs} runs of {args.seconds:g} s (share of one core)")
    print(f"{'screen':<26} {'event wait':>11} {'60 fps redraw':>14} {'ratio':>7}")
    for name, open_screen in screens.items():
        idle: list[float] = []
        busy: list[float] = []
        for _ in range(args.runs):
            for redraw, out in ((False, idle), (True, busy)):
                app = open_screen(path)
                out.append(cpu_share(partial(app.run, args.seconds, redraw)))
        mi, mb = statistics.median(idle), statistics.median(busy)
        print(f"{name:<26} {mi:>10.1%} {mb:>13.1%} {mi / max(mb, 1e-9):>7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
