"""Warbench command line: play | run | validate | replay (see README.md).

Why thin: every command is a few calls into ``engine``; the window (pygame) is imported
only by ``play``, so ``run`` and the tests of rules never load it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DEFAULT_SCENARIO = "rulesets/umr/scenarios/default.toml"

sys.path.insert(0, str(ROOT))


def _fail(lines: list[str]) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return 2


def _load(path: str):
    from engine.data import DataError, problem_lines
    from engine.scenario import load_scenario

    try:
        return load_scenario(path), []
    except DataError as e:
        return None, problem_lines(e.problems)


def cmd_run(args: argparse.Namespace) -> int:
    from engine.scenario import ScriptError, new_game, result_json, run_script

    scn, errors = _load(args.file)
    if scn is None:
        return _fail(errors)
    game = new_game(scn)
    try:
        run_script(game, scn)
    except ScriptError as e:
        return _fail([e.problem.line()])
    if args.save:
        from engine.persistence import save

        try:
            save(game, args.save)
        except (OSError, ValueError) as e:
            return _fail([f"error: {args.save}: file: cannot write the save ({e})"])
    if args.json:
        # strict JSON (RFC 8259): a NaN that slipped through must fail loudly, not print
        print(json.dumps(result_json(game), indent=1, allow_nan=False))
        return 0
    print(f"{scn.title} ({scn.ruleset}, seed {scn.seed})")
    current = object()
    for ev in game.log.events:
        if ev.action != current:
            current = ev.action
            if ev.action is None:
                print("-- setup")
            else:
                action, _ = scn.actions[ev.action]
                print(f"-- action {ev.action}: {action.describe()}")
        tag = "REFUSED: " if ev.kind == "refused" else ""
        print(f"  {tag}{ev.text}")
    print("-- models")
    for mid, m in result_json(game)["models"].items():
        state = "removed" if m["removed"] else f"hp {m['hp']}"
        status = f" [{', '.join(m['status'])}]" if m["status"] else ""
        print(f"  {mid:12} {m['side']:8} ({m['x']:.2f}, {m['y']:.2f}) {state}{status}")
    out = game.outcome()
    if out:
        print(f"-- game over: {out.winner or 'draw'} ({out.reason})")
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    scn, errors = _load(args.file)
    if scn is None:
        return _fail(errors)
    print(
        f"ok: {args.file}: {scn.ruleset}, {len(scn.models)} models, "
        f"{len(scn.battlefield.terrain)} terrain pieces, {len(scn.actions)} actions"
    )
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0: the save re-derives exactly; 1: it diverges (the first difference is
    named); 2: it cannot be read (missing, not JSON, wrong shape or version)."""
    from engine.batch import progress
    from engine.data import Problem, escape
    from engine.persistence import SaveError, replay_file

    bar = progress(None, "action", args.quiet, delay=1.0)  # silent unless it takes a while

    def step(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    try:
        _, report = replay_file(args.file, step)
    except SaveError as e:
        return _fail([Problem(e.file or args.file, e.where, e.what).line()])  # unreadable
    finally:
        bar.close()
    if report.ok:
        print(f"replay ok: {report.steps} actions, final checksum {report.final_checksum}")
        return 0
    print(f"replay diverged: {escape(report.message)}")
    return 1


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.agents import AGENTS, LEVELS
    from engine.batch import ClusterError
    from engine.batch_files import OutputError, folder_name
    from engine.batch_run import Request, simulate
    from engine.sim import summary_table

    scn, errors = _load(args.file)
    if scn is None:
        return _fail(errors)
    names = tuple(a.strip() for a in args.agents.split(","))
    known = set(AGENTS) | set(LEVELS)
    if len(names) != 2 or not all(n in known for n in names):
        return _fail(
            [
                f"error: --agents: expected two of {', '.join(sorted(known))} "
                f"separated by a comma, got '{args.agents}'"
            ]
        )
    if args.games < 1 or args.turn_limit < 0 or (args.workers is not None and args.workers < 0):
        return _fail(["error: --games must be at least 1, --turn-limit and --workers at least 0"])
    if args.force and args.resume:
        return _fail(["error: --force and --resume: give one or the other"])
    out = Path(args.out or Path("out") / "simulate" / folder_name(scn.ruleset, args.file))
    req = Request(args.file, scn.ruleset, scn.title, args.games, names, args.seed, args.turn_limit)
    try:
        summary, interrupted = simulate(
            req,
            out,
            scheduler=args.scheduler,
            workers=args.workers,
            force=args.force,
            resume=args.resume,
            quiet=args.quiet,
        )
    except OutputError as e:
        return _fail([f"error: {out}: output folder: {e}"])
    except ClusterError as e:
        return _fail([f"error: --scheduler: {e}"])
    print(summary_table(summary))
    print(f"results in {out}/: games.jsonl, summary.json, wins.png, luck.png")
    if interrupted:
        print(
            f"interrupted: kept {summary['games']} finished games; --resume finishes the run",
            file=sys.stderr,
        )
        return 130
    if summary["errors"] == summary["games"]:
        print(f"error: {args.file}: every game crashed (see {out}/games.jsonl)", file=sys.stderr)
        return 1
    return 0


def cmd_points(args: argparse.Namespace) -> int:
    """Point values of an army list or scenario, by its ruleset's ``points_report``: the
    file's ``ruleset`` key, else the ``rulesets/<key>/`` folder it sits in. Never a
    guess: another ruleset's list read by the wrong formula prints its errors (#17)."""
    from engine import schema
    from engine.data import Checker, DataError, load_toml, problem_lines
    from engine.loader import ruleset_problem
    from engine.ruleset import UnknownRuleset, available, load

    try:
        data = load_toml(args.file)
    except DataError as e:
        return _fail(problem_lines(e.problems))
    parts = Path(args.file).resolve().parts
    folder = parts[parts.index("rulesets") + 1] if "rulesets" in parts[:-2] else ""
    key = data.get("ruleset") or (folder if folder in available() else "")
    if not key:
        known = ", ".join(available())
        return _fail(
            [
                f'error: {args.file}: ruleset: whose points? give ruleset = "<key>" or keep '
                f"the file in rulesets/<key>/ (known: {known})"
            ]
        )
    if not isinstance(key, str) or ruleset_problem(key):  # no import of a dotted name
        known = ", ".join(available())
        return _fail([f"error: {args.file}: ruleset: unknown ruleset '{key}' (known: {known})"])
    if key == "gem" and "units" in data:  # a GEM army list: shape checked before pricing
        chk = Checker(args.file)
        schema.ARMY.check(chk, data, "")
        if chk.problems:
            return _fail(problem_lines(chk.problems))
    try:
        report = load(key).points_report(args.file)
    except UnknownRuleset:
        known = ", ".join(available())
        return _fail([f"error: {args.file}: ruleset: unknown ruleset '{key}' (known: {known})"])
    except DataError as e:
        return _fail(problem_lines(e.problems))
    if report is None:
        return _fail([f"error: {args.file}: ruleset: '{key}' has no points system"])
    print(report)
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    """Rerun a ruleset's point study (its ``study`` hook; GEM: duels against the formula)."""
    from engine.ruleset import UnknownRuleset, load

    try:
        rs = load(args.ruleset)
    except UnknownRuleset:
        return _fail([f"error: balance: unknown ruleset '{args.ruleset}'"])
    from engine.batch import ClusterError

    try:
        done = rs.study(
            pairs=args.pairs,
            duels=args.duels,
            seed=args.seed,
            out_dir=args.out,
            scheduler=args.scheduler,
            workers=args.workers,
            quiet=args.quiet,
        )
    except ClusterError as e:
        return _fail([f"error: --scheduler: {e}"])
    if done is None:
        return _fail([f"error: balance: ruleset '{args.ruleset}' has no point study"])
    report, interrupted = done
    print(report)
    return 130 if interrupted else 0


def cmd_play(args: argparse.Namespace) -> int:
    path = args.file or str(ROOT / DEFAULT_SCENARIO)
    scn, errors = _load(path)
    if scn is None:
        return _fail(errors)
    from engine.ui.app import run_app  # pygame is imported only here

    return run_app(path, size=tuple(args.size) if args.size else None)


def _cluster_args(p: argparse.ArgumentParser) -> None:
    """Where batch games run (a Dask cluster) and whether a progress bar shows."""
    p.add_argument(
        "--scheduler",
        metavar="tcp://HOST:8786",
        help="an existing Dask cluster (default: a local one on every core)",
    )
    p.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="local cluster size (default: every core; 0: play in this process)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="main.py",
        description="Warbench: miniatures wargames on screen, with the table measured for you.",
    )
    sub = p.add_subparsers(dest="command")
    play = sub.add_parser("play", help="open the game window on a scenario")
    play.add_argument("file", nargs="?", help="scenario TOML (default: the bundled one)")
    play.add_argument("--size", nargs=2, type=int, metavar=("W", "H"))
    run = sub.add_parser("run", help="play a scenario's script headless and print the log")
    run.add_argument("file")
    run.add_argument("--json", action="store_true", help="print one JSON document")
    run.add_argument("--save", metavar="SAVE", help="also write the scripted game as a save")
    val = sub.add_parser("validate", help="check a scenario file")
    val.add_argument("file")
    sim = sub.add_parser("simulate", help="headless battles between computer agents")
    sim.add_argument("file", help="scenario TOML")
    sim.add_argument("--games", type=int, default=20, help="games to play (default: %(default)s)")
    sim.add_argument(
        "--agents",
        default="greedy,random",
        help="two agents, e.g. search,greedy (default: %(default)s)",
    )
    sim.add_argument(
        "--seed", type=int, default=1, help="base seed of the games (default: %(default)s)"
    )
    sim.add_argument(
        "--turn-limit",
        type=int,
        default=0,
        help="end games after N turns (default: %(default)s, the scenario's own limit)",
    )
    sim.add_argument(
        "--out",
        help="folder for run.json, games.jsonl, summary.json, wins.png and luck.png "
        "(default: out/simulate/RULESET-SCENARIO)",
    )
    _cluster_args(sim)
    sim.add_argument("--force", action="store_true", help="replace an earlier run in --out")
    sim.add_argument("--resume", action="store_true", help="finish an interrupted run in --out")
    pts = sub.add_parser(
        "points", help="point values of an army list or scenario (its ruleset's formula)"
    )
    pts.add_argument("file")
    bal = sub.add_parser("balance", help="rerun a ruleset's point study (gem has one)")
    bal.add_argument("ruleset", help="ruleset with a point study (gem)")
    bal.add_argument(
        "--pairs", type=int, default=60, help="profile pairings (default: %(default)s)"
    )
    bal.add_argument(
        "--duels", type=int, default=40, help="duels per pairing (default: %(default)s)"
    )
    bal.add_argument("--seed", type=int, default=1, help="base seed (default: %(default)s)")
    bal.add_argument(
        "--out", default="out/balance", help="folder for the results (default: %(default)s)"
    )
    _cluster_args(bal)
    rep = sub.add_parser(
        "replay",
        help="re-derive a save from its start and compare everything in it "
        "(exit 0 ok, 1 diverged, 2 unreadable)",
    )
    rep.add_argument("file")
    rep.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play"])
    handlers = {
        "run": cmd_run,
        "validate": cmd_validate,
        "replay": cmd_replay,
        "play": cmd_play,
        "simulate": cmd_simulate,
        "points": cmd_points,
        "balance": cmd_balance,
    }
    return handlers[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
