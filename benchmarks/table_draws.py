"""What the table costs the page's main thread while a person plays: each game's coached
round ("Learn to play"), followed to its end in headless Chromium the way a person who takes
every suggestion would (the coach's button focused, Enter), at the "Instant" speed.

    .venv/bin/python benchmarks/table_draws.py [--games crisps,spite] [--runs 3]

Builds nothing: it serves dist/ as the last ``python build.py`` left it. For each game it
prints the person's moves, the table's draws (a whole new screen put into #app) a move, and
the main thread's time a move from Chromium's own counters (``Performance.getMetrics``: its
processor time, then all tasks, of which script, style and layout), medians over the runs.
``--dist DIR`` serves another built site (to set two builds side by side). Prints figures only;
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
import engine  # noqa: E402

COACH = "[data-testid=coach]"
IDLE = "[data-testid=table][data-busy=false]"
FOLLOW = f"{IDLE} [data-testid=coach-follow]:not([disabled])"
DONE = f"{COACH}[data-done=true]"
TIMEOUT_MS = 120_000
# Counts the screens put into #app (render() replaces its one child each time).
COUNT_DRAWS = """() => {
    window.__draws = 0;
    new MutationObserver((records) => {
        for (const r of records) if (r.addedNodes.length) window.__draws += 1;
    }).observe(document.getElementById("app"), { childList: true });
}"""
# ThreadTime: the main thread's processor time (on a shared machine the durations also count
# the time the thread waited for a processor; this does not).
METRICS = ("ThreadTime", "TaskDuration", "ScriptDuration", "RecalcStyleDuration", "LayoutDuration")


def metrics(cdp) -> dict[str, float]:
    got = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: got[name] for name in METRICS}


def coached_round(browser, base: str, game: str) -> dict[str, float]:
    """One coached round of ``game`` followed to its end in a fresh context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "?speed=0&snapshot=0")
        page.locator(f"[data-testid=learn][data-learn-game={game}]").click(timeout=TIMEOUT_MS)
        page.locator(COACH).wait_for(state="visible", timeout=TIMEOUT_MS)
        page.wait_for_selector(f"{FOLLOW}, {DONE}", timeout=TIMEOUT_MS)
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.evaluate(COUNT_DRAWS)
        before = metrics(cdp)
        started = time.perf_counter()
        moves = 0
        while not page.locator(DONE).count():
            follow = page.locator(FOLLOW)
            if not follow.count():
                page.wait_for_selector(f"{FOLLOW}, {DONE}", timeout=TIMEOUT_MS)
                continue
            logged = page.evaluate("() => document.querySelectorAll('.log-list li').length")
            follow.focus()
            page.keyboard.press("Enter")
            moves += 1
            page.wait_for_function(
                "n => document.querySelectorAll('.log-list li').length > n",
                arg=logged,
                timeout=TIMEOUT_MS,
            )
            page.wait_for_selector(f"{FOLLOW}, {DONE}", timeout=TIMEOUT_MS)
        wall = time.perf_counter() - started
        after = metrics(cdp)
        draws = page.evaluate("() => window.__draws")
        if errors:
            raise RuntimeError(f"{game}: {errors}")
        row = {"moves": moves, "draws": draws, "wall": wall}
        row.update({name: after[name] - before[name] for name in METRICS})
        return row
    finally:
        context.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="table_draws.py")
    parser.add_argument("--games", default=",".join(engine.GAMES), help="comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="coached rounds per game (3)")
    parser.add_argument("--dist", type=Path, default=build.DIST, help="the built site (dist/)")
    args = parser.parse_args(argv)
    games = args.games.split(",")
    unknown = [g for g in games if g not in engine.GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r} (known: {', '.join(engine.GAMES)})")
    if not (args.dist / "index.html").is_file():
        parser.error(f"{args.dist} is not built: run `python3 build.py` first")
    with build.served_chromium([("/", args.dist)]) as (browser, base, _):
        print(
            f"each game's coached round followed to its end, {args.runs} runs, medians; "
            "ms of the page's main thread a person's move:"
        )
        print(
            f"  {'game':14}{'moves':>6}{'draws/move':>12}{'cpu':>8}{'tasks':>8}{'script':>8}"
            f"{'style':>8}{'layout':>8}{'wall s':>8}"
        )
        for game in games:
            rows = [coached_round(browser, base, game) for _ in range(args.runs)]

            def med(key: str, rows: list[dict[str, float]] = rows) -> float:
                return statistics.median(r[key] for r in rows)

            moves = med("moves")
            per = {name: 1000 * med(name) / moves for name in METRICS}
            print(
                f"  {game:14}{moves:>6.0f}{med('draws') / moves:>12.2f}"
                f"{per['ThreadTime']:>8.1f}{per['TaskDuration']:>8.1f}{per['ScriptDuration']:>8.1f}"
                f"{per['RecalcStyleDuration']:>8.1f}{per['LayoutDuration']:>8.1f}"
                f"{med('wall'):>8.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
