"""Draw the app's icons (static/icons/*.png) with the standard library only: `python scripts/make_icons.py`.

A white score card with a tally of five on the app's blue (app.css --accent). Each pixel is worked out
from the shapes' signed distances (antialiased, no supersampling), and written as an RGBA PNG with zlib.
The same run gives the same bytes: tests/test_pwa.py checks the committed files are these.
"""
from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

BLUE, WHITE, INK, RED = (11, 83, 148), (255, 255, 255), (17, 17, 17), (165, 14, 14)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
# name: (size in pixels, full-bleed background, how much of the 512-unit drawing the content fills)
ICONS = {"icon-192.png": (192, False, 1.0), "icon-512.png": (512, False, 1.0),
         "maskable-512.png": (512, True, 0.78), "apple-touch-icon.png": (180, True, 0.86)}


def box(px, py, cx, cy, hw, hh, r):
    """Signed distance from (px, py) to a rounded rectangle centred at (cx, cy)."""
    qx, qy = abs(px - cx) - hw + r, abs(py - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def segment(px, py, ax, ay, bx, by, r):
    """Signed distance from (px, py) to a stroke of half-width r from (ax, ay) to (bx, by)."""
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy) - r


def shapes(scale):
    """The drawing in 512 units around the centre, content scaled by `scale`: [(colour, distance function)]."""
    def s(v):
        return 256 + (v - 256) * scale

    strokes = [(lambda x, y, k=k: segment(x, y, s(190 + 44 * k), s(190), s(190 + 44 * k), s(330), 11 * scale), INK)
               for k in range(4)]
    return [(lambda x, y: box(x, y, 256, 256, 120 * scale, 160 * scale, 26 * scale), WHITE), *strokes,
            (lambda x, y: segment(x, y, s(164), s(318), s(348), s(204), 12 * scale), RED)]


def draw(size: int, bleed: bool, scale: float) -> bytes:
    unit = 512 / size
    layers = shapes(scale)
    rows = []
    for j in range(size):
        row = bytearray([0])  # PNG filter: none
        y = (j + 0.5) * unit
        for i in range(size):
            x = (i + 0.5) * unit
            a = 1.0 if bleed else max(0.0, min(1.0, 0.5 - box(x, y, 256, 256, 256, 256, 112) / unit))
            c = BLUE
            for fn, colour in layers:
                cover = max(0.0, min(1.0, 0.5 - fn(x, y) / unit))
                if cover:
                    c = tuple(p * (1 - cover) + q * cover for p, q in zip(c, colour))
            row += bytes((round(c[0]), round(c[1]), round(c[2]), round(a * 255)))
        rows.append(bytes(row))
    return png(size, b"".join(rows))


def png(size: int, raw: bytes) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (size, bleed, scale) in ICONS.items():
        (out / name).write_bytes(draw(size, bleed, scale))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
