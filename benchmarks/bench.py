"""Parlour benchmarks: start-up in headless Chromium and engine speed in CPython.

Run through ``python3 build.py bench [--runs N] [--network P,...] [--seconds S]`` (it
builds dist/ first and uses .venv). Prints figures only; nothing here asserts a time.

Start-up (``--network none,9mbit,1.6mbit``: served by tools/build/server.py, which emulates
each line for every request, the engine worker's included, and gzips like a static host):
for each profile, first visits, each in a fresh browser profile (no HTTP or service-worker
cache, no start-up memory image), alternating between
  - the app: "menu" is a game card of the menu being clickable (by the page's own clock, from
    the start of the navigation to the first frame painted with the menu, which the trial
    click that follows confirms clickable; "menu (driver)" is the same moment as Playwright
    sees it, from before it asks for the page to after its checks), "move" is the table accepting
    a move (menu -> ``--game`` -> start, each clicked as soon as it is clickable, until a
    legal-action control is enabled), "bytes" is what the server sent until then;
  - "bare": a blank page (benchmarks/web/, served by this script only: not part of the site)
    that runs ``loadPyodide()`` of the stock runtime (its whole standard library) in a
    module worker, from the same server.
Then one repeat visit of each (the app once its service worker has precached the site and it
has kept its start-up memory image; the bare page reloaded from the HTTP cache).

Engine (benchmarks/web/engine_bench.py, the same code in CPython and in the page, where it
runs in Pyodide in a module worker with the build's engine wheel): random legal actions in
whole matches of every registered game, steps per second counting ``legal_actions()`` plus
``apply()``, each game in a fresh worker, over its first seconds and again once settled
(``engine_bench.steps``); each bot level's decision time on a few mid-match positions per
table (each game at its default player count, and at every count whose bots have settings of
their own, such as Roundup at two players); and the iterations Hard's search reaches in one
second.

The bots' part (``--bots``) ends with a person's waits between turns in the built app, every
other seat at Hard, at Instant and at the default pace (benchmarks/waits.py; ``--wait-turns``).

Bytes: our own files in dist/ by kind (raw and gzip) next to the Pyodide runtime's.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tools.build.runtime import fetch_pyodide  # noqa: E402
from tools.build.server import PROFILES  # noqa: E402

BENCH_WEB = Path(__file__).resolve().parent / "web"
sys.path.insert(0, str(BENCH_WEB))
import engine_bench  # noqa: E402  (the same file runs in the page)

MENU = "[data-testid=menu] [data-game]"
START = "[data-testid=setup] [data-testid=start]"
# The table accepts a move: one of its legal-action controls is enabled.
MOVE = "[data-testid=table][data-busy=false] [data-action]:not([disabled])"
# The same, on a table the engine feeds (not a prepared opening's: see web/js/openings.js).
ENGINE_MOVE = (
    "[data-testid=table][data-busy=false][data-source=engine] [data-action]:not([disabled])"
)
# Run in the page before its own scripts: notes, by the page's own clock (performance.now():
# ms since the navigation started), the first frame painted with each of these on the page
# (window.__painted[name]), and when Start was clicked (window.__painted.start).
PAINT_CLOCK = """(() => {
    const watched = WATCHED;
    const painted = (window.__painted = {});
    const note = (name) => requestAnimationFrame(() => setTimeout(() => {
        painted[name] = performance.now();
    }, 0));
    const seen = new Set();
    const look = () => {
        for (const [name, selector] of Object.entries(watched)) {
            if (!seen.has(name) && document.querySelector(selector)) {
                seen.add(name);
                note(name);
            }
        }
    };
    new MutationObserver(look).observe(document, {
        subtree: true, childList: true, attributes: true,
    });
    document.addEventListener("click", (event) => {
        const target = event.target instanceof Element ? event.target : null;
        if (target && target.closest(START) && !("start" in painted)) {
            painted.start = performance.now();
        }
    }, true);
})()""".replace("WATCHED", json.dumps({"menu": MENU, "move": MOVE, "engine": ENGINE_MOVE})).replace(
    "START", json.dumps(START)
)
# Run in the page before its own scripts (--trace): notes, by the page's clock, each request
# the page makes of the engine worker and each answer (window.__trace.calls: [ms, what,
# method or type]) and the worker's start-up steps (window.__trace.steps, from its "ready").
TRACE_CLOCK = """(() => {
    const trace = (window.__trace = { calls: [], steps: [] });
    const Original = window.Worker;
    const methods = new Map();
    window.Worker = class extends Original {
        constructor(...args) {
            super(...args);
            this.addEventListener("message", (event) => {
                const data = event.data || {};
                if (data.type === "reply") {
                    trace.calls.push([performance.now(), "answered", methods.get(data.id)]);
                } else if (data.type === "ready") {
                    trace.steps = data.steps || [];
                    trace.calls.push([performance.now(), "ready", ""]);
                }
            });
        }
        postMessage(message, ...rest) {
            if (message && message.method) {
                methods.set(message.id, message.method);
                trace.calls.push([performance.now(), "asked", message.method]);
            }
            return super.postMessage(message, ...rest);
        }
    };
})()"""
# Forget every saved match (parlour.save.<slot>), so the reload's menu offers none.
CLEAR_SAVES = """() => { for (const k of Object.keys(localStorage)) {
    if (k.startsWith('parlour.save')) localStorage.removeItem(k); } }"""
TIMEOUT_MS = 180_000
# True once the app's IndexedDB holds a start-up memory image (see web/worker.js; its store
# keeps the name "snapshots").
MEMORY_IMAGE_KEPT = """() => new Promise((resolve) => {
    const open = indexedDB.open("parlour-runtime", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("snapshots");
    open.onerror = () => resolve(false);
    open.onsuccess = () => {
        const db = open.result;
        const store = db.transaction("snapshots", "readonly").objectStore("snapshots");
        const request = store.getAllKeys();
        request.onsuccess = () => { db.close(); resolve(request.result.length > 0); };
        request.onerror = () => { db.close(); resolve(false); };
    };
})"""


def measure_startup(runs: int, profiles: list[str], game: str) -> dict[str, dict]:
    """For each network profile: ``runs`` first visits of the app and of the bare page,
    alternately, each in a fresh browser profile, then a repeat visit of each."""
    mounts = [*bare_mounts(), ("/", build.DIST)]
    out: dict[str, dict] = {}
    with build.served_chromium(mounts) as (browser, base, server):
        # One untimed load of each first, unthrottled, so both start from the same
        # warmed-up OS cache.
        server.set_profile("none")
        visit_app(browser, server, base, game, repeat=False)
        visit_bare(browser, server, base, repeat=False)
        for name in profiles:
            server.set_profile(name)
            print(f"network {name}:", flush=True)
            got: dict[str, list[float]] = {}

            def keep(found: dict[str, float], got: dict[str, list[float]] = got) -> None:
                for key, value in found.items():
                    got.setdefault(key, []).append(value)

            for run in range(runs):
                first = run % 2 == 0
                if not first:
                    keep(visit_bare(browser, server, base))
                keep(visit_app(browser, server, base, game, repeat=False))
                if first:
                    keep(visit_bare(browser, server, base))
                print(
                    f"  run {run + 1}/{runs} (load {got['app_load'][-1]:.1f}): "
                    f"menu {got['menu'][-1]:.2f} s "
                    f"(driver {got['menu_driver'][-1]:.2f} s), first decision "
                    f"{got['move'][-1]:.2f} s ({got['decision'][-1]:.2f} s after Start, "
                    f"ours {got['own_bytes_decision'][-1] / 1e3:.0f} kB asked by then, "
                    f"{got['own_bytes_arrived'][-1] / 1e3:.0f} kB arrived), "
                    f"engine's first move {got['engine'][-1]:.2f} s "
                    f"({got['bytes'][-1] / 1e6:.2f} MB, ours {got['own_bytes'][-1] / 1e3:.0f} kB), "
                    f"bare loadPyodide {got['bare'][-1]:.2f} s, its last byte "
                    f"{got['bare_last_byte'][-1]:.2f} s ({got['bare_bytes'][-1] / 1e6:.2f} MB), "
                    f"the browser's processor {cpu(got['app_cpu'][-1])} / "
                    f"{cpu(got['bare_cpu'][-1])} (app / bare)",
                    flush=True,
                )
            repeat = visit_app(browser, server, base, game, repeat=True)
            for key in ("menu", "menu_driver", "move", "engine"):
                got[f"{key}_repeat"] = [repeat[key]]
            got["bare_repeat"] = [visit_bare(browser, server, base, repeat=True)["bare_repeat"]]
            out[name] = got
    return out


def browser_threads() -> dict[tuple[int, int], float]:
    """Processor seconds so far of every thread of this process's descendants (Playwright's
    driver and the browser it launched: the pages, their workers, the compiler threads), by
    (process, thread), read from Linux's /proc; empty where there is none. The bench's own
    server runs in this process and is not counted."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, list[int]] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return {}
    for entry in proc.iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: dict[tuple[int, int], float] = {}
    todo = list(parents.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo.extend(parents.get(pid, []))
        try:
            tasks = list((proc / str(pid) / "task").iterdir())
        except OSError:
            continue
        for task in tasks:
            try:
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            # utime and stime, the 14th and 15th fields of stat (11 and 12 after the name)
            found[(pid, int(task.name))] = (int(fields[11]) + int(fields[12])) / tick
    return found


def browser_cpu_since(before: dict[tuple[int, int], float]) -> float:
    """The browser's processor seconds since ``before`` (a browser_threads() reading), over
    the threads still alive: take it before a visit's context closes. NaN without /proc."""
    now = browser_threads()
    if not now:
        return float("nan")
    return sum(max(0.0, spent - before.get(key, 0.0)) for key, spent in now.items())


def kilobytes(size: float) -> str:
    return f"{size / 1e3:.0f} kB"


def cpu(seconds: float) -> str:
    return "-" if seconds != seconds else f"{seconds:.2f} s"


def bare_mounts() -> list[tuple[str, Path]]:
    """What the bare page is served from: the bench's pages, and the stock runtime (the
    pinned npm package's files as they come) at /stock-pyodide/."""
    return [("/stock-pyodide/", fetch_pyodide()), ("/", BENCH_WEB)]


BARE_CHAIN = ("bench.html", "bench.mjs", "bench-worker.mjs", "stock-pyodide/pyodide.mjs")
"""The bare page's requests one after another: each is asked for once the one before it has
arrived (the page, its module, the worker it starts, the loader the worker imports)."""
BARE_BATCH = tuple(
    f"stock-pyodide/{name}"
    for name in ("pyodide-lock.json", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
)
"""Then the runtime's four files, which loadPyodide() asks for together."""
BARE_ROUND_TRIPS = len(BARE_CHAIN) + 1


def bare_floor(profile: str, sent: float) -> float:
    """What the bare page's bytes cost on ``profile``'s line: every byte once at its
    bandwidth, and a round trip for each step of BARE_CHAIN and one for BARE_BATCH."""
    line = PROFILES[profile]
    bandwidth = sent * 8 / line.bits_per_second if line.bits_per_second else 0.0
    return bandwidth + BARE_ROUND_TRIPS * line.rtt_s


BARE_MARGIN = 0.15
"""How far over its floor the bare page may be before the bench flags it (issue 50's goal)."""


def first_move(page, game: str, started: float) -> dict[str, float]:
    """Menu -> ``game`` -> start, each clicked as soon as it is clickable, until the table
    accepts a move and until the engine's table does (the same when no prepared opening
    is drawn first). By the page's own clock (seconds from the start of the navigation):
    "menu" (the first frame with the menu), "move" (with the table accepting a move),
    "engine" (with the engine's table accepting one) and "decision" (from the click on Start
    to "move"); "menu_driver": by Playwright's clock from ``started`` to the menu clickable."""
    card = page.locator(f"{MENU}[data-game={game}]")
    card.click(trial=True, timeout=TIMEOUT_MS)  # waits until it is clickable
    driver = time.perf_counter() - started
    card.click(timeout=TIMEOUT_MS)
    page.locator(START).click(timeout=TIMEOUT_MS)
    page.locator(MOVE).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.locator(ENGINE_MOVE).first.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.wait_for_function(
        "() => ['menu', 'move', 'engine', 'start'].every((k) => k in window.__painted)"
    )
    painted = page.evaluate("() => window.__painted")
    return {
        "menu": painted["menu"] / 1000,
        "menu_driver": driver,
        "move": painted["move"] / 1000,
        "engine": painted["engine"] / 1000,
        "decision": (painted["move"] - painted["start"]) / 1000,
    }


def visit_app(browser, server, base: str, game: str, repeat: bool) -> dict[str, float]:
    """A first visit in a fresh profile: menu usable, first move possible, bytes sent until
    then. With ``repeat``, once the app has kept its start-up memory image and its service worker
    has precached the site, the same figures for a reload (a repeat visit)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(PAINT_CLOCK)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        server.traffic.reset()
        load = os.getloadavg()[0]
        threads = browser_threads()
        started = time.perf_counter()
        page.goto(base + "?speed=0")
        got = first_move(page, game, started)
        got["app_cpu"] = browser_cpu_since(threads)
        got["app_load"] = load
        got["bytes"] = server.traffic.bytes
        got["own_bytes"] = own_bytes(server.traffic.by_path)
        got["own_bytes_decision"] = own_bytes_before(page, server.traffic.log, got["move"])
        got["own_bytes_arrived"] = own_bytes_before(page, server.traffic.log, got["move"], True)
        if repeat:
            # The service worker's precache complete and the memory image kept (the app makes
            # it in the background once idle): the reload is a person's next visit.
            page.evaluate("async () => { await navigator.serviceWorker.ready; }")
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while not page.evaluate(MEMORY_IMAGE_KEPT):
                if time.monotonic() > deadline:
                    raise RuntimeError("no start-up memory image was kept")
                page.wait_for_timeout(250)
            page.evaluate(CLEAR_SAVES)
            server.traffic.reset()
            started = time.perf_counter()
            page.goto(base + "?speed=0")
            got = first_move(page, game, started)
            got["bytes"] = server.traffic.bytes
        if errors:
            raise RuntimeError(f"the app: {errors}")
        return got
    finally:
        context.close()


def own_bytes_before(
    page, log: list[tuple[str, int, float, float]], moment: float, whole: bool = False
) -> int:
    """Of the responses in the server's ``log``, the bytes of our own files whose request came
    by ``moment`` (seconds from the page's navigation, by its clock), each counted whole even
    if still on its way then; with ``whole``, only those whose last byte had gone by then."""
    until = page.evaluate("() => performance.timeOrigin") / 1000 + moment
    return sum(
        size
        for path, size, asked, done in log
        if (done if whole else asked) <= until and kind_of(path.lstrip("/"))[0]
    )


def own_bytes(by_path: dict[str, int]) -> int:
    """Of the bytes sent, those of our own files (not the Pyodide runtime's, its standard
    library's or micropip's: see kind_of)."""
    return sum(size for path, size in by_path.items() if kind_of(path.lstrip("/"))[0])


def visit_bare(browser, server, base: str, repeat: bool = False) -> dict[str, float]:
    """The blank page's bare loadPyodide() of the stock runtime, a first visit in a fresh
    profile, by the page's own clock (seconds from the start of its navigation): "bare"
    (loadPyodide() resolved in the worker, as the page hears of it) and "bare_last_byte" (the
    last byte of its downloads arrived); "bare_bytes", what the server sent; "bare_cpu", the
    browser's processor seconds until then, and "bare_load", the machine's load average as
    it started; with ``repeat``, "bare_repeat": a reload from the HTTP cache, the same way.
    Refuses a load whose WebAssembly was not compiled as it streamed in: that baseline would
    be slower than a stock loadPyodide() served as a static host serves it."""
    context = browser.new_context()
    try:
        page = context.new_page()
        server.traffic.reset()
        load = os.getloadavg()[0]
        threads = browser_threads()
        page.goto(base + "bench.html")
        page.locator("#ready").wait_for(state="visible", timeout=TIMEOUT_MS)
        spent = browser_cpu_since(threads)
        bare = page.evaluate("() => window.__bare")
        if not bare["streamed"]:
            raise RuntimeError(
                "the bare page's WebAssembly was not compiled as it streamed in "
                "(WebAssembly.instantiateStreaming): see the server's headers for .wasm"
            )
        asked = {path.lstrip("/") for path in server.traffic.by_path}
        if asked != {*BARE_CHAIN, *BARE_BATCH}:
            raise RuntimeError(f"the bare page asked for {sorted(asked)}, not what its floor has")
        got = {
            "bare": bare["ready"] / 1000,
            "bare_last_byte": bare["lastByte"] / 1000,
            "bare_bytes": server.traffic.bytes,
            "bare_cpu": spent,
            "bare_load": load,
        }
        if repeat:
            page.reload()
            page.locator("#ready").wait_for(state="visible", timeout=TIMEOUT_MS)
            got["bare_repeat"] = page.evaluate("() => window.__bare.ready") / 1000
        return got
    finally:
        context.close()


def trace_first_visit(profile: str, game: str) -> None:
    """One first visit of the app on ``profile``, printed as a waterfall by the page's clock
    (seconds from the start of the navigation): every response the server sent (when its
    request came, when its last byte went, its bytes), the worker's start-up steps, the
    page's requests to the engine and their answers, and the frames the benchmark watches."""
    mounts = [("/", build.DIST)]
    with build.served_chromium(mounts) as (browser, base, server):
        server.set_profile("none")
        visit_app(browser, server, base, game, repeat=False)  # the OS cache warmed up
        server.set_profile(profile)
        context = browser.new_context()
        try:
            page = context.new_page()
            page.add_init_script(PAINT_CLOCK)
            page.add_init_script(TRACE_CLOCK)
            server.traffic.reset()
            page.goto(base + "?speed=0")
            got = first_move(page, game, time.perf_counter())
            origin = page.evaluate("() => performance.timeOrigin") / 1000
            trace = page.evaluate("() => window.__trace")
            painted = page.evaluate("() => window.__painted")
            log = list(server.traffic.log)
        finally:
            context.close()
    events: list[tuple[float, str]] = []
    for path, size, asked, done in log:
        sent = f"GET {path} ({size / 1e3:.1f} kB) until {done - origin:.2f} s"
        events.append((asked - origin, sent))
    for name, at in trace["steps"]:
        events.append((at / 1000 - origin, f"worker: {name}"))
    for at, what, method in trace["calls"]:
        events.append((at / 1000, f"page: engine {what} {method}".rstrip()))
    for name, at in painted.items():
        shown = "Start clicked" if name == "start" else f"first frame with the {name}"
        events.append((at / 1000, f"page: {shown}"))
    print(f"first visit on {profile}, {game} (seconds from the start of the navigation):")
    for at, what in sorted(events):
        print(f"  {at:7.2f}  {what}")
    print(
        f"  menu {got['menu']:.2f} s, first decision {got['move']:.2f} s "
        f"({got['decision']:.2f} s after Start), engine's first move {got['engine']:.2f} s",
        flush=True,
    )


def print_startup(results: dict[str, dict], runs: int) -> None:
    """The start-up figures, one column per network profile: medians of the first visits,
    the single repeat visit, and the ratios to the bare loadPyodide()."""

    def med(got: dict, key: str) -> float:
        return statistics.median(got[key])

    names = list(results)
    floors = {n: bare_floor(n, med(results[n], "bare_bytes")) for n in names}
    rows = [
        (f"first visit (median of {runs})", None),
        ("  menu usable", lambda n, g: f"{med(g, 'menu'):.2f} s"),
        ("  menu usable (driver)", lambda n, g: f"{med(g, 'menu_driver'):.2f} s"),
        ("  first decision possible", lambda n, g: f"{med(g, 'move'):.2f} s"),
        ("    after Start", lambda n, g: f"{med(g, 'decision'):.2f} s"),
        ("    our own bytes asked by then", lambda n, g: kilobytes(med(g, "own_bytes_decision"))),
        ("    of them arrived whole", lambda n, g: kilobytes(med(g, "own_bytes_arrived"))),
        ("  engine's first move possible", lambda n, g: f"{med(g, 'engine'):.2f} s"),
        ("  bytes sent until then", lambda n, g: f"{med(g, 'bytes') / 1e6:.2f} MB"),
        ("    of them our own files", lambda n, g: f"{med(g, 'own_bytes') / 1e3:.0f} kB"),
        ("  bare loadPyodide() (stock)", lambda n, g: f"{med(g, 'bare'):.2f} s"),
        ("    its last byte arrived", lambda n, g: f"{med(g, 'bare_last_byte'):.2f} s"),
        ("    after its last byte", lambda n, g: f"{after_last_byte(g):.2f} s"),
        ("    bytes / line + 5 round trips", lambda n, g: f"{floors[n]:.2f} s"),
        ("    bytes of the bare page", lambda n, g: f"{med(g, 'bare_bytes') / 1e6:.2f} MB"),
        ("  bare / its floor", lambda n, g: ratio(med(g, "bare"), floors[n])),
        ("  engine's first move / bare", lambda n, g: ratio(med(g, "engine"), med(g, "bare"))),
        ("  the browser's processor: app", lambda n, g: cpu(med(g, "app_cpu"))),
        ("    bare", lambda n, g: cpu(med(g, "bare_cpu"))),
        ("  load average (1 min) at the visits", lambda n, g: load_range(g)),
        ("repeat visit", None),
        ("  menu usable", lambda n, g: f"{med(g, 'menu_repeat'):.2f} s"),
        ("  menu usable (driver)", lambda n, g: f"{med(g, 'menu_driver_repeat'):.2f} s"),
        ("  first move possible", lambda n, g: f"{med(g, 'engine_repeat'):.2f} s"),
        ("  bare loadPyodide() reload", lambda n, g: f"{med(g, 'bare_repeat'):.2f} s"),
        (
            "  first move / bare first visit",
            lambda n, g: ratio(med(g, "engine_repeat"), med(g, "bare")),
        ),
    ]
    print()
    print(f"  {'network':34}" + "".join(f"{name:>12}" for name in names))
    for label, cell in rows:
        cells = "" if cell is None else "".join(f"{cell(n, results[n]):>12}" for n in names)
        print(f"  {label:34}{cells}")
    print()
    for name in names:
        if floors[name] <= 0:
            continue
        got = results[name]
        over = med(got, "bare") / floors[name] - 1
        verdict = "within" if over <= BARE_MARGIN else "OUTSIDE"
        print(
            f"  bare / floor on {name}: {over + 1:.2f}, {verdict} {BARE_MARGIN:.0%}: "
            f"{after_last_byte(got):.2f} s after its last byte (at {over_line(got, floors[name])} "
            f"of the floor), the browser's processor {cpu(med(got, 'bare_cpu'))} in all, "
            f"load average {load_range(got)}"
        )
    print(flush=True)


def after_last_byte(got: dict) -> float:
    """The bare page's median time from its last byte to loadPyodide() resolved."""
    pairs = zip(got["bare"], got["bare_last_byte"], strict=True)
    return statistics.median(bare - last for bare, last in pairs)


def over_line(got: dict, floor: float) -> str:
    return ratio(statistics.median(got["bare_last_byte"]), floor)


def load_range(got: dict) -> str:
    loads = got["app_load"] + got["bare_load"]
    return f"{min(loads):.1f}-{max(loads):.1f}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 else "-"


def measure_engine_in_page(seconds: float, positions: int, warmup: float) -> dict:
    """engine_bench.run() inside headless Chromium, in Pyodide in module workers (one per
    game, then one for the bots: see benchmarks/web/engine.mjs)."""
    games = ",".join(engine_bench.engine.GAMES)
    query = f"seconds={seconds}&positions={positions}&warmup={warmup}&games={games}"
    return _bench_page(query, "engine")


def _bench_page(query: str, what: str) -> dict:
    """The figures benchmarks/web/engine.html prints for `query`, in headless Chromium; the
    page's error, if any, raised naming the `what` benchmark."""
    with build.served_chromium([("/", BENCH_WEB), ("/", build.DIST)]) as (browser, base, _):
        page = browser.new_page()
        page.goto(f"{base}engine.html?{query}")
        page.locator("#done").wait_for(state="attached", timeout=3_600_000)
        data = json.loads(page.locator("#out").text_content())
    if "error" in data:
        raise RuntimeError(f"the in-page {what} benchmark failed: {data['error']}")
    return data


OWN_KINDS = {
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
    ".nojekyll": "static host's marker",
    ".txt": "licence notices",
    ".ogg": "sounds",
}
"""Our own files in dist/ by kind, looked up by suffix, else by name (``.nojekyll``, the
empty file that tells GitHub Pages to serve the site as it is, has no suffix)."""


def kind_of(rel: str) -> tuple[bool, str]:
    """Whether a file of dist/ (its path there) is ours, and its kind in the byte count."""
    path = Path(rel)
    if rel == "pyodide/python_stdlib.zip":
        return False, "standard library, trimmed"
    if rel.startswith("pyodide/"):
        return False, "Pyodide runtime"
    if path.name.startswith("micropip-"):
        return False, "micropip"
    return True, OWN_KINDS.get(path.suffix) or OWN_KINDS.get(path.name, "other")


def payload_bytes() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """Bytes (raw, gzip -9) of our own files in dist/ by kind, and of what we ship from
    others (the Pyodide runtime, its trimmed standard library, micropip), next to the stock
    standard library."""
    own: dict[str, tuple[int, int]] = {}
    others: dict[str, tuple[int, int]] = {}

    def add(table: dict[str, tuple[int, int]], kind: str, data: bytes) -> None:
        raw, gz = table.get(kind, (0, 0))
        table[kind] = (raw + len(data), gz + len(gzip.compress(data, 9)))

    for rel in build.dist_files(build.DIST):
        ours, kind = kind_of(rel)
        add(own if ours else others, kind, (build.DIST / rel).read_bytes())
    add(others, "standard library, stock", (fetch_pyodide() / "python_stdlib.zip").read_bytes())
    return own, others


def print_bytes() -> None:
    own, others = payload_bytes()
    print("bytes in dist/ (raw / gzip -9):")
    for kind in sorted(own):
        raw, gz = own[kind]
        print(f"  {kind:26}{raw:>12,} B{gz:>12,} B")
    total = sum(r for r, _ in own.values())
    total_gz = sum(g for _, g in own.values())
    print(f"  {'our own files, total':26}{total:>12,} B{total_gz:>12,} B")
    for kind, (raw, gz) in others.items():
        print(f"  {kind:26}{raw:>12,} B{gz:>12,} B")


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def measure_bots_in_page(positions: int, review_moves: int, games: list[str] | None) -> dict:
    """engine_bench.bots_part() inside headless Chromium, in Pyodide in a module worker."""
    query = f"part=bots&positions={positions}&review={review_moves}&games={','.join(games or [])}"
    return _bench_page(query, "bots")["result"]


def bots_bench(
    positions: int,
    review_moves: int,
    seconds: float,
    in_page: bool,
    games: list[str] | None,
    wait_turns: int = 0,
) -> int:
    """The bots' part: decision times and iterations per table and level, the engine's steps
    per second, and the review of a recorded match, in CPython and (``in_page``) the page;
    then (``in_page``, ``wait_turns`` > 0) a person's waits between turns at each game's usual
    table with Hard at the other seats, in the built app (benchmarks/waits.py)."""
    print(f"load: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f}")
    count = max(1, positions)
    native = engine_bench.bots_part(count, games, review_moves)
    steps = engine_bench.steps(seconds, games) if seconds > 0 else {}
    page = measure_bots_in_page(count, review_moves, games) if in_page else None
    print(
        f"bots' decisions, default iterations, no clock, {count} mid-match positions per table; "
        "seconds (CPython: CPU time; page: wall clock in the worker):"
    )
    print(
        f"  {'table':16}{'level':8}{'median':>9}{'p95':>8}{'it/s':>8}"
        f"{'page med':>10}{'page p95':>10}{'page it/s':>11}"
    )
    for table, row in native["decisions"].items():
        for level, got in row.items():
            web = page["decisions"][table][level] if page else None
            cells = []
            for data in (got, web):
                if data is None:
                    cells.append(f"{'-':>9}{'-':>8}{'-':>8}")
                    continue
                spent = sum(data["seconds"]) or float("nan")
                cells.append(
                    f"{statistics.median(data['seconds']):>9.3f}"
                    f"{percentile(data['seconds'], 0.95):>8.3f}"
                    f"{sum(data['iterations']) / spent:>8.0f}"
                )
            print(f"  {table:16}{level:8}{cells[0]}  {cells[1]}")
    for name, got in (("CPython", native["review"]), ("page", page and page["review"])):
        if not got or not got["seconds"]:
            continue
        times = got["seconds"]
        print(
            f"review ({name}) of {got['game']} {got['players']}p seed {got['seed']}, "
            f"{len(times)} moves: first {times[0]:.2f} s, median {statistics.median(times):.2f} s,"
            f" p95 {percentile(times, 0.95):.2f} s, whole {sum(times):.1f} s"
        )
    if steps:
        print("engine steps per second in CPython (random matches, settled):")
        for game_id, row in steps.items():
            print(f"  {game_id:14}{row['settled']:>10,.0f}")
    if in_page and wait_turns > 0:
        import waits  # benchmarks/waits.py, beside this file

        tables = [g for g in (games or waits.TABLES) if g in waits.TABLES]
        waits.print_header(wait_turns)
        waits.measure(tables, list(waits.PACES), wait_turns)
    return 0


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
        help="positions per table and bot level for decision times (3; 0: skip)",
    )
    parser.add_argument(
        "--network",
        default="none",
        help=f"network profiles for start-up, comma-separated: {', '.join(PROFILES)} (none)",
    )
    parser.add_argument(
        "--game", default=next(iter(engine_bench.engine.GAMES)), help="the game of the first move"
    )
    parser.add_argument(
        "--bots",
        action="store_true",
        help="the bots' part only: Hard and Expert at every table, and the review of a match",
    )
    parser.add_argument(
        "--review-moves",
        type=int,
        default=engine_bench.REVIEW_MOVES,
        help=f"moves of the reviewed match in the bots' part ({engine_bench.REVIEW_MOVES})",
    )
    parser.add_argument(
        "--games", default="", help="the bots' part: these games only, comma-separated (all)"
    )
    parser.add_argument(
        "--wait-turns",
        type=int,
        default=8,
        help="the bots' part: a person's timed waits between turns per game and pace in the "
        "app, Hard at the other seats (8; 0: skip)",
    )
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--skip-startup", action="store_true")
    parser.add_argument("--startup-only", action="store_true")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="one first visit on each --network profile, printed as a waterfall, and nothing else",
    )
    args = parser.parse_args(argv)

    if args.trace:
        for name in args.network.split(","):
            trace_first_visit(name, args.game)
        return 0
    if args.bots:
        games = [g for g in args.games.split(",") if g] or None
        return bots_bench(
            args.positions,
            args.review_moves,
            args.seconds,
            not args.skip_browser,
            games,
            args.wait_turns,
        )

    if not args.skip_browser and not args.skip_startup:
        profiles = args.network.split(",")
        unknown = [name for name in profiles if name not in PROFILES]
        if unknown:
            parser.error(f"unknown network profile {unknown[0]!r} (known: {', '.join(PROFILES)})")
        print(
            f"start-up in headless Chromium, {args.runs} runs each, alternating, fresh "
            f"profile per run, networks {', '.join(profiles)}, game {args.game}:",
            flush=True,
        )
        print_startup(measure_startup(args.runs, profiles, args.game), args.runs)
    if args.startup_only:
        print_bytes()
        return 0

    print(
        f"engine in CPython {sys.version.split()[0]} (random legal actions, default player "
        f"count, ~{args.seconds:g} s per game; bots: {args.positions} positions per table)...",
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
            f"bot decision time, median of {args.positions} positions per table (each game "
            "at its default player count, and at each count whose bots have settings of "
            "their own), seconds (CPython / page):"
        )
        tables = list(engine_bench.tables())
        print(f"  {'level':9}" + "".join(f"{t:>17}" for t in tables))
        for level, per_table in native["bots"].items():
            cells = []
            for table in tables:
                cpy = statistics.median(per_table[table])
                web = (
                    statistics.median(page["result"]["bots"][level][table])
                    if page
                    else float("nan")
                )
                cells.append(f"{cpy:>7.3f} / {web:<7.3f}")
            print(f"  {level:9}" + "".join(f"{c:>17}" for c in cells))
    if args.positions > 0:
        print()
        print(
            f"Hard's search iterations in {engine_bench.SEARCH_MS / 1000:g} s, median of "
            f"{args.positions} positions per table (CPython / page):"
        )
        for table, reached in native["search"].items():
            web = statistics.median(page["result"]["search"][table]) if page else float("nan")
            print(f"  {table:14}{statistics.median(reached):>8.0f} / {web:<8.0f}")
    print()
    print_bytes()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
