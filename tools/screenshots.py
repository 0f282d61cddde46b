"""Pictures of every game's table, from the built site, for docs/tables/.

    python3 tools/screenshots.py [--out docs/tables] [--games crisps,spite] [--sizes 1280x800]
                                 [--png]

Each game at its largest table (seat 0 the person, the others computers) is played at random
from a fixed deal to a decision of the person's some moves in, opened in the page as a match
file, and photographed at 1280x800 (a laptop) and 390x844 (a phone, touch) as
``<game>-<size>.webp`` (``--sizes`` may also name a short phone's 360x740; ``--png`` writes
PNG pictures instead, for a viewer that does not read WebP); the table's figures
(tools/table_figures.py: card widths, the part of a fanned card showing, the tallest empty
band, covered indices and labels) are printed for each.
The pictures are of the window as a person sees it, as the browser encodes them in WebP, so
they stay small (25-75 kB each). Needs dist/ (``python3 build.py build``).
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402
import engine  # noqa: E402
from tools.table_figures import figures  # noqa: E402

TABLES = {"crisps": 2, "mhing": 4, "progression": 4, "roundup": 6, "spite": 2}
DEALS = {"crisps": 14, "mhing": 13, "progression": 12, "roundup": 11, "spite": 15}
STEPS = {"crisps": 9, "mhing": 14, "progression": 18, "roundup": 16, "spite": 14}
"""Random moves played before the picture, so the table has cards on it."""
SIZES = {"1280x800": (1280, 800, False), "390x844": (390, 844, True), "360x740": (360, 740, True)}
DOC_SIZES = ("1280x800", "390x844")
"""The sizes drawn for docs/tables/ unless --sizes names others (a short phone's on request)."""
IDLE = "[data-testid=table][data-busy=false]"
QUALITY = 82
"""The pictures' WebP quality: cards and words sharp at a tenth of a PNG's bytes."""
TOP = "() => new Promise((r) => requestAnimationFrame(() => r(scrollTo(0, 0))))"
"""The window scrolled to the top, after the next frame (the emulated size drawn)."""


def position(game: str) -> dict:
    """The record of ``game`` after its random moves, at a decision of seat 0's."""
    players = TABLES[game]
    state = engine.new_game(game, players, DEALS[game])
    rng = random.Random(DEALS[game])
    steps = 0
    while not state.is_over and (steps < STEPS[game] or state.current_player != 0):
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return state.to_record()


def open_table(page, base: str, game: str) -> None:
    seats = [{"type": "human", "name": "You"}]
    seats += [
        {"type": "bot", "level": "random", "name": f"Bot {i}"} for i in range(1, TABLES[game])
    ]
    page.goto(f"{base}?speed=0&snapshot=0")
    page.wait_for_selector("[data-testid=menu] [data-game]")
    match = json.dumps({"record": position(game), "seats": seats}).encode()
    page.set_input_files(
        "[data-testid=import]",
        files=[{"name": "match.json", "mimeType": "application/json", "buffer": match}],
    )
    page.wait_for_selector(f"{IDLE}, [data-testid=replace-dialog]", timeout=120_000)
    if page.locator("[data-testid=replace-dialog]").count():
        page.click("[data-testid=abandon-save]")
    page.wait_for_selector(IDLE, timeout=120_000)
    # The card art comes once the table waits for the person (web/js/ui/card-art.js): the
    # picture is of the faces a person then sees, not of the CSS faces before it.
    page.locator("#card-art-sprite").wait_for(state="attached", timeout=30_000)


def emulate(cdp, size: str) -> None:
    width, height, mobile = SIZES[size]
    cdp.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": mobile, "maxTouchPoints": 5})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="screenshots.py")
    parser.add_argument("--out", default=str(ROOT / "docs" / "tables"))
    parser.add_argument("--games", default=",".join(TABLES))
    parser.add_argument("--sizes", default=",".join(DOC_SIZES))
    parser.add_argument("--png", action="store_true", help="PNG pictures (for a viewer)")
    args = parser.parse_args(argv)
    games, sizes = args.games.split(","), args.sizes.split(",")
    for name in games + sizes:
        if name not in TABLES and name not in SIZES:
            parser.error(f"unknown game or size {name!r}")
    if not (build.DIST / "index.html").is_file():
        parser.error("dist/ is not built: run `python3 build.py build` first")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with build.served_chromium([("/", build.DIST)]) as (browser, base, _):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        for game in games:
            open_table(page, base, game)
            for size in sizes:
                emulate(cdp, size)
                page.evaluate(
                    "() => new Promise((r) => requestAnimationFrame(() => r(scrollTo(0, 0))))"
                )
                found = figures(page, game) or {}
                kind = {"format": "png"} if args.png else {"format": "webp", "quality": QUALITY}
                shot = cdp.send("Page.captureScreenshot", kind)
                path = out / f"{game}-{size}.{kind['format']}"
                path.write_bytes(base64.b64decode(shot["data"]))
                hand, place = found.get("hand") or [0], found.get("place") or [0]
                print(
                    f"{game:12} {size:9} hand {min(hand):5.1f}-{max(hand):5.1f} px"
                    f"  places {min(place):5.1f} px  fan shows {found.get('fanShown') or 0:.2f}"
                    f"  index {found.get('indexTall') or 0:4.1f} px"
                    f"  empty band {found.get('emptyBand')} px"
                    f"  overflow {found.get('overflow')}  fit {found.get('fit')}"
                    f"  {path.stat().st_size // 1024} kB",
                    flush=True,
                )
                for problem in (found.get("covered") or [])[:6] + (found.get("labels") or [])[:6]:
                    print(f"    covered: {problem}")
        context.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
