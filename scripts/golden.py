"""Record or compare what players see, so a refactor can prove it changed nothing.

Why: the refactors of the ruleset kit and the engine's giants promise byte-identical
``run --json`` output and identical computer games. This script writes, for every bundled
scenario and every file in ``tests/scenarios``, the ``run --json`` document and the text
log, plus the final checksum of a few seeded greedy-against-random games per ruleset;
``--check`` compares a fresh recording with a saved one and names each difference.

    python scripts/golden.py --write /tmp/golden      # before
    python scripts/golden.py --check /tmp/golden      # after: exit 1 on any difference
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def scenarios() -> list[Path]:
    """Every bundled scenario and every golden test scenario, in a fixed order."""
    files = sorted(ROOT.glob("rulesets/*/scenarios/*.toml"))
    files += sorted((ROOT / "tests" / "scenarios").glob("*.toml"))
    return files


def cli(*args: str) -> str:
    """One ``main.py`` run; its exit code and both streams are part of the record."""
    p = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return f"exit {p.returncode}\n--stdout\n{p.stdout}--stderr\n{p.stderr}"


def agent_games(scenario: Path, games: int) -> list[str]:
    """Final checksums of seeded greedy-vs-random games: the agents' path through the rules."""
    from engine.agents import make
    from engine.scenario import load_scenario, new_game

    out = []
    for g in range(games):
        scn = load_scenario(str(scenario))
        scn.seed = 1000 + g
        game = new_game(scn)
        sides = game.state.sides[:2]
        agents = {
            s: make(n, seed=g * 7 + i) for i, (s, n) in enumerate(zip(sides, ("greedy", "random")))
        }
        n = 0
        while (side := game.to_act()) is not None and n < 400:
            game.apply(agents[side].choose(game.clone(dice_seed=n, viewer=side), side))
            n += 1
        out.append(f"game {g}: {n} actions, turn {game.state.turn}, {game.state.checksum()}")
    return out


def record(games: int) -> dict[str, str]:
    rec: dict[str, str] = {}
    for f in scenarios():
        rel = str(f.relative_to(ROOT))
        rec[f"{rel} run --json"] = cli("run", rel, "--json")
        rec[f"{rel} run"] = cli("run", rel)
    for f in sorted(ROOT.glob("rulesets/*/scenarios/default.toml")):
        rel = str(f.relative_to(ROOT))
        rec[f"{rel} agents"] = "\n".join(agent_games(f, games))
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", metavar="DIR", help="record into DIR")
    g.add_argument("--check", metavar="DIR", help="compare with the record in DIR")
    ap.add_argument("--games", type=int, default=2, help="agent games per ruleset (default 2)")
    a = ap.parse_args()
    rec = record(a.games)
    if a.write:
        d = Path(a.write)
        d.mkdir(parents=True, exist_ok=True)
        (d / "golden.json").write_text(json.dumps(rec, indent=1, sort_keys=True))
        digest = hashlib.sha256(json.dumps(rec, sort_keys=True).encode()).hexdigest()[:16]
        print(f"recorded {len(rec)} outputs in {d} (digest {digest})")
        return 0
    old = json.loads((Path(a.check) / "golden.json").read_text())
    diff = [k for k in sorted(set(old) | set(rec)) if old.get(k) != rec.get(k)]
    for k in diff:
        print(f"differs: {k}")
    print(f"{len(rec) - len(diff)} of {len(rec)} outputs identical")
    return 1 if diff else 0


if __name__ == "__main__":
    raise SystemExit(main())
