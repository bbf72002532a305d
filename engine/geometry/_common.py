"""Shared units, tolerances and trig of the geometry service (no shapely objects here).

Why apart: every other geometry module needs the same exact-on-the-axes trig and the
same tolerances; keeping them in one place keeps the modules agreeing to the last bit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Point = tuple[float, float]


#: Vertices of the polygon drawing a round base's hidden part (drawing only).
_OUTLINE_VERTICES = 64


#: Sample points per target base for area terrain (equal-area, deterministic).
SIGHT_SAMPLES = 64


#: Slack on the area-terrain depth so that float noise cannot flip a sample at exactly 2".
_DEPTH_EPS = 1e-9


#: Contact tolerance (inches) for zones: a base touching a zone's line is inside the zone.
ZONE_TOL = 1e-6


#: A touching-but-not-overlapping tolerance for bases against terrain polygons.
_TOUCH_TOL = 1e-9


#: Share reported for a base that a template merely touches (DESIGN: touched = under it).
_MIN_TEMPLATE_SHARE = 1e-4


#: Snap-rounding grid (inches) for shapely overlays of shadows. Floating overlays can drop
#: a polygon whose vertices nearly coincide with another's (GEOS unaryUnion, see
#: libgeos/geos#965 and #1383), which shadows built edge by edge produce all the time;
#: a fixed-precision overlay is robust and 1e-12" changes no area measurably.
_GRID = 1e-12


#: An eye this close (inches) to a tall feature counts as inside it (see ``_eye_in``).
_EYE_TOL = 1e-9


_GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))


_AREA_CLASSES = ("area",)


_BLOCK_CLASSES = ("tall", "elevation")


def _cos_sin(deg: float) -> tuple[float, float]:
    """cos/sin of an angle in degrees, exact on the axes (so a quarter turn lands on 6.0,
    not 5.999999999999999, and tests can compare coordinates exactly)."""
    r = deg % 360.0
    if r == 0.0:
        return 1.0, 0.0
    if r == 90.0:
        return 0.0, 1.0
    if r == 180.0:
        return -1.0, 0.0
    if r == 270.0:
        return 0.0, -1.0
    rad = math.radians(r)
    return math.cos(rad), math.sin(rad)


def _cos_sin_np(deg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vectorized :func:`_cos_sin` (same exact axis values)."""
    m = np.mod(np.asarray(deg, dtype=float), 360.0)
    rad = np.radians(m)
    c, s = np.cos(rad), np.sin(rad)
    for val, cv, sv in ((0.0, 1.0, 0.0), (90.0, 0.0, 1.0), (180.0, -1.0, 0.0), (270.0, 0.0, -1.0)):
        mask = m == val
        c[mask] = cv
        s[mask] = sv
    return c, s


def _norm_deg(deg: float) -> float:
    """Angle in [0, 360); guards the float case where ``-1e-17 % 360 == 360.0``."""
    r = deg % 360.0
    return 0.0 if r >= 360.0 else r + 0.0


Num = float | np.ndarray


def _cross(ax: Num, ay: Num, bx: Num, by: Num) -> Any:
    """z of the cross product (a x b), for floats and arrays alike (a float for floats,
    an array for arrays: ``Any``, as numpy's operators are typed)."""
    return ax * by - ay * bx


def _unit(x: np.ndarray, lo: float = 0.0) -> np.ndarray:
    """``np.clip(x, lo, 1)`` in place, as two ufuncs: the same numbers without clip's
    Python-level overhead (it runs a few times in every sight pass)."""
    np.maximum(x, lo, out=x)
    return np.minimum(x, 1.0, out=x)
