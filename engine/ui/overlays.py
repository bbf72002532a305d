"""What to draw on the table besides terrain and bases: plain data, no pygame.

Why a separate data layer: the controls decide *what* to show (a path, a wedge, the odds
of a shot) and the renderer decides *how*. Keeping the hand-over as dataclasses makes the
renderer a pure function (``draw.render(view, overlays, camera)``) that a test or the
benchmark can call with any combination of overlays switched on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

Point = tuple[float, float]
Polygon = list[Point]
Base = float | tuple[float, float]


@dataclass(frozen=True)
class ModelView:
    """One live model as the window shows it (from ``Ruleset.model_view``)."""

    id: str
    side: str
    unit: str
    x: float
    y: float
    facing: float
    base: Base
    hp: int
    max_hp: int
    status: tuple[str, ...] = ()
    done: bool = False
    label: str = ""


def length_text(inches: float, unit: str = "in", per_inch: float = 1.0, fmt: str = ".1f") -> str:
    """A table length in the ruleset's unit: 3.5" (inches) or 7.0 cm (2 cm to the inch)."""
    if unit in ("", "in"):
        return f'{inches:{fmt}}"'
    return f"{round(inches * per_inch, 6):{fmt}} {unit}"


@dataclass(frozen=True)
class TableView:
    """Everything the renderer reads of the game: the table and the live models."""

    width: float
    depth: float
    models: tuple[ModelView, ...]
    side_colours: dict[str, tuple[int, int, int]]
    unit_name: str = "in"
    version: int = 0
    #: ``unit_name``s per inch (a ruleset measured in cm: 2.0)
    unit_per_inch: float = 1.0

    def length(self, inches: float, fmt: str = ".1f") -> str:
        """A table length as the rules write it: 3.5" or 7.0 cm."""
        return length_text(inches, self.unit_name, self.unit_per_inch, fmt)

    @cached_property
    def index(self) -> dict[str, ModelView]:
        """Models by id (built once per view)."""
        return {m.id: m for m in self.models}


@dataclass
class MovePreview:
    """A move being dragged: path, measured length, allowance, legality."""

    actor: str
    path: list[Point]
    length: float
    legal: bool
    reason: str = ""
    remaining: float | None = None
    allowance: float | None = None
    ghost: tuple[float, float, float, Base] | None = None
    charge_target: str = ""
    chance: float | None = None
    lines: list[str] = field(default_factory=list)


@dataclass
class TargetMark:
    """How an enemy reads as a target for the chosen action (see controls.classify)."""

    cls: str  # valid | cover | hidden | arc | range | illegal
    label: str
    fraction: float | None = None


@dataclass
class OddsCard:
    """The odds of the hovered action, drawn next to the target."""

    anchor: Point
    title: str
    chance: float | None
    dist: list[tuple[int, float]] = field(default_factory=list)
    expected: float | None = None
    lines: list[str] = field(default_factory=list)
    #: True when the card shows the rules' refusal (``lines``) instead of odds
    refused: bool = True


@dataclass
class DiceRow:
    """One side of a contested roll (a Gemini Combat Score fight): who, its dice as they
    stand, which of them a parry made it re-roll, and how its score adds up."""

    label: str
    faces: list[int]
    rerolled: list[int] = field(default_factory=list)
    score: str = ""


@dataclass
class DiceAnim:
    """A short roll animation: the faces, the die sizes and how far it has got (0..1);
    a contest (``rows``) is drawn as one row of dice per side with its score instead."""

    faces: list[int]
    sides: list[int]
    t: float = 0.0
    caption: str = ""
    good: bool | None = None
    rows: list[DiceRow] = field(default_factory=list)


def contest_rows(contest: Sequence[Mapping[str, Any]], name: Callable[[str], str]) -> list[DiceRow]:
    """The rows of an event's ``data["contest"]`` (each side: ``model``, ``dice``,
    ``parried`` indices, ``sum``, ``score``), models named as the window names them."""
    return [
        DiceRow(
            name(str(c.get("model", ""))),
            [int(f) for f in c.get("dice", [])],
            [int(k) for k in c.get("parried", [])],
            f"{c.get('sum', '')} = {c.get('score', '')}".strip(" ="),
        )
        for c in contest
    ]


@dataclass
class Overlays:
    """All overlays of one frame; empty defaults draw nothing."""

    selected: str = ""
    unit_selected: tuple[str, ...] = ()
    hover: str = ""
    move: MovePreview | None = None
    turn_ghost: tuple[float, float, float, Base] | None = None
    targets: dict[str, TargetMark] = field(default_factory=dict)
    sight_lines: list[tuple[Point, Point, str]] = field(default_factory=list)
    shadow: list[Polygon] = field(default_factory=list)
    arc: Polygon | None = None
    template: tuple[Point, float, float] | None = None
    zones: dict[str, list[Polygon]] = field(default_factory=dict)
    turn_arcs: list[list[Point]] = field(default_factory=list)
    #: the outline of where the selected model may move now
    reach: Polygon = field(default_factory=list)
    odds: OddsCard | None = None
    note: tuple[Point, str, bool] | None = None
    dice: DiceAnim | None = None
    moving: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    unit_links: bool = True
    #: the selected model's sight (centre, radius in inches), where the rules limit it
    sight_circle: tuple[Point, float] | None = None
    #: work running off the frame (marks being measured, the computer thinking): the
    #: table shows its last good picture with this marker (issue 24)
    busy: str = ""
