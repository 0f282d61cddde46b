"""Reading back the QR codes the page draws (web/js/features/together/qr.js) with zxing-cpp, a
decoder of its own: a matrix of modules (rows of "0" and "1"), or the SVG path the page draws
of it, is painted into a grey image with its quiet zone, as a camera would see it, and decoded."""

from __future__ import annotations

import re

import zxingcpp

PATH_RUN = re.compile(r"M(\d+) (\d+)h(\d+)v1h-\3z")


def rows_of_path(path: str, modules: int, quiet: int) -> list[str]:
    """The matrix an SVG path of web/js/features/together/qr.js draws: one
    "M<col> <row>h<n>v1h-<n>z" per run of dark modules, in modules with the quiet zone; anything
    else in it is an error."""
    grid = [["0"] * modules for _ in range(modules)]
    runs = PATH_RUN.findall(path)
    assert "".join(m.group(0) for m in PATH_RUN.finditer(path)) == path, "not a path of runs"
    for col, row, length in runs:
        r, c = int(row) - quiet, int(col) - quiet
        assert 0 <= r < modules and 0 <= c and c + int(length) <= modules, "outside the code"
        for x in range(c, c + int(length)):
            grid[r][x] = "1"
    return ["".join(row) for row in grid]


def decode(rows: list[str], quiet: int = 4, scale: int = 4) -> list[zxingcpp.Barcode]:
    """The QR codes zxing-cpp finds in ``rows`` drawn ``scale`` pixels a module, black on white,
    with ``quiet`` modules of white around."""
    side = (len(rows) + 2 * quiet) * scale
    pixels = bytearray(b"\xff") * (side * side)
    for r, row in enumerate(rows):
        for c, module in enumerate(row):
            if module == "1":
                for y in range(scale):
                    at = ((r + quiet) * scale + y) * side + (c + quiet) * scale
                    pixels[at : at + scale] = b"\x00" * scale
    image = memoryview(bytes(pixels)).cast("B", shape=[side, side])
    return [
        found
        for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        if found.valid
    ]
