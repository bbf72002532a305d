"""CPU used by an idle window: the start screen and a battle nobody touches.

Why this benchmark: the play test measured an idle window at 50-60 % of a core, because
it redrew 60 times a second whatever happened (issue 23 item 7: target at most 5 %). The
window now sleeps in ``pygame.event.wait`` until an event comes (``App.run``). This runs
the real ``App.run`` headless for a few seconds on each screen, with no input, and
prints the process's CPU time over the wall time (medians of the runs), next to the old
way measured in the same run: ``App.step`` called at 60 frames a second regardless.

    python bench/idle_cpu.py [--seconds 4] [--runs 3] [--ruleset umr]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine.scenario import load_scenario, new_game  # noqa: E402
from engine.ui.app import App  # noqa: E402

SIZE = (1280, 800)


def cpu_share(run: Callable[[], object]) -> float:
    """CPU seconds this process spent in ``run`` per wall second (1.0 = a whole core)."""
    wall, cpu = time.perf_counter(), time.process_time()
    run()
    return (time.process_time() - cpu) / max(1e-9, time.perf_counter() - wall)


def idle_run(app: App, seconds: float) -> None:
    """``App.run`` until a QUIT posted after ``seconds`` (nothing else happens)."""
    pygame.time.set_timer(pygame.event.Event(pygame.QUIT), int(seconds * 1000), loops=1)
    app.running = True
    clock = pygame.time.Clock()
    while app.running:  # App.run's loop, without closing the app at the end
        if app.busy():
            app.step(None, clock.tick(60) / 1000.0)
            continue
        first = pygame.event.wait(250)
        events = [first] if first.type != pygame.NOEVENT else []
        app.step(events + pygame.event.get(), clock.tick() / 1000.0)


def redraw_run(app: App, seconds: float) -> None:
    """The old loop: a frame every 1/60 s whether anything changed or not."""
    clock = pygame.time.Clock()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.step(None, clock.tick(60) / 1000.0)


def settle(app: App) -> None:
    """Let the opening animations and notices end before measuring."""
    for _ in range(400):
        if not app.busy():
            return
        app.step(None, 0.05)


def screens(ruleset: str) -> dict[str, Callable[[App], None]]:
    path = ROOT / "rulesets" / ruleset / "scenarios" / "default.toml"

    def start_screen(app: App) -> None:
        app.open_new_game(str(path))

    def battle(app: App) -> None:
        game = new_game(load_scenario(path))
        app.start(game, {s: "human" for s in game.state.sides})
        app.step(None, 0.0)
        if app.battle is not None and app.battle.awaiting:
            app.battle._ready()

    return {"start screen": start_screen, "battle (hotseat, idle)": battle}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="wall seconds per run (4)")
    ap.add_argument("--runs", type=int, default=3, help="runs per screen and loop (3)")
    ap.add_argument("--ruleset", default="umr", help="whose default scenario (umr)")
    args = ap.parse_args()
    app = App(size=SIZE, saves_dir=Path("/tmp") / "warbench-bench-saves", ai_delay=0.0)
    print(f"idle window CPU, {args.runs} runs of {args.seconds:g} s (share of one core)")
    print(f"{'screen':<26} {'event wait':>11} {'60 fps redraw':>14} {'ratio':>7}")
    for name, open_screen in screens(args.ruleset).items():
        idle, busy = [], []
        for _ in range(args.runs):
            open_screen(app)
            settle(app)
            idle.append(cpu_share(lambda: idle_run(app, args.seconds)))
            busy.append(cpu_share(lambda: redraw_run(app, args.seconds)))
        mi, mb = statistics.median(idle), statistics.median(busy)
        print(f"{name:<26} {mi:>10.1%} {mb:>13.1%} {mi / max(mb, 1e-9):>7.3f}")
    app.close()
    pygame.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
