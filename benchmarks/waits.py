"""A person's wait between turns in the built page, every other seat at Hard.

    .venv/bin/python benchmarks/waits.py [--turns N] [--games roundup,...] [--paces instant,normal]

(``python3 build.py bench --bots`` runs it after the bots' decision times; it needs dist/
built, which build.py does first.) For each game at its usual table (:data:`TABLES`) and
each pace (``instant``: ``?speed=0``, the Instant setting; ``normal``: the default setting,
a 600 ms pause before each computer move and the cards' travel), the page of dist/ in
headless Chromium (Debian's, as the browser tests use) opens a fresh match of seed
:data:`SEED` as a match file, the person in seat 0 and Hard at every other seat, and the
person plays a random legal move from the side panel each turn. Timed, by the driver's clock:
from the click on a move after which the computers move to the moment the table is idle
again with the person's next move on offer (the round-over dialogs are clicked through, and
a wait that ran into one is not counted). For each such wait the saved match says how many
computer moves were made and by how many seats; the figures are the waits' median and p95,
the same per computer seat that moved (the wait divided by that count), the median per
computer move, and the load average at the start and end of each game. Prints figures
only; nothing asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
import engine  # noqa: E402

TABLES: dict[str, int] = {"roundup": 4, "progression": 3, "mhing": 4, "crisps": 2, "spite": 2}
"""Each game's usual table: its player count."""
PACES: dict[str, str] = {"instant": "?speed=0&snapshot=0", "normal": "?snapshot=0"}
"""The page's address per pace: Instant (the tests' ?speed=0), and the default setting."""
SEED = 5
MENU = "[data-testid=menu] [data-game]"
IDLE = "[data-testid=table][data-busy=false]"
SIDE_ACTIONS = "[data-testid=actions] [data-action]"
ROUND_OVER = "[data-testid=round-over]"
REPLACE_DIALOG = "[data-testid=replace-dialog]"
TIMEOUT_MS = 300_000
# One look at the page once it is idle: the dialogs up, the side panel's action ids, those in
# a closed fold (a move to confirm), and the latest save's moves (the match's record).
LOOK = """() => {
  const saves = Object.keys(localStorage).filter((k) => k.startsWith('parlour.save.'))
    .map((k) => JSON.parse(localStorage.getItem(k)));
  const save = saves.sort((a, b) => (b.savedAt || 0) - (a.savedAt || 0))[0];
  return {
    matchOver: Boolean(document.querySelector('[data-testid=match-over]')),
    roundOver: Boolean(document.querySelector('[data-testid=round-over]')),
    ids: [...document.querySelectorAll('[data-testid=actions] [data-action]')]
      .map((n) => n.dataset.action),
    folded: [...document.querySelectorAll(
      '[data-testid=actions] details:not([open]) [data-action]')].map((n) => n.dataset.action),
    moves: save ? save.data.record.actions : null,
  };
}"""
# The person's next move on offer on an idle table, or a dialog that ends the round or match.
READY = f"""() => {{
  const idle = document.querySelector({json.dumps(IDLE)});
  if (!idle) return false;
  return Boolean(document.querySelector('[data-testid=round-over], [data-testid=match-over]'))
    || Boolean(document.querySelector({json.dumps(SIDE_ACTIONS)}));
}}"""


def actors(game: str, players: int, moves: list[str]) -> list[int]:
    """The seat that made each of ``moves`` in the match of seed SEED."""
    state = engine.new_game(game, players, SEED)
    out = []
    for move in moves:
        seat = state.current_player
        assert seat is not None
        out.append(seat)
        state.apply(move)
    return out


def open_match(page, base: str, query: str, game: str, players: int) -> None:
    """The app at ``base`` + ``query``, and there a fresh match of seed SEED opened as a match
    file, the person at seat 0 and Hard at the others."""
    page.goto(base + query)
    page.locator(MENU).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    record = engine.new_game(game, players, SEED).to_record()
    seats = [{"type": "human", "name": "You"}] + [
        {"type": "bot", "level": "hard", "name": f"Hard {seat}"} for seat in range(1, players)
    ]
    page.set_input_files(
        "[data-testid=import]",
        files=[
            {
                "name": "match.json",
                "mimeType": "application/json",
                "buffer": json.dumps({"record": record, "seats": seats}).encode(),
            }
        ],
    )
    page.wait_for_selector(f"{IDLE}, {REPLACE_DIALOG}", timeout=TIMEOUT_MS)
    if page.locator(REPLACE_DIALOG).count():
        page.click("[data-testid=abandon-save]")


def settle(page) -> tuple[dict[str, Any], bool]:
    """Wait until the person can move, clicking through round-over dialogs; the page's look
    then and whether a round ended on the way (the look's ``matchOver``: the match is over)."""
    rounds = False
    while True:
        page.wait_for_function(READY, timeout=TIMEOUT_MS, polling="raf")
        look = page.evaluate(LOOK)
        if look["matchOver"] or (look["ids"] and not look["roundOver"]):
            return look, rounds
        if look["roundOver"]:
            rounds = True
            page.click(f"{ROUND_OVER} [data-testid=continue]")


def measure_game(browser, base: str, game: str, pace: str, turns: int) -> dict[str, Any]:
    """``turns`` timed waits (at most) of ``game`` at its usual table at ``pace``."""
    players = TABLES[game]
    context = browser.new_context()
    waits: list[dict[str, Any]] = []
    rng = random.Random(SEED)
    load = [os.getloadavg()[0]]
    try:
        page = context.new_page()
        open_match(page, base, PACES[pace], game, players)
        look, _ = settle(page)
        moves_made = 0
        while len(waits) < turns and moves_made < 40 * turns and not look["matchOver"]:
            before = look["moves"] or []
            ids = look["ids"]
            choice = ids[rng.randrange(len(ids))]
            if choice in look["folded"]:
                page.click(f"[data-testid=actions] [data-testid='confirm-{choice}'] summary")
            started = time.perf_counter()
            page.click(f"{SIDE_ACTIONS}[data-action='{choice}']", force=True)
            look, rounds = settle(page)
            wait = time.perf_counter() - started
            moves_made += 1
            after = look["moves"] or []
            if rounds or look["matchOver"] or len(after) <= len(before) + 1:
                continue  # a round ended on the way, or the person moves again at once
            seats = actors(game, players, after)[len(before) + 1 :]
            assert 0 not in seats, (game, "the person's turn came back while computers moved")
            waits.append({"wait": wait, "moves": len(seats), "seats": len(set(seats))})
    finally:
        context.close()
    load.append(os.getloadavg()[0])
    return {"waits": waits, "load": load}


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def measure(games: list[str], paces: list[str], turns: int) -> dict[str, dict[str, Any]]:
    """Every game of ``games`` at every pace of ``paces``: {"game pace": measure_game()}."""
    out: dict[str, dict[str, Any]] = {}
    with build.served_chromium([("/", build.DIST)]) as (browser, base, _):
        for game in games:
            for pace in paces:
                out[f"{game} {pace}"] = got = measure_game(browser, base, game, pace, turns)
                print_row(game, pace, got)
    return out


def print_header(turns: int) -> None:
    print(
        f"a person's wait from a move to their next turn, every other seat Hard, in the page "
        f"(seed {SEED}, up to {turns} waits a table; per seat: the wait over the computer seats "
        "that moved; per move: over the computer moves; moves: their median count), seconds:",
        flush=True,
    )
    print(
        f"  {'table':16}{'pace':9}{'waits':>6}{'median':>8}{'p95':>7}{'max':>7}"
        f"{'per seat med':>14}{'p95':>7}{'per move':>10}{'moves':>7}  load",
        flush=True,
    )


def print_row(game: str, pace: str, got: dict[str, Any]) -> None:
    waits = got["waits"]
    table = f"{game} {TABLES[game]}"
    load = "-".join(f"{x:.1f}" for x in got["load"])
    if not waits:
        print(f"  {table:16}{pace:9}{0:>6}  (no wait timed)  load {load}", flush=True)
        return
    times = [w["wait"] for w in waits]
    per_seat = [w["wait"] / w["seats"] for w in waits]
    per_move = [w["wait"] / w["moves"] for w in waits]
    moves = statistics.median(w["moves"] for w in waits)
    print(
        f"  {table:16}{pace:9}{len(waits):>6}{statistics.median(times):>8.2f}"
        f"{percentile(times, 0.95):>7.2f}{max(times):>7.2f}"
        f"{statistics.median(per_seat):>14.2f}{percentile(per_seat, 0.95):>7.2f}"
        f"{statistics.median(per_move):>10.2f}{moves:>7g}  {load}",
        flush=True,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/waits.py")
    parser.add_argument("--turns", type=int, default=8, help="timed waits per table and pace (8)")
    parser.add_argument("--games", default=",".join(TABLES), help="comma-separated (all)")
    parser.add_argument("--paces", default=",".join(PACES), help="instant,normal (both)")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g]
    paces = [p for p in args.paces.split(",") if p]
    unknown = [g for g in games if g not in TABLES] + [p for p in paces if p not in PACES]
    if unknown:
        parser.error(f"unknown game or pace {unknown[0]!r}")
    print(f"load: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print_header(args.turns)
    measure(games, paces, args.turns)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
