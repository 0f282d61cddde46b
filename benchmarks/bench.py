"""Parlour benchmarks: start-up in headless Chromium and engine speed in CPython.

Run through ``python3 build.py bench [--runs N] [--seconds S]`` (it builds dist/ first and
uses .venv). Prints figures only; nothing here asserts a time.

Start-up: each run opens a fresh browser profile (a first visit: no HTTP or service-worker
cache) and measures from navigation to
  - "menu": the app's menu is interactive (``[data-testid=menu] [data-game]`` visible), and
  - "bare": a blank page of the same build has run ``loadPyodide()`` in a module worker
    (benchmarks/web/, served by this script only: not part of the site).
The two are measured alternately so that machine load affects both alike. A warm reload
(same profile, so the app is served by its service worker) is measured too.

Engine: random legal actions in whole matches of every registered game, in CPython; steps
per second count ``legal_actions()`` plus ``apply()``.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

BENCH_WEB = Path(__file__).resolve().parent / "web"
MENU = "[data-testid=menu] [data-game]"
TIMEOUT_MS = 180_000


def measure_startup(runs: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    server, base = build.start_server([("/", BENCH_WEB), ("/", build.DIST)])
    times: dict[str, list[float]] = {"menu": [], "bare": [], "menu_warm": [], "bare_warm": []}
    targets = {"menu": (base + "?speed=0", MENU), "bare": (base + "bench.html", "#ready")}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=build.find_chromium(),
                                                 args=build.CHROMIUM_ARGS)
            # One untimed load of each first, so both start from the same warmed-up OS cache.
            for kind in ("bare", "menu"):
                load(browser, *targets[kind])
            for run in range(runs):
                order = ("menu", "bare") if run % 2 == 0 else ("bare", "menu")
                for kind in order:
                    cold, warm = load(browser, *targets[kind])
                    times[kind].append(cold)
                    times[kind + "_warm"].append(warm)
                print(f"  run {run + 1}/{runs}: menu {times['menu'][-1]:.2f} s, "
                      f"bare loadPyodide {times['bare'][-1]:.2f} s", flush=True)
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
            # Let the service worker finish precaching, so the reload is served from it.
            page.evaluate("async () => { await navigator.serviceWorker.ready; }")
        started = time.perf_counter()
        page.reload()
        page.locator(selector).first.wait_for(state="visible", timeout=TIMEOUT_MS)
        warm = time.perf_counter() - started
        if errors:
            raise RuntimeError(f"{url}: {errors}")
        return cold, warm
    finally:
        context.close()


def engine_steps(seconds: float) -> list[tuple[str, int, int, float]]:
    import engine

    rows = []
    for game_id, spec in engine.GAMES.items():
        rng = random.Random(1)
        steps = matches = 0
        started = time.perf_counter()
        elapsed = 0.0
        while elapsed < seconds or matches == 0:
            state = engine.new_game(game_id, spec.default_players, seed=matches)
            while not state.is_over:
                state.apply(rng.choice(state.legal_actions()))
                steps += 1
            matches += 1
            elapsed = time.perf_counter() - started
        rows.append((game_id, matches, steps, steps / elapsed))
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build.py bench")
    parser.add_argument("--runs", type=int, default=5, help="start-ups of each kind (5)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPython time per game for engine steps (3)")
    parser.add_argument("--skip-browser", action="store_true")
    args = parser.parse_args(argv)

    if not args.skip_browser:
        print(f"start-up in headless Chromium, {args.runs} runs each, alternating, "
              "fresh profile per run:", flush=True)
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
        print()
    print(f"engine steps per second in CPython {sys.version.split()[0]} "
          f"(random legal actions, default player count, ~{args.seconds:g} s per game):")
    for game_id, matches, steps, rate in engine_steps(args.seconds):
        print(f"  {game_id:14}{rate:>12,.0f} steps/s   ({matches} matches, {steps} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
