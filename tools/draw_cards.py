#!/usr/bin/env python3
"""Draw the card faces into web/cards/deck.svg (a committed file): one SVG sprite of
<symbol>s that web/js/ui/card-art.js puts into the page once it has loaded.

    python3 tools/draw_cards.py

The court figures (jack, queen, king of each suit) and the two jokers are Adrian Kennard's
public-domain (CC0) designs, as published in the npm package @letele/playing-cards (pinned in
tools/package.json; its licence is web/licenses/playing-cards.txt). That package holds them as
React components: this tool runs its module under Node.js with a stand-in for React that writes
SVG text, then keeps the pictures only. Everything else is drawn here: the pips, laid out as on
a real deck (columns, rows, the lower half's pips upside down), the suit symbols and the suit
letters of the four-colour deck. The corner indices are not in the sprite: the page draws them
as text (web/css/cards.css), large enough to read in a fanned hand and there before the art.

Each face is a symbol of viewBox 0 0 240 336 (a card 5 by 7), drawn in `currentColor` where it
takes the suit's colour, so the page's colour for a suit (two or four colours) applies to pips,
letters and the suit marks of the court pictures alike. Numbers are rounded to one decimal: at
the largest card drawn (about 120 px wide) a unit of the court pictures is a tenth of a pixel.
Run it again after changing the drawing here or the pinned package.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build.node import ensure_tools, node  # noqa: E402

OUT = ROOT / "web" / "cards" / "deck.svg"
PACKAGE = "@letele/playing-cards"
SUITS = "SHDC"
COURTS = "JQK"
W, H = 240, 336

# Renders every component of the package's module to SVG text: {"Hk": "<svg ...>", ...}.
RENDER = r"""
const CAMEL = new Set(["viewBox", "preserveAspectRatio", "patternUnits"]);
const name = (k) => k === "className" ? "class" : k === "xlinkHref" ? "href"
  : CAMEL.has(k) ? k : k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
const React = {
  createElement(tag, props, ...kids) {
    const attrs = Object.entries(props || {})
      .filter(([k, v]) => v != null && !["aria-labelledby", "xmlns", "xmlnsXlink"].includes(k))
      .map(([k, v]) => ` ${name(k)}="${String(v)}"`).join("");
    return `<${tag}${attrs}>${kids.flat().filter((k) => k != null).join("")}</${tag}>`;
  },
};
const source = (await import("node:fs")).readFileSync(process.argv[1], "utf8")
  .replace(/^import _extends from .*$/m, "const _extends = Object.assign;")
  .replace(/^import \* as React from .*$/m, "")
  .replace(/^export \{[^}]*\};?\s*$/m, "");
const names = [...source.matchAll(/^const (Svg\w+) = /gm)].map((m) => m[1]);
const run = new Function("React", source + `\nreturn { ${names.join(", ")} };`);
const out = {};
for (const [key, make] of Object.entries(run(React))) out[key.slice(3)] = make({});  // SvgHK: HK
process.stdout.write(JSON.stringify(out));
"""


def rendered() -> dict[str, str]:
    """Each card of the pinned package as SVG text, by its name there ("HK", "J1")."""
    module = ensure_tools() / PACKAGE / "dist" / "index.esm.js"
    done = subprocess.run(
        [node(), "--input-type=module", "-e", RENDER, str(module)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)


def short(text: str) -> str:
    """Decimals to one place (three below ten: scales, small offsets), without the zero
    before a decimal point; whole numbers (ids, arc flags) as they are."""

    def one(match: re.Match[str]) -> str:
        value = float(match.group(0))
        out = f"{value:.{1 if abs(value) >= 10 else 3}f}".rstrip("0").rstrip(".")
        if out in ("-0", ""):
            out = "0"
        out = re.sub(r"^(-?)0\.", r"\1.", out)
        # "1.004.5" (two numbers) must not become "1.5": a whole number before a point ends.
        if "." not in out and match.string[match.end() : match.end() + 1] == ".":
            out += " "
        return out

    return re.sub(r"-?\d*\.\d+", one, text)


# Suit colours of the package's drawings (its suit marks) become the page's colour for the suit.
SUIT_FILLS = re.compile(r'(fill|stroke)="(red|#000)"')


def picture(card: str, svg: str, prefix: str) -> tuple[str, str]:
    """(defs, body) of a court or joker: the package's picture without its corner indices,
    its ids prefixed with ``prefix`` so that 14 pictures share one document."""
    svg = re.sub(r"<svg[^>]*>|</svg>", "", svg)
    defs_match = re.search(r"<defs>(.*)</defs>", svg, re.S)
    defs = defs_match.group(1) if defs_match else ""
    body = svg[defs_match.end() :] if defs_match else svg
    tag = re.escape(card[0] + "-" + card[1:]) + "_svg__"
    defs = re.sub(tag, prefix, defs)
    body = re.sub(tag, prefix, body)
    body = re.sub(r"<rect[^>]*></rect>", "", body, count=1)  # the card's outline: the page's
    # The corner indices: the rank letter (a stroked glyph) and the small suit under it, on
    # both halves; the page draws its own. The court's big suit mark in its frame stays.
    index = re.compile(r'<use href="#' + prefix + r'(\w)" height="(32|26\.769)"[^>]*></use>')
    body = index.sub("", body)
    glyphs = set(
        re.findall(r'<symbol id="' + prefix + r'(\w)" viewBox="-500 -500 1000 1000"', defs)
    )
    for glyph in glyphs:
        defs = re.sub(
            r'<symbol id="' + prefix + glyph + r'" viewBox="-500[^>]*>.*?</symbol>', "", defs
        )
    defs = re.sub(r' preserveAspectRatio="xMinYMid"', "", defs)
    defs = SUIT_FILLS.sub(r'\1="currentColor"', defs)
    body = SUIT_FILLS.sub(r'\1="currentColor"', body)
    return defs, body


# The suit symbols, in a box of -600..600 (the package's own shapes, the pips of its deck).
def suit_paths(cards: dict[str, str]) -> dict[str, str]:
    paths = {}
    for suit in SUITS:
        svg = cards[suit + "2"]
        found = re.search(r'viewBox="-600 -600 1200 1200"[^>]*><path d="([^"]+)"', svg)
        if not found:
            raise SystemExit(f"no suit symbol in the package's {suit}2")
        paths[suit] = found.group(1)
    return paths


# The suit letters of the four-colour deck: stroked glyphs in a box of -500..500.
LETTERS = {
    "S": "M300-330C250-440 160-460 60-460-150-460-270-370-270-230-270 70 300-60 300 210 "
    "300 360 170 460-20 460-170 460-270 400-310 310",
    "H": "M-260-460V460M260-460V460M-260 0H260",
    "D": "M-250-460V460H-40C190 460 290 290 290 0 290-290 190-460-40-460Z",
    "C": "M300-310C250-410 150-460 40-460-160-460-290-290-290 0-290 290-160 460 40 460 "
    "150 460 250 410 300 310",
}


# Where the pips go, column by row: (x, t), x a column (-1 left, 0 middle, 1 right), t from
# 0 (top row) to 1 (bottom row). Pips below the middle are drawn upside down.
LAYOUTS: dict[int, list[tuple[int, float]]] = {
    2: [(0, 0), (0, 1)],
    3: [(0, 0), (0, 0.5), (0, 1)],
    4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    6: [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    7: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    8: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    9: [(c, t) for c in (-1, 1) for t in (0, 1 / 3, 2 / 3, 1)] + [(0, 0.5)],
    10: [(c, t) for c in (-1, 1) for t in (0, 1 / 3, 2 / 3, 1)] + [(0, 1 / 6), (0, 5 / 6)],
}
PIP = 40  # a pip's box, in the face's units (240 wide)
COLUMN = 38  # from the middle to a side column's centre
TOP, BOTTOM = 80, 256  # the centres of the top and bottom rows
ACE = 120  # the ace's one big pip


def pip(suit: str, x: float, y: float, size: float, flip: bool) -> str:
    turn = f' transform="rotate(180 {x} {y})"' if flip else ""
    half = size / 2
    return (
        f'<use href="#s{suit}" x="{x - half}" y="{y - half}" width="{size}" height="{size}"{turn}/>'
    )


def pips(suit: str, rank: int) -> str:
    if rank == 1:
        return pip(suit, W / 2, H / 2, ACE, False)
    out = []
    for column, t in LAYOUTS[rank]:
        y = TOP + (BOTTOM - TOP) * t
        out.append(pip(suit, W / 2 + column * COLUMN, y, PIP, t > 0.5))
    return "".join(out)


# A court picture's box in the face: narrower than the package's, so that it stays clear of
# the corner indices (the left quarter of the card at the top, the right quarter at the bottom).
COURT = (56, 46, 128, 244)  # x, y, width, height; the package's is 164.8 by 260.8 of 240 by 336
JOKER = (36, 40, 168, 256)


def placed(body: str, box: tuple[float, float, float, float], source: tuple[float, ...]) -> str:
    """``body`` (drawn in the package's -120..120, -168..168 face) moved so that its ``source``
    box (x, y, width, height, in those units) fills ``box`` of ours."""
    sx, sy = box[2] / source[2], box[3] / source[3]
    tx, ty = box[0] - source[0] * sx, box[1] - source[1] * sy
    return f'<g transform="translate({tx} {ty}) scale({sx} {sy})">{body}</g>'


def letter(suit: str) -> str:
    """The suit's letter under the corner index, shown in the four-colour deck only: cards.css
    gives .suit-letter the opacity of --suit-letter, which the four-colour deck sets to 1 on its
    cards (a custom property reaches into each card's copy of the symbol)."""
    return f'<use href="#l{suit}" x="12" y="104" width="30" height="30" class="suit-letter"/>'


def sprite(cards: dict[str, str]) -> str:
    defs: list[str] = []
    for suit, path in suit_paths(cards).items():
        defs.append(
            f'<symbol id="s{suit}" viewBox="-600 -600 1200 1200">'
            f'<path d="{path}" fill="currentColor"/></symbol>'
        )
    for suit, path in LETTERS.items():
        defs.append(
            f'<symbol id="l{suit}" viewBox="-500 -500 1000 1000"><path d="{path}" fill="none" '
            'stroke="currentColor" stroke-width="110" stroke-linecap="round" '
            'stroke-linejoin="round"/></symbol>'
        )
    faces: list[str] = []
    ranks = ["A", *map(str, range(2, 11))]
    for suit in SUITS:
        for n, rank in enumerate(ranks, start=1):
            faces.append(face(rank + suit, pips(suit, n) + letter(suit)))
        for court in COURTS:
            extra, body = picture(suit + court, cards[suit + court], f"{court}{suit}")
            defs.append(extra)
            faces.append(
                face(
                    court + suit, placed(body, COURT, (-82.4, -132.2, 164.8, 264.4)) + letter(suit)
                )
            )
    for n in (1, 2):
        extra, body = picture(f"J{n}", cards[f"J{n}"], f"JK{n}")
        defs.append(extra)
        faces.append(face(f"JK{n}", placed(body, JOKER, (-101.4, -156, 202.8, 312))))
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0">\n'
        "<!-- Parlour's card faces (tools/draw_cards.py). Court figures and jokers: Adrian "
        "Kennard's designs, CC0, from @letele/playing-cards (licences/playing-cards.txt). -->\n"
        + "\n".join(short(d) for d in defs)
        + "\n"
        + "\n".join(short(f) for f in faces)
        + "\n</svg>\n"
    )


def face(card: str, body: str) -> str:
    return f'<symbol id="f{card}" viewBox="0 0 {W} {H}">{body}</symbol>'


def main() -> int:
    text = sprite(rendered())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text.encode()) / 1e3:.1f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
