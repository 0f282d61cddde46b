"""Browser-test fixtures: the built site served on 127.0.0.1, driven in Chromium.

- ``site``: builds dist/ once (``python build.py``) and serves it; the base URL ends in "/".
- ``site_subpath``: the same dist/ served only under /parlour/ on another port.
- ``page``: a fresh Chromium page per test, or in a module that sets ``SHARED_PAGE = True``
  one page for all its tests (``pagehelpers.own_page`` gives a test there a fresh one). A
  fresh page opens in the *warm context*, emptied of what earlier tests stored, whose only
  leftover is this build's start-up memory image: the engine (a Pyodide start, the slow part)
  then starts from it in a few seconds. A module that sets ``COLD_START = True``, or a test
  decorated with ``pagehelpers.cold_start``, gets a fresh context instead: a first visit,
  with no memory image, no service worker and no HTTP cache kept from elsewhere. The teardown fails
  the test on any Content-Security-Policy violation, any console error, any uncaught error
  (page or worker), any HTTP error response and any request to an origin other than
  127.0.0.1. A test that provokes one on purpose removes it from ``page.problems``.
- ``open_app(page, site, query="?speed=0", memory_image=False)``: opens the app and waits for
  the menu and the engine. In the warm context on ``site`` it starts from the memory image; other
  pages start with memory images off unless the test is about them (see ``app_url``).
- ``serve_with({path: content})``: dist/ with some files replaced, plus e2e/harness/ (and
  web/js/, whose engine-client.js it drives) under /__harness__/, on its own port.
- Searches at a test's budget: on a page of ``page`` (shared or not) a hint or an analysis
  (the review's too) searches ``pagehelpers.TEST_BUDGET`` iterations instead of the Hard
  level's default (web/js/app/test-budget.js), so that no test waits for a full search. A
  module about the default budget itself sets ``FULL_BUDGETS = True``.

Every test here is marked ``browser``. The run ends with the number of engine starts (worker.js
loads), with ``-v`` per test, and the processor time per module, browser included
(tests/cputime.py).

Chromium: $PARLOUR_CHROMIUM, else ``chromium`` on PATH (Debian's), else Playwright's own.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from pagehelpers import MEMORY_IMAGE_KEYS, MENU, TEST_BUDGET, app_url  # noqa: E402

import build  # noqa: E402  (the repository's build.py: its server is the one we test)
from tests import cputime  # noqa: E402
from tests.cputime import pytest_runtest_protocol  # noqa: E402, F401  (see tests/cputime.py)
from tests.watchdog import (  # noqa: E402, F401  (the watchdog's hooks, see tests/watchdog.py)
    pytest_runtest_call,
    pytest_runtest_setup,
    pytest_runtest_teardown,
)

# Loading Pyodide is the slow part: seconds warm, more on a busy 2-core machine.
APP_TIMEOUT_MS = 90_000
DEFAULT_VIEWPORT = {"width": 1280, "height": 720}
"""Playwright's own default; a shared page is set back to it before each test."""
LOCAL_HOSTS = {"127.0.0.1"}
HARMLESS_SCHEMES = {"data", "blob", "about", "chrome-extension", "devtools"}
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  const where = event.sourceFile ? ` at ${event.sourceFile}:${event.lineNumber}` : "";
  window.__parlourCspViolation(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"}${where}`);
});
"""


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dist/, built once per session (build.py test has built it already), then copied, so
    that a rebuild while the tests run cannot change the site under them."""
    if not os.environ.get("PARLOUR_DIST_READY"):
        subprocess.run(
            [sys.executable, str(ROOT / "build.py")], cwd=ROOT, check=True, stdin=subprocess.DEVNULL
        )
    assert (build.DIST / "index.html").is_file(), "dist/ has no index.html"
    copy = tmp_path_factory.mktemp("site") / "dist"
    shutil.copytree(build.DIST, copy)
    return copy


@pytest.fixture(scope="session")
def site(dist: Path) -> Iterator[str]:
    server, url = build.start_server([("/", dist)])
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def site_subpath(dist: Path) -> Iterator[str]:
    """The site as a static host would serve it under a sub-path: only /parlour/ exists."""
    server, url = build.start_server([("/parlour/", dist)])
    yield url + "parlour/"
    server.shutdown()
    server.server_close()


HARNESS = Path(__file__).resolve().parent / "harness"


@pytest.fixture
def serve_with(dist: Path, tmp_path: Path) -> Iterator[Callable[[dict[str, str | bytes]], str]]:
    """``serve_with({"worker.js": "throw ..."})``: dist/ with some files replaced, plus the
    test harness pages under /__harness__/ with web/js/ beside them (dist/ has the page's
    modules only in its bundle); returns the base URL. For failure tests."""
    servers = []

    def serve(replaced: dict[str, str | bytes]) -> str:
        overlay = tmp_path / f"overlay{len(servers)}"
        overlay.mkdir()
        for rel, text in replaced.items():
            (overlay / rel).parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                (overlay / rel).write_bytes(text)
            else:
                (overlay / rel).write_text(text)
        server, url = build.start_server(
            [
                ("/__harness__/", HARNESS),
                ("/__harness__/", build.WEB / "js"),
                ("/", overlay),
                ("/", dist),
            ]
        )
        servers.append(server)
        return url

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    executable = build.find_chromium()
    try:
        browser = playwright_instance.chromium.launch(
            executable_path=executable, args=build.TEST_CHROMIUM_ARGS
        )
    except Exception as exc:  # say what to do, not just what broke
        pytest.fail(
            f"could not start Chromium ({executable or 'Playwright bundled'}): {exc}\n"
            "Run 'python3 build.py test' (it installs Debian's chromium), or set "
            "PARLOUR_CHROMIUM=/path/to/chromium",
            pytrace=False,
        )
    yield browser
    browser.close()


class Problems:
    """What a page did wrong during a test; the page fixture fails the test on any."""

    def __init__(self) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.foreign_requests: list[str] = []
        self.failed_responses: list[str] = []
        self.csp_violations: list[str] = []

    def clear(self) -> None:
        for bucket in (
            self.console_errors,
            self.page_errors,
            self.foreign_requests,
            self.failed_responses,
            self.csp_violations,
        ):
            bucket.clear()

    def all(self) -> list[str]:
        return (
            [f"Content-Security-Policy violation: {m}" for m in self.csp_violations]
            + [f"console error: {m}" for m in self.console_errors]
            + [f"uncaught error: {m}" for m in self.page_errors]
            + [f"request to another origin: {u}" for u in self.foreign_requests]
            + [f"failed response: {r}" for r in self.failed_responses]
        )


def is_foreign(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme in HARMLESS_SCHEMES:
        return False
    return parts.hostname not in LOCAL_HOSTS


def new_context(browser: Browser, **options) -> BrowserContext:
    """A context whose pages report their problems to ``context.problems``."""
    context = browser.new_context(**options)
    context.set_default_timeout(APP_TIMEOUT_MS)
    context.problems = Problems()  # type: ignore[attr-defined]

    def on_request(request) -> None:
        if is_foreign(request.url):
            context.problems.foreign_requests.append(request.url)  # type: ignore[attr-defined]

    def on_response(response) -> None:
        if response.status >= 400:
            context.problems.failed_responses.append(  # type: ignore[attr-defined]
                f"HTTP {response.status} {response.url}"
            )

    context.on("request", on_request)
    context.on("response", on_response)
    # Any CSP violation in a page fails the test (Chromium also logs it as a console error;
    # this names the directive and what was blocked).
    context.expose_binding(
        "__parlourCspViolation", lambda _source, text: context.problems.csp_violations.append(text)
    )  # type: ignore
    context.add_init_script(CSP_LISTENER)
    return context


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = new_context(browser)
    yield context
    context.close()


E2E = Path(__file__).resolve().parent
BOOTS: dict[str, int] = {}
"""Engine workers (each one a Pyodide start) per test, for the summary at the end."""


# The modules whose shared page carries the longest work (whole matches, coached rounds), in
# that order. Under ``pytest -n`` each worker takes the next group as it frees up, so these
# start first, the other browser tests and the site-building tests next and the many short
# unit tests last: they fill the end, and the workers finish together instead of one
# waiting on the other's long match.
RUN_FIRST = (
    "test_progression",
    "test_roundup",
    "test_spite",
    "test_features_table",
    "test_coach",
    "test_mhing",
    "test_analysis",
    "test_screens",
    "test_features_play",
    "test_release",  # one long test: two builds, three engine starts
)


def run_order(item: pytest.Item) -> tuple[int, int]:
    if E2E not in item.path.parents:
        return (1, 0) if item.get_closest_marker("build") else (2, 0)
    stem = item.path.stem
    return (0, RUN_FIRST.index(stem)) if stem in RUN_FIRST else (1, 0)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's, which reads the group from the marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks every test here ``browser``; under ``pytest -n`` (``--dist loadgroup``) the tests of
    a module that shares one page run together in one worker, the others one at a time. The
    run starts with the longest groups (``RUN_FIRST``)."""
    for item in items:
        if E2E in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if getattr(item.module, "SHARED_PAGE", False):
                item.add_marker(pytest.mark.xdist_group(item.path.stem))
    items.sort(key=run_order)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker hands its engine starts to the controller."""
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["parlour_boots"] = dict(BOOTS)
    cputime.pytest_sessionfinish(session)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """The controller gathers each worker's engine starts (pytest-xdist's hook)."""
    BOOTS.update(getattr(node, "workeroutput", {}).get("parlour_boots", {}))
    cputime.pytest_testnodedown(node, error)


def pytest_terminal_summary(terminalreporter) -> None:
    if BOOTS:
        terminalreporter.write_line(
            f"engine starts (Pyodide boots): {sum(BOOTS.values())} in {len(BOOTS)} browser tests"
        )
        if terminalreporter.config.get_verbosity() > 0:
            for nodeid, boots in sorted(BOOTS.items(), key=lambda kv: -kv[1]):
                terminalreporter.write_line(f"  {boots:3d}  {nodeid}")
    cputime.pytest_terminal_summary(terminalreporter)


def new_page(context: BrowserContext) -> Page:
    """A page that reports console errors and uncaught errors (its workers' too) to
    ``page.problems`` and counts the engines it starts for the test in ``page.test_id``."""
    problems: Problems = context.problems  # type: ignore[attr-defined]
    page = context.new_page()
    page.on(
        "console",
        lambda msg: (
            problems.console_errors.append(
                f"{msg.text} ({msg.location.get('url', '')}:{msg.location.get('lineNumber', '')})"
            )
            if msg.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.page_errors.append(str(error)))

    def on_worker(worker) -> None:
        if worker.url.split("?")[0].endswith("/worker.js"):
            test_id = page.test_id  # type: ignore[attr-defined]
            BOOTS[test_id] = BOOTS.get(test_id, 0) + 1

    page.on("worker", on_worker)
    page.problems = problems  # type: ignore[attr-defined]
    return page


@pytest.fixture(scope="session")
def warm_context(browser: Browser, site: str, dist: Path) -> Iterator[BrowserContext]:
    """The context of the fresh pages (see ``page``): it has made and kept this build's start-up
    memory image, so that the engine of each later page starts from it. Service workers are
    blocked here, so that no earlier page's worker answers a later page's requests (the tests
    of the service worker start cold)."""
    context = new_context(browser, service_workers="block")
    context.warm_site = site  # type: ignore[attr-defined]
    page = new_page(context)
    page.test_id = "warm context"  # type: ignore[attr-defined]
    page.goto(app_url(site, "?speed=0", memory_image=True))
    page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=APP_TIMEOUT_MS)
    build_id = json.loads((dist / "build-info.json").read_text())["build_id"]
    # Polled from here: wait_for_function does not wait for a promise, so an async predicate
    # would pass at once and the page would close before the memory image was kept.
    deadline = time.monotonic() + APP_TIMEOUT_MS * 2 / 1000
    while not any(key == build_id and size > 0 for key, size in page.evaluate(MEMORY_IMAGE_KEYS)):
        assert time.monotonic() < deadline, "the warm context's first visit kept no memory image"
        page.wait_for_timeout(250)
    found = context.problems.all()  # type: ignore[attr-defined]
    assert not found, "the warm context's first visit misbehaved:\n  " + "\n  ".join(found)
    page.close()
    yield context
    context.close()


KEEP_STORAGE = "() => JSON.stringify(Object.entries(localStorage))"
PUT_BACK_STORAGE = """(kept) => {
  localStorage.clear();
  for (const [key, value] of JSON.parse(kept)) localStorage.setItem(key, value);
}"""


def warm_page(context: BrowserContext, site: str) -> Page:
    """A page of the warm context with nothing stored from earlier tests but the memory image.

    What the context's origin had stored is kept aside (``page.kept_storage``) and put back by
    ``close_warm_page``: a module's shared page lives in the same context, so a test on a page
    of its own must neither see what the shared page saved nor leave its own saves (a seat's
    name, a match) behind for the shared page's next test."""
    page = new_page(context)
    page.goto(site + "build-info.json")
    page.kept_storage = page.evaluate(KEEP_STORAGE)  # type: ignore[attr-defined]
    page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    context.clear_cookies()
    context.problems.clear()  # type: ignore[attr-defined]
    return page


def close_warm_page(page: Page, site: str) -> None:
    """Close a page of ``warm_page``, then put the origin's storage back as it was before it."""
    kept, context = page.kept_storage, page.context  # type: ignore[attr-defined]
    page.close()
    keeper = context.new_page()
    keeper.goto(site + "build-info.json")
    keeper.evaluate(PUT_BACK_STORAGE, kept)
    keeper.close()


def at_test_budget(page: Page, request: pytest.FixtureRequest) -> Page:
    """Have ``page``'s hints and analyses search at ``TEST_BUDGET`` from its next load on,
    unless the test's module sets ``FULL_BUDGETS`` (see the module text)."""
    if not getattr(request.module, "FULL_BUDGETS", False):
        page.add_init_script(f"window.__parlourTestBudget = {int(TEST_BUDGET)};")
    return page


def is_cold(request: pytest.FixtureRequest) -> bool:
    """Does the test ask for a first visit (``COLD_START`` or ``pagehelpers.cold_start``)?"""
    return getattr(request.module, "COLD_START", False) or getattr(
        request.function, "cold_start", False
    )


@pytest.fixture(scope="module")
def module_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """One page for a whole module whose tests share it (``SHARED_PAGE = True``)."""
    if getattr(request.module, "COLD_START", False):
        context = new_context(browser)
        page = new_page(context)
    else:
        context = request.getfixturevalue("warm_context")
        page = warm_page(context, request.getfixturevalue("site"))
    at_test_budget(page, request)
    page.shared = True  # type: ignore[attr-defined]
    yield page
    if getattr(context, "warm_site", None):
        page.close()
    else:
        context.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page in a fresh context; the test fails on console errors, uncaught errors,
    foreign requests.

    In a module that sets ``SHARED_PAGE = True`` its tests share one page instead, so that
    the engine starts once per module, not once per test: the first ``open_app`` of each
    test then takes the app back to its menu without a reload (see ``open_app``), and
    ``open_record`` opens a record from the menu as a file. A test there that needs isolation (a
    first visit, an empty store) is decorated with ``pagehelpers.own_page``."""
    shared = getattr(request.module, "SHARED_PAGE", False) and not getattr(
        request.function, "own_page", False
    )
    warm = False
    if shared:
        page = request.getfixturevalue("module_page")
        page.set_viewport_size(DEFAULT_VIEWPORT)
        page.warm = True  # type: ignore[attr-defined]
    elif is_cold(request):
        context = new_context(browser, **getattr(request.function, "context_options", {}))
        page = new_page(context)
    else:
        warm = True
        context = request.getfixturevalue("warm_context")
        page = warm_page(context, request.getfixturevalue("site"))
    if not shared:
        at_test_budget(page, request)
    page.test_id = request.node.nodeid  # type: ignore[attr-defined]
    BOOTS.setdefault(request.node.nodeid, 0)
    yield page
    problems: Problems = page.problems  # type: ignore[attr-defined]
    found = problems.all()
    if shared:
        problems.clear()  # the next test starts with none
    elif warm:
        close_warm_page(page, request.getfixturevalue("site"))
        problems.clear()
    else:
        context.close()
    if found:
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(found), pytrace=False)


def back_to_menu(page: Page) -> bool:
    """Take the app to its menu from wherever a previous test left it, without a reload:
    a dialog's way out (or on), the table's menu button, a screen's back or close button.
    False if that did not get there."""
    ways = (
        "[data-testid=match-over] button:not([data-testid])",
        "[data-testid=handoff] button:not([data-testid])",
        "[data-testid=round-over] [data-testid=continue]",
        "[data-testid=menu-button]",
        "[data-testid=back]",
        "[data-testid=replay-close]",
    )
    for _ in range(6):
        if page.locator(MENU).first.is_visible():
            return True
        way = next((w for w in ways if page.locator(w).first.is_visible()), None)
        if way is None:
            return False
        try:
            page.locator(way).first.click(timeout=5_000)
        except PlaywrightError:
            return False
    return page.locator(MENU).first.is_visible()


@pytest.fixture
def open_app() -> Callable[..., Page]:
    """``open_app(page, site, query="?speed=0", memory_image=False)``: open the app, wait for
    the menu and the engine it loads in the background (e2e/test_first_paint.py tests the
    page before the engine is ready). On a shared page (see ``page``) the test's first call
    goes back to the menu of the app already open at that address instead of loading it
    again; later calls load it."""

    def open_app(
        page: Page, site: str, query: str = "?speed=0", memory_image: bool = False
    ) -> Page:
        memory_image = memory_image or getattr(page.context, "warm_site", None) == site
        url = app_url(site, query, memory_image)
        warm, page.warm = getattr(page, "warm", False), False  # type: ignore[attr-defined]
        if warm and page.url == url and back_to_menu(page):
            return page
        page.goto(url)
        page.locator(MENU).first.wait_for(state="visible", timeout=APP_TIMEOUT_MS)
        page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=APP_TIMEOUT_MS)
        return page

    return open_app
