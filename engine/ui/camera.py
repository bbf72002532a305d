"""Table inches <-> screen pixels: pan and zoom over a fixed ladder of scales.

Why discrete zoom levels and an integer pixel origin: the static terrain layer is cached
as tiles per zoom level (draw.TerrainTiles). Tiles only line up without seams when the
table's top-left corner sits on a whole pixel and the scale is one of a few values that
can each keep their own tiles. The y axis is flipped here once (the table's y grows north,
the screen's grows down), so nothing else needs to think about it.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]

#: Pixels per inch, from a whole 6x4 ft table in a small window to one base filling it.
ZOOM_LEVELS: tuple[float, ...] = tuple(round(4.0 * 2 ** (k / 12), 3) for k in range(0, 66))


@dataclass
class Camera:
    """Maps world inches to screen pixels inside ``view`` (x, y, w, h) on the window.

    ``ox``/``oy`` are the screen offset (relative to the view) of the table's top-left
    corner, kept integral; ``level`` indexes :data:`ZOOM_LEVELS`.
    """

    table_w: float
    table_h: float
    view: tuple[int, int, int, int]
    level: int = 18
    ox: int = 0
    oy: int = 0

    @property
    def scale(self) -> float:
        """Pixels per inch at the current zoom level."""
        return ZOOM_LEVELS[self.level]

    # --- conversions ------------------------------------------------------------------
    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        s = self.scale
        return (self.view[0] + self.ox + x * s, self.view[1] + self.oy + (self.table_h - y) * s)

    def to_screen_i(self, x: float, y: float) -> tuple[int, int]:
        sx, sy = self.to_screen(x, y)
        return (int(round(sx)), int(round(sy)))

    def to_world(self, sx: float, sy: float) -> Point:
        s = self.scale
        return ((sx - self.view[0] - self.ox) / s, self.table_h - (sy - self.view[1] - self.oy) / s)

    def length(self, inches: float) -> float:
        """A distance in inches as pixels."""
        return inches * self.scale

    def in_view(self, sx: float, sy: float) -> bool:
        x, y, w, h = self.view
        return x <= sx < x + w and y <= sy < y + h

    def visible_world(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax) in inches of the part of the world the view shows."""
        x, y, w, h = self.view
        x0, y1 = self.to_world(x, y)
        x1, y0 = self.to_world(x + w, y + h)
        return (x0, y0, x1, y1)

    # --- moving the camera --------------------------------------------------------------
    def fit(self) -> None:
        """The largest zoom level at which the whole table fits the view, centred."""
        _, _, w, h = self.view
        level = 0
        for i, s in enumerate(ZOOM_LEVELS):
            if self.table_w * s <= w - 16 and self.table_h * s <= h - 16:
                level = i
        self.level = level
        self.centre_on(self.table_w / 2, self.table_h / 2)

    def centre_on(self, x: float, y: float) -> None:
        _, _, w, h = self.view
        s = self.scale
        self.ox = int(round(w / 2 - x * s))
        self.oy = int(round(h / 2 - (self.table_h - y) * s))
        self._clamp()

    def pan(self, dx: float, dy: float) -> None:
        """Move the table by (dx, dy) screen pixels."""
        self.ox += int(round(dx))
        self.oy += int(round(dy))
        self._clamp()

    def zoom(self, steps: int, anchor: tuple[float, float] | None = None) -> bool:
        """Zoom in (steps > 0) or out keeping the world point under ``anchor`` fixed."""
        new = max(0, min(len(ZOOM_LEVELS) - 1, self.level + steps))
        if new == self.level:
            return False
        vx, vy, w, h = self.view
        ax, ay = anchor if anchor is not None else (vx + w / 2, vy + h / 2)
        wx, wy = self.to_world(ax, ay)
        self.level = new
        s = self.scale
        self.ox = int(round(ax - vx - wx * s))
        self.oy = int(round(ay - vy - (self.table_h - wy) * s))
        self._clamp()
        return True

    def set_view(self, view: tuple[int, int, int, int]) -> None:
        """The window was resized: keep the world point at the view's centre."""
        old = self.to_world(self.view[0] + self.view[2] / 2, self.view[1] + self.view[3] / 2)
        self.view = view
        self.centre_on(*old)

    def _clamp(self) -> None:
        """Keep at least a quarter of the view showing table, so it cannot be lost."""
        _, _, w, h = self.view
        s = self.scale
        tw, th = self.table_w * s, self.table_h * s
        margin_x, margin_y = w * 0.75, h * 0.75
        self.ox = int(max(min(self.ox, margin_x), w - margin_x - tw))
        self.oy = int(max(min(self.oy, margin_y), h - margin_y - th))
