"""How long "Analyse" takes in the page at its default budget (the Hard level's iterations),
per game, next to the same analysis in CPython. Prints figures only.

    python3 build.py build
    flock /tmp/parlour-browser.lock .venv/bin/python benchmarks/analysis_page.py [--positions N]

Each game is measured on ``--positions`` positions of seeded random playouts (the person to
move, at least three legal moves), each opened as a match file in one page (one engine
start): the time from the click on "Analyse" to the ranked table on screen. Every position
is new to the engine (the bridge keeps only the latest analysis), so none is a cached reply.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
import engine  # noqa: E402
from engine.bots.analysis import run  # noqa: E402

MENU = "[data-testid=menu] [data-game]"
IDLE = "[data-testid=table][data-busy=false]"
ANALYSIS = "[data-testid=analysis]"
TIMEOUT_MS = 180_000


def positions(game_id: str, count: int) -> list[engine.State]:
    """``count`` positions of seat 0 with at least three legal moves, some way into a match."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = engine.new_game(game_id, engine.GAMES[game_id].min_players, seed, {})
        rng = random.Random(seed)
        moves = 0
        while not state.is_over:
            if moves >= 12 and state.current_player == 0 and len(state.legal_actions()) >= 3:
                found.append(state)
                break
            state.apply(rng.choice(state.legal_actions()))
            moves += 1
    return found


def open_position(page, state: engine.State) -> None:
    seats = [{"type": "human", "name": "You"}] + [
        {"type": "bot", "level": "random", "name": f"Bot {i}"} for i in range(1, state.players)
    ]
    if not page.locator(MENU).first.is_visible():
        page.click("[data-testid=menu-button]")
        page.locator(MENU).first.wait_for()
    page.set_input_files(
        "[data-testid=import]",
        files=[
            {
                "name": "match.json",
                "mimeType": "application/json",
                "buffer": json.dumps({"record": state.to_record(), "seats": seats}).encode(),
            }
        ],
    )
    page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)
    if page.locator("[data-testid=round-over]").is_visible():
        page.click("[data-testid=round-over] [data-testid=continue]")
        page.wait_for_selector(IDLE, timeout=TIMEOUT_MS)


def measure(count: int) -> dict[str, dict[str, list[float]]]:
    figures: dict[str, dict[str, list[float]]] = {}
    with build.served_chromium([("/", build.DIST)]) as (browser, url, _):
        page = browser.new_page()
        page.goto(url + "?speed=0&snapshot=0")
        page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=TIMEOUT_MS)
        for game_id in engine.GAMES:
            page_s, python_s, worlds = [], [], []
            for state in positions(game_id, count):
                open_position(page, state)
                if not page.locator("[data-testid=analyse]").is_visible():
                    continue  # the table is not at the person's choice (a dialog is up)
                start = time.perf_counter()
                page.click("[data-testid=analyse]")
                page.locator(ANALYSIS).wait_for(timeout=TIMEOUT_MS)
                page_s.append(time.perf_counter() - start)
                worlds.append(float(page.locator(ANALYSIS).get_attribute("data-iterations")))
                start = time.perf_counter()
                run(state, 0, random.Random(len(state.history)))
                python_s.append(time.perf_counter() - start)
            figures[game_id] = {"page": page_s, "cpython": python_s, "worlds": worlds}
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=3, help="positions per game")
    args = parser.parse_args()
    if not (build.DIST / "index.html").is_file():
        sys.exit("no dist/: run `python3 build.py build` first")
    figures = measure(args.positions)
    print(f"Analyse at its default budget, {args.positions} positions per game (seconds)")
    print(f"{'game':<12} {'budget':>6} {'page median':>11} {'page max':>8} {'CPython median':>14}")
    for game_id, f in figures.items():
        budget = engine.GAMES[game_id].bot.at(engine.GAMES[game_id].min_players).hard_iterations
        if not f["page"]:
            print(f"{game_id:<12} {budget:>6}  (no position reached the person's choice)")
            continue
        print(
            f"{game_id:<12} {budget:>6} {statistics.median(f['page']):>11.2f} "
            f"{max(f['page']):>8.2f} {statistics.median(f['cpython']):>14.2f}"
            + ("" if min(f["worlds"]) == budget else f"  (clock cut: {min(f['worlds']):.0f})")
        )


if __name__ == "__main__":
    main()
