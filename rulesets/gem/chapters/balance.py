"""GEM's point study, rerun with our engine (GEM-4, "the point system").

GEM's author fitted the point formula to simulated duels. This module reruns that
study: duels between single heavy-infantry figures across a grid of OFF, DEF, HIT and
ATT, fought by GEM's own rules (charge, Table 1 melee, morale) through the engine, and
compares each pairing's simulated win rate with the share the point values predict,
P(A wins) = V_A^k / (V_A^k + V_B^k): k = 1 is "points are proportional to strength";
the best-fitting k says how steeply strength really grows with points.

Why duels of one figure: they isolate the base-value terms (DEF x HIT, OFF x ATT and
their product) that the formula is built from; the type, width, morale, MAG and MOV
factors are the same on both sides, so they cancel in the ratio.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path

from engine.actions import Charge, Fight
from engine.battlefield import Battlefield
from engine.dice import Dice
from engine.ruleset import load
from engine.scenario import Scenario, new_game

from .points import value

GRID = {"OFF": (2, 5, 8), "DEF": (2, 5, 8), "HIT": (1, 2, 3), "ATT": (1, 2)}


@dataclass
class Pairing:
    a: dict[str, int]
    b: dict[str, int]
    value_a: float
    value_b: float
    duels: int = 0
    wins_a: float = 0.0  # a draw counts one half

    @property
    def win_rate(self) -> float:
        return self.wins_a / self.duels if self.duels else 0.0

    @property
    def log_ratio(self) -> float:
        return math.log2(self.value_a / self.value_b)


def profiles() -> list[dict[str, int]]:
    out = []
    for off in GRID["OFF"]:
        for d in GRID["DEF"]:
            for h in GRID["HIT"]:
                for att in GRID["ATT"]:
                    out.append({"OFF": off, "DEF": d, "HIT": h, "ATT": att})
    return out


def pairings(n: int, seed: int) -> list[Pairing]:
    """``n`` distinct pairs of grid profiles drawn with our own dice (reproducible)."""
    grid = profiles()
    dice = Dice(seed=seed)
    seen: set[tuple[int, int]] = set()
    out: list[Pairing] = []
    while len(out) < min(n, len(grid) * (len(grid) - 1) // 2):
        i, j = dice.face(len(grid)) - 1, dice.face(len(grid)) - 1
        if i == j or (min(i, j), max(i, j)) in seen:
            continue
        seen.add((min(i, j), max(i, j)))
        a, b = grid[i], grid[j]
        out.append(Pairing(a, b, value(a, [], "heavy", 25.0), value(b, [], "heavy", 25.0)))
    return out


def duel(a: dict[str, int], b: dict[str, int], seed: int, turn_limit: int = 30) -> str | None:
    """One duel fought by GEM's rules: each side charges or fights when it can."""
    rs = load("gem")
    models = []
    for mid, side, x, facing, stats in (("A", "a", 34.0, 0.0, a), ("B", "b", 38.0, 180.0, b)):
        m, problems = rs.build_model(
            {
                "id": mid,
                "side": side,
                "x": x,
                "y": 24.0,
                "facing": facing,
                "type": "heavy",
                "stats": stats,
            }
        )
        if m is None:
            raise ValueError(f"bad duel profile {stats}: {problems}")
        models.append(m)
    game = new_game(
        Scenario("balance", "duel", "gem", seed, Battlefield(), models, turn_limit=turn_limit)
    )
    n = 0
    while (to_act := game.to_act()) is not None and n < 2000:
        acts = [x for x in game.candidates(to_act) if isinstance(x, (Fight, Charge))]
        step = acts[0] if acts else game.ruleset.advance(game.state, game.ctx)
        if step is None:
            break
        game.apply(step)
        n += 1
    out = game.outcome()
    return out.winner if out else None


def _fight_pairing(args: tuple[int, Pairing, int, int]) -> Pairing:
    k, p, duels, seed = args
    for d in range(duels):
        w = duel(p.a, p.b, seed * 1_000_003 + k * 1009 + d)
        p.duels += 1
        p.wins_a += 1.0 if w == "a" else (0.5 if w is None else 0.0)
    return p


def predicted(p: Pairing, k: float = 1.0) -> float:
    return 1.0 / (1.0 + (p.value_b / p.value_a) ** k)


def rms(ps: list[Pairing], k: float) -> float:
    return math.sqrt(sum((p.win_rate - predicted(p, k)) ** 2 for p in ps) / len(ps))


def best_k(ps: list[Pairing]) -> float:
    """The exponent k that best fits the simulated win rates (least squares, grid)."""
    return min((x / 100 for x in range(10, 801)), key=lambda k: rms(ps, k))


def run(
    pairs: int = 60,
    duels: int = 40,
    seed: int = 1,
    out_dir: str | Path = "out/balance",
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    quiet: bool = True,
) -> tuple[str, bool]:
    """Run the study on a Dask cluster (:func:`engine.batch.cluster`; ``workers=0`` in
    this process); write gem.jsonl and gem.png into ``out_dir``. Returns (the report,
    interrupted): Ctrl+C keeps the pairings that finished."""
    from engine.batch import cluster, progress, stream

    ps = pairings(pairs, seed)
    work = [(k, p, duels, seed) for k, p in enumerate(ps)]
    done: list[Pairing] = []
    interrupted = False
    with progress(len(work), "pairing", quiet) as bar:
        try:
            with cluster(scheduler, workers) as client:
                for p in stream(client, _fight_pairing, work):
                    done.append(p)
                    bar.update()
        except KeyboardInterrupt:
            interrupted = True
    if not done:
        return "GEM point study: interrupted before any pairing finished", interrupted
    done.sort(key=lambda p: p.log_ratio)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "gem.jsonl").open("w", encoding="utf-8") as fh:
        for p in done:
            fh.write(
                json.dumps({**asdict(p), "win_rate": p.win_rate, "predicted": predicted(p)}) + "\n"
            )
    k = best_k(done)
    _chart(out / "gem.png", done, duels, k)
    even = [p for p in done if abs(p.log_ratio) < 0.25]
    lines = [
        f"GEM point study: {len(done)} pairings x {duels} duels (grid {GRID})",
        f"points-proportional prediction (k = 1): RMS error {rms(done, 1.0):.3f}",
        f"best fit k = {k:.2f}: RMS error {rms(done, k):.3f}",
        f"pairings within 19% in points: {len(even)}, mean win rate "
        f"{sum(p.win_rate for p in even) / len(even):.2f}"
        if even
        else "no pairings within 19% in points",
        f"per-pairing results: {out / 'gem.jsonl'}; chart: {out / 'gem.png'}",
    ]
    if interrupted:
        lines.insert(0, f"interrupted: {len(done)} of {len(work)} pairings finished")
    return "\n".join(lines), interrupted


def _chart(path: Path, done: list[Pairing], duels: int, k: float) -> None:
    """Point ratio against A's share of duels won, the rulebook's formula and the fit."""
    from engine.charts import point_study
    from engine.sim import wilson

    point_study(
        path,
        f"GEM points against simulated duels ({len(done)} pairings x {duels} duels)",
        [p.value_a / p.value_b for p in done],
        [p.win_rate for p in done],
        [wilson(p.wins_a, p.duels) for p in done],
        k,
    )
