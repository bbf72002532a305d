"""Colours and sizes shared by the renderer and the widgets.

Why one module: the pixel tests check that a model's centre has its side colour and that
a terrain kind has its own colour at a known point; both read these tables rather than
repeating numbers.
"""

from __future__ import annotations

from pathlib import Path

RGB = tuple[int, int, int]

BACKGROUND: RGB = (24, 27, 33)
FELT: RGB = (92, 116, 70)
FELT_DARK: RGB = (80, 103, 60)
FELT_LIGHT: RGB = (104, 129, 79)
TABLE_EDGE: RGB = (52, 40, 30)
GRID: RGB = (86, 109, 65)

#: Terrain kind -> (fill, edge, detail) colours. Every kind differs from its neighbours in
#: hue or lightness so it is told apart at a glance, and the detail drawing (trees,
#: stripes, posts, waves) tells the rest.
TERRAIN: dict[str, tuple[RGB, RGB, RGB]] = {
    "hill": ((146, 150, 96), (108, 112, 66), (122, 127, 78)),
    "woods": ((62, 104, 52), (38, 72, 34), (44, 84, 40)),
    "heavy_woods": ((34, 70, 38), (18, 44, 22), (22, 52, 28)),
    "brush": ((122, 136, 70), (92, 106, 48), (84, 100, 44)),
    "wheat_field": ((214, 184, 96), (172, 140, 62), (184, 152, 70)),
    "rough": ((134, 116, 86), (98, 84, 62), (104, 90, 66)),
    "rubble": ((128, 122, 114), (86, 82, 78), (92, 88, 84)),
    "water": ((56, 102, 160), (36, 70, 120), (104, 150, 200)),
    "river": ((64, 116, 176), (40, 80, 130), (120, 166, 214)),
    "stream": ((112, 168, 206), (70, 124, 164), (170, 206, 230)),
    "road": ((178, 156, 118), (140, 120, 88), (158, 136, 100)),
    "building": ((150, 88, 66), (64, 38, 28), (122, 68, 50)),
    "wall": ((104, 104, 112), (40, 40, 46), (80, 80, 88)),
    "rocks": ((122, 120, 114), (60, 58, 56), (156, 154, 146)),
    "hedge": ((42, 94, 44), (22, 58, 24), (60, 122, 58)),
    "fence": ((150, 108, 64), (96, 66, 36), (120, 84, 48)),
    "low_wall": ((178, 172, 156), (108, 104, 94), (140, 136, 124)),
}

#: The order terrain is painted in: ground first, then what stands on it.
KIND_ORDER: tuple[str, ...] = (
    "hill",
    "water",
    "river",
    "stream",
    "road",
    "rough",
    "rubble",
    "wheat_field",
    "brush",
    "woods",
    "heavy_woods",
    "hedge",
    "fence",
    "low_wall",
    "rocks",
    "wall",
    "building",
)

#: Side colours: a side named after a colour gets that colour, others take the palette.
NAMED_SIDES: dict[str, RGB] = {
    "blue": (58, 112, 222),
    "red": (214, 58, 52),
    "green": (40, 170, 90),
    "yellow": (232, 196, 40),
    "gold": (224, 176, 40),
    "orange": (236, 128, 36),
    "purple": (146, 76, 204),
    "white": (236, 236, 232),
    "black": (44, 44, 52),
    "grey": (150, 150, 156),
    "gray": (150, 150, 156),
    "brown": (140, 92, 52),
}
PALETTE: tuple[RGB, ...] = (
    (58, 112, 222),
    (214, 58, 52),
    (236, 128, 36),
    (146, 76, 204),
    (40, 170, 90),
    (232, 196, 40),
    (60, 190, 200),
    (210, 90, 170),
)


def side_colours(sides: list[str]) -> dict[str, RGB]:
    """A distinct colour for each side, honouring colour names (blue, red, ...)."""
    out: dict[str, RGB] = {}
    used: set[RGB] = set()
    for s in sides:
        c = NAMED_SIDES.get(s.lower())
        if c is not None and c not in used:
            out[s] = c
            used.add(c)
    free = [c for c in PALETTE if c not in used]
    for s in sides:
        if s not in out:
            out[s] = free.pop(0) if free else PALETTE[len(out) % len(PALETTE)]
    return out


def shade(c: RGB, f: float) -> RGB:
    """Darken (f < 1) or lighten (f > 1) a colour."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f))
    g = f - 1
    return (
        int(c[0] + (255 - c[0]) * g),
        int(c[1] + (255 - c[1]) * g),
        int(c[2] + (255 - c[2]) * g),
    )


def mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


#: Target classes (controls.classify) -> ring colour.
TARGET_COLOURS: dict[str, RGB] = {
    "valid": (96, 232, 112),
    "cover": (246, 206, 64),
    "hidden": (160, 160, 168),
    "arc": (196, 128, 240),
    "range": (240, 120, 72),
    "illegal": (232, 72, 72),
}
#: Sight-line bands.
SIGHT_COLOURS: dict[str, RGB] = {
    "clear": (120, 236, 128),
    "soft": (246, 214, 84),
    "hard": (246, 150, 60),
    "blocked": (228, 76, 76),
}
ZONE_COLOURS: dict[str, RGB] = {
    "front": (96, 200, 120),
    "flank": (236, 200, 70),
    "rear": (230, 84, 72),
}
SELECT: RGB = (255, 226, 92)
HOVER: RGB = (245, 245, 245)
GOOD: RGB = (120, 236, 128)
BAD: RGB = (240, 96, 88)
INK: RGB = (236, 236, 228)
PANEL: RGB = (30, 34, 42)


def hexc(c: RGB) -> str:
    """'#rrggbb' for pygame_gui's <font color=...>."""
    return f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}"


def font_path(bold: bool = False) -> str:
    """Noto Sans from pygame_gui's own data: the same face as the widgets, and it has the
    arrows, dashes and degree signs the table's labels use (pygame's default font shows
    a box for "→")."""
    import pygame_gui

    name = "NotoSans-Bold.ttf" if bold else "NotoSans-Regular.ttf"
    return str(Path(pygame_gui.__file__).resolve().parent / "data" / name)
