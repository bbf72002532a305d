"""Memory of the window over ten games in a row.

Why this benchmark: the play test saw the window grow from 195 MB to 433 MB over six
games (issue 23 item 7: flat within 10 % over ten). Each game here goes the way a player
takes it: the start screen, a new battle, the computer playing both sides a number of
actions (every widget, panel and overlay refreshed as in play), then back to the start
screen. It prints the resident memory after each game and, from the second game on (the
first loads fonts, terrain tiles and the rulesets' tables once), the largest over the
smallest and the last over the second: memory that leaks grows with every game, memory
that is only warm-up does not.

    python bench/memory.py [--games 10] [--actions 80] [--ruleset umr]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.ui.app import App  # noqa: E402

SIZE = (1280, 800)


def rss_mb() -> float:
    """Resident memory of this process now, in MB (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return pages * os.sysconf("SC_PAGE_SIZE") / 1e6


def play_one(app: App, scenario: Path, actions: int, level: str) -> int:
    """From the start screen, one computer-against-computer game of up to ``actions``
    actions; returns the actions played."""
    app.open_new_game(str(scenario))
    app.step(None, 0.0)
    assert app.newgame is not None
    sides = list(app.newgame.controllers)
    app.newgame.on_start(str(scenario), {s: level for s in sides})
    game = app.game
    assert game is not None and app.battle is not None
    for _ in range(actions * 40):
        if game.state.over or len(game.history) >= actions:
            break
        app.step(None, 0.05)
        if app.battle.job is not None:
            app.battle.job.done.wait(5.0)
    played = len(game.history)
    app.open_new_game(str(scenario))  # back to the start screen: the battle is dropped
    app.step(None, 0.0)
    return played


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="games in a row (10)")
    ap.add_argument("--actions", type=int, default=80, help="actions per game at most (80)")
    ap.add_argument("--ruleset", default="umr", help="whose default scenario (umr)")
    ap.add_argument("--level", default="easy", help="computer level for both sides (easy)")
    args = ap.parse_args()
    scenario = ROOT / "rulesets" / args.ruleset / "scenarios" / "default.toml"
    with tempfile.TemporaryDirectory() as saves:
        app = App(size=SIZE, saves_dir=saves, ai_delay=0.0, animate=False)
        app.step(None, 0.0)
        print(
            f"window memory over {args.games} {args.ruleset} games ({args.level} vs {args.level})"
        )
        print(f"{'game':>4} {'actions':>8} {'RSS MB':>8}")
        sizes = []
        for k in range(1, args.games + 1):
            played = play_one(app, scenario, args.actions, args.level)
            gc.collect()
            sizes.append(rss_mb())
            print(f"{k:>4} {played:>8} {sizes[-1]:>8.1f}")
        app.close()
    if len(sizes) > 2 and sizes[0]:
        warm = sizes[1:]  # the first game loads fonts, tiles and the rulesets' tables
        print(
            f"after the first game (warm-up) {sizes[0]:.1f} MB; then {min(warm):.1f}-{max(warm):.1f} MB"
        )
        print(
            f"games 2-{len(sizes)}: largest / smallest {max(warm) / min(warm):.3f} (target <= 1.10)"
        )
        print(
            f"last / second game: {sizes[-1] / sizes[1]:.3f}; last / first: {sizes[-1] / sizes[0]:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
