"""Render a mid-game screenshot of each ruleset's default scenario (headless).

Why: the window is judged by eye — legibility of terrain, bases, overlays and panels —
and the screenshots in docs/screenshots/ show what a player sees without running it.
Each ruleset's default scenario is played a few actions in by random agents (the same
``play`` semantics as the window), then a model of the side to act is selected, its
first targeted action picked, and the mouse put on an enemy so the sight lines, cover,
zones and odds are on screen. A second shot, ``<key>-spectate.png``, shows a computer
against computer game paused after a few moves, with the strip under the table
explaining the last decision (its options, values and odds).

    python scripts/screenshot.py [--out docs/screenshots] [--actions 6] [KEY_OR_FILE ...]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pygame  # noqa: E402

from engine.agents import make as make_agent  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.ruleset import available  # noqa: E402
from engine.scenario import load_scenario, new_game  # noqa: E402
from engine.ui.app import App  # noqa: E402


def advance_game(game: Game, actions: int, seed: int = 3) -> None:
    """Play ``actions`` actions with random agents, preferring moves and attacks to
    ending activations, so the table looks like a game in progress."""
    agent = make_agent("random", seed=seed)
    n = 0
    for _ in range(actions * 6):
        side = game.to_act()
        if side is None or n >= actions:
            break
        clone = game.clone(dice_seed=n)
        options = [a for a in clone.candidates(side) if not a.KIND.startswith("end")]
        pick = options[agent.dice.face(len(options)) - 1] if options else agent.choose(clone, side)
        before = len(game.history)
        game.apply(pick)
        if len(game.history) > before and pick.KIND != "end_activation":
            n += 1


def _pick(app: App):
    """A model of the side to act with a targeted action (a shot preferred) and it."""
    c = app.controller
    game = app.game
    assert game is not None, "a game is on screen"
    side = game.to_act()
    best = None
    for m in game.state.live(side) if side else []:
        c.select(m.id)
        for mode in c.modes():
            marks = c.classify(mode.proto)
            score = (
                mode.proto.KIND == "shoot",
                sum(mk.cls in ("valid", "cover") for mk in marks.values()),
            )
            if best is None or score > best[0]:
                best = (score, m, mode)
    return best


def frame_with_overlays(app: App) -> None:
    """Select a model with an attack (playing on until one has), pick the attack, zoom
    in on it and hover the best target; then step a few frames so the panels settle."""
    game, c = app.game, app.controller
    assert game is not None and c is not None
    best = _pick(app)
    for _ in range(40):
        if best is not None or game.to_act() is None:
            break
        step = game.ruleset.advance(game.state, game.ctx)
        if step is None:
            break
        game.apply(step)
        assert app.battle is not None
        app.battle.version += 1
        best = _pick(app)
    side = game.to_act() or game.state.sides[0]
    if best is None:
        chosen = game.state.live(side)[0]
        c.select(chosen.id)
        mode = None
    else:
        _, chosen, mode = best
        c.select(chosen.id)
        c.set_mode(mode)
    enemies = [m for m in game.state.live() if m.side != chosen.side]
    if not enemies:
        return
    marks = c.classify(mode.proto) if mode is not None else {}
    pool = [e for e in enemies if marks.get(e.id) and marks[e.id].cls in ("cover", "valid")]
    t = min(
        pool or enemies,
        key=lambda e: (
            marks.get(e.id) is None or marks[e.id].cls != "cover",
            (e.x - chosen.x) ** 2 + (e.y - chosen.y) ** 2,
        ),
    )
    mid = ((t.x + chosen.x) / 2, (t.y + chosen.y) / 2)
    app.camera.fit()
    app.camera.zoom(4)
    app.camera.centre_on(*mid)
    if mode is None:
        # no attack offered: show a move being dragged towards the enemy instead
        from engine.ui.controls import Drag

        dx, dy = t.x - chosen.x, t.y - chosen.y
        d = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        end = (chosen.x + dx / d * 3.0, chosen.y + dy / d * 3.0)
        c.drag = Drag(
            chosen.id,
            app.camera.to_screen_i(chosen.x, chosen.y),
            chosen.pos,
            cursor=end,
            active=True,
        )
        pos = app.camera.to_screen_i(*end)
    else:
        pos = app.camera.to_screen_i(t.x, t.y)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))], 0.05)
    for _ in range(12):
        app.step([], 0.05)


def shoot(path: Path, out: Path, actions: int) -> Path:
    scn = load_scenario(path)
    game = new_game(scn)
    advance_game(game, actions)
    app = App(size=(1440, 900), saves_dir=ROOT / "out" / "screenshot-saves", ai_delay=0.0)
    app.start(game, {s: "human" for s in game.state.sides})
    if app.battle and app.battle.awaiting:
        app.battle._ready()
    app.camera.fit()
    frame_with_overlays(app)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(out))
    app.close()
    return out


def spectate(path: Path, out: Path, moves: int) -> Path:
    """Computer (normal) against computer in the real window, paused once ``moves``
    actions are played and the last decision weighed some odds (a shot or a charge), so
    the strip shows numbers worth reading."""
    game = new_game(load_scenario(path))
    app = App(
        size=(1440, 900), saves_dir=ROOT / "out" / "screenshot-saves", ai_delay=0.0, animate=False
    )
    app.start(game, {s: "normal" for s in game.state.sides})
    b = app.battle
    assert b is not None
    for _ in range(20_000):
        if game.state.over or len(game.history) >= moves * 4:
            break
        if len(game.history) >= moves and "chance <b>" in b.decision and b.job is None:
            break
        app.step([], 0.05)
    b.toggle_pause()
    for _ in range(6):
        app.step([], 0.05)
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(app.screen, str(out))
    app.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("targets", nargs="*", help="ruleset keys or scenario files (default: all)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--actions", type=int, default=6)
    args = ap.parse_args()
    targets = args.targets or available()
    status = 0
    for t in targets:
        p = Path(t)
        if p.suffix == ".toml":
            path, name = p, p.stem
        else:
            path, name = ROOT / "rulesets" / t / "scenarios" / "default.toml", t
        if not path.exists():
            print(f"{name}: no default scenario yet ({path.relative_to(ROOT)})")
            continue
        try:
            done = shoot(path, Path(args.out) / f"{name}.png", args.actions)
            print(f"{name}: {done}")
            done = spectate(path, Path(args.out) / f"{name}-spectate.png", args.actions)
            print(f"{name}: {done}")
        except Exception as e:  # one ruleset in progress must not stop the others
            print(f"{name}: failed: {type(e).__name__}: {e}")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
