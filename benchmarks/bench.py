"""Parlour benchmarks: start-up in headless Chromium and engine speed in CPython.

Run through ``python3 build.py bench [--runs N] [--seconds S]`` (it builds dist/ first and
uses .venv). Prints figures only; nothing here asserts a time.

Start-up: each run opens a fresh browser profile (a first visit: no HTTP or service-worker
cache, no start-up snapshot) and measures from navigation to
  - "menu": the app's menu is interactive (``[data-testid=menu] [data-game]`` visible), and
  - "bare": a blank page of the same build has run ``loadPyodide()`` in a module worker
    (benchmarks/web/, served by this script only: not part of the site).
The two are measured alternately so that machine load affects both alike. A warm reload
(same profile, so the app is served by its service worker and, once the first visit has
kept it, starts from its start-up snapshot) is measured too.

Engine (benchmarks/web/engine_bench.py, the same code in CPython and in the page, where it
runs in Pyodide in a module worker with the build's engine wheel): random legal actions in
whole matches of every registered game, steps per second counting ``legal_actions()`` plus
``apply()``, each game in a fresh worker, over its first seconds and again once settled
(``engine_bench.steps``); each bot level's decision time on a few mid-match positions per
game; and the iterations Hard's search reaches in one second.

Bytes: our own files in dist/ by kind (raw and gzip) next to the Pyodide runtime's.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

BENCH_WEB = Path(__file__).resolve().parent / "web"
sys.path.insert(0, str(BENCH_WEB))
import engine_bench  # noqa: E402  (the same file runs in the page)

MENU = "[data-testid=menu] [data-game]"
TIMEOUT_MS = 180_000
# True once the app's IndexedDB holds a start-up snapshot (see web/worker.js).
SNAPSHOT_KEPT = """() => new Promise((resolve) => {
    const open = indexedDB.open("parlour-runtime", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("snapshots");
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
        const db = open.result;
        const request = db.transaction("snapshots", "readonly").objectStore("snapshots").getAllKeys();
        request.onsuccess = () => { db.close(); resolve(request.result.length > 0); };
        request.onerror = () => { db.close(); resolve(false); };
    };
})"""


def measure_startup(runs: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    server, base = build.start_server([("/", BENCH_WEB), ("/", build.DIST)])
    times: dict[str, list[float]] = {"menu": [], "bare": [], "menu_warm": [], "bare_warm": []}
    targets = {"menu": (base + "?speed=0", MENU), "bare": (base + "bench.html", "#ready")}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
            )
            # One untimed load of each first, so both start from the same warmed-up OS cache.
            for kind in ("bare", "menu"):
                load(browser, *targets[kind])
            for run in range(runs):
                order = ("menu", "bare") if run % 2 == 0 else ("bare", "menu")
                for kind in order:
                    cold, warm = load(browser, *targets[kind])
                    times[kind].append(cold)
                    times[kind + "_warm"].append(warm)
                print(
                    f"  run {run + 1}/{runs}: menu {times['menu'][-1]:.2f} s, "
                    f"bare loadPyodide {times['bare'][-1]:.2f} s",
                    flush=True,
                )
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return times


def load(browser, url: str, selector: str) -> tuple[float, float]:
    """Seconds from navigation to ``selector`` visible: first visit, then a reload."""
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        started = time.perf_counter()
        page.goto(url)
        page.locator(selector).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        cold = time.perf_counter() - started
        if selector == MENU:
            # Let the service worker finish precaching, so the reload is served from it, and
            # the app keep its start-up snapshot, which it makes in the background once the
            # menu is shown: the reload is a repeat visit, as a person's next one would be.
            page.evaluate("async () => { await navigator.serviceWorker.ready; }")
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while not page.evaluate(SNAPSHOT_KEPT):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{url}: no start-up snapshot was kept")
                page.wait_for_timeout(250)
        started = time.perf_counter()
        page.reload()
        page.locator(selector).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        warm = time.perf_counter() - started
        if errors:
            raise RuntimeError(f"{url}: {errors}")
        return cold, warm
    finally:
        context.close()


def measure_engine_in_page(seconds: float, positions: int, warmup: float) -> dict:
    """engine_bench.run() inside headless Chromium, in Pyodide in module workers (one per
    game, then one for the bots: see benchmarks/web/engine.mjs)."""
    from playwright.sync_api import sync_playwright

    server, base = build.start_server([("/", BENCH_WEB), ("/", build.DIST)])
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
            )
            page = browser.new_page()
            games = ",".join(engine_bench.engine.GAMES)
            page.goto(
                f"{base}engine.html?seconds={seconds}&positions={positions}"
                f"&warmup={warmup}&games={games}"
            )
            page.locator("#done").wait_for(state="attached", timeout=3_600_000)
            data = json.loads(page.locator("#out").text_content())
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if "error" in data:
        raise RuntimeError(f"the in-page engine benchmark failed: {data['error']}")
    return data


def payload_bytes() -> tuple[dict[str, tuple[int, int]], int, int]:
    """Bytes (raw, gzip -9) of our own files in dist/ by kind; the runtime's raw and gzip."""
    kinds = {
        ".whl": "engine wheel",
        ".html": "HTML",
        ".css": "CSS",
        ".js": "JavaScript",
        ".mjs": "JavaScript",
        ".svg": "images",
        ".png": "images",
        ".ico": "images",
        ".json": "JSON and manifest",
        ".webmanifest": "JSON and manifest",
    }
    own: dict[str, tuple[int, int]] = {}
    runtime = runtime_gz = 0
    for rel in build.dist_files(build.DIST):
        data = (build.DIST / rel).read_bytes()
        packed = len(gzip.compress(data, 9))
        if rel.startswith("pyodide/"):
            runtime += len(data)
            runtime_gz += packed
            continue
        kind = kinds.get(Path(rel).suffix, "other")
        raw, gz = own.get(kind, (0, 0))
        own[kind] = (raw + len(data), gz + packed)
    return own, runtime, runtime_gz


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build.py bench")
    parser.add_argument("--runs", type=int, default=5, help="start-ups of each kind (5)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=3.0,
        help="time per game for engine steps, in CPython and in the page (3)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=engine_bench.WARMUP_S,
        help="when each game's second, settled measurement starts, in seconds "
        f"({engine_bench.WARMUP_S:g})",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=3,
        help="positions per game and bot level for decision times (3; 0: skip)",
    )
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--startup-only", action="store_true")
    args = parser.parse_args(argv)

    if not args.skip_browser and not args.skip_startup:
        print(
            f"start-up in headless Chromium, {args.runs} runs each, alternating, "
            "fresh profile per run:",
            flush=True,
        )
        times = measure_startup(args.runs)
        menu, bare = statistics.median(times["menu"]), statistics.median(times["bare"])
        menu_warm = statistics.median(times["menu_warm"])
        bare_warm = statistics.median(times["bare_warm"])
        print()
        print(f"  {'':34}{'first visit':>12}{'reload':>10}")
        print(f"  {'menu interactive (median)':34}{menu:>10.2f} s{menu_warm:>8.2f} s")
        print(f"  {'bare loadPyodide() (median)':34}{bare:>10.2f} s{bare_warm:>8.2f} s")
        print(f"  {'ratio menu / bare':34}{menu / bare:>12.2f}{menu_warm / bare_warm:>10.2f}")
        print(f"  {'menu minus bare':34}{menu - bare:>10.2f} s{menu_warm - bare_warm:>8.2f} s")
        print(flush=True)
    if args.startup_only:
        return 0

    print(
        f"engine in CPython {sys.version.split()[0]} (random legal actions, default player "
        f"count, ~{args.seconds:g} s per game; bots: {args.positions} positions per game)...",
        flush=True,
    )
    native = engine_bench.run(args.seconds, args.positions, warmup=args.warmup)
    page = None
    if not args.skip_browser:
        print(
            "engine inside the page (Pyodide in a module worker, headless Chromium)...", flush=True
        )
        page = measure_engine_in_page(args.seconds, args.positions, args.warmup)
    print()
    print(
        "engine steps per second (legal_actions() + apply(), random matches), each game "
        f"in a fresh runtime: its first {args.seconds:g} s, and {args.seconds:g} s from "
        f"{max(args.warmup, args.seconds):g} s on (settled: what a match meets):"
    )
    print(
        f"  {'game':14}{'CPython':>12}{'page':>12}{'CPython/page':>14}"
        f"{'first s: page':>16}{'ratio':>8}"
    )
    for game_id, row in native["steps"].items():
        web = page["result"]["steps"][game_id] if page else {}
        settled, fresh = web.get("settled", float("nan")), web.get("fresh", float("nan"))
        print(
            f"  {game_id:14}{row['settled']:>12,.0f}{settled:>12,.0f}"
            f"{row['settled'] / settled:>14.2f}{fresh:>16,.0f}{row['fresh'] / fresh:>8.2f}"
        )
    if args.positions > 0:
        print()
        print(
            f"bot decision time, median of {args.positions} positions per game, seconds "
            "(CPython / page):"
        )
        games = list(native["steps"])
        print(f"  {'level':9}" + "".join(f"{g:>17}" for g in games))
        for level, per_game in native["bots"].items():
            cells = []
            for game_id in games:
                cpy = statistics.median(per_game[game_id])
                web = (
                    statistics.median(page["result"]["bots"][level][game_id])
                    if page
                    else float("nan")
                )
                cells.append(f"{cpy:>7.3f} / {web:<7.3f}")
            print(f"  {level:9}" + "".join(f"{c:>17}" for c in cells))
    if args.positions > 0:
        print()
        print(
            f"Hard's search iterations in {engine_bench.SEARCH_MS / 1000:g} s, median of "
            f"{args.positions} positions per game (CPython / page):"
        )
        for game_id, reached in native["search"].items():
            web = statistics.median(page["result"]["search"][game_id]) if page else float("nan")
            print(f"  {game_id:14}{statistics.median(reached):>8.0f} / {web:<8.0f}")
    print()
    own, runtime, runtime_gz = payload_bytes()
    print("bytes in dist/ (raw / gzip -9):")
    for kind in sorted(own):
        raw, gz = own[kind]
        print(f"  {kind:22}{raw:>12,} B{gz:>12,} B")
    total = sum(r for r, _ in own.values())
    total_gz = sum(g for _, g in own.values())
    print(f"  {'our own files, total':22}{total:>12,} B{total_gz:>12,} B")
    print(f"  {'Pyodide runtime':22}{runtime:>12,} B{runtime_gz:>12,} B")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
