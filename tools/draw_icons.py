#!/usr/bin/env python3
"""Draw the PNG icons of the web app manifest into web/icons/, and web/favicon.ico (committed
files).

    python3 tools/draw_icons.py

Installable pages need raster icons of 192 and 512 pixels; these are drawn from the same
shapes as web/icons/icon.svg: a green tile, two cards, a heart. Signed distances give
anti-aliased edges without supersampling. Edge coverage is rounded to EDGE_LEVELS steps, so an
icon has a few dozen colours and is written as a palette PNG (colour type 3, with a tRNS chunk
for the rounded corners): under a quarter of the bytes of truecolour with alpha, and no visible
difference. favicon.ico holds one 32-pixel PNG of the same drawing: browsers ask a site's root
for it whenever a document (a JSON file, say) names no icon. Run it again after changing a
shape or a colour here or in icon.svg.
Standard library only.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "web" / "icons"
SIZES = ((192, "any"), (512, "any"), (512, "maskable"))
FAVICON = ICONS.parent / "favicon.ico"
FAVICON_SIZE = 32
EDGE_LEVELS = 4

GREEN = (0x1F, 0x4D, 0x3A)
PAPER = (0xFD, 0xFB, 0xF5)
EDGE = (0xC9, 0xC2, 0xAD)
RED = (0xC0, 0x39, 0x2B)

Pixel = tuple[int, int, int, int]


def icon_name(size: int, purpose: str) -> str:
    return f"icon-{size}{'-maskable' if purpose == 'maskable' else ''}.png"


def png(width: int, height: int, pixels: list[Pixel]) -> bytes:
    """An 8-bit palette PNG of RGBA ``pixels`` (row by row; at most 256 colours)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    palette: dict[Pixel, int] = {}
    for pixel in pixels:
        palette.setdefault(pixel, len(palette))
    if len(palette) > 256:
        raise ValueError(f"an icon has {len(palette)} colours, more than a palette holds")
    # Opaque colours last, so tRNS (alpha of the first entries) can stop before them.
    colours = sorted(palette, key=lambda c: (c[3] == 255, palette[c]))
    index = {colour: i for i, colour in enumerate(colours)}
    raw = b"".join(
        b"\0" + bytes(index[p] for p in pixels[y * width : (y + 1) * width]) for y in range(height)
    )
    alphas = bytes(c[3] for c in colours).rstrip(b"\xff")
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0))
        + chunk(b"PLTE", b"".join(bytes(c[:3]) for c in colours))
        + (chunk(b"tRNS", alphas) if alphas else b"")
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance from (px, py) to a rounded rectangle (negative inside)."""
    qx, qy = abs(px - cx) - (hw - r), abs(py - cy) - (hh - r)
    outside = (max(qx, 0.0) ** 2 + max(qy, 0.0) ** 2) ** 0.5
    return outside + min(max(qx, qy), 0.0) - r


def rotate(px: float, py: float, cx: float, cy: float, degrees: float) -> tuple[float, float]:
    a = math.radians(-degrees)
    dx, dy = px - cx, py - cy
    return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)


def heart(px: float, py: float) -> float:
    """Signed distance (roughly) to a heart centred near (38, 32.5), as in icon.svg."""
    cx, cy, s = 38.0, 32.0, 4.2
    x, y = (px - cx) / s, (py - cy) / s
    lobes = min(math.hypot(x + 0.9, y + 0.1), math.hypot(x - 0.9, y + 0.1)) - 1.05
    rx, ry = rotate(x, y - 0.55, 0.0, 0.0, 45.0)
    point = box(rx, ry, 0.0, 0.0, 1.1, 1.1, 0.15)
    return min(lobes, point) * s


def coverage(distance: float) -> float:
    """How much of a pixel a shape covers, from its signed distance in pixels, rounded."""
    cover = min(max(0.5 - distance, 0.0), 1.0)
    return round(cover * EDGE_LEVELS) / EDGE_LEVELS


def draw_icon(size: int, purpose: str) -> bytes:
    # The SVG is 64 units wide; a maskable icon keeps its content in the central 80%.
    scale = size / 64.0 if purpose == "any" else size / 64.0 * 0.8
    offset = 0.0 if purpose == "any" else size * 0.1
    unit = 1.0 / scale  # one pixel in SVG units: the width of an anti-aliased edge
    pixels: list[Pixel] = []
    for j in range(size):
        for i in range(size):
            x, y = (i + 0.5 - offset) / scale, (j + 0.5 - offset) / scale
            if purpose == "any":
                alpha = coverage(box(x, y, 32, 32, 32, 32, 14) / unit)
            else:
                alpha = 1.0  # maskable: full bleed, the platform crops it to its own shape
            if not alpha:
                pixels.append((0, 0, 0, 0))
                continue
            color: list[float] = list(GREEN)
            layers = []
            for cx, cy, angle in ((27.0, 30.0, -10.0), (38.0, 34.0, 8.0)):
                rx, ry = rotate(x, y, cx, cy, angle)
                d = box(rx, ry, cx, cy, 13.0, 18.0, 4.0)
                layers.append((EDGE, d - 0.75))
                layers.append((PAPER, d + 0.75))
                if angle > 0:
                    layers.append((RED, heart(rx, ry)))
            for paint, d in layers:
                cover = coverage(d / unit)
                if cover:
                    color = [c + (p - c) * cover for c, p in zip(color, paint, strict=True)]
            red, green, blue = (round(c) for c in color)
            pixels.append((red, green, blue, round(alpha * 255)))
    return png(size, size, pixels)


def ico(size: int, image: bytes) -> bytes:
    """An ICO file holding one PNG image of ``size`` pixels (ICONDIR, one ICONDIRENTRY)."""
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), 6 + 16)
    return header + entry + image


def main() -> int:
    for size, purpose in SIZES:
        path = ICONS / icon_name(size, purpose)
        path.write_bytes(draw_icon(size, purpose))
        print(f"wrote {path.relative_to(ICONS.parent.parent)} ({path.stat().st_size} bytes)")
    FAVICON.write_bytes(ico(FAVICON_SIZE, draw_icon(FAVICON_SIZE, "any")))
    print(f"wrote {FAVICON.relative_to(ICONS.parent.parent)} ({FAVICON.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
