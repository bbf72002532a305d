"""Army lists (rulesets/umr/armies/*.toml): a roster of characters without positions.

Format (documented in armies/README.md): top-level ``name``, ``side`` and optional
``description``; then ``[[models]]`` entries with the keys of a scenario model except the
position: ``id``, optional ``profile``, ``stats``, ``base``, ``unit``. An army is valid
when every character passes character creation, is fully built (three personality points,
six for infantry, and one special ability: UMR Steps 2 and 3) and the roster keeps the
ability limits.

Why a loader here: the army files are the reference rosters that the default scenarios
deploy, so a test can check both that each army is legal and that a scenario fields it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from rulesets.umr import build

FOLDER = Path(__file__).parent.parent / "armies"
ARMY_KEYS = ("name", "side", "description", "models")
ENTRY_KEYS = ("id", "profile", "stats", "base", "unit", "state", "name")


def load(path: str | Path) -> dict[str, Any]:
    with Path(path).open("rb") as fh:
        return tomllib.load(fh)


def problems(path: str | Path, profiles: dict[str, Any]) -> list[str]:
    """Every reason the army file breaks the rules ([] when it is a legal army)."""
    data = load(path)
    out = [
        f"{k}: unknown key (allowed: {', '.join(ARMY_KEYS)})" for k in data if k not in ARMY_KEYS
    ]
    side = str(data.get("side", "army"))
    models = []
    for i, entry in enumerate(data.get("models", [])):
        out += [f"models[{i}].{k}: unknown key" for k in entry if k not in ENTRY_KEYS]
        spec = {
            **entry,
            "side": side,
            "x": 0.0,
            "y": 0.0,
            "facing": 0.0,
            "base": float(entry.get("base", 25.0)),
        }
        m, probs = build.build_model(spec, profiles)
        out += [f"models[{i}].{w}: {what}" for w, what in probs]
        if m is not None:
            out += [f"models[{i}].{w}: {what}" for w, what in build.complete_problems(m)]
            models.append(m)
    out += [f"{mid}: {what}" for mid, what in build.check_army(models)]
    return out


def army_files() -> list[Path]:
    return sorted(FOLDER.glob("*.toml"))
