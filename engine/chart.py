"""Small PNG charts without a plotting library: numpy pixels, a 5x7 bitmap font, and a
PNG writer (zlib). Why: headless batch runs must not load the window's pygame, and the
charts we need (bars with labels, a scatter with a line) are simple.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

_FONT = {
    "0": "01110100011001110101110011000101110",
    "1": "00100011000010000100001000010001110",
    "2": "01110100010000100010001000100011111",
    "3": "11111000100010000010000011000101110",
    "4": "00010001100101010010111110001000010",
    "5": "11111100001111000001000011000101110",
    "6": "00110010001000011110100011000101110",
    "7": "11111000010001000100010000100001000",
    "8": "01110100011000101110100011000101110",
    "9": "01110100011000101111000010001001100",
    "A": "01110100011000111111100011000110001",
    "B": "11110100011000111110100011000111110",
    "C": "01110100011000010000100001000101110",
    "D": "11100100101000110001100011001011100",
    "E": "11111100001000011110100001000011111",
    "F": "11111100001000011110100001000010000",
    "G": "01110100011000010111100011000101111",
    "H": "10001100011000111111100011000110001",
    "I": "01110001000010000100001000010001110",
    "J": "00111000100001000010000101001001100",
    "K": "10001100101010011000101001001010001",
    "L": "10000100001000010000100001000011111",
    "M": "10001110111010110101100011000110001",
    "N": "10001100011100110101100111000110001",
    "O": "01110100011000110001100011000101110",
    "P": "11110100011000111110100001000010000",
    "Q": "01110100011000110001101011001001101",
    "R": "11110100011000111110101001001010001",
    "S": "01111100001000001110000010000111110",
    "T": "11111001000010000100001000010000100",
    "U": "10001100011000110001100011000101110",
    "V": "10001100011000110001100010101000100",
    "W": "10001100011000110101101011010101010",
    "X": "10001100010101000100010101000110001",
    "Y": "10001100011000101010001000010000100",
    "Z": "11111000010001000100010001000011111",
    " ": "0" * 35,
    ".": "00000000000000000000000000110001100",
    "-": "00000000000000011111000000000000000",
    ":": "00000011000110000000011000110000000",
    "%": "11000110010001000100010001001100011",
    "/": "00000000010001000100010001000000000",
    "(": "00010001000100001000010000010000010",
    ")": "01000001000001000010000100010001000",
    "=": "00000000001111100000111110000000000",
    "+": "00000001000010011111001000010000000",
    ",": "00000000000000000000001100010001000",
    "_": "00000000000000000000000000000011111",
}


def text(img: np.ndarray, x: int, y: int, s: str, color=(30, 30, 30), scale: int = 2) -> int:
    """Draw ``s`` (upper-cased) with its top-left at (x, y); returns the end x."""
    for ch in s.upper():
        g = _FONT.get(ch, _FONT[" "])
        for i, bit in enumerate(g):
            if bit == "1":
                r, c = divmod(i, 5)
                y0, x0 = y + r * scale, x + c * scale
                img[y0 : y0 + scale, x0 : x0 + scale] = color
        x += 6 * scale
    return x


def text_width(s: str, scale: int = 2) -> int:
    return len(s) * 6 * scale


def write_png(path: str | Path, img: np.ndarray) -> None:
    """Write an RGB uint8 array (h, w, 3) as a PNG file."""
    h, w, _ = img.shape
    raw = b"".join(b"\x00" + img[r].astype(np.uint8).tobytes() for r in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + tag
            + data
            + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_bytes(png)


PALETTE = [(52, 101, 164), (204, 0, 0), (115, 210, 22), (245, 121, 0), (117, 80, 123)]


def bar_chart(
    path: str | Path,
    title: str,
    labels: Sequence[str],
    values: Sequence[float],
    errors: Sequence[tuple[float, float]] | None = None,
    unit: str = "%",
    vmax: float = 100.0,
) -> None:
    """Vertical bars with optional error bars (low, high), value labels and a title."""
    w, h = 120 + 150 * len(labels), 420
    img = np.full((h, w, 3), 250, np.uint8)
    text(img, 20, 14, title, scale=2)
    top, bottom, left = 60, h - 60, 60
    img[top:bottom, left] = (120, 120, 120)
    img[bottom, left : w - 20] = (120, 120, 120)
    for frac in (0.25, 0.5, 0.75, 1.0):
        y = int(bottom - frac * (bottom - top))
        img[y, left + 1 : w - 20] = (225, 225, 225)
        text(img, 8, y - 6, f"{frac * vmax:.0f}", scale=1)
    for i, (lab, v) in enumerate(zip(labels, values)):
        x0 = left + 30 + i * 150
        y = int(bottom - min(v, vmax) / vmax * (bottom - top))
        img[y:bottom, x0 : x0 + 90] = PALETTE[i % len(PALETTE)]
        if errors:
            lo, hi = errors[i]
            ylo = int(bottom - lo / vmax * (bottom - top))
            yhi = int(bottom - hi / vmax * (bottom - top))
            img[yhi : ylo + 1, x0 + 44 : x0 + 46] = (20, 20, 20)
            img[yhi, x0 + 38 : x0 + 52] = (20, 20, 20)
            img[ylo, x0 + 38 : x0 + 52] = (20, 20, 20)
        text(img, x0, max(top, y - 22), f"{v:.1f}{unit}", scale=2)
        text(img, x0, bottom + 10, lab[:14], scale=2)
    write_png(path, img)


def scatter_chart(
    path: str | Path,
    title: str,
    xs: Sequence[float],
    ys: Sequence[float],
    line: Sequence[tuple[float, float]] = (),
    xlabel: str = "",
    ylabel: str = "",
) -> None:
    """Points (x, y) in the unit square of their ranges, plus an optional polyline."""
    w, h = 640, 480
    img = np.full((h, w, 3), 250, np.uint8)
    text(img, 20, 12, title, scale=2)
    left, right, top, bottom = 70, w - 20, 50, h - 50
    img[top:bottom, left] = (120, 120, 120)
    img[bottom, left:right] = (120, 120, 120)
    allx = list(xs) + [p[0] for p in line]
    ally = list(ys) + [p[1] for p in line]
    x0, x1 = min(allx), max(allx)
    y0, y1 = min(ally + [0.0]), max(ally + [1.0])
    x1 = x1 if x1 > x0 else x0 + 1

    def px(x: float, y: float) -> tuple[int, int]:
        return (
            int(left + (x - x0) / (x1 - x0) * (right - left - 1)),
            int(bottom - 1 - (y - y0) / (y1 - y0) * (bottom - top - 1)),
        )

    for x, y in zip(xs, ys):
        cx, cy = px(x, y)
        img[max(0, cy - 2) : cy + 3, max(0, cx - 2) : cx + 3] = PALETTE[0]
    for (xa, ya), (xb, yb) in zip(line, line[1:]):
        ax, ay = px(xa, ya)
        bx, by = px(xb, yb)
        n = max(abs(bx - ax), abs(by - ay), 1)
        for t in range(n + 1):
            img[int(ay + (by - ay) * t / n), int(ax + (bx - ax) * t / n)] = PALETTE[1]
    text(img, left, bottom + 12, f"{x0:.2g}", scale=1)
    text(img, right - 30, bottom + 12, f"{x1:.2g}", scale=1)
    text(img, 5, bottom - 8, f"{y0:.2g}", scale=1)
    text(img, 5, top, f"{y1:.2g}", scale=1)
    text(img, (left + right) // 2 - text_width(xlabel, 1) // 2, bottom + 28, xlabel, scale=1)
    text(img, 5, top - 16, ylabel, scale=1)
    write_png(path, img)
