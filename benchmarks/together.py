"""Playing together, measured: a friend's first visit from an invitation, and how long a move
takes to reach the other device. Prints figures only; the one check is that a friend's page
downloads no Python runtime and no engine (the script fails if it did), never a time.

    python3 build.py build
    flock /tmp/parlour-browser.lock .venv/bin/python benchmarks/together.py [--runs N] [--moves N]

Everything runs inside a private network namespace the script makes for itself
(tools/netns.py: a loopback and a veth pair, nothing can leave; it then runs again inside it),
with two site servers there: the host's (no emulation) and the friend's, which emulates the
9 Mbit/s profile of ``build.py bench`` (tools/build/server.py). No STUN or TURN server is
configured: the two pages connect through a host candidate.

- A friend's first visit (``--runs``, each a fresh host and a fresh friend's browser profile,
  the friend's a 390x844 phone): a host deals Crisps with a friend's seat; the friend opens the
  invitation, names themselves and takes their seat, the host pastes the reply and starts, and
  the friend's table offers a move (after the host's first move when the host leads). Seconds
  from opening the invitation, as the driver sees each step, every step taken as soon as it
  can be; the bytes the friend's server sent until then (gzipped as sent), and its responses.
- The link lengths: the invitation and the reply, whole and their codes alone.
- Move latency (``--moves`` each way, on the last run's table): from the click on one device
  to the first frame the other device paints with that move (its game log one longer), by the
  two pages' clocks (``performance.timeOrigin + now()``, one machine), host to friend and
  friend to host; the host's engine answers in between, as in play.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402
from tools.netns import Unavailable, inside, private_namespace  # noqa: E402

GAME = "crisps"
TIMEOUT_MS = 120_000
MENU = "[data-testid=menu] [data-game]"
# The table accepts a move: one of its legal-action controls is enabled.
MOVE = "[data-testid=table][data-busy=false] [data-action]:not([disabled])"
RUNTIME = ("pyodide", "worker.js", ".whl", "python_stdlib")
"""What a page that loads the game engine downloads; a friend's page downloads none of it."""
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
LOOK = """() => ({
  matchOver: Boolean(document.querySelector('[data-testid=match-over]')),
  roundOver: Boolean(document.querySelector('[data-testid=round-over]')),
  ids: [...document.querySelectorAll(
    '[data-testid=table][data-busy=false] [data-testid=actions] [data-action]:not([disabled])'
  )].map((n) => n.dataset.action),
  folded: [...document.querySelectorAll('[data-testid=table] details:not([open]) [data-action]')]
    .map((n) => n.dataset.action),
})"""
# On the acting page: when its latest click came (window.__clicked).
CLICK_CLOCK = """() => {
  if (window.__clickClock) return;
  window.__clickClock = true;
  document.addEventListener("click", () => {
    window.__clicked = performance.timeOrigin + performance.now();
  }, true);
}"""
# On the other page: the first frame painted once its game log has another entry
# (window.__drawn; the game log's summary reads "Game log (N)").
DRAW_WATCH = """() => {
  const count = () => {
    const found = [...document.querySelectorAll("summary")]
      .find((n) => n.textContent.startsWith("Game log ("));
    return found ? found.textContent : "";
  };
  const before = count();
  window.__drawn = 0;
  const observer = new MutationObserver(() => {
    if (count() === before) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => {
      window.__drawn = performance.timeOrigin + performance.now();
    }, 0));
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
}"""


def host_deals(browser, host_base: str):
    """A host's page (its own browser profile) that has dealt Crisps with a friend's seat and
    waits in the lobby; the page and the invitation link."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto(host_base + "?snapshot=0")
    page.locator(MENU).first.wait_for()
    page.locator("html[data-engine=ready]").wait_for(state="attached")
    page.click(f"[data-game={GAME}]")
    page.select_option("[data-testid=seat-1]", "friend")
    page.click("[data-testid=start]")
    field = page.locator("[data-testid=friend-1] [data-testid=invite-link]")
    field.wait_for()
    return page, field.input_value()


def first_visit(browser, host_base: str, friend_base: str, friend_server) -> dict:
    """One friend's first visit, timed from opening the invitation (see the module's text)."""
    host, invitation = host_deals(browser, host_base)
    context = browser.new_context(**PHONE)
    context.set_default_timeout(TIMEOUT_MS)
    friend = context.new_page()
    link = invitation.replace(host_base, friend_base, 1)
    friend_server.traffic.reset()
    times = {}
    start = time.perf_counter()

    def note(what: str) -> None:
        times[what] = time.perf_counter() - start

    friend.goto(link, wait_until="commit")
    friend.locator("[data-testid=join-name]").wait_for()
    note("the join form shown")
    friend.fill("[data-testid=join-name]", "Ada")
    friend.click("[data-testid=join]")
    reply_field = friend.locator("[data-testid=reply-link]")
    reply_field.wait_for()
    reply = reply_field.input_value()
    note("their reply link made")
    host.fill("[data-testid=paste-1]", reply)
    host.click("[data-testid=connect-1]")
    host.wait_for_selector("[data-testid=friend-1][data-status=connected]")
    note("connected (the host pasted the reply)")
    host.click("[data-testid=start-shared]")
    friend.wait_for_selector("[data-testid=table]")
    note("their table drawn (the host pressed Start)")
    host_led = False
    while not friend.locator(MOVE).count():
        if host.locator(MOVE).count():
            host_led = True
            host.click(MOVE)
            friend.wait_for_selector(MOVE)
            break
        friend.wait_for_timeout(10)
    note("their first possible move")
    traffic = friend_server.traffic
    return {
        "times": times,
        "bytes": traffic.bytes,
        "requests": traffic.requests,
        "runtime": sorted(p for p in traffic.by_path if any(part in p for part in RUNTIME)),
        "host_led": host_led,
        "links": {
            "invitation": (len(invitation), len(invitation.split("#join=", 1)[1])),
            "reply": (len(reply), len(reply.split("#reply=", 1)[1])),
        },
        "pages": (host, friend),
    }


def latencies(host, friend, per_direction: int) -> dict[str, list[float]]:
    """Move latency in ms by direction, over ``per_direction`` moves each way (or as many as
    the turns give within a bounded number of moves)."""
    for page in (host, friend):
        page.evaluate(CLICK_CLOCK)
    pages = {"host": host, "friend": friend}
    samples: dict[str, list[float]] = {"host -> friend": [], "friend -> host": []}
    rng = random.Random(1)
    for _ in range(per_direction * 8):
        if min(len(s) for s in samples.values()) >= per_direction:
            break
        looks = {name: page.evaluate(LOOK) for name, page in pages.items()}
        if all(look["matchOver"] for look in looks.values()):
            host.click("[data-testid=match-over] [data-testid=play-again]")
            host.click("[data-testid=lobby] [data-testid=start-shared]:not([disabled])")
            friend.wait_for_selector("[data-testid=table]:not(:has([data-testid=match-over]))")
            continue
        rounds = [n for n, look in looks.items() if look["roundOver"] and not look["matchOver"]]
        for name in rounds:
            pages[name].click("[data-testid=round-over] [data-testid=continue]")
        movers = [n for n, look in looks.items() if look["ids"] and not look["roundOver"]]
        if rounds or not movers:
            host.wait_for_timeout(20)
            continue
        name = movers[0]
        other = "friend" if name == "host" else "host"
        look = looks[name]
        plays = [i for i in look["ids"] if i != "pass"]
        action = rng.choice(plays or look["ids"])
        pages[other].evaluate(DRAW_WATCH)
        page = pages[name]
        if action in look["folded"]:
            # A phone's long list of moves is in a drawer; a move to confirm, in a fold.
            for fold in (
                "[data-testid=moves-drawer]:not([open]) > summary",
                f"[data-testid=actions] [data-testid='confirm-{action}'] summary",
            ):
                if page.locator(fold).count():
                    page.click(fold)
        page.click(f"[data-testid=actions] [data-action='{action}']")
        pages[other].wait_for_function("() => window.__drawn > 0")
        drawn = pages[other].evaluate("() => window.__drawn")
        samples[f"{name} -> {other}"].append(drawn - page.evaluate("() => window.__clicked"))
    return samples


def spread(values: list[float], digits: int = 2) -> str:
    """The median, and the range when there are several."""
    median = statistics.median(values)
    if len(values) == 1:
        return f"{median:.{digits}f}"
    return f"{median:.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def report_visits(visits: list[dict]) -> list[str]:
    """Print the first visits' figures; the runtime files a friend's page fetched (none)."""
    runs = len(visits)
    led = sum(v["host_led"] for v in visits)
    print(
        f"a friend's first visit, {GAME}, on the 9mbit profile (a 390x844 phone, a fresh "
        f"browser profile), {runs} run(s): seconds from opening the invitation, median (range)"
    )
    for step in visits[0]["times"]:
        last = step == "their first possible move"
        suffix = f" (the host led in {led} of {runs})" if last else ""
        print(f"  {spread([v['times'][step] for v in visits]):>22}  {step}{suffix}")
    kilobytes = [v["bytes"] / 1000 for v in visits]
    print(f"  {spread(kilobytes, 1):>22}  kB sent to the friend until then")
    print(f"  {spread([v['requests'] for v in visits], 0):>22}  responses")
    runtime = sorted({path for v in visits for path in v["runtime"]})
    print(
        "  check: a friend's page downloads no Python runtime and no engine: "
        + ("passed" if not runtime else f"FAILED ({', '.join(runtime)})")
    )
    print("link lengths (characters; the page's address here is http://127.0.0.1:<port>/):")
    for kind in ("invitation", "reply"):
        whole = [v["links"][kind][0] for v in visits]
        code = [v["links"][kind][1] for v in visits]
        print(f"  {kind:11} {min(whole)}-{max(whole)}, its code {min(code)}-{max(code)}")
    sys.stdout.flush()
    return runtime


def report_latencies(samples: dict[str, list[float]]) -> None:
    print(
        "a move's way to the other device (the click to the other page's first frame with it), "
        "ms, loopback in the namespace:"
    )
    for direction, values in samples.items():
        if len(values) < 2:
            print(f"  {direction:15} too few moves ({len(values)})")
            continue
        p90 = statistics.quantiles(values, n=10)[8]
        print(
            f"  {direction:15} median {statistics.median(values):6.1f}   p90 {p90:6.1f}   "
            f"max {max(values):6.1f}   over {len(values)} moves"
        )


def measure(runs: int, moves: int) -> int:
    from playwright.sync_api import sync_playwright

    host_server, host_base = build.start_server([("/", build.DIST)])
    friend_server, friend_base = build.start_server([("/", build.DIST)], profile="9mbit")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=build.find_chromium(), args=build.CHROMIUM_ARGS
            )
            visits = []
            for run in range(runs):
                visits.append(first_visit(browser, host_base, friend_base, friend_server))
                if run < runs - 1:
                    for page in visits[-1]["pages"]:
                        page.context.close()
            runtime = report_visits(visits)
            friend_server.set_profile("none")
            report_latencies(latencies(*visits[-1]["pages"], moves))
            browser.close()
    finally:
        for server in (host_server, friend_server):
            server.shutdown()
            server.server_close()
    return 1 if runtime else 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="together.py", description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="friends' first visits (3)")
    parser.add_argument("--moves", type=int, default=20, help="moves timed each way (20)")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.moves < 2:
        parser.error("give at least one run and two moves")
    if not (build.DIST / "index.html").is_file():
        parser.error("dist/ is not built: run `python3 build.py` first")
    if args.inside:
        return measure(args.runs, args.moves)
    if not build.find_chromium():
        parser.error("no Chromium: run `python3 build.py test` once, or set PARLOUR_CHROMIUM")
    try:
        with private_namespace(f"parlour-bench-{os.getpid()}") as name:
            command = [sys.executable, str(Path(__file__).resolve()), "--inside", *argv]
            return subprocess.run(inside(name, command), stdin=subprocess.DEVNULL).returncode
    except Unavailable as reason:
        print(f"together.py: cannot measure here: {reason}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
