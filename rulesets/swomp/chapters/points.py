"""The points of a SWOMP army list (rulesets/swomp/armies/*.toml): every model priced by
the designer's formula (SWOMP-I-POINTS) and the army selection limits checked
(SWOMP-I-ARMY), for the ``points`` command.

Why apart from build.py: an army list is not a scenario; it names profiles and counts
only, so it is read here and each model built as a scenario entry would be.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.data import Checker, DataError, load_toml
from engine.ruleset import load

from .. import build
from ..state import mv


def points_report(path: str | Path) -> str:
    """Price an army list: one line per unit, the sections' totals, the army's problems.
    Raises DataError (one problem a line) for a list that cannot be read."""
    name = str(path)
    data = load_toml(path, display=name)
    chk = Checker(name)
    builder = build.Builder(load("swomp"))
    army = str(data.get("army", Path(name).stem))
    lines = [str(data.get("name", army))]
    models = []
    totals = {"troop": 0, "character": 0, "support": 0}
    for i, unit in enumerate(chk.array(data, "units", "units") or []):
        uid, section = str(unit.get("id", f"unit{i}")), str(unit.get("section", "troop"))
        pts, parts = 0, []
        for j, entry in enumerate(unit.get("models", [])):
            count = int(entry.get("count", 1))
            for k in range(count):
                spec: dict[str, Any] = {
                    "id": f"{uid}_{j}_{k}",
                    "side": "army",
                    "unit": uid,
                    "x": 0.0,
                    "y": 0.0,
                    "type": section,
                    "army": army,
                    **{key: v for key, v in entry.items() if key != "count"},
                }
                m, probs = builder.build(spec)
                for where, what in probs:
                    chk.add(f"units[{i}].models[{j}].{where}", what)
                if m is not None:
                    models.append(m)
                    pts += int(mv(m)["points"])
            parts.append(f"{count} x {entry.get('profile', '?')}")
        totals["support" if section == "vehicle" else section] += pts
        lines.append(f"  {uid} ({section}): {', '.join(parts)} = {pts} points")
    if chk.problems:
        raise DataError(chk.problems)
    lines.append(
        f"total {sum(totals.values())} points: " + ", ".join(f"{k} {v}" for k, v in totals.items())
    )
    problems = build.army_problems(models)
    lines += [f"  problem: {why}" for _, why in problems] or ["  within the army limits"]
    return "\n".join(lines)
