"""The SWOMP catalog (units.toml), read once: weapon tables, profiles, vehicle damage
tables, terrain readings and control rules."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).resolve().parent.parent

with (FOLDER / "units.toml").open("rb") as _fh:
    CATALOG: dict[str, Any] = tomllib.load(_fh)

TERRAIN: dict[str, Any] = CATALOG["terrain"]
DAMAGE: dict[str, list[dict[str, Any]]] = CATALOG["damage"]
EXPLOSION: dict[str, Any] = CATALOG["explosion"]
CONTROL: dict[str, Any] = CATALOG["control"]
COVER_BONUS: dict[str, int] = {"none": 0, **TERRAIN["cover_bonus"]}
